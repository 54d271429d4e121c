/// The things a user does to a post. All of them share one convergence machine
/// (`InteractionState`): optimistic, at most one request per post and kind in flight, extra
/// taps only move the desired value, rollback with a reason on refusal, and an outbox for what
/// failed for lack of a connection (kept pending and sent again with backoff).
public enum InteractionKind: String, Hashable, Sendable, CaseIterable, Codable, CustomStringConvertible {
    case favourite
    /// A boost.
    case reblog
    case bookmark
    /// Pinned to the top of the user's profile: their own post only (see
    /// ``refusal(_:of:by:thread:)``), at most five on Mastodon.
    case pin
    /// The post's conversation muted: no notifications from it (the server filters them).
    case muteThread

    public var description: String { rawValue }

    /// Whether the server keeps a public count of it (favourites and boosts only).
    public var isCounted: Bool { self == .favourite || self == .reblog }

    /// The verb for setting it to `value`: "favourite", "unboost", "bookmark" …
    public func verb(_ value: Bool) -> String {
        switch (self, value) {
        case (.favourite, true): "favourite"
        case (.favourite, false): "unfavourite"
        case (.reblog, true): "boost"
        case (.reblog, false): "unboost"
        case (.bookmark, true): "bookmark"
        case (.bookmark, false): "remove the bookmark of"
        case (.pin, true): "pin"
        case (.pin, false): "unpin"
        case (.muteThread, true): "mute the conversation of"
        case (.muteThread, false): "unmute the conversation of"
        }
    }

    /// Why setting it to `value` on `post` is refused before anything is sent, as Mastodon
    /// would refuse it — `nil` when it may be sent. `me` is the signed-in account (`nil`
    /// while unknown: the server decides); `thread` the other posts of the post's conversation
    /// known here (its ancestors and replies, as far as loaded).
    ///
    /// - A pin is of one's own post (`Someone else's post cannot be pinned`), not a boost,
    ///   and not a direct message (Mastodon 4 pins followers-only posts too).
    /// - A conversation is muted only by someone taking part in it: its posts, as known, include
    ///   one of theirs or one that mentions them.
    ///
    /// Removing (`value` false) is never refused: the server unpins or unmutes what it can.
    public func refusal(_ value: Bool, of post: Post, by me: Author?, thread: [Post] = []) -> String? {
        guard value, let me else { return nil }
        let original = post.content
        switch self {
        case .favourite, .reblog, .bookmark:
            return nil
        case .pin:
            if original.author.id != me.id {
                return "Only your own posts can be pinned; this one is by @\(original.author.handle)."
            }
            if original.visibility == .direct { return "A direct message cannot be pinned: only the people it mentions see it." }
            return nil
        case .muteThread:
            let takesPart = ([original] + thread).contains { $0.content.author.id == me.id || $0.content.mentions.contains { $0.lowercased() == me.handle.lowercased() } }
            return takesPart ? nil : "Only a conversation you take part in can be muted: none of its posts shown here is yours or mentions you."
        }
    }
}

/// A failed interaction, shown on the post until the user acts on it again.
package typealias InteractionFailure = ToggleFailure<InteractionKind>

/// What every row and detail shows for a post's interactions: the optimistic flags and counts,
/// which kinds are waiting for the server, and the last failure.
public struct PostInteraction: Hashable, Sendable {
    public var favourited: Bool
    public var favouritesCount: Int
    public var reblogged: Bool
    public var reblogsCount: Int
    public var bookmarked: Bool
    /// Whether the post is pinned to the top of the user's profile (their own post).
    public var pinned: Bool
    /// Whether the post's conversation is muted: no notifications from it.
    public var muted: Bool
    /// Kinds waiting for the server: a request in flight, or a change queued in the outbox
    /// (the display shows the desired value meanwhile).
    public var pending: Set<InteractionKind>
    /// The pending kinds whose requests failed for lack of a connection: queued in the outbox
    /// until the server is back (sent again with backoff, at ``FeedSession/retry()`` and at the
    /// next start), as opposed to simply being sent. Always a subset of ``pending``; a front may
    /// show them as "waiting for the server" rather than "sending".
    public var queued: Set<InteractionKind>
    /// Why each queued kind waits and when it is sent again, in `InteractionKind.allCases`
    /// order: one entry per kind of ``queued`` (the REPL's and JSON-lines' outbox views read it).
    package var queuedChanges: [QueuedChange]
    /// The last failure, cleared when the user toggles or retries this post.
    public var failure: ToggleFailure<InteractionKind>?
    /// Whether the user revealed the post past a filter's warning (``PostFilter``): shared,
    /// like the rest, by every row and detail of the post.
    public var revealed: Bool
    /// Why a quote of the post is not shown: its author is muted (``QuoteState/mutedAccount``)
    /// or blocked (``QuoteState/blockedAccount``), or their domain is
    /// (``QuoteState/blockedDomain``) — as Mastodon hides such quotes. `nil` otherwise.
    public var authorHidden: QuoteState?
    /// Where the post's translation stands — shared, like ``revealed``, by every row and detail
    /// of the post (``FeedSession/translate(post:)``, ``FeedSession/showOriginal(post:)``).
    package var translation: TranslationState = .original
    /// The post's report to the moderators, when it is attached to one you made this session
    /// (see ``FeedSession/reportMark(of:)``) — shared, like ``revealed``, by every row and detail.
    package var reported: ToggleDisplay?

    /// Whether the post's translation was asked of the server and has not come yet.
    public var isTranslating: Bool { translation == .translating }
    /// The post's text translated, shown under the original; `nil` while the original alone shows.
    public var translatedText: String? { shownTranslation?.text }
    /// The translated content warning, when the translation shows and the post has one.
    public var translatedContentWarning: String? { shownTranslation?.contentWarning }
    /// The language the shown translation was made from, as the provider detected it (ISO 639).
    public var translatedFrom: String? { shownTranslation?.sourceLanguage }
    /// Who made the shown translation ("DeepL.com").
    public var translatedBy: String? { shownTranslation?.provider }
    /// The translation that shows, if any.
    @_spi(FeedService) public var shownTranslation: PostTranslation? {
        if case .translated(let translation) = translation { return translation }
        return nil
    }

    public init(
        favourited: Bool,
        favouritesCount: Int,
        reblogged: Bool,
        reblogsCount: Int,
        bookmarked: Bool = false,
        pinned: Bool = false,
        muted: Bool = false,
        pending: Set<InteractionKind> = [],
        queued: Set<InteractionKind> = [],
        failure: ToggleFailure<InteractionKind>? = nil,
        revealed: Bool = false,
        authorHidden: QuoteState? = nil
    ) {
        self.init(
            favourited: favourited, favouritesCount: favouritesCount, reblogged: reblogged, reblogsCount: reblogsCount,
            bookmarked: bookmarked, pinned: pinned, muted: muted, pending: pending, queued: queued, queuedChanges: [],
            failure: failure, revealed: revealed, authorHidden: authorHidden
        )
    }

    /// As the public one, with why each queued kind waits (the store's view of its machines).
    package init(
        favourited: Bool,
        favouritesCount: Int,
        reblogged: Bool,
        reblogsCount: Int,
        bookmarked: Bool = false,
        pinned: Bool = false,
        muted: Bool = false,
        pending: Set<InteractionKind> = [],
        queued: Set<InteractionKind> = [],
        queuedChanges: [QueuedChange],
        failure: ToggleFailure<InteractionKind>? = nil,
        revealed: Bool = false,
        authorHidden: QuoteState? = nil
    ) {
        self.favourited = favourited
        self.favouritesCount = favouritesCount
        self.reblogged = reblogged
        self.reblogsCount = reblogsCount
        self.bookmarked = bookmarked
        self.pinned = pinned
        self.muted = muted
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
            bookmarked: post.isOn(.bookmark),
            pinned: post.isOn(.pin),
            muted: post.isOn(.muteThread)
        )
    }

    /// The flag of one kind.
    public func isOn(_ kind: InteractionKind) -> Bool {
        switch kind {
        case .favourite: favourited
        case .reblog: reblogged
        case .bookmark: bookmarked
        case .pin: pinned
        case .muteThread: muted
        }
    }

    /// The count of one kind (0 for bookmarks, pins and muted conversations, which have none).
    public func count(_ kind: InteractionKind) -> Int {
        switch kind {
        case .favourite: favouritesCount
        case .reblog: reblogsCount
        case .bookmark, .pin, .muteThread: 0
        }
    }
}

/// A change waiting in the outbox because its last attempt failed for lack of a connection:
/// why, how often, and when it is sent again. (``FeedSession/retry()`` sends it at once; the next
/// start sends what is left.)
package struct QueuedChange: Hashable, Sendable {
    package var kind: InteractionKind
    /// The value it will be set to.
    package var value: Bool
    /// Why the last attempt failed: the failure's sentence.
    package var reason: String
    /// How many attempts failed in a row.
    package var failedAttempts: Int
    /// How long after that failure it is sent again — the backoff (2 s, 4 s … 60 s), or the
    /// server's rate-limit reset when later; `nil` while it is being sent again.
    package var retryAfter: Duration?

    package init(kind: InteractionKind, value: Bool, reason: String, failedAttempts: Int, retryAfter: Duration?) {
        self.kind = kind
        self.value = value
        self.reason = reason
        self.failedAttempts = failedAttempts
        self.retryAfter = retryAfter
    }
}
