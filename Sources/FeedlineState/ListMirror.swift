@_spi(FeedService) import Feedline

/// What a store last saved (or loaded) for one list key: the entries in order with the rank each
/// has in the database, and the list row's generation at that moment. `saveList` diffs the new
/// value against it to write only what changed; a generation that no longer matches the
/// database's (another store or process saved the list since) makes it re-read the list first.
struct ListMirror: Sendable {
    /// The list row's `generation` this mirror reflects; every save adds one.
    var generation: Int64
    /// Newest first, ids unique (see ``SavedList/Entry/rowID``).
    var entries: [SavedList.Entry]
    /// `ranks[i]` is `entries[i]`'s rank: strictly increasing.
    var ranks: [Int64]

    static let empty = ListMirror(generation: 0, entries: [], ranks: [])

    /// Debug check: one rank per entry, strictly increasing, ids unique.
    func checkInvariants() {
        #if DEBUG
        precondition(entries.count == ranks.count, "ListMirror: \(entries.count) entries, \(ranks.count) ranks")
        precondition(zip(ranks, ranks.dropFirst()).allSatisfy { $0 < $1 }, "ListMirror: ranks out of order")
        precondition(Set(entries.map(\.rowID)).count == entries.count, "ListMirror: an id twice")
        #endif
    }
}

extension SavedList.Entry {
    /// The `entry.kind` column.
    var kindColumn: String {
        switch self {
        case .post: "post"
        case .gap: "gap"
        }
    }

    /// The `entry.id` column: the post's id, or the gap's lower bound (unique per kind in a list,
    /// as ``rowID`` is).
    var idColumn: String {
        switch self {
        case .post(let post): post.id.rawValue
        case .gap(let below, _): below.rawValue
        }
    }
}
