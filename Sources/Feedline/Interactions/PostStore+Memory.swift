/// The store's memory: the cache of posts nothing shows, the accounts' post index, and what
/// forgotten posts leave behind for the fetches running when they were forgotten.
extension PostStore {
    // MARK: - Memory

    /// Takes the entry `id` out without remembering it (a local copy nothing needs any more).
    func discardEntry(_ id: PostID) {
        guard let entry = entries[id] else { return }
        unindex(id, entry)
        used(entry)
        entries[id] = nil
        engine.forget(id)
    }

    func forget(_ id: PostID, _ entry: Entry) {
        entries[id] = nil
        engine.forget(id)
        unindex(id, entry)
        if let post = entry.post { remember(id, post: post, entry: entry) }
        for wrapper in entry.wrappers.keys where originalOfEntry[wrapper] == id { originalOfEntry[wrapper] = nil }
        outboxPosts.remove(id)
    }

    /// Takes the entry and its boosts out of the accounts' post index.
    func unindex(_ id: PostID, _ entry: Entry) {
        if let author = entry.post?.author.id { unindex(id, of: AccountID(author)) }
        for (wrapper, booster) in entry.wrappers { unindex(wrapper, of: booster) }
    }

    /// Counts an original among its author's posts.
    func index(_ original: Post) {
        index(original.id, of: AccountID(original.author.id), handle: original.author.handle)
    }

    func index(_ id: PostID, of account: AccountID, handle: String) {
        postsOfAccount.insert(id, of: account, handle: handle)
    }

    /// Takes `id` out of the account's posts.
    func unindex(_ id: PostID, of account: AccountID) {
        postsOfAccount.remove(id, of: account)
    }

    /// Keeps the last state of a forgotten post for ``forgottenCapacity`` forgettings.
    ///
    /// - Complexity: amortised O(1).
    func remember(_ id: PostID, post: Post, entry: Entry) {
        let learnt = InteractionKind.allCases.map { entry.state[$0].knownSince }.max() ?? 0
        recentlyForgotten.write((max(learnt, entry.contentEpoch), post, entry.contentEpoch, entry.state), for: id)
    }

    /// No row or detail shows the entry any more: it joins the back of the cache's queue.
    func becameUnused(_ id: PostID, _ entry: Entry) {
        guard entry.unusedStamp == nil else { return }
        entry.unusedStamp = unused.append(id) { entries[$0]?.unusedStamp == $1 }
    }

    /// A row or detail shows the entry (or it goes): it leaves the cache's queue.
    func used(_ entry: Entry) {
        guard entry.unusedStamp != nil else { return }
        entry.unusedStamp = nil
        unused.left()
    }

    /// Forgets the posts unused longest while more than ``cacheCapacity`` are unused; a post with
    /// something pending (a request in flight, an outbox entry) is kept: it rejoins the queue
    /// when that settles.
    func evictIfNeeded() {
        while unused.count > cacheCapacity, let (id, stamp) = unused.popFront() {
            guard let entry = entries[id], entry.unusedStamp == stamp else { continue }
            used(entry)
            guard !entry.state.isPending, entry.isUnshown else { continue }
            forget(id, entry)
        }
    }
}
