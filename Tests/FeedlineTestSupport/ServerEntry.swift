/// An entry of a timeline as a fake server keeps it — an original, or a boost of one — in the
/// form the fake serves: `Post` behind a `FeedService`, Mastodon's `Status` over HTTP. The
/// fields ``ServerModel`` reads and writes, and nothing else.
public protocol ServerEntry: Sendable {
    associatedtype ID: Hashable & Sendable

    var id: ID { get }
    /// The boosted original, for a boost entry; `nil` for an original.
    var reblog: Self? { get set }
    /// The signed-in user's flags and the counts, as this copy says.
    var interactions: ServerInteractions { get set }
    /// The signed-in user's own boost of `original`, the `number`th the server made (from 1):
    /// what Mastodon answers a reblog with. Its `reblog` is `original`.
    static func userBoost(of original: Self, number: Int) -> Self
}

extension ServerEntry {
    /// The innermost original this entry shows: itself, or what its boost (of a boost) boosts.
    var innermost: Self {
        var current = self
        while let inner = current.reblog { current = inner }
        return current
    }
}
