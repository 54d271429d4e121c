import Foundation

/// A draft and where it is on its way to the server: the value a front shows and the state
/// store saves (a submission saved at any moment and restored at the next start is sent at most
/// once more per attempt that had no answer, always with the same idempotency key).
///
/// One submission is one post: it has one ``key`` (Mastodon's `Idempotency-Key`) from the moment
/// it is sent until it is answered, kept on every attempt and across restarts, so a server that
/// committed a post whose answer was lost answers the next attempt with that same post.
public struct Submission: Hashable, Sendable, Codable, Identifiable {
    /// Where the submission is.
    public enum Phase: Hashable, Sendable, Codable {
        /// Being written, or back after a refusal (see ``Submission/refusal``).
        case editing
        /// Attempt `attempt` (1-based) is on its way.
        case sending(attempt: Int)
        /// Attempt `attempt` failed for lack of a connection (or a rate limit): the next is sent
        /// after `retryAfter` (from the failure; at once on a retry), with the same key.
        case queued(reason: String, attempt: Int, retryAfter: Duration)
        /// Past the key's lifetime after an answer was lost: the account's newest posts are being
        /// checked for the post before sending again (attempt `attempt`).
        case checking(attempt: Int)
        /// The server has it: the post's id.
        case sent(PostID)
        /// The server keeps it to publish at ``Draft/scheduledAt``: the scheduled post's id
        /// (see `ScheduledPost`).
        case scheduled(String)
    }

    /// How long a server remembers an idempotency key (Mastodon: one hour).
    public static let keyLifetime: TimeInterval = 3_600

    public var id: DraftID { draft.id }
    /// What is sent (changed only while ``Phase/editing``).
    public package(set) var draft: Draft
    public package(set) var phase: Phase
    /// The idempotency key of this submission; `nil` until first sent, and again after a refusal
    /// (the server made nothing of it: the next send is a new submission).
    public package(set) var key: String?
    /// When the first attempt with ``key`` went out (by the session's wall clock).
    public package(set) var firstSentAt: Date?
    /// Whether an attempt may have reached the server without its answer reaching us (a lost
    /// connection, a timeout, a 5xx, a restart mid-send): the post may exist already.
    public package(set) var mayHaveCommitted: Bool
    /// The server's sentence when it refused the last attempt (422, 401, 403 …); the draft is
    /// back in ``Phase/editing``.
    public package(set) var refusal: String?
    /// Bumped whenever a request starts or a wait begins: answers to an older one are ignored.
    package var token: Int

    /// A draft not sent yet.
    public init(draft: Draft) {
        self.draft = draft
        phase = .editing
        key = nil
        firstSentAt = nil
        mayHaveCommitted = false
        refusal = nil
        token = 0
    }

    /// Whether it is on its way: sending, queued or checking.
    public var isInFlight: Bool {
        switch phase {
        case .sending, .queued, .checking: true
        case .editing, .sent, .scheduled: false
        }
    }

    /// Whether its draft can still change (it is being written, or came back refused).
    public var isEditable: Bool { phase == .editing }
}

/// What happens to a submission.
package enum SubmissionEvent: Hashable, Sendable {
    /// The user changed the draft (only while editing; ignored otherwise).
    case edited(Draft)
    /// The user sent it, with a new idempotency key, at this time.
    case submitted(key: String, at: Date)
    /// The server answered attempt `token` with the post.
    case answered(token: Int, PostID)
    /// The server answered attempt `token` (a send, or a check that found it) of a scheduled
    /// draft with the scheduled post's id.
    case scheduled(token: Int, String)
    /// Attempt `token` (a send or a check) failed.
    case failed(token: Int, FeedFailure, at: Date)
    /// The wait `token` before the next attempt is over.
    case waited(token: Int, at: Date)
    /// The user asked to try again now (a queued submission is sent at once).
    case retryRequested(at: Date)
    /// The check `token` of the account's newest posts found the post (or not).
    case checked(token: Int, found: PostID?, at: Date)
    /// The session started again with this saved submission: an attempt that was on its way
    /// has no answer and never will.
    case restarted(at: Date)
}

/// What a submission needs done now.
package enum SubmissionRequest: Hashable, Sendable {
    /// Send the draft with its key (or, for an edit, the edit).
    case send(DraftID, token: Int, key: String, Draft)
    /// Look at the account's newest posts (made since `since`) for one matching the draft.
    case check(DraftID, token: Int, since: Date, Draft)
    /// Wait before the next attempt.
    case wait(DraftID, token: Int, delay: Duration)

    package var draftID: DraftID {
        switch self {
        case .send(let id, _, _, _), .check(let id, _, _, _), .wait(let id, _, _): id
        }
    }

    /// Whether it only waits (counted as waiting, not work, by the session's activity).
    package var isWait: Bool {
        if case .wait = self { return true }
        return false
    }
}
