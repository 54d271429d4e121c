/// The rows of your scheduled posts: every page of them (Mastodon keeps at most 300), as the
/// session's scheduled store shows them, soonest first.
struct ScheduledRows: RowSource {
    let service: any FeedService
    let scheduled: ScheduledStore?

    var refreshStyle: ListState.RefreshStyle { .reload }

    @MainActor func load(_ request: ListRequest, epochs: FetchEpochs) async throws -> [ScheduledPost] {
        try await Page.following(atMost: Self.maxPages) { try await service.scheduledPosts(after: $0) }
    }

    @MainActor
    func receive(_ fetched: [ScheduledPost], for request: ListRequest, epochs: FetchEpochs, in list: FeedListViewModel) -> Received {
        // The store learns them first: the rows are its posts (with what changed meanwhile).
        scheduled?.ingest(fetched, fetchedAt: epochs.scheduled)
        let rows = scheduled?.rows ?? fetched.map { ScheduledRow(post: $0, state: ToggleDisplay(isOn: true)) }
        return Received(event: .pageLoaded(token: request.token, page: Page(items: rows.map(\.listRow), next: nil)))
    }

    @MainActor
    func watch(_ list: FeedListViewModel) -> [Subscription] {
        guard let scheduled else { return [] }
        return [scheduled.observe { [weak list] rows in list?.send(.scheduledChanged(rows.map(\.listRow))) }]
    }

    /// Pages read at most (300 scheduled posts at 20 a page fit in 15).
    static let maxPages = 40
}

extension ScheduledRow {
    /// The row a list shows.
    var listRow: ListRow { .scheduled(post, state: state) }
}
