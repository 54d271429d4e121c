import Foundation

/// One's own edits, shown at once on every row and detail of the post and rolled back when the
/// server refuses (one's own new posts: `PostStore+Arrivals.swift`).
extension PostStore {
    // MARK: - Edits

    /// Shows the edit of the post `id` names (its original) on every row and detail of it at
    /// once — boost rows included — with `editedAt` set to `date`, until ``endEdit(_:confirmed:)``:
    /// a ``PendingChange`` of the post's text whose request is the edit's draft, sent by the
    /// drafts (one edit of a post on its way at a time). The text before is kept to roll back to;
    /// a copy fetched before now does not undo it. Returns `false` for a post the store does not know.
    @discardableResult
    package func showEdit(_ id: PostID, text: String, contentWarning: String?, at date: Date) -> Bool {
        guard let originalID = originalID(of: id), let entry = entries[originalID], let post = entry.post else { return false }
        let epoch = beginFetch()
        var edit = edits[originalID] ?? PendingChange(confirmed: PostText(post), knownSince: entry.contentEpoch)
        edit.want(PostText(text: text, contentWarning: contentWarning?.isEmpty == true ? nil : contentWarning, editedAt: date), at: epoch)
        edits[originalID] = edit
        let before = (entry.post, entry.display)
        entry.post = edit.wanted.applied(to: post)
        entry.contentEpoch = epoch
        changed(originalID, entry, before: before)
        return true
    }

    /// Ends the edit of the post `id` names: the server's copy (`confirmed`) replaces the one
    /// shown, or — refused with `refusal`, the server's sentence — the post shows its text as it
    /// was before the edit again, everywhere. The person hears it as an ``Outcome``
    /// (``Outcome/Subject/edit(post:)``), before the screens change, as the engine tells it.
    package func endEdit(_ id: PostID, confirmed: Post?, refusal: String = "The edit was refused.") {
        let originalID = originalID(of: id) ?? id
        outcomes?.emit(confirmed == nil ? .refused(.edit(post: originalID), sentence: refusal) : .done(.edit(post: originalID)))
        guard var edit = edits.removeValue(forKey: originalID), let sent = edit.inFlight else {
            if let confirmed { ingest([confirmed], fetchedAt: beginFetch()) }
            return
        }
        let epoch = beginFetch()
        if let confirmed {
            _ = edit.succeeded(token: sent.token, value: PostText(confirmed.content), at: epoch)
            ingest([confirmed], fetchedAt: epoch)
            return
        }
        // The drafts keep the server's sentence with the draft too; the post rolls back.
        _ = edit.failed(token: sent.token, failure: FeedFailure(message: refusal, isTransient: false), at: epoch)
        guard let entry = entries[originalID], let post = entry.post else { return }
        let before = (entry.post, entry.display)
        entry.post = edit.wanted.applied(to: post)
        entry.contentEpoch = epoch
        changed(originalID, entry, before: before)
    }

    /// Whether an edit of the post `id` names is shown and not confirmed yet.
    package func isEditing(_ id: PostID) -> Bool {
        edits[originalID(of: id) ?? id] != nil
    }

    /// `copy`, but with the text, warning and edit date of one's own edit on its way: a copy
    /// fetched meanwhile (a page, a stream's notification) was made before the server had the
    /// edit, and must not undo it on screen until the edit is answered.
    /// Your name, as your profile shows it now, is on the copy too (a page fetched before the
    /// server had your change still names you so).
    func keepingEdit(_ copy: Post, over shown: Post?) -> Post {
        var copy = copy
        if let own = ownAuthor, copy.author.id == own.id, copy.author.displayName != own.displayName { copy.author.displayName = own.displayName }
        guard shown != nil, let edit = edits[copy.id] else { return copy }
        return edit.wanted.applied(to: copy)
    }

    // MARK: - Your name

    /// Shows `author`'s display name on every post of that account the store keeps — every row
    /// and detail of them at once — and on every copy that comes later; the rows of the account's
    /// boosts name it so as their booster.
    ///
    /// - Complexity: O(p log p + the rows that show them), p the posts of the account.
    package func showOwnAuthor(_ author: Author) {
        ownAuthor = author
        // In one order every run (the index is a set): Mastodon's ids are numbers, so this is
        // newest first there, and each screen hears of its rows in that order.
        let ids = postsOfAccount[AccountID(author.id)].sorted { ($0.rawValue.count, $0.rawValue) > ($1.rawValue.count, $1.rawValue) }
        var boosted: [PostID] = []
        var seen: Set<PostID> = []
        for id in ids {
            guard let entry = entries[id] else {
                // One of your boosts: its rows name you as the booster.
                if let original = originalOfEntry[id], seen.insert(original).inserted { boosted.append(original) }
                continue
            }
            guard let post = entry.post, post.author.id == author.id, post.author.displayName != author.displayName else { continue }
            let before = (entry.post, entry.display)
            entry.post?.author.displayName = author.displayName
            changed(id, entry, before: before)
        }
        for original in boosted {
            guard let entry = entries[original], let post = entry.post else { continue }
            let change = PostChange(originalID: original, post: post, interaction: entry.display, ownAuthor: author)
            for holder in entry.holders {
                holders[holder.id]?(.changed(change, rows: holder.rows))
            }
        }
    }
}

/// What one's own edit changes of a post: its text, content warning and edit date.
package struct PostText: Hashable, Sendable {
    package var text: String
    package var contentWarning: String?
    package var editedAt: Date?

    package init(text: String, contentWarning: String?, editedAt: Date?) {
        self.text = text
        self.contentWarning = contentWarning
        self.editedAt = editedAt
    }

    /// The text of `post` as it is.
    package init(_ post: Post) {
        self.init(text: post.text, contentWarning: post.contentWarning, editedAt: post.editedAt)
    }

    /// `post` with this text.
    package func applied(to post: Post) -> Post {
        var post = post
        post.text = text
        post.contentWarning = contentWarning
        post.editedAt = editedAt
        return post
    }
}
