@_spi(FeedService) import Feedline
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
    /// What a row's body line is made from: the post it shows, where, and any filter warning.
    struct BodySource: Equatable {
        /// The shown post (the original, for a boost).
        var post: ShownPost
        var columns: Int
        var number: Int
        /// The filter whose warning stands in for the text (`warn`) or the media (`blur`).
        var warning: PostFilter? = nil
        /// What the post carries (`[2 images, poll, 2h left]`: the clock's part), if anything.
        var carries: String? = nil
        /// The whole text is shown, wrapped, under its content warning (a version of an edited
        /// post: there is nothing to open to read it).
        var textUnderWarning = false
    }

    /// What a post row's lines show (drawn with a blank marker): equal sources draw equal lines.
    struct RowSource: Equatable {
        /// The second line's source — the shown post among it — and the row's number.
        var body: BodySource
        /// The booster's display name, for a boost.
        var booster: String?
        /// The marks, the queued kinds and the failure (``PostInteraction/pending`` is cleared:
        /// no row shows it).
        var interaction: PostInteraction
        /// The row's age as shown ("4d"): the clock's part.
        var age: String
        var width: Int
        var style: Style
        /// Columns a thread row is indented by (0 outside threads).
        var threadIndent = 0
        /// Whether the row is the post its thread was opened for (marked before its number).
        var isFocus = false
        /// What the row shows of the post its post quotes, and that post's age as shown.
        var quote: QuoteDisplay? = nil
        var quoteAge: String? = nil
    }

    /// What a detail's post part is made from: ``DetailRenderer/PostPart`` and the clock's part.
    struct PostSource: Equatable {
        var part: DetailRenderer.PostPart
        /// The post's age as shown ("3h").
        var age: String
        /// Its poll's time left as shown ("2h left"), if it has a poll that ends.
        var pollLeft: String? = nil
        var columns: Int
        /// ``DetailRenderer/textLineLimit``.
        var textLineLimit: Int?
    }

    /// How many entries of each kind are kept at most.
    public static let limit = 4_096

    private let wraps = Entries<String, Int, [String]>()
    private let rows = Entries<PostID, RowSource, [TerminalText]>()
    private let bodies = Entries<PostID, BodySource, String>()
    private let posts = Entries<PostID, PostSource, [TerminalText]>()

    public init() {}

    /// `TextWidth.wrap(text, to: columns)`, kept for a text longer than a line (notes, status
    /// lines and hints are drawn again and again; a short one costs less to wrap than to look up).
    func wrapped(_ text: String, columns: Int) -> [String] {
        guard text.utf8.count > columns else { return TextWidth.wrap(text, to: columns) }
        return wraps.value(text, columns) { TextWidth.wrap(text, to: columns) }
    }

    func row(_ id: PostID, _ source: RowSource, make: () -> [TerminalText]) -> [TerminalText] {
        rows.value(id, source, make: make)
    }

    func body(_ id: PostID, _ source: BodySource, make: () -> String) -> String {
        bodies.value(id, source, make: make)
    }

    func post(_ id: PostID, _ source: PostSource, make: () -> [TerminalText]) -> [TerminalText] {
        posts.value(id, source, make: make)
    }
}

/// One kind of the cache's entries: a value per key with the source it was made from, reused
/// while the source is equal; all forgotten when there are ``RenderCache/limit`` of them.
private struct Entries<Key: Hashable & Sendable, Source: Equatable & Sendable, Value: Sendable>: ~Copyable, Sendable {
    private let entries = Locked<[Key: (source: Source, value: Value)]>([:])

    /// The value kept for `key` if it was made from `source`, else `make()`'s (kept from now on).
    func value(_ key: Key, _ source: Source, make: () -> Value) -> Value {
        if let cached = entries.withLock({ $0[key] }), cached.source == source { return cached.value }
        let value = make()
        entries.withLock { entries in
            if entries.count >= RenderCache.limit { entries.removeAll(keepingCapacity: true) }
            entries[key] = (source, value)
        }
        return value
    }
}
