/// What the session's post store tells a list about rows that leave or come back: posts
/// deleted, accounts hidden (mutes, blocks, unfollows) and domains blocked — their rows go at
/// once, kept with their places while the server has not answered (`ListState/taken`), back
/// on a refusal unless another cause still hides them —, and the accounts some of whose posts
/// the list kept away, so that an unmute or unblock of one of them loads it again. Every list
/// that shows posts has one; the list's loop applies what it sends.
@MainActor
final class PostRemovals {
    /// Accounts some of whose posts the list kept away — rows a mute or block took off, posts
    /// a page or the stream brought that it left out —: an unmute or unblock of one of them
    /// makes it load again (``FeedListViewModel/reload()``).
    private var keptAway: Set<AccountID> = []
    /// Your hide filters (by id) that kept posts of a page or the stream off this list: when one
    /// no longer hides them, the list loads again.
    private var filtersKeptAway: Set<String> = []
    /// The session's direct conversations, for a list of them (`nil` for every other list).
    private let conversations: ConversationStore?
    /// Conversations whose last post is being deleted (by the post's id), until the server answers.
    private var lastPostsBeingDeleted: [PostID: [(conversation: String, post: PostID)]] = [:]

    init(conversations: ConversationStore?) {
        self.conversations = conversations
    }

    /// A change the post store reported for rows of `list`.
    func heard(_ event: PostStore.HolderEvent, in list: FeedListViewModel) {
        switch event {
        case .changed(let change, let rows): list.postChanged(change, rows: rows)
        case .quoteChanged(let change, let rows): list.storeChanged(.quoteChanged(change, rows: rows))
        case .quoteDeleted(let id, let rows): list.storeChanged(.quoteDeleted(id, rows: rows))
        case .deleted(let rows, _, let pending): deleted(rows, pending: pending, in: list)
        case .undeleted(let id):
            lastPostsBeingDeleted[id] = nil
            // The server refused the delete: its rows come back as the store shows their posts now.
            Self.refused(.delete(id), in: list) { list.make.refreshed($0) }
        case .deleteSettled(let id):
            Self.confirmed(.delete(id), in: list)
            lastPostsDeleted(lastPostsBeingDeleted.removeValue(forKey: id) ?? [])
        case .accountHidden(let account, let handle, let rows, let hiding, let pending):
            accountHidden(account, handle: handle, rows: rows, hiding: hiding, pending: pending, in: list)
        case .accountShown(let account): Self.refused(.account(account), in: list) { self.shownAgain($0, in: list) }
        case .accountHidingSettled(let account): Self.confirmed(.account(account), in: list)
        case .accountUnhidden(let account): accountUnhidden(account, in: list)
        case .domainHidden(let domain, let rows, let pending): domainHidden(domain, rows: rows, pending: pending, in: list)
        case .domainShown(let domain): Self.refused(.domain(domain), in: list) { self.shownAgain($0, in: list) }
        case .domainHidingSettled(let domain): Self.confirmed(.domain(domain), in: list)
        case .filterChanged(let id): filterChanged(id, in: list)
        case .arrived, .ownConfirmed, .ownWithdrawn, .streamInterrupted: ListArrivals.heard(event, in: list)
        }
    }

    /// Rows of a post that left: kept, with their places, while the delete is pending.
    private func deleted(_ ids: [RowID], pending: PostID?, in list: FeedListViewModel) {
        // A conversation stays when its last post goes (the server keeps it, with the post
        // before): the store shows it without one once the delete is done.
        var ids = ids
        let lastPosts: [(conversation: String, post: PostID)] = ids.compactMap { id in
            guard case .conversation(let conversation) = id, let post = list.state.rows[id: id]?.conversation?.lastPost else { return nil }
            return (conversation, post.post.id)
        }
        ids.removeAll { if case .conversation = $0 { true } else { false } }
        if !lastPosts.isEmpty {
            if let pending { lastPostsBeingDeleted[pending, default: []] += lastPosts } else { lastPostsDeleted(lastPosts) }
        }
        list.send(pending.map { .rowsTaken(ids, by: .delete($0)) } ?? .rowsRemoved(ids))
    }

    /// An account was muted, blocked or unfollowed: its rows leave when the hiding applies to
    /// this list (``AccountHiding/applies(to:account:)``) — the rows the store names, and on the
    /// notifications screen the notifications only from them. Kept, with their places, while pending.
    private func accountHidden(_ account: AccountID, handle: String?, rows ids: [RowID], hiding: AccountHiding, pending: Bool, in list: FeedListViewModel) {
        guard hiding.applies(to: list.hidingSource, account: account, handle: handle) else { return }
        // A mute that keeps their notifications leaves the notifications screen alone.
        if list.source.notificationKinds != nil, hiding == .mute, !list.store.hidesNotifications(from: account) { return }
        var gone = ids
        if list.source.notificationKinds != nil, hiding != .unfollow, list.store.hidesNotifications(from: account) {
            // Notifications from them (no post of theirs): O(rows) of this one list.
            for row in Array(list.state.rows) + Array(list.state.waiting) {
                if let group = row.notification?.group, !group.accounts.isEmpty, group.accounts.allSatisfy({ AccountID($0.id) == account }) {
                    gone.append(row.id)
                }
            }
        }
        // A row named twice is taken once (`RowList/remove(ids:)`).
        guard !gone.isEmpty else { return }
        if hiding != .unfollow { keptAway.insert(account) }
        list.send(pending ? .rowsTaken(gone, by: .account(account)) : .rowsRemoved(gone))
    }

    /// The server took an unmute or unblock of the account: when this list kept any of its posts
    /// away (and has loaded), it loads again — its rows and its pages may lack them otherwise.
    private func accountUnhidden(_ account: AccountID, in list: FeedListViewModel) {
        guard keptAway.remove(account) != nil, !list.state.rows.isEmpty || list.state.older == .end else { return }
        list.reload()
    }

    /// Tells the conversations store that these conversations' last posts were deleted.
    private func lastPostsDeleted(_ lastPosts: [(conversation: String, post: PostID)]) {
        for (conversation, post) in lastPosts { conversations?.lastPostDeleted(post, of: conversation) }
    }

    /// The posts of a fetch for `list` that began at `fetchedAt`, less those deleted since it
    /// began (a stream said so while it came) and those a mute or block keeps away.
    func undeleted(_ posts: [Post], _ fetchedAt: StoreEpoch, in list: FeedListViewModel) -> [Post] {
        posts.filter { !list.store.wasDeleted($0, fetchedAt: fetchedAt) && !keepsAway($0, in: list.hidingSource, list.store) }
    }

    /// The groups of a fetch for `list` that began at `fetchedAt`, less those about a post
    /// deleted since, or kept away.
    func undeleted(_ groups: [NotificationGroup], _ fetchedAt: StoreEpoch, in list: FeedListViewModel) -> [NotificationGroup] {
        groups.filter { group in
            guard !group.isAboutMissingPost else { return false }
            let shown = group.post.map { !list.store.wasDeleted($0, fetchedAt: fetchedAt) && !keepsAway($0, in: list.source, list.store) } ?? true
            return shown && !keepsAway(group, list.store)
        }
    }

    /// Whether the store keeps `post` off this list for who wrote or boosted it (a mute or a
    /// block); if so the accounts are remembered as kept away (``keptAway``).
    func keepsAway(_ post: Post, in source: ListSource, _ store: PostStore) -> Bool {
        guard store.isHidden(post, in: source) else { return false }
        keptAway.insert(AccountID(post.author.id))
        keptAway.insert(AccountID(post.content.author.id))
        return true
    }

    /// Whether the notification group is only from accounts whose notifications are kept away.
    func keepsAway(_ group: NotificationGroup, _ store: PostStore) -> Bool {
        guard store.isFromHiddenAccounts(group) else { return false }
        for account in group.accounts { keptAway.insert(AccountID(account.id)) }
        return true
    }

    /// A row a refused mute, block or domain block took, as the store shows it now — `nil` when
    /// what another mute or block (or a delete) still keeps away stays away.
    private func shownAgain(_ row: ListRow, in list: FeedListViewModel) -> ListRow? {
        if let post = row.shownPost?.post, list.store.isHidden(post, in: list.hidingSource) || list.store.isDeleted(post.id) { return nil }
        if let group = row.notification?.group, list.store.isFromHiddenAccounts(group) { return nil }
        return list.make.refreshed(row)
    }

    /// A domain was blocked: the rows the store names leave, and on the notifications screen
    /// the notifications only from the domain's accounts. Kept, with their places, while pending.
    private func domainHidden(_ domain: String, rows ids: [RowID], pending: Bool, in list: FeedListViewModel) {
        var gone = ids
        if list.source.notificationKinds != nil {
            for row in Array(list.state.rows) + Array(list.state.waiting) {
                if let group = row.notification?.group, list.store.isFromHiddenAccounts(group) { gone.append(row.id) }
            }
        }
        var seen = Set<RowID>()
        gone = gone.filter { seen.insert($0).inserted && (list.state.rows.contains($0) || list.state.waiting.contains($0)) }
        guard !gone.isEmpty else { return }
        list.send(pending ? .rowsTaken(gone, by: .domain(domain)) : .rowsRemoved(gone))
    }

    /// Your filter `id` changed: rows whose post it now hides here leave (kept with their places
    /// while it hides them); rows it took that nothing hides any more come back where they were;
    /// and when it kept posts of a page away, the list loads again — deleted, or hiding by other
    /// words, it may not hide them now, and they have no row to put back. O(rows of the list).
    private func filterChanged(_ id: String, in list: FeedListViewModel) {
        guard let context = list.filterContext else { return }
        let cause = TakenRows.Cause.filter(id)
        // Any filter's rows: a filter made here took them under its local key, and the
        // server's id of it may be the one that changes now.
        for taker in list.state.taken.filterCauses {
            var back: [ListRow] = []
            for item in list.state.taken.rows(of: taker) {
                if let row = shownAgain(item.row, in: list), row.shownPost?.post.isHidden(in: context) != true { back.append(row) }
            }
            if !back.isEmpty { list.send(.rowsPutBack(taker, current: back)) }
        }
        var gone: [RowID] = []
        for row in Array(list.state.rows) + Array(list.state.waiting) {
            if list.make.refreshed(row).shownPost?.post.isHidden(in: context) == true { gone.append(row.id) }
        }
        if !gone.isEmpty { list.send(.rowsTaken(gone, by: cause)) }
        if filtersKeptAway.contains(id) {
            filtersKeptAway.remove(id)
            // A filter made here is the server's now: it keeps them away under its id.
            if let made = list.store.madeFilter(id) {
                filtersKeptAway.insert(made)
                return
            }
            if !list.state.rows.isEmpty || list.state.older == .end { list.reload() }
        }
    }

    /// Whether a hide filter keeps `post` off this list (with the filters this session changed
    /// applied); if so the filters that hide it are remembered (``filtersKeptAway``).
    func filtersAway(_ post: Post, in list: FeedListViewModel) -> Bool {
        let hiding = list.store.hidingFilters(of: post, in: list.filterContext)
        guard !hiding.isEmpty else { return false }
        filtersKeptAway.formUnion(hiding)
        return true
    }

    /// The server took the pending removal `cause`: the rows it took are gone for good.
    static func confirmed(_ cause: TakenRows.Cause, in list: FeedListViewModel) {
        guard !list.state.taken.rows(of: cause).isEmpty else { return }
        list.send(.removalConfirmed(cause))
    }

    /// The server refused the pending removal `cause`: the rows it took come back where they
    /// were, each as `current` gives it now — but for those it gives `nil` (still hidden).
    /// O(rows taken).
    static func refused(_ cause: TakenRows.Cause, in list: FeedListViewModel, current: (ListRow) -> ListRow?) {
        let taken = list.state.taken.rows(of: cause)
        guard !taken.isEmpty else { return }
        var back: [ListRow] = []
        var away: Set<RowID> = []
        for item in taken {
            if let row = current(item.row) { back.append(row) } else { away.insert(item.row.id) }
        }
        list.send(.removalRefused(cause, current: back, stillHidden: away))
    }
}
