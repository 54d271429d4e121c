/// One post row's view model: its display values and its two toggles, reading and writing the
/// post's shared state in ``PostStore`` — the same state every other row and the detail of that
/// post use. Cheap to make; holds no subscription of its own.
@MainActor
public final class PostRowViewModel {
    /// The entry as the server sent it.
    public let post: Post
    private let store: PostStore
    private let clock: WallClock

    public init(post: Post, store: PostStore, clock: WallClock) {
        self.post = post
        self.store = store
        self.clock = clock
    }

    /// The row's current display values.
    public var row: PostRow {
        PostRow(post: post, interaction: store.interaction(post.id) ?? PostInteraction(serverCopy: post))
    }

    /// The row's display values, delivered again whenever the shared state changes (on the main
    /// actor). Subscriptions belong to the subscriber.
    public var rowUpdates: ReadOnlyRelay<PostRow> {
        let post = post
        guard let relay = store.relay(post.id) else { return .constant(row) }
        return relay.map { PostRow(post: post, interaction: $0) }
    }

    public var authorName: String { post.content.author.name }
    public var authorHandle: String { "@" + post.content.author.handle }
    /// The booster's name for a reblog entry.
    public var boostedBy: String? { post.boostedBy?.name }
    public var text: String { post.content.text }
    public var contentWarning: String? { post.content.contentWarning }
    public var mediaSummary: String { post.content.mediaSummary }
    /// The post's age from the injected clock: `now`, `5m`, `3h`, `Mar 4` …
    public var relativeTime: String { clock.relative(post.content.createdAt) }
    public var favourited: Bool { row.interaction.favourited }
    public var reblogged: Bool { row.interaction.reblogged }
    public var favouritesCount: Int { row.interaction.favouritesCount }
    public var reblogsCount: Int { row.interaction.reblogsCount }

    /// Favourites or unfavourites the post (optimistic; see ``PostStore``).
    public func toggleFavourite() { store.toggle(.favourite, post.id) }
    /// Boosts or unboosts the post (optimistic; see ``PostStore``).
    public func toggleReblog() { store.toggle(.reblog, post.id) }
}
