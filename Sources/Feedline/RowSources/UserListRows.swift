/// The rows of your lists: the session's list store's lists, as it changes them.
struct UserListRows: RowSource {
    let service: any FeedService
    let lists: UserListStore?

    var refreshStyle: ListState.RefreshStyle { .reload }

    @MainActor func load(_ request: ListRequest, epochs: FetchEpochs) async throws -> [UserList] {
        try await service.lists()
    }

    @MainActor
    func receive(_ fetched: [UserList], for request: ListRequest, epochs: FetchEpochs, in list: FeedListViewModel) -> Received {
        // The store learns them first: the rows are its lists (with what changed meanwhile).
        lists?.ingest(fetched, fetchedAt: epochs.lists)
        let rows = lists?.lists ?? fetched.map { UserListRow(list: $0) }
        return Received(event: .pageLoaded(token: request.token, page: Page(items: rows.map(ListRow.userList), next: nil)))
    }

    @MainActor
    func watch(_ list: FeedListViewModel) -> [Subscription] {
        guard let lists else { return [] }
        return [lists.observe { [weak list] change in list?.send(.userListsChanged(change.lists.map(ListRow.userList))) }]
    }
}
