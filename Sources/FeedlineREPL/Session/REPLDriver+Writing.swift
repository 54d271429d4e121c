import Feedline
import Foundation

/// Writing: `post`, `reply`, `delete`, `drafts`, the lines of a draft typed after `post` or
/// `reply` alone, and what the session's drafts say as they go (sending, queued, sent, refused).
extension REPLDriver {
    /// Starts hearing what becomes of submissions (called once, at start).
    func followDrafts() {
        subscriptions.append(session.drafts.observeChanges { [weak self] submission in self?.submissionChanged(submission) })
    }

    /// `post [TEXT]`: sends TEXT, or starts taking the lines that follow.
    func post(_ text: String?) {
        let drafts = session.drafts
        // What was typed is saved at once; the account's defaults replace Mastodon's when they come.
        let id = drafts.startPost()
        if let text { drafts.update(id) { $0.text = text } }
        drafts.load { [weak self] in self?.write(id, text: text) }
    }

    /// `reply [N] [TEXT]`: a reply to row N's post or the open post.
    func reply(row number: Int?, text: String?) {
        guard let post = targetPost(number, name: .reply, onPost: "replies to that post") else { return }
        // Saved at once with what was typed; the account's defaults and handle replace the
        // provisional ones when they come (a reply never mentions its author).
        let drafts = session.drafts
        let id = drafts.startReply(to: post)
        if let text { drafts.update(id) { $0.text += text } }
        drafts.load { [weak self] in self?.write(id, text: text) }
    }

    /// Sends draft `id` whose `text` was typed with the command (after what it starts with: a
    /// reply's mentions), or starts taking its lines.
    func write(_ id: DraftID, text: String?) {
        if let failure = session.drafts.settingsFailure, session.drafts.account == nil {
            refuse("Cannot write here: \(failure.message)")
            session.drafts.discard(id)
            return
        }
        let whole = session.drafts[id]?.draft.text ?? ""
        let start = text.map { whole.hasSuffix($0) ? String(whole.dropLast($0.count)) : whole } ?? whole
        guard text != nil else {
            if options.editor != nil {
                var current = Writing(replacing: id)
                current.start = start
                writing = current
                openEditor(id)
                return
            }
            writing = Writing(draft: id, start: start)
            say(header(id))
            say(start.isEmpty
                ? "Type the post; a line with only . sends it, .back keeps it for later, .help lists the rest."
                : "Type the reply after \(start.trimmingCharacters(in: .whitespaces)); a line with only . sends it, .back keeps it for later, .help lists the rest.")
            return
        }
        var current = Writing(draft: id, start: start)
        current.typed = 1
        send(id, staying: current)
    }

    /// Sends draft `id`. When something stops it (too long, empty, media with a poll…) the
    /// sentence says what, and the draft goes on taking lines as `current`: nothing is thrown
    /// out to the screen's prompt.
    func send(_ id: DraftID, staying current: Writing) {
        writing = nil
        let problems = session.drafts.send(id)
        guard !problems.isEmpty else { return }
        writing = current
        refuse("Not sent: " + problems.map(\.description).joined(separator: " ")
            + " The draft is still open: change it and type . to send it, or .back to keep it for later (.help lists the rest).")
    }

    /// `delete [N] [--yes]`.
    func delete(row number: Int?, confirmed: Bool) {
        let post: Post
        let what: String
        switch target(number, name: .delete, onPost: "deletes that post") {
        case .post(let entry)?:
            guard let loaded = loadedPost(entry) else { return }
            post = loaded.content
            what = "this post"
        case .row(_, let row, let number)?:
            guard let shown = self.post(of: row, number: number) else { return }
            post = shown.post.content
            what = "row \(number)'s post"
        case nil:
            return
        }
        if let me = session.drafts.account, me.id != post.author.id {
            refuse("Only your own posts can be deleted; \(what) is by @\(post.author.handle).")
            return
        }
        guard confirmed else {
            let again = number.map { "delete \($0) --yes" } ?? "delete --yes"
            say("Delete \(what) (\(Self.excerpt(post.text)))? Type \(again) to delete it.")
            return
        }
        askedOnPosts[.deletion(post.id)] = (Self.excerpt(post.text), nil)
        if let refusal = session.delete(post: post.id) {
            askedOnPosts[.deletion(post.id)] = nil
            refuse("Could not delete \(Self.excerpt(post.text)): \(refusal.message)")
        }
    }

    /// The post a writing command acts on — row N's (a boost row: its original) or the open
    /// post — with how to name it; `nil` after saying why not. `own` refuses someone else's.
    private func writingTarget(_ number: Int?, name: CommandName, onPost: String, own: Bool) -> (post: Post, what: String)? {
        let post: Post
        let what: String
        switch target(number, name: name, onPost: onPost) {
        case .post(let entry)?:
            guard let loaded = loadedPost(entry) else { return nil }
            post = loaded.content
            what = "this post"
        case .row(_, let row, let number)?:
            guard let shown = self.post(of: row, number: number) else { return nil }
            post = shown.post.content
            what = "row \(number)'s post"
        case nil:
            return nil
        }
        if own, let me = session.drafts.account, me.id != post.author.id {
            refuse("Only your own posts can be changed; \(what) is by @\(post.author.handle).")
            return nil
        }
        return (post, what)
    }

    /// `edit [N] [TEXT]`.
    func editPost(row number: Int?, text: String?) {
        guard let (post, what) = writingTarget(number, name: .edit, onPost: "edits that post", own: false) else { return }
        session.drafts.load { [weak self] in
            guard let self else { return }
            if let me = self.session.drafts.account, me.id != post.author.id {
                self.refuse("Only your own posts can be edited; \(what) is by @\(post.author.handle).")
                self.flushIfFollowing()
                return
            }
            self.askedOnPosts[.editDraft(post.id)] = (what, text)
            self.session.drafts.startEdit(of: post)
        }
    }

    /// `edit`'s draft is made (`id`), or could not be (`refusal`): `what` and `text` as typed.
    func editDraftMade(_ id: DraftID?, refusal: String?, what: String, text: String?) {
        guard let id else {
            refuse("Cannot edit \(what): \(refusal ?? "")")
            return
        }
        if let text {
            session.drafts.update(id) { $0.text = text }
            var current = Writing(replacing: id)
            current.typed = 1
            send(id, staying: current)
        } else if options.editor != nil {
            writing = Writing(replacing: id)
            openEditor(id)
        } else {
            writing = Writing(replacing: id)
            let now = session.drafts[id]?.draft.text ?? ""
            say("Editing \(what), now: \(Self.excerpt(now)). Type its new text; a line with only . sends it (no lines: unchanged), .discard keeps it as it is.")
        }
    }

    /// `history [N]`: the versions of the post, as a list screen, newest first.
    func showHistory(row number: Int?) {
        guard let (post, _) = writingTarget(number, name: .history, onPost: "lists that post's versions", own: false) else { return }
        session.navigator.push(.list(.history(post.id)))
    }

    /// `favourited-by [N]`, `boosted-by [N]`: a screen of the accounts that favourited or
    /// boosted the post (a boost's: the boosted post's).
    func showReactedBy(_ kind: InteractionKind, row number: Int?) {
        let name: CommandName = kind == .reblog ? .boostedBy : .favouritedBy
        let onPost = kind == .reblog ? "lists who boosted that post" : "lists who favourited that post"
        guard let (post, _) = writingTarget(number, name: name, onPost: onPost, own: false) else { return }
        session.navigator.push(.list(.accounts(kind == .reblog ? .boostedBy(post.id) : .favouritedBy(post.id))))
    }

    /// `redraft [N]`.
    func redraft(row number: Int?) {
        guard let (post, what) = writingTarget(number, name: .redraft, onPost: "redrafts that post", own: true) else { return }
        askedOnPosts[.redraft(post.id)] = (what, nil)
        if let refusal = session.redraft(post: post.id) {
            askedOnPosts[.redraft(post.id)] = nil
            refuse("Could not redraft \(what): \(refusal.message)")
        }
    }

    /// `redraft`'s draft is made (`id`), or nothing happened (`refusal`): `what` as typed.
    func redrafted(_ id: DraftID?, refusal: String?, what: String) {
        guard let id else {
            reports.append("Could not redraft \(what): \(refusal ?? "")")
            return
        }
        writing = Writing(replacing: id)
        let text = session.drafts[id]?.draft.text ?? ""
        reports.append("Deleted, and kept as a draft: \(Self.excerpt(text)).")
        reports.append(header(id))
        reports.append("Type its new text; a line with only . sends it as it is, .discard throws it away.")
    }

    /// `vote [N] CHOICES`.
    func vote(row number: Int?, choices: [Int]) {
        guard let (post, what) = writingTarget(number, name: .vote, onPost: "votes in that post's poll", own: false) else { return }
        if let refusal = session.vote(post: post.id, choices: choices) {
            refuse(refusal.message)
        } else {
            askedOnPosts[.vote(post.id)] = (what, nil)
        }
    }

    /// `drafts delete N`: throws draft N away (one on its way cannot be: a post may be made of it).
    func deleteDraft(_ number: Int) {
        guard let submission = draft(number) else { return }
        let later = session.drafts.all.count > number
        guard session.drafts.discard(submission.id) else {
            refuse("Draft \(number) is on its way (\(Self.phrase(submission.phase, refusal: submission.refusal))) and cannot be thrown away: a post may be made of it.")
            return
        }
        say("Draft \(number) thrown away: \(Self.excerpt(submission.draft.text)).\(later ? " The drafts after it move up by one." : "")")
    }

    /// `drafts`.
    func listDrafts() {
        let all = session.drafts.all
        guard !all.isEmpty else {
            say("No drafts, and nothing on its way.")
            return
        }
        for (index, submission) in all.enumerated() {
            say("\(index + 1). \(Self.excerpt(submission.draft.text)) — \(Self.phrase(submission.phase, refusal: submission.refusal))")
        }
    }

    private func submissionChanged(_ submission: Submission) {
        guard following else { return }
        let text = Self.excerpt(submission.draft.text)
        switch submission.phase {
        case .sending(let attempt):
            // The first attempt says who will see it and its warning: an inline reply takes them
            // from the post it answers, unseen until now.
            reports.append(attempt == 1 ? "Sending: \(text) (\(audience(submission.draft)))" : "Sending again (attempt \(attempt)): \(text)")
        case .queued(let reason, _, let wait):
            reports.append("Queued: \(text) — \(reason) Sending again in \(Self.span(wait)), or at retry.")
        case .checking:
            reports.append("Checking your newest posts for \(text) before sending it again.")
        case .sent:
            reports.append((submission.draft.editing == nil ? "Posted: " : "Edited: ") + text)
        case .scheduled:
            let when = submission.draft.scheduledAt.map { " for " + moment($0) } ?? ""
            reports.append("Scheduled\(when): \(text) (scheduled lists it)")
        case .editing:
            if let refusal = submission.refusal {
                let what = submission.draft.editing == nil ? "Not posted" : "Not edited"
                reports.append("\(what): \(Self.sentence(refusal)) The draft is kept: draft \(draftNumber(submission.id)) opens it.")
            }
        }
        flushIfFollowing()
    }

    /// Writes the reports now when output is live (a script's runner flushes after each command).
    func flushIfFollowing() {
        if options.live, following { flush() }
    }

    static func phrase(_ phase: Submission.Phase, refusal: String?) -> String {
        switch phase {
        case .editing: refusal.map { "refused: \($0)" } ?? "draft"
        case .sending(let attempt): attempt == 1 ? "sending" : "sending, attempt \(attempt)"
        case .queued(let reason, _, let wait): "queued: \(reason) Next try in \(span(wait))."
        case .checking: "checking your newest posts"
        case .sent: "posted"
        case .scheduled: "scheduled"
        }
    }

    /// `text` ending as a sentence does (a server's "Validation failed: …" often does not).
    static func sentence(_ text: String) -> String {
        guard let last = text.last, !".!?…".contains(last) else { return text }
        return text + "."
    }

    /// A text in one line of at most 40 characters, quoted; `"(empty)"` for none.
    static func excerpt(_ text: String, limit: Int = 40) -> String {
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ").trimmingCharacters(in: .whitespaces)
        guard !line.isEmpty else { return "(empty)" }
        return "\"" + (line.count > limit ? String(line.prefix(limit - 1)) + "…" : line) + "\""
    }
}

extension REPLDriver {
    /// `quote-post [N] [TEXT]`: a post quoting row N's post (a boost row: its original) or the
    /// open post — refused with the reason when its author's policy does not let you quote it.
    func quotePost(row number: Int?, text: String?) {
        guard let quoted = targetPost(number, name: .quotePost, onPost: "quotes that post") else { return }
        let drafts = session.drafts
        // Refused at once when no account could be allowed; the account's own posts are known once it is.
        if let refusal = quoted.quoteRefusal(by: drafts.account), drafts.account != nil || quoted.content.visibility == .direct {
            refuse(refusal)
            return
        }
        let id = drafts.startPost()
        if let text { drafts.update(id) { $0.text = text } }
        drafts.load { [weak self] in
            guard let self else { return }
            if let refusal = drafts.quote(quoted, in: id) {
                drafts.discard(id)
                self.refuse(refusal)
                self.flushIfFollowing()
                return
            }
            self.write(id, text: text)
            self.flushIfFollowing()
        }
    }

    /// Draft `number` as `drafts` numbers them, or `nil` after saying which numbers there are.
    func draft(_ number: Int) -> Submission? {
        let all = session.drafts.all
        guard all.indices.contains(number - 1) else {
            refuse(all.isEmpty ? "There are no drafts." : "There is no draft \(number); drafts lists \(all.count == 1 ? "one" : "1–\(all.count)").")
            return nil
        }
        return all[number - 1]
    }
}
