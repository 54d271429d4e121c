/// The calls of a `FeedService`, by kind: what a test double is told to expect. As with
/// swift-dependencies' `unimplemented` endpoints, a test names the kinds of call it expects and
/// any other call fails it (``CallExpectations``).
public struct FeedCalls: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }

    /// `page(of:after:)`
    public static let pages = FeedCalls(rawValue: 1 << 0)
    /// `newer(in:than:olderThan:)`
    public static let newer = FeedCalls(rawValue: 1 << 1)
    /// `notifications(after:)`
    public static let notifications = FeedCalls(rawValue: 1 << 2)
    /// `newerNotifications(than:olderThan:)`
    public static let newerNotifications = FeedCalls(rawValue: 1 << 3)
    /// `post(_:)`
    public static let posts = FeedCalls(rawValue: 1 << 4)
    /// `context(of:)`
    public static let contexts = FeedCalls(rawValue: 1 << 5)
    /// `set(_:to:postID:)`: favourite, reblog, bookmark and their undoing.
    public static let interactions = FeedCalls(rawValue: 1 << 6)
    /// `account(named:)`
    public static let accounts = FeedCalls(rawValue: 1 << 7)
    /// `composeSettings()` and `publish(_:idempotencyKey:)`: one's own posts.
    public static let writing = FeedCalls(rawValue: 1 << 8)

    /// Every call of a `FeedService`.
    public static let all: FeedCalls = [.pages, .newer, .notifications, .newerNotifications, .posts, .contexts, .interactions, .accounts]

    private static let names: [(FeedCalls, String)] = [
        (.pages, "pages"), (.newer, "newer"), (.notifications, "notifications"), (.newerNotifications, "newerNotifications"),
        (.posts, "posts"), (.contexts, "contexts"), (.interactions, "interactions"), (.accounts, "accounts"), (.writing, "writing"),
    ]

    /// The kinds named in declaration order, e.g. `[pages, interactions]`.
    public var description: String {
        "[" + Self.names.filter { contains($0.0) }.map(\.1).joined(separator: ", ") + "]"
    }
}
