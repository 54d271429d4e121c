/// The things a user does to a post. All three share one convergence machine
/// (`InteractionState`): optimistic, at most one request per post and kind in flight, extra
/// taps only move the desired value, rollback with a reason on refusal, and an outbox for what
/// failed for lack of a connection (kept pending and sent again with backoff).
public enum InteractionKind: String, Hashable, Sendable, CaseIterable, Codable, CustomStringConvertible {
    case favourite
    /// A boost.
    case reblog
    case bookmark

    public var description: String { rawValue }

    /// Whether the server keeps a public count of it (favourites and boosts; not bookmarks).
    public var isCounted: Bool { self != .bookmark }

    /// The verb for setting it to `value`: "favourite", "unboost", "bookmark" …
    public func verb(_ value: Bool) -> String {
        switch (self, value) {
        case (.favourite, true): "favourite"
        case (.favourite, false): "unfavourite"
        case (.reblog, true): "boost"
        case (.reblog, false): "unboost"
        case (.bookmark, true): "bookmark"
        case (.bookmark, false): "remove the bookmark of"
        }
    }
}

/// A failed interaction, shown on the post until the user acts on it again.
public struct InteractionFailure: Hashable, Sendable {
    public var kind: InteractionKind
    /// The value the user wanted (what a retry asks for again).
    public var value: Bool
    /// One sentence for the user, e.g. "Could not favourite this post: The server is unavailable."
    public var message: String
    /// Whether sending it again later may succeed (the server was unreachable or busy), as
    /// opposed to a refusal that a retry would only repeat (see ``FeedFailure/isTransient``).
    public var isTransient: Bool

    public init(kind: InteractionKind, value: Bool, message: String, isTransient: Bool = true) {
        self.kind = kind
        self.value = value
        self.message = message
        self.isTransient = isTransient
    }
}

/// What every row and detail shows for a post's interactions: the optimistic flags and counts,
/// which kinds are waiting for the server, and the last failure.
public struct PostInteraction: Hashable, Sendable {
    public var favourited: Bool
    public var favouritesCount: Int
    public var reblogged: Bool
    public var reblogsCount: Int
    public var bookmarked: Bool
    /// Kinds waiting for the server: a request in flight, or a change queued in the outbox
    /// (the display shows the desired value meanwhile).
    public var pending: Set<InteractionKind>
    /// The pending kinds whose requests failed for lack of a connection: queued in the outbox
    /// until the server is back (sent again with backoff, at ``FeedSession/retry()`` and at the
    /// next start), as opposed to simply being sent. Always a subset of ``pending``; a front may
    /// show them as "waiting for the server" rather than "sending".
    public var queued: Set<InteractionKind>
    /// Why each queued kind waits and when it is sent again, in `InteractionKind.allCases`
    /// order: one entry per kind of ``queued``.
    public var queuedChanges: [QueuedChange]
    /// The last failure, cleared when the user toggles or retries this post.
    public var failure: InteractionFailure?
    /// Whether the user revealed the post past a filter's warning (``PostFilter``): shared,
    /// like the rest, by every row and detail of the post.
    public var revealed: Bool
    /// Why a quote of the post is not shown: its author is muted (``Quote/State/mutedAccount``)
    /// or blocked (``Quote/State/blockedAccount``), or their domain is
    /// (``Quote/State/blockedDomain``) — as Mastodon hides such quotes. `nil` otherwise.
    public var authorHidden: Quote.State?

    public init(
        favourited: Bool,
        favouritesCount: Int,
        reblogged: Bool,
        reblogsCount: Int,
        bookmarked: Bool = false,
        pending: Set<InteractionKind> = [],
        queued: Set<InteractionKind> = [],
        queuedChanges: [QueuedChange] = [],
        failure: InteractionFailure? = nil,
        revealed: Bool = false,
        authorHidden: Quote.State? = nil
    ) {
        self.favourited = favourited
        self.favouritesCount = favouritesCount
        self.reblogged = reblogged
        self.reblogsCount = reblogsCount
        self.bookmarked = bookmarked
        self.pending = pending
        self.queued = queued
        self.queuedChanges = queuedChanges
        self.failure = failure
        self.revealed = revealed
        self.authorHidden = authorHidden
    }

    /// The interaction state a server copy of a post shows (its original's, for a reblog entry).
    public init(serverCopy post: Post) {
        self.init(
            favourited: post.isOn(.favourite),
            favouritesCount: post.count(.favourite),
            reblogged: post.isOn(.reblog),
            reblogsCount: post.count(.reblog),
            bookmarked: post.isOn(.bookmark)
        )
    }

    /// The flag of one kind.
    public func isOn(_ kind: InteractionKind) -> Bool {
        switch kind {
        case .favourite: favourited
        case .reblog: reblogged
        case .bookmark: bookmarked
        }
    }

    /// The count of one kind (0 for bookmarks, which have none).
    public func count(_ kind: InteractionKind) -> Int {
        switch kind {
        case .favourite: favouritesCount
        case .reblog: reblogsCount
        case .bookmark: 0
        }
    }
}

/// A change waiting in the outbox because its last attempt failed for lack of a connection:
/// why, how often, and when it is sent again. (``FeedSession/retry()`` sends it at once; the next
/// start sends what is left.)
public struct QueuedChange: Hashable, Sendable {
    public var kind: InteractionKind
    /// The value it will be set to.
    public var value: Bool
    /// Why the last attempt failed: the failure's sentence.
    public var reason: String
    /// How many attempts failed in a row.
    public var failedAttempts: Int
    /// How long after that failure it is sent again — the backoff (2 s, 4 s … 60 s), or the
    /// server's rate-limit reset when later; `nil` while it is being sent again.
    public var retryAfter: Duration?

    public init(kind: InteractionKind, value: Bool, reason: String, failedAttempts: Int, retryAfter: Duration?) {
        self.kind = kind
        self.value = value
        self.reason = reason
        self.failedAttempts = failedAttempts
        self.retryAfter = retryAfter
    }
}
