/// The rows of your server filters: the session's filter store's filters (the server's order,
/// then those made since), as it changes them.
struct FilterRows: RowSource {
    let service: any FeedService
    let filters: FilterStore?

    var refreshStyle: ListState.RefreshStyle { .reload }

    @MainActor func load(_ request: ListRequest, epochs: FetchEpochs) async throws -> [PostFilter] {
        try await service.filters()
    }

    @MainActor
    func receive(_ fetched: [PostFilter], for request: ListRequest, epochs: FetchEpochs, in list: FeedListViewModel) -> Received {
        // The store learns them first: the rows are its filters (with what changed meanwhile).
        filters?.ingest(fetched, fetchedAt: epochs.filters)
        let rows = filters?.rows ?? fetched.map { ListRow.filter($0, state: ToggleDisplay(isOn: true)) }
        return Received(event: .pageLoaded(token: request.token, page: Page(items: rows, next: nil)))
    }

    @MainActor
    func watch(_ list: FeedListViewModel) -> [Subscription] {
        guard let filters else { return [] }
        return [filters.observe { [weak list] rows in list?.send(.filtersChanged(rows)) }]
    }
}
