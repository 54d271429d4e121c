import Feedline
import Foundation

/// Text the renderers made, reused while what it was made from is unchanged: a post row's
/// lines (drawn again by every `list` and every change to a row beside it), a row's body line
/// (its text cut to one line — the costly part of drawing a row, and the part a favourite or a
/// boost does not change) and a detail's post part (the full text wrapped — drawn again on
/// every `open` of the same post), and long notes wrapped.
///
/// Entries are checked against their source before reuse, so a stale entry is never shown;
/// the cache forgets everything when it grows past ``limit`` entries.
public final class RenderCache: Sendable {
    /// What a row's body line is made from.
    struct BodySource: Equatable {
        var text: String
        var contentWarning: String?
        var media: [Media.Kind]
        var columns: Int
        var number: Int
        /// The filter whose warning stands in for the text (`warn`) or the media (`blur`).
        var warning: PostFilter? = nil
    }

    /// What a post row's lines show (drawn with a blank marker): equal sources draw equal lines.
    struct RowSource: Equatable {
        /// The author's display name.
        var name: String
        /// The booster's display name, for a boost.
        var booster: String?
        var edited: Bool
        /// The marks, the queued kinds and the failure (``PostInteraction/pending`` is cleared:
        /// no row shows it).
        var interaction: PostInteraction
        /// The second line's source, and the row's number.
        var body: BodySource
        /// The row's age as shown ("4d"): the clock's part.
        var age: String
        var width: Int
        var style: Style
    }

    /// What a detail's post part is made from.
    struct PostSource: Equatable {
        var id: PostID
        var author: Author
        var text: String
        var createdAt: Date
        var contentWarning: String?
        var media: [Media]
        var poll: Poll?
        var card: LinkCard?
        var editedAt: Date?
        var age: String
        var columns: Int
        var warning: PostFilter? = nil
    }

    /// How many entries of each kind are kept at most.
    public static let limit = 4_096

    /// A text wrapped to a width.
    private struct WrapKey: Hashable {
        var text: String
        var columns: Int
    }

    private let wraps = Locked<[WrapKey: [String]]>([:])
    private let rows = Locked<[PostID: (source: RowSource, lines: [String])]>([:])
    private let bodies = Locked<[PostID: (source: BodySource, line: String)]>([:])
    private let posts = Locked<[PostID: (source: PostSource, lines: [String])]>([:])

    public init() {}

    /// `TextWidth.wrap(text, to: columns)`, kept for a text longer than a line (notes, status
    /// lines and hints are drawn again and again; a short one costs less to wrap than to look up).
    func wrapped(_ text: String, columns: Int) -> [String] {
        guard text.utf8.count > columns else { return TextWidth.wrap(text, to: columns) }
        let key = WrapKey(text: text, columns: columns)
        if let lines = wraps.withLock({ $0[key] }) { return lines }
        let lines = TextWidth.wrap(text, to: columns)
        wraps.withLock { entries in
            if entries.count >= Self.limit { entries.removeAll(keepingCapacity: true) }
            entries[key] = lines
        }
        return lines
    }

    func row(_ id: PostID, _ source: RowSource, make: () -> [String]) -> [String] {
        if let cached = rows.withLock({ $0[id] }), cached.source == source { return cached.lines }
        let lines = make()
        rows.withLock { entries in
            if entries.count >= Self.limit { entries.removeAll(keepingCapacity: true) }
            entries[id] = (source, lines)
        }
        return lines
    }

    func body(_ id: PostID, _ source: BodySource, make: () -> String) -> String {
        if let cached = bodies.withLock({ $0[id] }), cached.source == source { return cached.line }
        let line = make()
        bodies.withLock { entries in
            if entries.count >= Self.limit { entries.removeAll(keepingCapacity: true) }
            entries[id] = (source, line)
        }
        return line
    }

    func post(_ id: PostID, _ source: PostSource, make: () -> [String]) -> [String] {
        if let cached = posts.withLock({ $0[id] }), cached.source == source { return cached.lines }
        let lines = make()
        posts.withLock { entries in
            if entries.count >= Self.limit { entries.removeAll(keepingCapacity: true) }
            entries[id] = (source, lines)
        }
        return lines
    }
}
