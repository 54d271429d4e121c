/// Posts new to the session reach the lists and details that should show them through the
/// store, as changes and deletes do: the store takes the post in, then tells every holder
/// (`HolderEvent/arrived(_:)`, `ownConfirmed`, `ownWithdrawn`), in the order the holders were
/// made (the order of the navigator's stack); each list decides by one rule
/// (``ListSource/shows(_:showsParent:)``) whether it shows it. Nobody walks the screens.
extension PostStore {
    // MARK: - Posts a stream brought

    /// A post a stream brought for `feed`: taken in as the freshest copy, and waiting above the
    /// rows of every list of that feed (``ListSource/shows(_:showsParent:)``).
    ///
    /// - Complexity: O(holders).
    package func streamed(_ post: Post, for feed: Feed) {
        ingest([post], fetchedAt: beginFetch())
        tellHolders(.arrived(.streamed(post, feed)))
    }

    /// The stream dropped: every list that hears what it brings (``streamed(_:for:)``) learns
    /// that posts may go missing until the catch-up.
    ///
    /// - Complexity: O(holders).
    package func streamInterrupted() {
        tellHolders(.streamInterrupted)
    }

    // MARK: - One's own posts

    /// One of your posts is on its way: `post` is its local copy (``PostID/sending(_:)``, made
    /// by the drafts), replying to `parent`. It shows at once, marked as sending, where the post
    /// will be once posted: on top of home and your profile, under its parent in every thread
    /// and every open post that shows the parent.
    package func ownSending(_ post: Post, parent: PostID?) {
        ingest([post], fetchedAt: beginFetch())
        tellHolders(.arrived(.own(post, parent: parent)))
    }

    /// The server confirmed your post shown as `local` while it was sent: `post` replaces the
    /// local copy in the rows that showed it (the same rows, their identity kept), and shows
    /// where a post of yours shows on every list that did not show it; from now on `local`
    /// names `post`. Then the direct conversations hear of it (``observeOwnPosted(_:)``).
    /// A post deleted meanwhile (its answer was lost, a page brought it, you deleted it, then
    /// the answer to a retry came) is not shown again: it is withdrawn.
    package func ownConfirmed(_ post: Post, local: PostID, parent: PostID?) {
        guard !isDeleted(post.id) else {
            ownWithdrawn(local)
            return
        }
        // The answer is the post as the server had it when it answered the request: a post the
        // store knows already (a lost answer whose post came on a page, and was edited since) is
        // as fresh there as this copy or fresher, so this copy only fills what the store lacks.
        ingest([post], fetchedAt: self.post(post.id) == nil ? beginFetch() : 0)
        tellHolders(.ownConfirmed(post, local: local, parent: parent))
        dropLocal(local, confirmedAs: post.id)
        ownPostedObservers.notify(post)
    }

    /// Your post shown as `local` will not be posted (the server refused it): it leaves every
    /// list and detail that showed it, and the store forgets its local copy.
    package func ownWithdrawn(_ local: PostID) {
        tellHolders(.ownWithdrawn(local))
        dropLocal(local, confirmedAs: nil)
    }

    /// Calls `handler` with each of your posts the server confirmed, after the lists and
    /// details showed it. Lasts as long as the token.
    package func observeOwnPosted(_ handler: @escaping @MainActor @Sendable (Post) -> Void) -> Subscription {
        ownPostedObservers.add(handler)
    }

    /// Tells every holder `event`, in the order they were made.
    private func tellHolders(_ event: HolderEvent) {
        for holder in holders.keys.sorted() { holders[holder]?(event) }
    }

    /// Forgets the local copy of one's own post shown while it was sent (``PostID/sending(_:)``);
    /// with `server`, the local id names that post from now on (a front holding the row's id
    /// reaches the server's post through it).
    private func dropLocal(_ local: PostID, confirmedAs server: PostID?) {
        guard local.isSending else { return }
        if let entry = entries[local], entry.holders.isEmpty, !entry.state.isPending { discardEntry(local) }
        if let server, let entry = entries[server] {
            originalOfEntry[local] = server
            // An alias, not a boost: kept out of the accounts' post index.
            entry.wrappers[local] = AccountID(entry.post?.author.id ?? "")
        }
    }
}
