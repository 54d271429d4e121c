/// The rows of your requests of filtered notifications: every page of them, as the session's
/// request store shows them, newest first.
struct NotificationRequestRows: RowSource {
    let service: any FeedService
    let requests: NotificationRequestStore?

    var refreshStyle: ListState.RefreshStyle { .reload }

    @MainActor func load(_ request: ListRequest, epochs: FetchEpochs) async throws -> [NotificationRequest] {
        try await Page.following(atMost: Self.maxPages) { try await service.notificationRequests(after: $0) }
    }

    @MainActor
    func receive(_ fetched: [NotificationRequest], for request: ListRequest, epochs: FetchEpochs, in list: FeedListViewModel) -> Received {
        // The store learns them first: the rows are its requests (with what was answered meanwhile).
        requests?.ingest(fetched, fetchedAt: epochs.notificationRequests)
        let rows = requests?.rows ?? fetched.map { NotificationRequestRow(request: $0, state: ToggleDisplay(isOn: true)) }
        return Received(event: .pageLoaded(token: request.token, page: Page(items: rows.map(\.listRow), next: nil)))
    }

    @MainActor
    func watch(_ list: FeedListViewModel) -> [Subscription] {
        guard let requests else { return [] }
        return [requests.observe { [weak list] rows in list?.send(.notificationRequestsChanged(rows.map(\.listRow))) }]
    }

    /// Pages read at most (40 pages of 40 requests: 1,600 accounts).
    static let maxPages = 40
}

extension NotificationRequestRow {
    /// The row a list shows.
    var listRow: ListRow { .notificationRequest(request, state: state) }
}
