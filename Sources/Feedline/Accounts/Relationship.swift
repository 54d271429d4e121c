import Foundation

/// How the signed-in user and one account relate, as Mastodon's `Relationship` says — or, in a
/// ``RelationshipDisplay`` (``FeedSession/relationship(_:)``), as the user wants it while
/// the server has not answered yet. A service's value: a front reads the display, which
/// carries every field of it.
@_spi(FeedService) public struct Relationship: Hashable, Sendable, Codable {
    /// The account it is about.
    public var accountID: AccountID
    /// You follow them.
    public var following: Bool
    /// You asked to follow them and they have not answered yet (the server says so; it is never
    /// inferred from the account being locked: unlocked accounts can hold requests too).
    public var requested: Bool
    /// They follow you.
    public var followedBy: Bool
    /// They asked to follow you and wait for your answer (Mastodon's `requested_by`).
    public var requestedBy: Bool
    /// You muted them.
    public var muting: Bool
    /// Your mute hides their notifications too.
    public var mutingNotifications: Bool
    /// When your mute of them ends; `nil` for a mute without end (or none).
    public var mutingUntil: Date?
    /// You blocked them.
    public var blocking: Bool
    /// They blocked you.
    public var blockedBy: Bool
    /// You blocked their whole domain.
    public var domainBlocking: Bool
    /// You are told when they post (only while you follow them).
    public var notifying: Bool
    /// Their boosts show in your home timeline (only while you follow them).
    public var showingBoosts: Bool
    /// Your private note about them.
    public var note: String

    /// A relationship with nothing set (boosts shown, as Mastodon starts a follow).
    public init(
        accountID: AccountID, following: Bool = false, requested: Bool = false, followedBy: Bool = false, muting: Bool = false,
        mutingNotifications: Bool = false, mutingUntil: Date? = nil, blocking: Bool = false, blockedBy: Bool = false,
        domainBlocking: Bool = false, notifying: Bool = false, showingBoosts: Bool = true, note: String = "",
        requestedBy: Bool = false
    ) {
        self.accountID = accountID
        self.following = following
        self.requested = requested
        self.followedBy = followedBy
        self.requestedBy = requestedBy
        self.muting = muting
        self.mutingNotifications = mutingNotifications
        self.mutingUntil = mutingUntil
        self.blocking = blocking
        self.blockedBy = blockedBy
        self.domainBlocking = domainBlocking
        self.notifying = notifying
        self.showingBoosts = showingBoosts
        self.note = note
    }

    /// Whether `kind` is on: for ``RelationshipKind/follow``, following *or* requested (a request
    /// answers a follow as the server took it).
    public func isOn(_ kind: RelationshipKind) -> Bool {
        switch kind {
        case .follow: following || requested
        case .mute: muting
        case .block: blocking
        case .notify: notifying
        case .boosts: showingBoosts
        }
    }

    /// Whether their posts, boosts and notifications are kept off your lists: you muted or
    /// blocked them (or their domain).
    public var hidesTheirPosts: Bool { muting || blocking || domainBlocking }
}

/// The things a user sets about an account. All of them share the convergence machine of post
/// interactions: optimistic, at most one request per account and kind in flight, extra taps
/// only move the desired value, rollback with a reason on refusal, re-sent with backoff when the
/// server could not be reached.
public enum RelationshipKind: String, Hashable, Sendable, CaseIterable, Codable, CustomStringConvertible {
    /// Follow (or ask to follow) them.
    case follow
    /// Mute them (for how long, and whether their notifications too:
    /// ``FeedSession/mute(account:for:notifications:)``).
    case mute
    /// Block them.
    case block
    /// Be told when they post (sent as a follow with `notify`).
    case notify
    /// Show their boosts in home (sent as a follow with `reblogs`).
    case boosts

    public var description: String { rawValue }

    /// The verb for setting it to `value`: "follow", "unmute", "turn off the boosts of" …
    public func verb(_ value: Bool) -> String {
        switch (self, value) {
        case (.follow, true): "follow"
        case (.follow, false): "unfollow"
        case (.mute, true): "mute"
        case (.mute, false): "unmute"
        case (.block, true): "block"
        case (.block, false): "unblock"
        case (.notify, true): "turn on post notifications for"
        case (.notify, false): "turn off post notifications for"
        case (.boosts, true): "show the boosts of"
        case (.boosts, false): "hide the boosts of"
        }
    }
}

/// How a mute is made: for how long, and whether it hides their notifications too
/// (Mastodon's `duration` and `notifications`), as a service sends it. Fronts mute with
/// ``FeedSession/mute(account:for:notifications:)``.
@_spi(FeedService) public struct MuteOptions: Hashable, Sendable, Codable {
    /// How long the mute lasts; `nil` for a mute without end.
    public var duration: Duration?
    /// Whether their notifications are hidden too (Mastodon's default: yes).
    public var notifications: Bool

    public init(duration: Duration? = nil, notifications: Bool = true) {
        self.duration = duration
        self.notifications = notifications
    }
}

/// A failed change of a relationship, shown with the account until the user acts on it again.
package typealias RelationshipFailure = ToggleFailure<RelationshipKind>

/// How you and one account relate, as every header, row and search result that shows the
/// account shows it: each setting at the value you want, what waits for the server, and the
/// last failure.
public struct RelationshipDisplay: Hashable, Sendable {
    /// The relationship with every kind at the value the user wants.
    package var relationship: Relationship
    /// Kinds waiting for the server (a request in flight, or a re-send after a lost connection).
    public var pending: Set<RelationshipKind>
    /// The last refusal, until the next change of this account.
    public var failure: ToggleFailure<RelationshipKind>?
    /// The user's answer to the account's follow request, once given (see
    /// ``FeedListViewModel/answerRequest(row:accept:)``): ``ToggleDisplay/isOn`` is whether it
    /// accepts, ``ToggleDisplay/pending`` whether the server has not answered yet, and
    /// ``ToggleDisplay/failure`` why the server refused it (the request still waits; answering
    /// again sends it again).
    public var requestAnswer: ToggleDisplay?

    package init(
        relationship: Relationship, pending: Set<RelationshipKind> = [], failure: ToggleFailure<RelationshipKind>? = nil,
        requestAnswer: ToggleDisplay? = nil
    ) {
        self.relationship = relationship
        self.pending = pending
        self.failure = failure
        self.requestAnswer = requestAnswer
    }
}

extension RelationshipDisplay {
    /// The account it is about.
    public var accountID: AccountID { relationship.accountID }
    /// You follow them.
    public var following: Bool { relationship.following }
    /// You asked to follow them and they have not answered yet (the server says so; it is never
    /// inferred from the account being locked: unlocked accounts can hold requests too).
    public var requested: Bool { relationship.requested }
    /// They follow you.
    public var followedBy: Bool { relationship.followedBy }
    /// They asked to follow you and wait for your answer (see ``requestAnswer``).
    public var requestedBy: Bool { relationship.requestedBy }
    /// You muted them.
    public var muting: Bool { relationship.muting }
    /// Your mute hides their notifications too.
    public var mutingNotifications: Bool { relationship.mutingNotifications }
    /// When your mute of them ends; `nil` for a mute without end (or none).
    public var mutingUntil: Date? { relationship.mutingUntil }
    /// You blocked them.
    public var blocking: Bool { relationship.blocking }
    /// They blocked you.
    public var blockedBy: Bool { relationship.blockedBy }
    /// You blocked their whole domain.
    public var domainBlocking: Bool { relationship.domainBlocking }
    /// You are told when they post (only while you follow them).
    public var notifying: Bool { relationship.notifying }
    /// Their boosts show in your home timeline (only while you follow them).
    public var showingBoosts: Bool { relationship.showingBoosts }
    /// Your private note about them.
    public var note: String { relationship.note }

    /// Whether `kind` is on, at the value you want: for ``RelationshipKind/follow``, following
    /// *or* requested (a request answers a follow as the server took it).
    public func isOn(_ kind: RelationshipKind) -> Bool { relationship.isOn(kind) }

    /// Whether their posts, boosts and notifications are kept off your lists: you muted or
    /// blocked them (or their domain).
    public var hidesTheirPosts: Bool { relationship.hidesTheirPosts }
}
