/// The rows of the notifications: pages of notification groups, and newer groups above the top
/// or in a gap; they follow the session's dismissals — off the list while one waits, back where
/// they were when it is refused.
struct NotificationRows: RowSource {
    enum Answer: Sendable {
        case page(Page<NotificationGroup>)
        case newer(NewerPage<NotificationGroup>)
    }

    /// The kinds listed: every kind when empty.
    let kinds: Set<NotificationGroup.Kind>
    let service: any FeedService
    /// The session's dismissals (`nil`: a list made without them shows every group).
    let dismissals: NotificationDismissals?
    /// The requests of filtered notifications: an accept the server confirmed loads the first
    /// page again, where the account's notifications now are (`nil`: it does not).
    let requests: NotificationRequestStore?

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
            let groups = undismissed(list.removals.undeleted(page.items, fetchedAt, in: list), epochs)
            list.store.ingest(groups.compactMap(\.post), fetchedAt: fetchedAt)
            let shown = groups.filter { group in group.post.map { list.removals.filtersAway($0, in: list) } != true }
            var received = Received(
                event: .pageLoaded(token: request.token, page: Page(items: shown.map(list.make.row), next: page.next, skipped: page.skipped))
            )
            // A page the filters emptied is followed by the next; one a waiting clear emptied is
            // not (every older page is cleared too: walking them would ask the server for all).
            if shown.isEmpty, !page.items.isEmpty, page.next != nil, dismissals?.isPending(.all) != true {
                received.followUp = .loadMoreRequested
            }
            return received
        case .newer(let page):
            let groups = undismissed(list.removals.undeleted(page.items, fetchedAt, in: list), epochs)
            list.store.ingest(groups.compactMap(\.post), fetchedAt: fetchedAt)
            let kept = groups.filter { group in group.post.map { list.removals.filtersAway($0, in: list) } != true }
            var shown = NewerPage(items: kept.map(list.make.row), hasMore: page.hasMore, skipped: page.skipped)
            if kept.count < page.items.count, let oldest = page.items.last { shown.oldestBound = oldest.oldestID }
            return Received(event: .newerLoaded(token: request.token, page: shown))
        }
    }

    /// The groups a fetch brought less those dismissed since it began (or on their way).
    @MainActor
    private func undismissed(_ groups: [NotificationGroup], _ epochs: FetchEpochs) -> [NotificationGroup] {
        dismissals?.shown(groups, fetchedAt: epochs.notifications) ?? groups
    }

    @MainActor
    func watch(_ list: FeedListViewModel) -> [Subscription] {
        var subscriptions: [Subscription] = []
        if let dismissals {
            subscriptions.append(dismissals.observe { [weak list] change in
                guard let list else { return }
                Self.changed(change, dismissals, in: list)
            })
        }
        if let requests {
            // The accepted account's notifications are the server's now, among the others by
            // date: the first page again shows them where they belong.
            subscriptions.append(requests.observeAccepted { [weak list] _ in list?.send(.reloadRequested) })
        }
        return subscriptions
    }

    /// A dismissal changed: the rows it takes leave, come back on refusal (unless another
    /// dismissal still hides them), or are gone for good.
    @MainActor
    private static func changed(_ change: NotificationDismissalChange, _ dismissals: NotificationDismissals, in list: FeedListViewModel) {
        switch change {
        case .dismissing(let key):
            let ids: [RowID]
            switch key {
            case .group(let group):
                let id = RowID.notification(group)
                ids = list.state.rows.contains(id) || list.state.waiting.contains(id) ? [id] : []
            case .all:
                ids = (Array(list.state.rows) + Array(list.state.waiting)).compactMap { row in row.notification.map { _ in row.id } }
            }
            guard !ids.isEmpty else { return }
            list.send(.rowsTaken(ids, by: .notifications(key)))
        case .dismissed(let key):
            PostRemovals.confirmed(.notifications(key), in: list)
            // A clear the server confirmed left the screen with nothing and older pages it did
            // not walk: the first page again is the server's answer ("no notifications", or
            // what came since), instead of a list that never says it is empty.
            if key == .all, list.state.rows.isEmpty, list.state.waiting.isEmpty, !list.state.reachedEnd {
                list.send(.reloadRequested)
            }
        case .refused(let key):
            PostRemovals.refused(.notifications(key), in: list) { row in
                guard case .notification(let group) = row.id, !dismissals.isHidden(group) else { return nil }
                return list.make.refreshed(row)
            }
        }
    }
}
