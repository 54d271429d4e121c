@_spi(FeedService) import Feedline
import FeedlineState
import Foundation
import Testing

/// Posts and lists for the store's tests.
enum Samples {
    static let alice = Author(id: "1", displayName: "Alice", handle: "alice")
    static let bob = Author(id: "2", displayName: "Bob 🐝", handle: "bob@example.social")
    /// Dates with fractions of a second, so that a lossy date encoding shows.
    static let now = Date(timeIntervalSinceReferenceDate: 785_000_000.123_456_7)

    /// `p<index>`, a plain post.
    static func post(_ index: Int, text: String? = nil) -> Post {
        Post(
            id: PostID("p\(index)"), author: alice, text: text ?? "post \(index)",
            createdAt: now.addingTimeInterval(-Double(index) * 61.25), favouritesCount: index % 5
        )
    }

    static func posts(_ range: Range<Int>) -> [SavedList.Entry] { range.map { .post(post($0)) } }

    /// Posts with every kind of field filled in: a boost, media, a poll, a card, filters, an
    /// edit, a reply, a content warning, tags, interaction flags.
    static let rich: [Post] = {
        let original = Post(
            id: "o1", author: bob, text: "the original, with “quotes” and a newline\nhere", createdAt: now.addingTimeInterval(-3_600),
            media: [Media(kind: .image, description: "a cat on a mat", url: "https://example.social/cat.png"), Media(kind: .video)],
            repliesCount: 3, reblogsCount: 7, favouritesCount: 11, tags: ["cats", "mats"], url: "https://example.social/@bob/o1"
        )
        return [
            Post(id: "b1", author: alice, text: "", createdAt: now, reblogged: true, reblog: original),
            Post(
                id: "poll1", author: alice, text: "which?", createdAt: now.addingTimeInterval(-10),
                poll: Poll(
                    options: [.init(title: "this", votes: 3), .init(title: "that", votes: nil)], votesCount: 3, expired: false,
                    expiresAt: now.addingTimeInterval(86_400.5), multiple: true
                )
            ),
            Post(
                id: "cw1", author: bob, text: "spoiler", createdAt: now.addingTimeInterval(-20), contentWarning: "film",
                card: LinkCard(url: "https://example.org", title: "A page", summary: "about it"),
                filters: [
                    PostFilter(title: "Spoilers", contexts: [.home, .public], action: .warn),
                    PostFilter(title: "Noise", contexts: [.thread], action: .hide),
                ]
            ),
            Post(
                id: "e1", author: alice, text: "edited text", createdAt: now.addingTimeInterval(-30), favourited: true, bookmarked: true,
                editedAt: now.addingTimeInterval(-5.5), inReplyToID: "cw1"
            ),
        ]
    }()

    /// A list with rich posts, plain posts and gaps, a cursor and a position.
    static let mixed = SavedList(
        entries: rich.map { .post($0) } + [.gap(below: "p10", above: "e1")] + posts(10..<20)
            + [.gap(below: "p30", above: "p19")] + posts(30..<35),
        older: PageCursor("max_id=p34"),
        position: ReadingPosition(id: "poll1", createdAt: now.addingTimeInterval(-10))
    )
}

/// Checks that `loaded` is `expected`, naming the first entry that differs.
func expectEqual(_ loaded: SavedList?, _ expected: SavedList, sourceLocation: SourceLocation = #_sourceLocation) {
    guard let loaded else {
        Issue.record("no list was loaded", sourceLocation: sourceLocation)
        return
    }
    guard loaded != expected else { return }
    var lines: [String] = []
    if loaded.entries.count != expected.entries.count {
        lines.append("\(loaded.entries.count) entries, expected \(expected.entries.count)")
    }
    if let index = loaded.entries.indices.first(where: { $0 < expected.entries.count && loaded.entries[$0] != expected.entries[$0] }) {
        lines.append("entry \(index): \(loaded.entries[index]), expected \(expected.entries[index])")
    }
    if loaded.older != expected.older { lines.append("older \(String(describing: loaded.older)), expected \(String(describing: expected.older))") }
    if loaded.position != expected.position {
        lines.append("position \(String(describing: loaded.position)), expected \(String(describing: expected.position))")
    }
    Issue.record("loaded list differs: \(lines.joined(separator: "; "))", sourceLocation: sourceLocation)
}

/// Opens the test store of `directory` (the sandbox's file).
func openStore(_ directory: URL) throws(StateStoreError) -> StateStore {
    try StateStore.open(directory: directory, server: "sandbox", account: nil)
}

/// A store whose writes wait for the other connection as long as it takes (two minutes at most,
/// a safety net): for tests whose stores contend on purpose, which must not depend on how fast
/// the machine is (SQLite's busy waiting is not fair: a writer in a tight loop can hold the file
/// for seconds under ThreadSanitizer on a busy machine).
func openPatientStore(_ directory: URL) throws(StateStoreError) -> StateStore {
    try StateStore.open(directory: directory, server: "sandbox", account: nil, busyTimeout: 120)
}

/// The kind of ``StateStoreError`` `body` throws, or `nil` when it succeeds (any other error
/// fails the test).
func errorKind<T>(sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> T) -> StateStoreError.Kind? {
    do {
        _ = try body()
        return nil
    } catch let error as StateStoreError {
        return error.kind
    } catch {
        Issue.record("not a StateStoreError: \(error)", sourceLocation: sourceLocation)
        return nil
    }
}
