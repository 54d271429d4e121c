import Foundation

/// What you asked, answered: one change you made (a favourite, a follow, a domain block, a list's
/// title…) and what the server did with it — done, refused with its sentence, answered without
/// applying it, or queued for lack of a connection and sent again later.
///
/// Heard through ``FeedSession/observeOutcomes(_:)``. Every store of the session emits its
/// outcomes from one point of its convergence engine, so a front reports results in one place
/// instead of comparing store state with what it remembers asking.
public enum Outcome: Hashable, Sendable {
    /// The server confirmed it; nothing of it waits.
    case done(Subject)
    /// The server refused it with this sentence; every screen shows it as it was.
    case refused(Subject, sentence: String)
    /// The server answered without applying it; every screen shows what it has now.
    case notApplied(Subject)
    /// It failed for lack of a connection (`reason`): every screen keeps showing it and it is
    /// sent again after `resendAfter` (or at once by a retry). A later outcome of the same
    /// subject says how that ends.
    case queued(Subject, reason: String, resendAfter: Duration)

    /// The change asked for, with the value asked.
    public enum Subject: Hashable, Sendable {
        /// Favourite, boost or bookmark of a post set to the value.
        case interaction(InteractionKind, Bool, post: PostID)
        /// Follow, mute, block, notify or boosts of an account set to the value.
        case relationship(RelationshipKind, Bool, account: AccountID)
        /// A follow request of the account accepted (`true`) or rejected. Not sent again by
        /// itself: a failure is refused, whatever its reason.
        case followRequest(account: AccountID, accept: Bool)
        /// A domain blocked (`true`) or unblocked.
        case domainBlock(String, blocked: Bool)
        /// The account reported to your server's moderators (with the posts the report
        /// attaches): done once the server filed it; refused with its sentence (every row of
        /// the account and of the posts unmarked); queued when the server could not be reached.
        case report(account: AccountID)
        /// A hashtag (its key, ``Hashtag/key``) followed (`true`) or unfollowed.
        case tagFollow(String, following: Bool)
        /// An account added to (`true`) or removed from a list.
        case listMembership(list: String, account: AccountID, member: Bool)
        /// A list made or renamed (`title`: as the server answered it, or as asked when refused),
        /// or deleted (`nil`). `list` is the id it was asked with (a provisional one for a list
        /// being made, ``UserListRow/isProvisional``); `was` is its title as the server had it
        /// before (`nil` for a list being made).
        case list(String, title: String?, was: String?)
        /// One of your server filters made or changed (`title`: as the server answered it, or
        /// as asked when refused), or deleted (`nil`). `filter` is the id it was asked with (a
        /// local key for a filter being made); `was` is its title as the server had it before
        /// (`nil` for a filter being made).
        case filter(String, title: String?, was: String?)
        /// A conversation marked read (`true`) or unread.
        case conversationRead(String, read: Bool)
        /// A conversation removed.
        case conversationRemoval(String)
        /// A notification group (its key, ``NotificationGroup/id``) dismissed: off every
        /// notifications screen; refused, it is back where it was.
        case notificationDismissal(group: String)
        /// Every notification dismissed (a clear): off every notifications screen; refused, they
        /// are back where they were.
        case notificationsCleared
        /// One of the instance's announcements (its id) marked read: read on every screen;
        /// refused, it shows unread again with the server's sentence; queued when the server could
        /// not be reached.
        case announcementRead(String)
        /// The post (its original) translated (``FeedSession/translate(post:)``): done once the
        /// translation shows on every row and detail of it; refused with the server's sentence
        /// (it offers no translations, or not of this post), the original alone still showing.
        /// Not sent again by itself.
        case translation(post: PostID)
        /// One's own post (its original) deleted. Not sent again by itself: a failure is refused.
        case deletion(post: PostID)
        /// A vote in the poll of the post (its original) for `choices` (0-based, ascending). Not
        /// sent again by itself: a failure is refused, and the poll shows what the server has.
        case vote(post: PostID, choices: [Int])
        /// An edit of one's own post (its original), sent from a draft (see ``Drafts``): done
        /// once the server has the new text on every screen; refused with its sentence, the
        /// text as it was back everywhere (the draft keeps the edit); queued, with its delay,
        /// each time an attempt fails for lack of a connection (the new text stays shown, and
        /// the draft says so too: ``Submission/Phase/queued(reason:attempt:retryAfter:)``).
        case edit(post: PostID)
        /// A draft made to edit one's own post (``Drafts/startEdit(of:)``): `draft` names it
        /// when done (one already written for that post, or a new one filled with the post's
        /// source); `nil` when refused (the source could not be loaded: no draft was made).
        case editDraft(post: PostID, draft: DraftID?)
        /// One's own post deleted and made a draft again (``FeedSession/redraft(post:)``):
        /// `draft` names the new draft when done; `nil` when refused (the source could not be
        /// loaded and nothing was deleted, or the delete was refused).
        case redraft(post: PostID, draft: DraftID?)
        /// A scheduled post (the server's id of it) moved to `at`, or cancelled (`nil`).
        case scheduled(String, at: Date?)
        /// A field of your notification policy (its name, `not-following`…) set to `value`
        /// (`accept`, `filter` or `drop`): shown at once on every screen; refused, it is back as
        /// the server has it.
        case notificationPolicy(String, value: String)
        /// A request of filtered notifications (the server's id of it) accepted (`true`: its
        /// notifications join yours) or dismissed: off every screen at once; refused, it is back.
        case notificationRequest(String, accept: Bool)
        /// Your profile changed (its name, bio, fields or markers: `FeedSession.editProfile(_:)`).
        case profile
    }

    /// The change this outcome answers, whatever the server did with it.
    public var subject: Subject {
        switch self {
        case .done(let subject), .refused(let subject, _), .notApplied(let subject), .queued(let subject, _, _): subject
        }
    }

    /// Whether nothing more will be heard of it: every outcome but ``queued(_:reason:resendAfter:)``.
    public var isFinal: Bool {
        if case .queued = self { return false }
        return true
    }
}

extension ChangeOutcome {
    /// The value the report concerns: the one asked for.
    var value: Value {
        switch self {
        case .done(let value), .queued(let value, _, _), .refused(let value, _), .notApplied(let value, _): value
        }
    }

    /// The outcome of this report for the change `subject` names (given the value it concerns).
    func outcome(_ subject: (Value) -> Outcome.Subject) -> Outcome {
        switch self {
        case .done(let value): .done(subject(value))
        case .queued(let value, let reason, let after): .queued(subject(value), reason: reason, resendAfter: after)
        case .refused(let value, let message): .refused(subject(value), sentence: message)
        case .notApplied(let value, _): .notApplied(subject(value))
        }
    }
}

/// Where the session's outcomes go: every convergence engine of the session emits into one,
/// and fronts observe it (``FeedSession/observeOutcomes(_:)``).
@MainActor
package final class Outcomes {
    private let observers = HandlerList<Outcome>()

    package init() {}

    /// Calls every observer with `outcome`, in the order they subscribed.
    package func emit(_ outcome: Outcome) {
        observers.notify(outcome)
    }

    /// Calls `handler` on the main actor with every outcome, in order. Lasts as long as the token.
    package func observe(_ handler: @escaping @MainActor @Sendable (Outcome) -> Void) -> Subscription {
        observers.add(handler)
    }
}
