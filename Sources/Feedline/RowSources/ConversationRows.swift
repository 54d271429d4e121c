/// The rows of your direct conversations: as the session's conversations store shows them
/// (unread, the last refusal), their last posts as the post store does; they follow the store
/// — in place, to the top, off the list while a removal waits, back where they were when it is
/// refused.
struct ConversationRows: RowSource {
    let service: any FeedService
    let conversations: ConversationStore?

    var refreshStyle: ListState.RefreshStyle { .reload }

    @MainActor func load(_ request: ListRequest, epochs: FetchEpochs) async throws -> Page<Conversation> {
        if case .page(let cursor) = request.kind { return try await service.conversations(after: cursor) }
        return try await service.conversations(after: nil)
    }

    @MainActor
    func receive(_ page: Page<Conversation>, for request: ListRequest, epochs: FetchEpochs, in list: FeedListViewModel) -> Received {
        // The last posts into the store first: the rows show its copies.
        let posts = list.removals.undeleted(page.items.compactMap(\.lastPost), epochs.posts, in: list)
        list.store.ingest(posts, fetchedAt: epochs.posts)
        let shown = conversations?.ingest(page.items, fetchedAt: epochs.conversations) ?? page.items
        return Received(
            event: .pageLoaded(
                token: request.token, page: Page(items: shown.map { .conversation(list.make.conversationRow($0)) }, next: page.next, skipped: page.skipped)
            )
        )
    }

    @MainActor
    func watch(_ list: FeedListViewModel) -> [Subscription] {
        guard let conversations else { return [] }
        return [conversations.observe { [weak list] change in
            guard let list else { return }
            changed(change, conversations, in: list)
        }]
    }

    /// A conversation changed in the session's store: its row follows.
    @MainActor
    private func changed(_ change: ConversationChange, _ conversations: ConversationStore, in list: FeedListViewModel) {
        switch change {
        case .updated(let id, let moved):
            guard let conversation = conversations.conversation(id), moved || list.rows.contains(.conversation(id)) else { return }
            list.send(.conversationChanged(list.make.conversationRow(conversation), toTop: moved))
        case .removing(let id):
            guard list.rows.contains(.conversation(id)) else { return }
            list.send(.rowsTaken([.conversation(id)], by: .conversation(id)))
        case .removed(let id):
            PostRemovals.confirmed(.conversation(id), in: list)
        case .removalRefused(let id):
            PostRemovals.refused(.conversation(id), in: list) { _ in conversations.conversation(id).map { .conversation(list.make.conversationRow($0)) } }
        }
    }
}
