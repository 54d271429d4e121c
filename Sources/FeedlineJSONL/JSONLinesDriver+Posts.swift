@_spi(FeedService) import Feedline

/// Writing on posts that exist: `editPost`, `redraft`, `vote` and `history`. Each waits for the
/// server before its reply; what changes meanwhile on the screens (an edit or a vote shown at
/// once, a redrafted post leaving the lists) is written as it happens, before the reply.
extension JSONLinesDriver {
    /// Carries out one of these commands; the error's sentence when it cannot.
    func carryOut(postWriting action: JSONLCommand.Action, id: JSONLValue?) async -> String? {
        switch action {
        case .editPost(let post):
            guard let known = session.store.post(post) else { return Self.unknownPost(post) }
            await loadAccount()
            if let problem = notOwn(known, post: post, verb: "edited") { return problem }
            let drafts = session.drafts
            let (result, held) = await waitingForNewDraft {
                await self.outcome(of: .editDraft(post: known.content.id, draft: nil)) {
                    drafts.startEdit(of: known)
                    return nil
                }
            }
            switch Self.draftMade(result) {
            case .success(let made): reply(made, changed: held, id: id)
            case .failure(let failure):
                writeUnasked(held)
                return "Cannot edit post \(JSONLCommand.echo(post.rawValue)): \(failure.message)"
            }
        case .redraft(let post):
            guard let known = session.store.post(post) else { return Self.unknownPost(post) }
            await loadAccount()
            if let problem = notOwn(known, post: post, verb: "redrafted") { return problem }
            let session = session
            let (result, held) = await waitingForNewDraft {
                await self.outcome(of: .redraft(post: known.content.id, draft: nil)) { session.redraft(post: post) }
            }
            switch Self.draftMade(result) {
            case .success(let made): reply(made, changed: held, id: id)
            case .failure(let failure):
                writeUnasked(held)
                return "Could not redraft post \(JSONLCommand.echo(post.rawValue)): \(failure.message)"
            }
        case .vote(let post, let choices):
            guard let known = session.store.post(post) else { return Self.unknownPost(post) }
            let session = session
            // The core counts choices from 0; the line, as a person does, from 1.
            let result = await outcome(of: .vote(post: known.content.id, choices: [])) {
                session.vote(post: post, choices: choices.map { $0 - 1 })
            }
            switch result {
            case .failure(let refusal): return refusal.message
            case .success(let outcome):
                if case .refused(_, let sentence) = outcome {
                    return "Your vote in the poll of post \(JSONLCommand.echo(post.rawValue)) did not count: \(sentence)"
                }
            }
        case .history(let post):
            do {
                let versions = try await session.history(of: post)
                emit(JSONLMessage.history(session.store.originalID(of: post) ?? post, versions: versions, id: id))
            } catch {
                return "Could not load the versions of post \(JSONLCommand.echo(post.rawValue)): \(FeedFailure(error).message)"
            }
        default:
            break
        }
        return nil
    }

    /// The draft an `editPost` or `redraft` made, from its outcome, or why none was made.
    private static func draftMade(_ result: Result<Outcome, FeedFailure>) -> Result<DraftID, FeedFailure> {
        switch result {
        case .failure(let failure): return .failure(failure)
        case .success(let outcome):
            switch outcome {
            case .done(.editDraft(_, let draft?)), .done(.redraft(_, let draft?)): return .success(draft)
            case .refused(_, let sentence): return .failure(FeedFailure(message: sentence, isTransient: false))
            default: return .failure(FeedFailure(message: "No draft was made.", isTransient: false))
            }
        }
    }

    /// Why `known` (the post `post` names) cannot be `verb` by the signed-in account, when the
    /// account is known and the post is someone else's: refused without asking the server.
    private func notOwn(_ known: Post, post: PostID, verb: String) -> String? {
        guard let me = session.drafts.account, known.content.author.id != me.id else { return nil }
        return "Only your own posts can be \(verb); post \(JSONLCommand.echo(post.rawValue)) is by @\(known.content.author.handle)."
    }

    /// Runs `start` and waits for it; returns what it returned and the changes of drafts that
    /// appeared meanwhile, in order, instead of writing them (the draft a command makes is its
    /// reply, with its `id`).
    private func waitingForNewDraft<Value: Sendable>(_ start: @MainActor () async -> Value) async -> (Value, [Submission]) {
        draftsBeforeWait = Set(session.drafts.all.map(\.id))
        heldNewDrafts = []
        let value = await start()
        let held = heldNewDrafts
        draftsBeforeWait = nil
        heldNewDrafts = []
        return (value, held)
    }

    /// Writes held changes of drafts as they would have been written: unasked.
    private func writeUnasked(_ held: [Submission]) {
        for submission in held { emit(JSONLMessage.draft(submission, limits: session.drafts.limits)) }
    }
}
