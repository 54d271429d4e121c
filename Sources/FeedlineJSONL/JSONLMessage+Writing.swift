import Feedline

/// The writing messages: `draft`, `drafts` and `deleted`.
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

    /// A submission's fields, always all of them and in this order: what is sent (`draft`,
    /// `text`, `cw`, `visibility`, `language`, `sensitive`, `replyTo`, `poll`), where it is
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
            ("poll", poll),
            ("phase", .string(phase)),
            ("attempt", attempt.map(JSONLValue.int) ?? .null),
            ("reason", .optional(reason)),
            ("retryIn", retryIn.map { .number(seconds($0)) } ?? .null),
            ("post", .optional(post?.rawValue)),
            ("refusal", .optional(submission.refusal)),
            ("problems", .array(problems.map { .string($0.description) })),
            ("charactersLeft", .int(draft.charactersLeft(limits: limits))),
        ]
    }
}
