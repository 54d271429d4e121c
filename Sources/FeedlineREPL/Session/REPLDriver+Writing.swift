import Feedline

/// Writing: `post`, `reply`, `delete`, `drafts`, the lines of a draft typed after `post` or
/// `reply` alone, and what the session's drafts say as they go (sending, queued, sent, refused).
extension REPLDriver {
    /// The draft whose lines are being typed, and the lines so far.
    struct Writing {
        var draft: DraftID
        var lines: [String]
    }

    /// Starts hearing what becomes of submissions (called once, at start).
    func followDrafts() {
        subscriptions.append(session.drafts.observeChanges { [weak self] submission in self?.submissionChanged(submission) })
    }

    /// `post [TEXT]`: sends TEXT, or starts taking the lines that follow.
    func post(_ text: String?) {
        let drafts = session.drafts
        let id = drafts.startPost()
        drafts.load { [weak self] in self?.write(id, text: text) }
    }

    /// `reply [N] [TEXT]`: a reply to row N's post or the open post.
    func reply(row number: Int?, text: String?) {
        let post: Post
        switch target(number, name: .reply, onPost: "replies to that post") {
        case .post(let entry)?:
            guard let loaded = loadedPost(entry) else { return }
            post = loaded
        case .row(_, let row, let number)?:
            guard let shown = self.post(of: row, number: number) else { return }
            post = shown.post
        case nil:
            return
        }
        // The account's defaults and handle first: a reply never mentions its author.
        session.drafts.load { [weak self] in
            guard let self else { return }
            let id = self.session.drafts.startReply(to: post)
            self.write(id, text: text)
        }
    }

    /// Sends draft `id` with `text` after what it starts with (a reply's mentions), or starts
    /// taking its lines.
    private func write(_ id: DraftID, text: String?) {
        if let failure = session.drafts.settingsFailure, session.drafts.settings == nil {
            refuse("Cannot write here: \(failure.message)")
            session.drafts.discard(id)
            return
        }
        guard let text else {
            writing = Writing(draft: id, lines: [])
            let start = session.drafts[id]?.draft.text ?? ""
            say(start.isEmpty
                ? "Type the post; a line with only . sends it, .discard throws it away."
                : "Type the reply after \(start.trimmingCharacters(in: .whitespaces)); a line with only . sends it, .discard throws it away.")
            return
        }
        session.drafts.update(id) { $0.text += text }
        send(id)
    }

    /// A line typed while a draft takes lines: `.` sends, `.discard` throws it away, anything
    /// else is a line of it. Returns `false` when no draft takes lines.
    func takeDraftLine(_ line: String) -> Bool {
        guard var current = writing else { return false }
        switch line.trimmingCharacters(in: .whitespaces) {
        case ".":
            writing = nil
            session.drafts.update(current.draft) { $0.text += current.lines.joined(separator: "\n") }
            send(current.draft)
        case ".discard":
            writing = nil
            session.drafts.discard(current.draft)
            say("Draft thrown away.")
        default:
            current.lines.append(line)
            writing = current
        }
        return true
    }

    private func send(_ id: DraftID) {
        let problems = session.drafts.send(id)
        guard !problems.isEmpty else { return }
        refuse("Not sent: " + problems.map(\.description).joined(separator: " ") + " The draft is kept (drafts lists it).")
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
        if let me = session.drafts.settings?.account, me.id != post.author.id {
            refuse("Only your own posts can be deleted; \(what) is by @\(post.author.handle).")
            return
        }
        guard confirmed else {
            let again = number.map { "delete \($0) --yes" } ?? "delete --yes"
            say("Delete \(what) (\(Self.excerpt(post.text)))? Type \(again) to delete it.")
            return
        }
        session.delete(post: post.id) { [weak self] result in
            switch result {
            case .success: self?.reports.append("Deleted: \(Self.excerpt(post.text)).")
            case .failure(let failure): self?.reports.append("Could not delete \(Self.excerpt(post.text)): \(failure.message) It is back where it was.")
            }
            self?.flushIfFollowing()
        }
    }

    /// `drafts`.
    func listDrafts() {
        let all = session.drafts.all
        guard !all.isEmpty else {
            say("No drafts, and nothing on its way.")
            return
        }
        for (index, submission) in all.enumerated() {
            say("\(index + 1). \(Self.phrase(submission.phase, refusal: submission.refusal)): \(Self.excerpt(submission.draft.text))")
        }
    }

    private func submissionChanged(_ submission: Submission) {
        guard following else { return }
        let text = Self.excerpt(submission.draft.text)
        switch submission.phase {
        case .sending(let attempt):
            reports.append(attempt == 1 ? "Sending: \(text)" : "Sending again (attempt \(attempt)): \(text)")
        case .queued(let reason, _, let wait):
            reports.append("Queued: \(text) — \(reason) Sending again in \(Self.span(wait)), or at retry.")
        case .checking:
            reports.append("Checking your newest posts for \(text) before sending it again.")
        case .sent:
            reports.append("Posted: \(text)")
        case .editing:
            if let refusal = submission.refusal { reports.append("Not posted: \(refusal) The draft is kept (drafts lists it).") }
        }
        flushIfFollowing()
    }

    /// Writes the reports now when output is live (a script's runner flushes after each command).
    private func flushIfFollowing() {
        if options.live, following { flush() }
    }

    static func phrase(_ phase: Submission.Phase, refusal: String?) -> String {
        switch phase {
        case .editing: refusal.map { "refused (\($0))" } ?? "draft"
        case .sending(let attempt): attempt == 1 ? "sending" : "sending (attempt \(attempt))"
        case .queued(let reason, _, let wait): "queued (\(reason) Next try in \(span(wait)).)"
        case .checking: "checking your newest posts"
        case .sent: "posted"
        }
    }

    /// A text in one line of at most 40 characters, quoted; `"(empty)"` for none.
    static func excerpt(_ text: String) -> String {
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ").trimmingCharacters(in: .whitespaces)
        guard !line.isEmpty else { return "(empty)" }
        return "\"" + (line.count > 40 ? String(line.prefix(39)) + "…" : line) + "\""
    }
}
