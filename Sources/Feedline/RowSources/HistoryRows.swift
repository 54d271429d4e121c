/// The rows of an edited post's history: its versions, newest first, shown as they are and
/// kept out of the store (versions are not posts).
struct HistoryRows: RowSource {
    let id: PostID
    let service: any FeedService

    var refreshStyle: ListState.RefreshStyle { .reload }

    @MainActor func load(_ request: ListRequest, epochs: FetchEpochs) async throws -> [PostVersion] {
        try await service.history(of: id)
    }

    @MainActor
    func receive(_ versions: [PostVersion], for request: ListRequest, epochs: FetchEpochs, in list: FeedListViewModel) -> Received {
        let author = list.store.post(id)?.author ?? Author(id: "", displayName: "", handle: "")
        let rows = versions.enumerated().reversed().map { number, version in
            ListRow.post(PostRow(post: Post(
                id: .version(number + 1, of: id), author: author, text: version.text, createdAt: version.createdAt,
                contentWarning: version.contentWarning, media: version.media, poll: version.poll,
                editedAt: number == 0 ? nil : version.createdAt
            ), filterContext: list.filterContext))
        }
        return Received(event: .pageLoaded(token: request.token, page: Page(items: rows, next: nil)))
    }
}
