/// The rows of the thread around a post: its ancestors (root first), the post, then the replies
/// depth first. A refresh loads it again.
struct ThreadRows: RowSource {
    struct Answer: Sendable {
        var focus: Post
        var context: PostContext
    }

    let id: PostID
    let service: any FeedService

    var refreshStyle: ListState.RefreshStyle { .reload }

    @MainActor func load(_ request: ListRequest, epochs: FetchEpochs) async throws -> Answer {
        async let focus = service.post(id)
        async let context = service.context(of: id)
        return Answer(focus: try await focus, context: try await context)
    }

    @MainActor
    func receive(_ answer: Answer, for request: ListRequest, epochs: FetchEpochs, in list: FeedListViewModel) -> Received {
        let fetchedAt = epochs.posts
        var context = answer.context
        context.ancestors = list.removals.undeleted(context.ancestors, fetchedAt, in: list)
        context.descendants = list.removals.undeleted(context.descendants, fetchedAt, in: list)
        // The focus too: deleted while the thread came, it is no row of it.
        let shownFocus = list.removals.undeleted([answer.focus], fetchedAt, in: list).first
        list.store.ingest(context.ancestors + (shownFocus.map { [$0] } ?? []) + context.descendants, fetchedAt: fetchedAt)
        return Received(event: .pageLoaded(token: request.token, page: Page(items: rows(focus: shownFocus, context: context, in: list), next: nil)))
    }

    /// Ancestors (root first), the focus (unless it was deleted), then the replies depth first,
    /// each reply one deeper than the post it answers.
    @MainActor
    private func rows(focus: Post?, context: PostContext, in list: FeedListViewModel) -> [ListRow] {
        var rows = context.ancestors.map { ListRow.post(list.make.postRow($0, thread: ThreadPlace(depth: 0, isFocus: false))) }
        if let focus { rows.append(.post(list.make.postRow(focus, thread: ThreadPlace(depth: 0, isFocus: true)))) }
        var depth: [PostID: Int] = [:]
        if let focus { depth[focus.content.id] = 0 }
        for reply in context.descendants {
            let level = reply.inReplyToID.flatMap { depth[$0] }.map { $0 + 1 } ?? 1
            depth[reply.content.id] = level
            rows.append(.post(list.make.postRow(reply, thread: ThreadPlace(depth: level, isFocus: false))))
        }
        return rows
    }
}
