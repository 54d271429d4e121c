/// The rows of the notifications: pages of notification groups, and newer groups above the top
/// or in a gap.
struct NotificationRows: RowSource {
    enum Answer: Sendable {
        case page(Page<NotificationGroup>)
        case newer(NewerPage<NotificationGroup>)
    }

    /// The kinds listed: every kind when empty.
    let kinds: Set<NotificationGroup.Kind>
    let service: any FeedService

    var refreshStyle: ListState.RefreshStyle { .newer }

    @MainActor func load(_ request: ListRequest, epochs: FetchEpochs) async throws -> Answer {
        switch request.kind {
        case .page(let cursor): .page(try await service.notifications(of: kinds, after: cursor))
        case .reload: .page(try await service.notifications(of: kinds, after: nil))
        case .refresh(let above, let upper), .catchUp(let above, let upper), .confirm(_, let above, let upper):
            .newer(try await service.newerNotifications(of: kinds, than: above, olderThan: upper))
        case .gap(let gap): .newer(try await service.newerNotifications(of: kinds, than: gap.below, olderThan: gap.above))
        }
    }

    @MainActor
    func receive(_ answer: Answer, for request: ListRequest, epochs: FetchEpochs, in list: FeedListViewModel) -> Received {
        let fetchedAt = epochs.posts
        switch answer {
        case .page(let page):
            let groups = list.removals.undeleted(page.items, fetchedAt, in: list)
            list.store.ingest(groups.compactMap(\.post), fetchedAt: fetchedAt)
            let shown = groups.filter { group in group.post.map { list.removals.filtersAway($0, in: list) } != true }
            var received = Received(
                event: .pageLoaded(token: request.token, page: Page(items: shown.map(list.make.row), next: page.next, skipped: page.skipped))
            )
            if shown.isEmpty, !page.items.isEmpty, page.next != nil { received.followUp = .loadMoreRequested }
            return received
        case .newer(let page):
            let groups = list.removals.undeleted(page.items, fetchedAt, in: list)
            list.store.ingest(groups.compactMap(\.post), fetchedAt: fetchedAt)
            let kept = groups.filter { group in group.post.map { list.removals.filtersAway($0, in: list) } != true }
            var shown = NewerPage(items: kept.map(list.make.row), hasMore: page.hasMore, skipped: page.skipped)
            if kept.count < page.items.count, let oldest = page.items.last { shown.oldestBound = oldest.oldestID }
            return Received(event: .newerLoaded(token: request.token, page: shown))
        }
    }
}
