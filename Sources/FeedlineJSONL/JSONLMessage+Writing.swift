@_spi(FeedService) import Feedline
import Foundation

/// The writing messages: `draft`, `drafts`, `deleted` and `history`.
extension JSONLMessage {
    /// A draft's whole state: as the reply to `draft`, `editDraft` and `send` (with the
    /// command's `id`), and — without an `id` — whenever a submission changes on its own
    /// (sending, queued, checking, sent, refused). Problems and characters left are counted
    /// under `limits` (the server's once loaded).
    public static func draft(_ submission: Submission, limits: ComposeLimits, id: JSONLValue? = nil) -> JSONLValue {
        .object([("type", "draft")] + (id.map { [("id", $0)] } ?? []) + draftFields(submission, limits: limits))
    }

    /// Every draft and submission on its way, oldest first, each as a `draft` message's fields:
    /// `{"type":"drafts","id":…,"drafts":[{"draft":"1",…}]}`.
    public static func drafts(_ submissions: [Submission], limits: ComposeLimits, id: JSONLValue? = nil) -> JSONLValue {
        .object(
            [("type", "drafts")] + (id.map { [("id", $0)] } ?? [])
                + [("drafts", .array(submissions.map { .object(draftFields($0, limits: limits)) }))]
        )
    }

    /// The server deleted the post (`post`: the original's id); the reply to `delete`, before its `ok`.
    public static func deleted(_ post: PostID, id: JSONLValue?) -> JSONLValue {
        .object([("type", "deleted")] + (id.map { [("id", $0)] } ?? []) + [("post", .string(post.rawValue))])
    }

    /// Every version of a post, oldest first (the last is the post as it is now):
    /// `{"type":"history","id":…,"post":"1","versions":[{"text","cw","createdAt","media"}]}`, with
    /// `createdAt` in ISO 8601 and `media` as rows show them (one line per attachment). `post`
    /// is the original's id. A post never edited has one version.
    package static func history(_ post: PostID, versions: [PostVersion], id: JSONLValue?) -> JSONLValue {
        let listed: [JSONLValue] = versions.map { version in
            .object([
                ("text", .string(version.text)),
                ("cw", .optional(version.contentWarning)),
                ("createdAt", .string(ISO8601DateFormatter().string(from: version.createdAt))),
                ("media", .array(version.media.map { .string($0.summary) })),
            ])
        }
        return .object([("type", "history")] + (id.map { [("id", $0)] } ?? []) + [("post", .string(post.rawValue)), ("versions", .array(listed))])
    }

    /// A submission's fields, always all of them and in this order: what is sent (`draft`,
    /// `text`, `cw`, `visibility`, `language`, `sensitive`, `replyTo`, `editing` — the post an
    /// edit changes —, `poll`, `quote` — the post it quotes —, `quotable`), where it is
    /// (`phase`; `attempt` while sending, queued — the attempt that failed — or checking;
    /// `reason` and `retryIn` when queued; `post` when sent; `refusal` after the server refused
    /// it), and whether it can go (`problems`, `charactersLeft`). Fields that do not apply are `null`.
    static func draftFields(_ submission: Submission, limits: ComposeLimits) -> [(String, JSONLValue)] {
        let draft = submission.draft
        var attempt: Int?
        var reason: String?
        var retryIn: Duration?
        var post: PostID?
        let phase: String
        // A sent post has nothing left to fix (as ``ComposeViewModel`` shows it).
        var problems = draft.problems(limits: limits)
        switch submission.phase {
        case .editing:
            phase = "editing"
        case .sending(let number):
            phase = "sending"
            attempt = number
        case .queued(let why, let number, let after):
            phase = "queued"
            attempt = number
            reason = why
            retryIn = after
        case .checking(let number):
            phase = "checking"
            attempt = number
        case .sent(let id):
            phase = "sent"
            post = id
            problems = []
        case .scheduled:
            phase = "scheduled"
            problems = []
        }
        let poll: JSONLValue = draft.poll.map { poll in
            .object([
                ("options", .array(poll.options.map(JSONLValue.string))), ("expiresIn", .int(poll.expiresIn)), ("multiple", .bool(poll.multiple)),
            ])
        } ?? .null
        return [
            ("draft", .string(draft.id.rawValue)),
            ("text", .string(draft.text)),
            ("cw", .optional(draft.warning)),
            ("visibility", .string(draft.visibility.rawValue)),
            ("language", .optional(draft.language)),
            ("sensitive", .bool(draft.sensitive)),
            ("replyTo", .optional(draft.inReplyTo?.rawValue)),
            ("editing", .optional(draft.editing?.rawValue)),
            ("poll", poll),
            ("quote", .optional(draft.quoting?.rawValue)),
            ("quotable", .optional(draft.quotePolicy?.rawValue)),
            ("phase", .string(phase)),
            ("attempt", attempt.map(JSONLValue.int) ?? .null),
            ("reason", .optional(reason)),
            ("retryIn", retryIn.map { .number(seconds($0)) } ?? .null),
            ("post", .optional(post?.rawValue)),
            ("refusal", .optional(submission.refusal)),
            ("problems", .array(problems.map { .string($0.description) })),
            ("charactersLeft", .int(draft.charactersLeft(limits: limits))),
        ] + scheduleFields(submission)
    }

    /// A scheduled draft's fields, after the others and only when it is scheduled: `schedule`
    /// (when it goes, ISO 8601 UTC) and `scheduled` (the server's id of the scheduled post once
    /// it has it, else `null`).
    static func scheduleFields(_ submission: Submission) -> [(String, JSONLValue)] {
        guard submission.draft.isScheduled, let at = submission.draft.scheduledAt else { return [] }
        var id: String?
        if case .scheduled(let made) = submission.phase { id = made }
        return [("schedule", .string(timestamp(at))), ("scheduled", .optional(id))]
    }
}

extension JSONLMessage {
    /// `date` in ISO 8601, UTC, to the second: `2026-12-01T08:00:00Z`.
    static func timestamp(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: date)
    }
}
