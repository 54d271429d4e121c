/// The two things a user does to a post.
public enum InteractionKind: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    case favourite
    case reblog

    public var description: String { rawValue }
}

/// A failed interaction, shown on the post until the user acts on it again.
public struct InteractionFailure: Hashable, Sendable {
    public var kind: InteractionKind
    /// One sentence for the user, e.g. "Could not favourite: The server is unavailable."
    public var message: String

    public init(kind: InteractionKind, message: String) {
        self.kind = kind
        self.message = message
    }
}

/// What every row and detail shows for a post's interactions: the optimistic flags and counts,
/// which kinds are waiting for the server, and the last failure.
public struct PostInteraction: Hashable, Sendable {
    public var favourited: Bool
    public var favouritesCount: Int
    public var reblogged: Bool
    public var reblogsCount: Int
    /// Kinds with a request in flight (the display shows the desired value meanwhile).
    public var pending: Set<InteractionKind>
    /// The last failure, cleared when the user toggles this post again.
    public var failure: InteractionFailure?

    public init(
        favourited: Bool,
        favouritesCount: Int,
        reblogged: Bool,
        reblogsCount: Int,
        pending: Set<InteractionKind> = [],
        failure: InteractionFailure? = nil
    ) {
        self.favourited = favourited
        self.favouritesCount = favouritesCount
        self.reblogged = reblogged
        self.reblogsCount = reblogsCount
        self.pending = pending
        self.failure = failure
    }

    /// The interaction state a server copy of a post shows (its original's, for a reblog entry).
    public init(serverCopy post: Post) {
        let original = post.content
        self.init(
            favourited: original.favourited,
            favouritesCount: original.favouritesCount,
            reblogged: original.reblogged,
            reblogsCount: original.reblogsCount
        )
    }

    /// The flag of one kind.
    public func isOn(_ kind: InteractionKind) -> Bool {
        kind == .favourite ? favourited : reblogged
    }

    /// The count of one kind.
    public func count(_ kind: InteractionKind) -> Int {
        kind == .favourite ? favouritesCount : reblogsCount
    }
}
