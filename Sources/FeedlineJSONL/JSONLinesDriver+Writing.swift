@_spi(FeedService) import Feedline

/// Writing: `draft`, `editDraft`, `send`, `discard`, `drafts` and `delete` (`editPost`,
/// `redraft`, `vote` and `history` are in `JSONLinesDriver+Posts.swift`), and the `draft`
/// messages every change of a submission writes.
///
/// A command that changes a draft replies with one `draft` message carrying its `id`: the
/// draft's state once the command is carried out. Every other change of a submission (an attempt
/// failing, queued, sent, refused — whatever caused it) is written as it happens, without an `id`.
extension JSONLinesDriver {
    /// Carries out a writing command; the error's sentence when it cannot.
    func carryOut(writing action: JSONLCommand.Action, id: JSONLValue?) async -> String? {
        let drafts = session.drafts
        switch action {
        case .draft(let replyTo, let fields):
            var original: Post?
            if let replyTo {
                guard let post = session.store.post(replyTo) else { return Self.unknownPost(replyTo) }
                original = post
            }
            // The account's defaults and handle first: a reply never mentions the account itself.
            await loadAccount()
            if drafts.account == nil, let failure = drafts.settingsFailure { return "Cannot write here: \(failure.message)" }
            let (quoted, problem) = quotedPost(fields)
            if let problem { return problem }
            if let problem = scheduleProblem(fields) { return problem }
            var made: DraftID?
            let changed = holdingDraftChanges {
                let started = original.map(drafts.startReply(to:)) ?? drafts.startPost()
                drafts.update(started) { draft in
                    // A reply's text goes after the mentions it starts with, as the REPL's does.
                    let mentions = draft.text
                    fields.apply(to: &draft)
                    if let text = fields.text { draft.text = mentions + text }
                }
                if let quoted { drafts.quote(quoted, in: started) }
                if let schedule = fields.schedule { _ = try? drafts.schedule(started, at: schedule) }
                made = started
            }
            if let made { reply(made, changed: changed, id: id) }
        case .editDraft(let draft, let fields):
            if let problem = editable(draft, refusal: { "Draft \($0) is on its way (\($1)); only a draft being written can change." }) {
                return problem
            }
            // A client may send back the visibility it was shown; a different one is refused
            // rather than dropped without a word.
            if let current = drafts[draft]?.draft, let edited = current.editing, let visibility = fields.visibility, visibility != current.visibility {
                return "Draft \(JSONLCommand.echo(draft.rawValue)) edits post \(edited): an edit cannot change who may see the post."
            }
            let (quoted, problem) = quotedPost(fields)
            if let problem { return problem }
            if fields.quote != nil, drafts[draft]?.draft.editing != nil { return "An edit cannot change what a post quotes." }
            if let problem = scheduleProblem(fields) { return problem }
            if fields.schedule != nil, drafts[draft]?.draft.editing != nil { return "An edit cannot be scheduled: it goes at once." }
            let changed = holdingDraftChanges {
                drafts.update(draft) { fields.apply(to: &$0) }
                if fields.quote != nil { drafts.quote(quoted, in: draft) }
                if let schedule = fields.schedule { _ = try? drafts.schedule(draft, at: schedule) }
            }
            reply(draft, changed: changed, id: id)
        case .send(let draft):
            if let problem = editable(draft, refusal: { "Draft \($0) is on its way already (\($1)); retry sends a queued one at once." }) {
                return problem
            }
            var problems: [DraftProblem] = []
            let changed = holdingDraftChanges { problems = drafts.send(draft) }
            guard problems.isEmpty else {
                return "Draft \(draft) is not sent: " + problems.map(\.description).joined(separator: " ")
            }
            reply(draft, changed: changed, id: id)
        case .discard(let draft):
            if let problem = editable(draft, refusal: { "Draft \($0) is on its way (\($1)) and cannot be thrown away: a post may be made of it." }) {
                return problem
            }
            drafts.discard(draft)
        case .drafts:
            emit(JSONLMessage.drafts(drafts.all, limits: drafts.limits, id: id))
        case .delete(let post):
            // Someone else's post the session knows is refused without asking (the server would
            // refuse too, after the post had left every list for a moment): the account first.
            await loadAccount()
            if let me = drafts.account, let known = session.store.post(post), known.content.author.id != me.id {
                return "Only your own posts can be deleted; post \(JSONLCommand.echo(post.rawValue)) is by @\(known.content.author.handle)."
            }
            let session = session
            let original = session.store.originalID(of: post) ?? post
            switch await outcome(of: .deletion(post: original), after: { session.delete(post: post) }) {
            case .success(let outcome):
                if case .refused(_, let sentence) = outcome { return "Could not delete post \(JSONLCommand.echo(post.rawValue)): \(sentence)" }
                emit(JSONLMessage.deleted(original, id: id))
            case .failure(let failure): return "Could not delete post \(JSONLCommand.echo(post.rawValue)): \(failure.message)"
            }
        case .editPost, .redraft, .vote, .history:
            return await carryOut(postWriting: action, id: id)
        default:
            break
        }
        return nil
    }

    /// Returns once the account's settings (its handle, defaults and the server's limits) are
    /// loaded or failed to load: at once when they are known, else after one request.
    func loadAccount() async {
        let drafts = session.drafts
        await withCheckedContinuation { (loaded: CheckedContinuation<Void, Never>) in
            drafts.load { loaded.resume() }
        }
    }

    /// A submission changed: written at once, or kept for the reply of the command changing it.
    func submissionChanged(_ submission: Submission) {
        if heldDraftChanges != nil {
            heldDraftChanges?.append(submission)
            return
        }
        if let before = draftsBeforeWait, !before.contains(submission.id) {
            heldNewDrafts.append(submission)
            return
        }
        emit(JSONLMessage.draft(submission, limits: session.drafts.limits))
    }

    /// Runs `body` (a command's synchronous calls into the drafts) and returns the changes of
    /// submissions it made, in order, instead of writing them.
    private func holdingDraftChanges(_ body: () -> Void) -> [Submission] {
        heldDraftChanges = []
        body()
        let held = heldDraftChanges ?? []
        heldDraftChanges = nil
        return held
    }

    /// Writes the state of draft `target` after a command, with the command's `id`: one message
    /// however many changes the command made. (Changes of other drafts cannot happen in a
    /// command's synchronous calls; should one, it is written as on its own.)
    func reply(_ target: DraftID, changed: [Submission], id: JSONLValue?) {
        let limits = session.drafts.limits
        for other in changed where other.id != target { emit(JSONLMessage.draft(other, limits: limits)) }
        guard let submission = changed.last(where: { $0.id == target }) ?? session.drafts[target] else { return }
        emit(JSONLMessage.draft(submission, limits: limits, id: id))
    }

    /// `nil` when draft `id` exists and is being written; else why not: unknown, or on its way
    /// (`refusal` makes that sentence from the id and the phase's name).
    /// Why the `schedule` of `fields` cannot be taken (a time it cannot read, or too soon by the
    /// session's clock), before anything changes; `nil` when it can, or there is none.
    private func scheduleProblem(_ fields: JSONLCommand.DraftFields) -> String? {
        guard case .some(.some(let text)) = fields.schedule else { return nil }
        do {
            _ = try ScheduleTime.parse(text, now: session.clock.now(), timeZone: session.clock.timeZone)
            return nil
        } catch {
            return error.message
        }
    }

    private func editable(_ id: DraftID, refusal: (String, String) -> String) -> String? {
        guard let submission = session.drafts[id] else {
            return "Unknown draft \(JSONLCommand.echo(id.rawValue)): no draft or post on its way has that id."
        }
        guard !submission.isEditable else { return nil }
        let phase = switch submission.phase {
        case .sending: "sending"
        case .queued: "queued"
        case .checking: "checking"
        case .editing, .sent, .scheduled: "sent"  // not reached: editing is editable, a sent one is gone
        }
        return refusal(JSONLCommand.echo(id.rawValue), phase)
    }

    /// The post a draft command's `quote` names (`nil` when it names none), or why it cannot be
    /// quoted: a post no screen shows, or one whose policy does not let the account quote it
    /// (``Feedline/Post/quoteRefusal(by:)``) — checked before anything of the draft changes.
    private func quotedPost(_ fields: JSONLCommand.DraftFields) -> (post: Post?, problem: String?) {
        guard case .some(.some(let id)) = fields.quote else { return (nil, nil) }
        guard let post = session.store.post(id) else { return (nil, Self.unknownPost(id)) }
        if let refusal = post.quoteRefusal(by: session.drafts.account) {
            return (nil, "Post \(JSONLCommand.echo(id.rawValue)) cannot be quoted: \(refusal)")
        }
        return (post, nil)
    }

    static func unknownPost(_ id: PostID) -> String {
        "Unknown post \(JSONLCommand.echo(id.rawValue)): no screen on the stack shows it."
    }
}
