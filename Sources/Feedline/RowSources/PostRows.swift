/// The rows of a feed of posts (timelines, a hashtag, an account's posts, bookmarks…): pages of
/// posts, and newer posts above the top or in a gap.
struct PostRows: RowSource {
    enum Answer: Sendable {
        case page(Page<Post>)
        case newer(NewerPage<Post>)
    }

    let feed: Feed
    let service: any FeedService

    var refreshStyle: ListState.RefreshStyle {
        switch feed {
        case .bookmarks, .favourites, .trending: .reload
        case .home, .local, .public, .tag, .account, .list: .newer
        }
    }

    @MainActor func load(_ request: ListRequest, epochs: FetchEpochs) async throws -> Answer {
        switch request.kind {
        case .page(let cursor): .page(try await service.page(of: feed, after: cursor))
        case .reload: .page(try await service.page(of: feed, after: nil))
        case .refresh(let above, let upper), .catchUp(let above, let upper), .confirm(_, let above, let upper):
            .newer(try await service.newer(in: feed, than: above.post, olderThan: upper?.post))
        case .gap(let gap): .newer(try await service.newer(in: feed, than: gap.below.post, olderThan: gap.above.post))
        }
    }

    @MainActor
    func receive(_ answer: Answer, for request: ListRequest, epochs: FetchEpochs, in list: FeedListViewModel) -> Received {
        let fetchedAt = epochs.posts
        switch answer {
        case .page(let page):
            let posts = list.removals.undeleted(page.items, fetchedAt, in: list)
            list.store.ingest(posts, fetchedAt: fetchedAt)
            let shown = posts.filter { !list.removals.filtersAway($0, in: list) }
            // Of the posts on top (pinned), the ones still shown.
            let onTop = Set(page.items.prefix(page.onTop).map(\.id))
            let shownOnTop = shown.prefix { onTop.contains($0.id) }.count
            var received = Received(
                event: .pageLoaded(
                    token: request.token, page: Page(items: shown.map(list.make.row), next: page.next, skipped: page.skipped, onTop: shownOnTop)
                )
            )
            // A page that shows nothing (a filter hides every post, or all were deleted while it
            // came) asks for the next one by itself, once for this page (a chain of such pages
            // ends at the list's end).
            if shown.isEmpty, !page.items.isEmpty, page.next != nil { received.followUp = .loadMoreRequested }
            return received
        case .newer(let page):
            let posts = list.removals.undeleted(page.items, fetchedAt, in: list)
            list.store.ingest(posts, fetchedAt: fetchedAt)
            var shown = NewerPage(
                items: posts.filter { !list.removals.filtersAway($0, in: list) }.map(list.make.row), hasMore: page.hasMore, skipped: page.skipped
            )
            // Posts the list does not show (hidden, or deleted while the answer came) still
            // bound what the answer covered: a gap below never asks for them again.
            if shown.items.count < page.items.count, let oldest = page.items.last { shown.oldestBound = ItemID(oldest.id) }
            return Received(event: .newerLoaded(token: request.token, page: shown))
        }
    }
}
