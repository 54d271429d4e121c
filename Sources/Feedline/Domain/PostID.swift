/// The identity of a post as the server names it.
///
/// Ids are opaque: numeric snowflakes, ULIDs or anything else a server sends. They are
/// compared for equality only; Feedline never orders posts by id (order comes from the server).
public struct PostID: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    public var description: String { rawValue }

    /// The id one's own post is shown with while it is being sent: never a server's id.
    public static func sending(_ draft: DraftID) -> PostID { PostID("sending:" + draft.rawValue) }

    /// Whether this names one's own post on its way (``sending(_:)``), not a post on the server.
    public var isSending: Bool { rawValue.hasPrefix("sending:") }

    /// The id a past version of post `id` is shown with in its history (version `number`, 1 the first).
    public static func version(_ number: Int, of id: PostID) -> PostID { PostID(id.rawValue + "#v" + String(number)) }

    /// Whether this names a version in a post's history (``version(_:of:)``), not a post.
    ///
    /// - Complexity: O(length of the id), one pass over its bytes (Foundation's `contains`, which
    ///   a row asked on every draw, went through `NSString`).
    public var isVersion: Bool {
        var afterHash = false
        for byte in rawValue.utf8 {
            if afterHash, byte == UInt8(ascii: "v") { return true }
            afterHash = byte == UInt8(ascii: "#")
        }
        return false
    }
}

/// An opaque position in a timeline from which the next (older) page starts.
///
/// A service makes cursors and reads them back; the view models only store and return them —
/// with one exception: a cursor whose raw value is an entry's id names the page of the entries
/// older than it (Mastodon's `max_id`), which is how a saved list that was cut short continues
/// (``FeedListViewModel/saved(limit:)``). Services must read such a cursor that way.
@_spi(FeedService) public struct PageCursor: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }
}

/// The server's id of an item in a list — a post entry's id, or a notification's — used as a
/// bound when asking for the items newer than it (`since_id`) or older than it (`max_id`).
/// Opaque, compared for equality only. A service's concern (a front names a gap by its row,
/// ``RowID/gap(below:)``).
@_spi(FeedService) public struct ItemID: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(_ post: PostID) { self.rawValue = post.rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    public var description: String { rawValue }

    /// The post id with the same text (for lists of posts).
    public var post: PostID { PostID(rawValue) }
}
