import Foundation

extension Submission {
    /// Applies `event`; events that do not fit the phase (an answer to an older attempt, an edit
    /// while sending, a second send) change nothing. The rules:
    /// - **editing**: edits change the draft; a send starts attempt 1 with the given key.
    /// - **sending / checking**: an answer (or a check that finds the post) ends it as sent; a
    ///   failure for lack of a connection queues attempt n+1 after the backoff (2 s doubling to
    ///   60 s, or the server's rate-limit reset when later) and — unless the server said when to
    ///   come back, which means it did nothing — records that the post may exist; a refusal
    ///   returns to editing with the server's sentence and forgets the key; a check that finds
    ///   nothing sends again, with the key's lifetime starting over.
    /// - **queued**: the wait's end or a retry sends the next attempt — or, when the post may
    ///   exist and the key is older than ``keyLifetime``, checks the newest posts first.
    /// - **restarted**: an attempt on its way at the restart is taken as lost (the post may
    ///   exist) and sent again at once; a queued one waits again.
    package mutating func reduce(_ event: SubmissionEvent) {
        switch (event, phase) {
        case (.edited(let draft), .editing):
            guard draft.id == self.draft.id else { return }
            self.draft = draft
        case (.submitted(let key, let at), .editing):
            self.key = key
            firstSentAt = at
            mayHaveCommitted = false
            refusal = nil
            start(.sending(attempt: 1))
        case (.answered(let token, let id), .sending), (.checked(let token, let id?, _), .checking):
            guard token == self.token else { return }
            phase = .sent(id)
        case (.scheduled(let token, let id), .sending), (.scheduled(let token, let id), .checking):
            guard token == self.token else { return }
            phase = .scheduled(id)
        case (.checked(let token, nil, let at), .checking(let attempt)):
            guard token == self.token else { return }
            // Nothing came of the lost attempts: the key has expired at the server, so this
            // attempt starts a new lifetime with it.
            firstSentAt = at
            mayHaveCommitted = false
            start(.sending(attempt: attempt))
        case (.failed(let token, let failure, _), .sending(let attempt)), (.failed(let token, let failure, _), .checking(let attempt)):
            guard token == self.token else { return }
            if failure.isTransient {
                if case .sending = phase, failure.retryAfter == nil { mayHaveCommitted = true }
                let delay = InteractionState.resendDelay(afterFailures: attempt, retryAfter: failure.retryAfter)
                start(.queued(reason: failure.message, attempt: attempt, retryAfter: delay))
            } else {
                refusal = failure.message
                key = nil
                firstSentAt = nil
                mayHaveCommitted = false
                self.token += 1
                phase = .editing
            }
        case (.waited(let token, let at), .queued(_, let attempt, _)):
            guard token == self.token else { return }
            next(after: attempt, at: at)
        case (.retryRequested(let at), .queued(_, let attempt, _)):
            next(after: attempt, at: at)
        case (.restarted(let at), .sending(let attempt)), (.restarted(let at), .checking(let attempt)):
            if case .sending = phase { mayHaveCommitted = true }
            next(after: attempt, at: at)
        case (.restarted, .queued):
            token += 1
        default:
            break
        }
    }

    /// What this submission needs now: the attempt on its way, or the wait before the next one.
    /// Queried after every event; a request with the same token is the same request.
    package var requests: [SubmissionRequest] {
        switch phase {
        case .sending:
            guard let key else { return [] }
            return [.send(draft.id, token: token, key: key, draft)]
        case .checking:
            return [.check(draft.id, token: token, since: firstSentAt ?? draft.createdAt, draft)]
        case .queued(_, _, let delay):
            return [.wait(draft.id, token: token, delay: delay)]
        case .editing, .sent, .scheduled:
            return []
        }
    }

    private mutating func start(_ phase: Phase) {
        token += 1
        self.phase = phase
    }

    private mutating func next(after attempt: Int, at now: Date) {
        let expired = firstSentAt.map { now.timeIntervalSince($0) >= Self.keyLifetime } ?? false
        if mayHaveCommitted, expired, draft.editing == nil {
            start(.checking(attempt: attempt + 1))
        } else {
            start(.sending(attempt: attempt + 1))
        }
    }

    /// Whether `post` (one of the account's newest) is what this draft became: same reply
    /// target, the same text and content warning once whitespace is set aside (the server
    /// returns HTML, which a front turns back into text that may differ in spacing only), made
    /// no earlier than a minute before the first attempt.
    package func matches(_ post: Post, since: Date) -> Bool {
        let original = post.content
        guard post.reblog == nil, original.inReplyToID == draft.inReplyTo, original.createdAt >= since.addingTimeInterval(-60) else { return false }
        return Self.squeezed(original.text) == Self.squeezed(draft.text)
            && Self.squeezed(original.contentWarning ?? "") == Self.squeezed(draft.warning ?? "")
    }

    /// Whether `scheduled` (one of the account's scheduled posts) is what this draft became:
    /// the same time, reply target, text and content warning (whitespace set aside).
    package func matches(_ scheduled: ScheduledPost) -> Bool {
        scheduled.scheduledAt == draft.scheduledAt && scheduled.inReplyTo == draft.inReplyTo
            && Self.squeezed(scheduled.text) == Self.squeezed(draft.text)
            && Self.squeezed(scheduled.contentWarning ?? "") == Self.squeezed(draft.warning ?? "")
    }

    private static func squeezed(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
