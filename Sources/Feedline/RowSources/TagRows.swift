/// The rows of hashtags you follow (`followed`) or the server's trending ones, each showing
/// whether you follow it as the session's store does.
struct TagRows: RowSource {
    let followed: Bool
    let service: any FeedService
    let tags: TagStore?

    var refreshStyle: ListState.RefreshStyle { .reload }

    @MainActor func load(_ request: ListRequest, epochs: FetchEpochs) async throws -> Page<Hashtag> {
        return followed ? try await service.followedTags(after: request.pageCursor) : try await service.trendingTags(after: request.pageCursor)
    }

    @MainActor
    func receive(_ page: Page<Hashtag>, for request: ListRequest, epochs: FetchEpochs, in list: FeedListViewModel) -> Received {
        // The followed tags are followed (a server may leave `following` out of them).
        let fetched = followed ? page.items.map { tag in
            var followed = tag
            followed.following = followed.following ?? true
            return followed
        } : page.items
        let fetchedAt = epochs.tags
        return Received(
            event: .pageLoaded(
                token: request.token, page: Page(items: fetched.map { .tag($0.following(in: tags)) }, next: page.next, skipped: page.skipped)
            ),
            then: { [tags] in tags?.ingest(fetched, fetchedAt: fetchedAt) }
        )
    }

    @MainActor
    func watch(_ list: FeedListViewModel) -> [Subscription] {
        tags.map { [Self.watchFollowing($0, list)] } ?? []
    }

    /// Whether you follow a hashtag changed: its row on `list` shows it.
    @MainActor
    static func watchFollowing(_ tags: TagStore, _ list: FeedListViewModel) -> Subscription {
        tags.observe { [weak list] change in
            guard let list, list.state.rows.contains(.tag(change.tag)) else { return }
            list.send(.tagChanged(change.tag, following: change.display.isOn))
        }
    }
}
