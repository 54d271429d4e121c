import Feedline
import Foundation

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
        // What was typed is saved at once; the account's defaults replace Mastodon's when they come.
        let id = drafts.startPost()
        if let text { drafts.update(id) { $0.text = text } }
        drafts.load { [weak self] in self?.write(id, text: text, typed: true) }
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
        // Saved at once with what was typed; the account's defaults and handle replace the
        // provisional ones when they come (a reply never mentions its author).
        let drafts = session.drafts
        let id = drafts.startReply(to: post)
        if let text { drafts.update(id) { $0.text += text } }
        drafts.load { [weak self] in self?.write(id, text: text, typed: true) }
    }

    /// Sends draft `id` with `text` after what it starts with (a reply's mentions), or starts
    /// taking its lines.
    private func write(_ id: DraftID, text: String?, typed: Bool = false) {
        if let failure = session.drafts.settingsFailure, session.drafts.settings == nil {
            refuse("Cannot write here: \(failure.message)")
            session.drafts.discard(id)
            return
        }
        guard let text else {
            if options.editor != nil {
                writing = Writing(draft: id, lines: [], replaces: true)
                openEditor(id)
                return
            }
            writing = Writing(draft: id, lines: [])
            let start = session.drafts[id]?.draft.text ?? ""
            say(header(id))
            say(start.isEmpty
                ? "Type the post; a line with only . sends it, .back keeps it for later, .help lists the rest."
                : "Type the reply after \(start.trimmingCharacters(in: .whitespaces)); a line with only . sends it, .back keeps it for later, .help lists the rest.")
            return
        }
        if !typed { session.drafts.update(id) { $0.text += text } }
        send(id)
    }

    /// A line typed while a draft takes lines: `.` sends, `.discard` throws it away, `.back`
    /// keeps it for later, other `.`-words change its settings (`.cw`, `.visibility`, `.lang`,
    /// `.sensitive`, `.poll`, `.show`, `.help`), `..` starts a line that begins with a dot;
    /// anything else is a line of it. Returns `false` when no draft takes lines.
    func takeDraftLine(_ line: String) -> Bool {
        guard var current = writing else { return false }
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("."), !trimmed.hasPrefix("..") else {
            current.lines.append(trimmed.hasPrefix("..") ? String(line.drop { $0 == " " }.dropFirst()) : line)
            writing = current
            return true
        }
        let word = String(trimmed.prefix { !$0.isWhitespace })
        let argument = trimmed.dropFirst(word.count).trimmingCharacters(in: .whitespaces)
        let drafts = session.drafts
        switch word {
        case ".":
            writing = nil
            keepLines(current)
            send(current.draft)
        case ".discard":
            writing = nil
            drafts.discard(current.draft)
            say("Draft thrown away.")
        case ".back":
            writing = nil
            keepLines(current)
            say("Draft kept; drafts lists it, draft N opens it again.")
        case ".show":
            let saved = drafts[current.draft]?.draft.text ?? ""
            let typed = current.lines.joined(separator: "\n")
            let text = current.replaces ? (current.lines.isEmpty ? saved : typed) : saved + typed
            say(header(current.draft))
            say("Text: " + Self.excerpt(text, limit: 500))
        case ".cw":
            drafts.update(current.draft) { $0.contentWarning = argument.isEmpty ? nil : argument }
            say(argument.isEmpty ? "No content warning." : "Content warning: \(argument)")
        case ".visibility":
            guard let visibility = PostVisibility(typed: argument) else {
                refuse(".visibility takes public, unlisted, followers (private) or direct.")
                return true
            }
            if drafts[current.draft]?.draft.editing != nil {
                refuse("An edit cannot change who may see the post.")
                return true
            }
            drafts.update(current.draft) { $0.visibility = visibility }
            say("Visibility: \(visibility.label.isEmpty ? "public" : visibility.label).")
        case ".lang":
            let code = argument.lowercased()
            guard code.isEmpty || (2...3).contains(code.count) && code.allSatisfy(\.isLetter) else {
                refuse(".lang takes a language code such as en or de (nothing: let the server guess).")
                return true
            }
            drafts.update(current.draft) { $0.language = code.isEmpty ? nil : code }
            say(code.isEmpty ? "Language: the server guesses." : "Language: \(code).")
        case ".sensitive":
            var now = false
            drafts.update(current.draft) {
                $0.sensitive.toggle()
                now = $0.sensitive
            }
            say(now ? "Media marked sensitive." : "Media not marked sensitive.")
        case ".poll":
            switch Self.poll(argument) {
            case .success(let poll):
                drafts.update(current.draft) { $0.poll = poll }
                say(poll.map { "Poll: " + Self.describe($0) } ?? "No poll.")
            case .failure(let error):
                refuse(error.message)
            }
        case ".attach":
            let (file, description) = Self.attachment(argument)
            guard !file.isEmpty else {
                refuse(".attach takes a file and its description, for example: .attach pond.png \"Frogs at dawn\".")
                return true
            }
            let path = (file as NSString).expandingTildeInPath
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
                FileManager.default.isReadableFile(atPath: path)
            else {
                refuse("There is no file \(Echo.shortened(file, to: 60)) to attach (or it cannot be read).")
                return true
            }
            let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
            drafts.update(current.draft) { $0.media.append(Draft.MediaDraft(file: absolute, description: description)) }
            let count = drafts[current.draft]?.draft.media.count ?? 0
            say("Attached \(URL(fileURLWithPath: path).lastPathComponent)\(description.isEmpty ? " (no description: people who cannot see it get nothing)" : "") — \(count) attachment\(count == 1 ? "" : "s").")
        case ".detach":
            drafts.update(current.draft) { $0.media.removeAll { $0.existingID == nil } }
            say("New attachments removed.")
        case ".edit":
            guard options.editor != nil else {
                refuse("No editor: set VISUAL or EDITOR to write drafts in one.")
                return true
            }
            keepLines(current)
            current.lines = []
            current.replaces = true
            writing = current
            openEditor(current.draft)
        case ".help":
            say("While writing: type the text; . sends, .back keeps the draft for later, .discard throws it away, .show shows it, .edit opens your editor ($VISUAL, $EDITOR), .cw TEXT sets the content warning (.cw alone removes it), .visibility public|unlisted|followers|direct, .lang CODE, .sensitive, .poll A | B [| …] [--multiple] [--expires 1d] (.poll alone removes it), .attach FILE \"description\" (.detach removes new ones); start a line with .. to begin it with a dot.")
        default:
            refuse("\(Echo.shortened(word, to: 24)) is not a draft command; .help lists them. (Start a line with .. to begin it with a dot.)")
        }
        return true
    }

    /// Opens the editor on draft `id` (saved already), takes back the text it leaves, and shows
    /// the draft, waiting for `.` to send it; the draft stays as it was when the editor fails.
    private func openEditor(_ id: DraftID) {
        guard let editor = options.editor, let draft = session.drafts[id]?.draft else { return }
        let context = [
            header(id), "Save and quit to come back to feedline; there, . sends the post, .back keeps it, .discard throws it away.",
        ]
        switch editor(draft.text, context, id.rawValue) {
        case .success(let text):
            session.drafts.update(id) { $0.text = text }
        case .failure(let failure):
            refuse(failure.message)
        }
        say(header(id))
        say("Text: \(Self.excerpt(session.drafts[id]?.draft.text ?? "", limit: 500)). A line with only . sends it, .edit opens the editor again, .back keeps it for later, .help lists the rest.")
    }

    /// Puts the lines typed so far into the draft: after what it starts with, or instead of
    /// its text (an edit, a redraft, a reopened draft) when there are any.
    private func keepLines(_ current: Writing) {
        let typed = current.lines.joined(separator: "\n")
        if current.replaces {
            if !current.lines.isEmpty { session.drafts.update(current.draft) { $0.text = typed } }
        } else if !current.lines.isEmpty {
            session.drafts.update(current.draft) { $0.text += typed }
        }
    }

    /// `draft N`: opens draft N (as drafts numbers them) to write on.
    func reopenDraft(_ number: Int) {
        let all = session.drafts.all
        guard all.indices.contains(number - 1) else {
            refuse(all.isEmpty ? "There are no drafts." : "There is no draft \(number); drafts lists \(all.count == 1 ? "one" : "1–\(all.count)").")
            return
        }
        let submission = all[number - 1]
        guard submission.isEditable else {
            refuse("Draft \(number) is on its way (\(Self.phrase(submission.phase, refusal: submission.refusal))); it cannot change now.")
            return
        }
        writing = Writing(draft: submission.id, lines: [], replaces: true)
        if options.editor != nil {
            openEditor(submission.id)
            return
        }
        say(header(submission.id))
        say("Text: \(Self.excerpt(submission.draft.text, limit: 500)). Type new text to replace it, or . to send it as it is; .help lists the rest.")
    }

    /// What a person writing needs to see of draft `id`: what it replies to or edits, who may
    /// see it, its warning, language, poll, attachments, and the characters left.
    func header(_ id: DraftID) -> String {
        guard let draft = session.drafts[id]?.draft else { return "" }
        var parts: [String] = []
        if let edited = draft.editing {
            parts.append("editing " + (session.store.post(edited).map { Self.excerpt($0.text) } ?? "post \(edited)"))
        } else if let parent = draft.inReplyTo {
            parts.append("reply to " + (session.store.post(parent).map { "@\($0.author.handle): \(Self.excerpt($0.text))" } ?? "post \(parent)"))
        } else {
            parts.append("new post")
        }
        parts.append(draft.visibility.label.isEmpty ? "public" : draft.visibility.label)
        if let warning = draft.warning { parts.append("CW: \(warning)") }
        if let language = draft.language { parts.append("language \(language)") }
        if let poll = draft.poll { parts.append("poll: " + Self.describe(poll)) }
        if !draft.media.isEmpty { parts.append("\(draft.media.count) attachment\(draft.media.count == 1 ? "" : "s")") }
        if draft.sensitive { parts.append("sensitive") }
        let left = draft.charactersLeft(limits: session.drafts.limits)
        parts.append(left >= 0 ? "\(left) characters left" : "\(-left) characters over")
        return parts.joined(separator: " · ")
    }

    /// `A | B | C [--multiple] [--expires 1d]`: a poll, `nil` for none (an empty argument), or why not.
    static func poll(_ argument: String) -> Result<Draft.PollDraft?, PollError> {
        guard !argument.isEmpty else { return .success(nil) }
        var words = argument.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        var multiple = false
        var expires = 86_400
        var kept: [String] = []
        while !words.isEmpty {
            let word = words.removeFirst()
            switch word {
            case "--multiple": multiple = true
            case "--expires":
                guard let span = words.first, let seconds = Self.seconds(span) else {
                    return .failure(PollError(message: "--expires takes a span such as 30m, 6h or 3d."))
                }
                words.removeFirst()
                expires = seconds
            default: kept.append(word)
            }
        }
        let options = kept.joined(separator: " ").split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard options.count >= 2 else { return .failure(PollError(message: ".poll takes two or more choices separated by |, for example: .poll tea | coffee.")) }
        return .success(Draft.PollDraft(options: options, expiresIn: expires, multiple: multiple))
    }

    struct PollError: Error {
        var message: String
    }

    /// `FILE "description"` (or `FILE description`): the file and its description.
    static func attachment(_ argument: String) -> (file: String, description: String) {
        var rest = Substring(argument)
        let file: Substring
        if rest.hasPrefix("\""), let end = rest.dropFirst().firstIndex(of: "\"") {
            file = rest[rest.index(after: rest.startIndex)..<end]
            rest = rest[rest.index(after: end)...]
        } else {
            file = rest.prefix { !$0.isWhitespace }
            rest = rest.dropFirst(file.count)
        }
        var description = rest.trimmingCharacters(in: .whitespaces)
        if description.count >= 2, description.hasPrefix("\""), description.hasSuffix("\"") { description = String(description.dropFirst().dropLast()) }
        return (String(file), description)
    }

    /// `30m`, `6h`, `3d`, `1w` in seconds.
    static func seconds(_ span: String) -> Int? {
        guard let unit = span.last, let number = Int(span.dropLast()), number > 0 else { return nil }
        switch unit {
        case "m": return number * 60
        case "h": return number * 3_600
        case "d": return number * 86_400
        case "w": return number * 604_800
        default: return nil
        }
    }

    static func describe(_ poll: Draft.PollDraft) -> String {
        let span = poll.expiresIn % 86_400 == 0 ? "\(poll.expiresIn / 86_400)d" : poll.expiresIn % 3_600 == 0 ? "\(poll.expiresIn / 3_600)h" : "\(poll.expiresIn / 60)m"
        return poll.options.joined(separator: " | ") + " (\(span)\(poll.multiple ? ", several choices" : ""))"
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
                    } else if self.options.editor != nil {
                        self.writing = Writing(draft: id, lines: [], replaces: true)
                        self.openEditor(id)
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

    /// `history [N]`: the versions of the post, as a list screen, newest first.
    func showHistory(row number: Int?) {
        guard let (post, _) = writingTarget(number, name: .history, onPost: "lists that post's versions", own: false) else { return }
        session.navigator.push(.history(post.id))
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
            say("\(index + 1). \(Self.excerpt(submission.draft.text)) — \(Self.phrase(submission.phase, refusal: submission.refusal))")
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
            if let refusal = submission.refusal { reports.append("Not posted: \(Self.sentence(refusal)) The draft is kept (drafts lists it).") }
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
