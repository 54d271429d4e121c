@_spi(FeedService) import Feedline

// Shorthands that let the machine tests speak in posts: the list machine takes rows (posts with
// their interaction state), and a post row of a server copy shows that copy's state.

extension ListRow {
    /// The row of a post as the server sent it.
    static func post(_ post: Post) -> ListRow { .post(PostRow(post: post)) }
}

extension ListEvent {
    static func pageLoaded(token: Int, page: Page<Post>) -> ListEvent {
        .pageLoaded(token: token, page: Page(items: page.posts.map(ListRow.post), next: page.next, skipped: page.skipped))
    }

    static func newerLoaded(token: Int, page: NewerPage<Post>) -> ListEvent {
        .newerLoaded(token: token, page: NewerPage(items: page.posts.map(ListRow.post), hasMore: page.hasMore, skipped: page.skipped))
    }

    static func pageFailed(token: Int, message: String) -> ListEvent {
        .pageFailed(token: token, failure: failure(message))
    }
}

/// A transient failure with `message`.
func failure(_ message: String) -> FeedFailure {
    FeedFailure(message: message, isTransient: true)
}

extension FeedFailure: ExpressibleByStringLiteral {
    /// A transient failure with this message.
    public init(stringLiteral message: String) {
        self.init(message: message, isTransient: true)
    }
}

extension RowList {
    static func + (lhs: RowList, rhs: [ListRow]) -> [ListRow] { Array(lhs) + rhs }
    static func + (lhs: [ListRow], rhs: RowList) -> [ListRow] { lhs + Array(rhs) }
}

extension InteractionEvent {
    static func requestFailed(_ kind: InteractionKind, token: StoreEpoch, message: String, at epoch: StoreEpoch) -> InteractionEvent {
        .requestFailed(kind, token: token, failure: failure(message), at: epoch)
    }
}

/// One row of a list, by entry id: toggles go through the list's view model, values are read
/// from its current rows.
@MainActor
struct RowHandle {
    let list: FeedListViewModel
    let id: PostID

    var row: PostRow? { list.rows[id: .post(id)]?.post }
    var favourited: Bool { row?.interaction.favourited ?? false }
    var reblogged: Bool { row?.interaction.reblogged ?? false }
    var favouritesCount: Int { row?.interaction.favouritesCount ?? 0 }
    var reblogsCount: Int { row?.interaction.reblogsCount ?? 0 }

    func toggleFavourite() { list.toggle(.favourite, row: .post(id)) }
    func toggleReblog() { list.toggle(.reblog, row: .post(id)) }
}

extension FeedListViewModel {
    /// The row with this entry id as a ``RowHandle``, when the list shows it.
    func rowHandle(_ id: PostID) -> RowHandle? {
        rows.contains(.post(id)) ? RowHandle(list: self, id: id) : nil
    }
}

extension PostDetailViewModel {
    func toggleFavourite() { toggle(.favourite) }
    func toggleReblog() { toggle(.reblog) }
}
