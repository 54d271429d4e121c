import Feedline

/// Writing: `post`, `reply`, `delete`, `drafts`, the lines of a draft typed after `post` or
/// `reply` alone, and what the session's drafts say as they go (sending, queued, sent, refused).
extension REPLDriver {
    /// The draft whose lines are being typed, and the lines so far.
    struct Writing {
        var draft: DraftID
        var lines: [String]
        /// Whether the lines replace the draft's text (an edit, a redraft) or follow what it
        /// starts with (a reply's mentions).
        var replaces = false
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
            let typed = current.lines.joined(separator: "\n")
            if current.replaces {
                if !current.lines.isEmpty { session.drafts.update(current.draft) { $0.text = typed } }
            } else {
                session.drafts.update(current.draft) { $0.text += typed }
            }
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
        if own, let me = session.drafts.settings?.account, me.id != post.author.id {
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
            if let me = self.session.drafts.settings?.account, me.id != post.author.id {
                self.refuse("Only your own posts can be edited; \(what) is by @\(post.author.handle).")
                self.flushIfFollowing()
                return
            }
            self.session.drafts.startEdit(of: post) { [weak self] result in
                guard let self else { return }
                switch result {
                case .failure(let failure):
                    self.refuse("Cannot edit \(what): \(failure.message)")
                case .success(let id):
                    if let text {
                        self.session.drafts.update(id) { $0.text = text }
                        self.send(id)
                    } else {
                        self.writing = Writing(draft: id, lines: [], replaces: true)
                        let now = self.session.drafts[id]?.draft.text ?? ""
                        self.say("Editing \(what), now: \(Self.excerpt(now)). Type its new text; a line with only . sends it (no lines: unchanged), .discard keeps it as it is.")
                    }
                }
                self.flushIfFollowing()
            }
        }
    }

    /// `history [N]`.
    func showHistory(row number: Int?) {
        guard let (post, what) = writingTarget(number, name: .history, onPost: "lists that post's versions", own: false) else { return }
        let session = session
        session.activity.run { [weak self] in
            do {
                let versions = try await session.history(of: post.id)
                guard let self else { return }
                let clock = self.session.clock
                self.reports.append(versions.count <= 1 ? "\(what.prefix(1).uppercased() + what.dropFirst()) was never edited." : "Versions of \(what), oldest first:")
                if versions.count > 1 {
                    for (index, version) in versions.enumerated() {
                        let when = clock.relative(version.createdAt)
                        let mark = index == versions.count - 1 ? " (current)" : ""
                        let warning = version.contentWarning.map { "CW: \($0) — " } ?? ""
                        self.reports.append("\(index + 1). \(when)\(mark): \(warning)\(version.text)")
                    }
                }
            } catch {
                self?.reports.append("Could not load the versions of \(what): \(FeedFailure(error).message)")
            }
            self?.flushIfFollowing()
        }
    }

    /// `redraft [N]`.
    func redraft(row number: Int?) {
        guard let (post, what) = writingTarget(number, name: .redraft, onPost: "redrafts that post", own: true) else { return }
        session.redraft(post: post.id) { [weak self] result in
            guard let self else { return }
            switch result {
            case .failure(let failure):
                self.reports.append("Could not redraft \(what): \(failure.message)")
            case .success(let id):
                self.writing = Writing(draft: id, lines: [], replaces: true)
                let text = self.session.drafts[id]?.draft.text ?? ""
                self.reports.append("Deleted, and kept as a draft: \(Self.excerpt(text)). Type its new text; a line with only . sends it as it is, .discard throws it away.")
            }
            self.flushIfFollowing()
        }
    }

    /// `vote [N] CHOICES`.
    func vote(row number: Int?, choices: [Int]) {
        guard let (post, what) = writingTarget(number, name: .vote, onPost: "votes in that post's poll", own: false) else { return }
        let refusal = session.vote(post: post.id, choices: choices) { [weak self] failure in
            guard let self else { return }
            if let failure { self.reports.append("Your vote in \(what)'s poll did not count: \(failure.message)") }
            self.flushIfFollowing()
        }
        if let refusal { refuse(refusal.description) }
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
