/// The rows of your server filters, in the server's order.
struct FilterRows: RowSource {
    let service: any FeedService

    var refreshStyle: ListState.RefreshStyle { .reload }

    @MainActor func load(_ request: ListRequest, epochs: FetchEpochs) async throws -> [PostFilter] {
        try await service.filters()
    }

    @MainActor
    func receive(_ fetched: [PostFilter], for request: ListRequest, epochs: FetchEpochs, in list: FeedListViewModel) -> Received {
        Received(event: .pageLoaded(token: request.token, page: Page(items: fetched.map { ListRow.filter($0, state: ToggleDisplay(isOn: true)) }, next: nil)))
    }
}
