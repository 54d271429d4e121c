/// How a list makes its rows: each row shows the session's stores as they are now — a post row
/// the post store's latest copy of its original and its shared state (and of the post it
/// quotes), an account row the relationship store's relationship, a conversation row the
/// conversations store's unread flag and last refusal. One per list (``FeedListViewModel/make``),
/// used by its row sources; it holds nothing of its own.
@MainActor
struct RowMaker {
    /// The store whose posts the rows show.
    let store: PostStore
    /// Where the user's server filters apply to the list's posts.
    let filterContext: FilterContext?
    /// The session's relationships, which account rows show (`nil` for lists of no accounts).
    let relationships: RelationshipStore?
    /// Your reports this session, which account rows show (`nil` for lists of no accounts).
    let reports: ReportStore?
    /// The session's direct conversations (`nil` for every list but the conversations).
    let conversations: ConversationStore?

    /// The row of a post entry: its latest content and shared state from the store.
    func row(_ post: Post) -> ListRow {
        .post(postRow(post, thread: nil))
    }

    /// A post row with the store's latest copy of the original and its shared state (and of
    /// the post it quotes).
    func postRow(_ post: Post, thread: ThreadPlace?) -> PostRow {
        store.row(post, thread: thread, filterContext: filterContext)
    }

    /// The row of an account: who it is and the relationship the store shows for it.
    func accountRow(_ profile: Profile) -> ListRow {
        .account(AccountRow(
            profile: profile, relationship: relationships?.relationship(profile.accountID), reported: reports?.report(of: profile.accountID).flatMap(Self.mark)
        ))
    }

    /// What a row shows of a report: its state while wanted, nothing once rolled back.
    static func mark(_ display: ToggleDisplay) -> ToggleDisplay? { display.isOn ? display : nil }

    /// Every account row of `screen` shows `change` (at once, on every screen that watches).
    static func reportChanged(_ change: ReportChange, in screen: FeedListViewModel) {
        guard screen.state.rows.contains(.account(change.account)) else { return }
        screen.send(.accountReported(change.account, mark(change.display)))
    }

    /// The row of a notification group, its post as the store shows it.
    func row(_ group: NotificationGroup) -> ListRow {
        .notification(NotificationRow(group: group, post: group.post.map { postRow($0, thread: nil) }))
    }

    /// The row of a conversation: as the session's conversations store shows it (unread, the
    /// last refusal), its last post as the post store shows it (latest copy, shared state).
    func conversationRow(_ conversation: Conversation) -> ConversationRow {
        // As every post row: the store's copies of the post and of the post it quotes.
        let lastPost = conversation.lastPost.map { postRow($0, thread: nil) }
        return ConversationRow(
            id: conversation.id, participants: conversation.participants, unread: conversation.unread, lastPost: lastPost,
            failure: conversations?.failure(conversation.id)
        )
    }

    /// A row as the store shows it now (the latest copy of its post, its shared state).
    func refreshed(_ row: ListRow) -> ListRow {
        guard let post = row.shownPost else { return row }
        var row = row
        if let change = store.current(post.originalID) { row = row.applying(change) }
        // And the post it quotes, which may have changed (or gone) while it waited.
        if let quoted = row.shownPost?.quotedID {
            if store.isQuoteDeleted(quoted) {
                row = row.quoteDeleted(quoted)
            } else if let current = store.currentQuoted(quoted) {
                row = row.applyingQuote(current)
            }
        }
        return row
    }

    /// The rows of what an earlier run saved, the saved posts put into the store as the oldest
    /// copies known (anything the server sends replaces them), as the list's `restored` event:
    /// the rows from the reading position down, the newer ones waiting above, posts in `fresh`
    /// (fetched just now) not marked unconfirmed. `nil` when nothing saved is shown.
    func restored(_ saved: SavedList, fresh: Set<PostID>) -> ListEvent? {
        var posts: [Post] = []
        var rows: [ListRow] = []
        for entry in saved.entries {
            switch entry {
            case .post(let post):
                guard !post.isHidden(in: filterContext) else { continue }
                posts.append(post)
                rows.append(row(post))
            case .gap(let below, let above):
                rows.append(.gap(Gap(below: below, above: above)))
            }
        }
        guard !rows.isEmpty else { return nil }
        store.ingest(posts, fetchedAt: 0)
        // Where the reader was: rows from there down; the newer ones wait above.
        let start = saved.position.flatMap { position in rows.firstIndex { $0.id == .post(position.id.post) } } ?? 0
        let newer = Array(rows[..<start]).filter { $0.gap == nil }
        return .restored(rows: Array(rows[start...]), waiting: newer, older: saved.older, confirmed: Set(fresh.map { .post($0) }))
    }
}
