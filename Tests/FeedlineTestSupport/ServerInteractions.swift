import Feedline

/// What a Mastodon server keeps of one original for the signed-in user: whether they
/// favourited, boosted, bookmarked and pinned it, whether they muted its conversation, and how
/// many favourites and boosts it has.
public struct ServerInteractions: Hashable, Sendable, CustomStringConvertible {
    public var favourited: Bool
    public var favourites: Int
    public var reblogged: Bool
    public var reblogs: Int
    public var bookmarked: Bool
    public var pinned: Bool
    public var muted: Bool

    public init(
        favourited: Bool = false, favourites: Int = 0, reblogged: Bool = false, reblogs: Int = 0, bookmarked: Bool = false, pinned: Bool = false,
        muted: Bool = false
    ) {
        self.favourited = favourited
        self.favourites = favourites
        self.reblogged = reblogged
        self.reblogs = reblogs
        self.bookmarked = bookmarked
        self.pinned = pinned
        self.muted = muted
    }

    /// Whether the user's `kind` is set.
    public func isOn(_ kind: InteractionKind) -> Bool {
        switch kind {
        case .favourite: favourited
        case .reblog: reblogged
        case .bookmark: bookmarked
        case .pin: pinned
        case .muteThread: muted
        }
    }

    /// Mastodon's rule for favourite / unfavourite, reblog / unreblog and bookmark / unbookmark:
    /// the user's flag becomes `value`; the favourite or boost count moves by one only when its
    /// flag does, so asking again changes nothing, and never below zero. A bookmark has no count.
    public mutating func set(_ kind: InteractionKind, to value: Bool) {
        guard isOn(kind) != value else { return }
        switch kind {
        case .favourite:
            favourited = value
            favourites = max(0, favourites + (value ? 1 : -1))
        case .reblog:
            reblogged = value
            reblogs = max(0, reblogs + (value ? 1 : -1))
        case .bookmark:
            bookmarked = value
        case .pin:
            pinned = value
        case .muteThread:
            muted = value
        }
    }

    public var description: String {
        "favourited \(favourited) (\(favourites)), reblogged \(reblogged) (\(reblogs)), bookmarked \(bookmarked), pinned \(pinned), muted \(muted)"
    }
}
