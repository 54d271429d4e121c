/// The rows of the instance's announcements: the session's announcement store's (the server's
/// order), each read or not as every screen shows it.
struct AnnouncementRows: RowSource {
    let service: any FeedService
    let announcements: AnnouncementStore?

    var refreshStyle: ListState.RefreshStyle { .reload }

    @MainActor func load(_ request: ListRequest, epochs: FetchEpochs) async throws -> [Announcement] {
        try await service.announcements()
    }

    @MainActor
    func receive(_ fetched: [Announcement], for request: ListRequest, epochs: FetchEpochs, in list: FeedListViewModel) -> Received {
        // The store learns them first: the rows show what changed meanwhile.
        announcements?.ingest(fetched, fetchedAt: epochs.announcements)
        let rows = announcements?.rows ?? fetched.map { ListRow.announcement($0, read: ToggleDisplay(isOn: $0.read)) }
        return Received(event: .pageLoaded(token: request.token, page: Page(items: rows, next: nil)))
    }

    @MainActor
    func watch(_ list: FeedListViewModel) -> [Subscription] {
        guard let announcements else { return [] }
        return [announcements.observe { [weak list] change in list?.send(.announcementRead(change.id, change.display)) }]
    }
}
