import Feedline
import Foundation

/// The lines of a draft typed after `post`, `reply`, `edit`, `draft N` or `redraft` alone (the
/// `compose>` prompt): each line goes into the draft as it is typed — saved, where the session
/// keeps state, before the next prompt — and the lines starting with a dot act on it.
extension REPLDriver {
    /// The draft whose lines are being typed. The draft itself holds what was typed.
    struct Writing {
        var draft: DraftID
        /// Lines typed into it since it was opened (or since the editor gave it its text).
        var typed = 0
        /// Whether the first line typed replaces the draft's text (an edit, a redraft, a reopened
        /// draft) or follows what it starts with (a reply's mentions).
        var replaces = false
        /// What a new post or reply started with (a reply's mentions): leaving it holding only
        /// that leaves no draft behind. `nil` for a draft that had text of its own (reopened,
        /// redrafted, an edit): it is always kept.
        var start: String?

        /// A new post or reply that started as `text`.
        init(draft: DraftID, start text: String) {
            self.draft = draft
            start = text
        }

        /// A draft with text of its own, whose first typed line replaces it.
        init(replacing draft: DraftID) {
            self.draft = draft
            replaces = true
        }
    }

    /// Whether a draft is taking the lines typed (the `compose>` or `reply>` prompt is shown).
    public var isWriting: Bool { writing != nil }

    /// What of `line` belongs in the command history (trimmed), or `nil`: nothing that is part of
    /// a post — a line typed into a draft, and a command that carries a post's text (`post TEXT`,
    /// `reply N TEXT`, `edit N TEXT`, `quote-post N TEXT`) — nor an empty line. Ask before
    /// ``handle(_:)``: it depends on whether a draft takes the line.
    public func historyEntry(for line: String) -> String? {
        guard writing == nil else { return nil }
        let trimmed = line.trimmingWhitespace()
        guard !trimmed.isEmpty else { return nil }
        switch CommandParser.parse(line) {
        case .success(.post(let text?)), .success(.reply(_, let text?)), .success(.edit(_, let text?)), .success(.quotePost(_, let text?)):
            _ = text
            return nil
        default:
            return trimmed
        }
    }

    /// The end of input (Ctrl-D on an empty line) in an interactive session: while a draft takes
    /// lines it is kept, as `.back` keeps it, and the session goes on (returns `true`); otherwise
    /// the session should end (`false`).
    public func endOfInput() -> Bool {
        guard let current = writing else { return false }
        leave(current)
        flush()
        return true
    }

    /// A line half typed when the session was ended by a signal: kept as the draft's last line
    /// when a draft takes lines (nothing otherwise).
    public func keepHalfTyped(_ line: String) {
        guard writing != nil, !line.allSatisfy(\.isWhitespace) else { return }
        _ = takeDraftLine(line)
    }

    /// The prompt while draft `current` takes lines: `compose 312> ` (`reply 312> ` for a reply),
    /// the number being the characters left as the server counts them (negative when over).
    func composePrompt(_ current: Writing) -> String {
        guard let draft = session.drafts[current.draft]?.draft else { return "compose> " }
        let left = draft.charactersLeft(limits: session.drafts.limits)
        return (draft.inReplyTo == nil ? "compose " : "reply ") + "\(left)> "
    }

    /// A line typed while a draft takes lines: `.` sends, `.discard` throws it away, `.back`
    /// keeps it for later, other `.`-words change its settings (`.cw`, `.visibility`, `.lang`,
    /// `.sensitive`, `.poll`, `.attach`, `.undo`, `.show`, `.help`), `..` starts a line that
    /// begins with a dot; anything else is a line of it, in the draft at once. Returns `false`
    /// when no draft takes lines.
    func takeDraftLine(_ line: String) -> Bool {
        guard var current = writing else { return false }
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("."), !trimmed.hasPrefix("..") else {
            let text = trimmed.hasPrefix("..") ? String(line.drop { $0 == " " }.dropFirst()) : line
            let first = current.typed == 0
            let kept = session.drafts.update(current.draft) { draft in
                if first, current.replaces {
                    draft.text = text
                } else if first {
                    draft.text += text
                } else {
                    draft.text += "\n" + text
                }
            }
            if kept {
                current.typed += 1
                writing = current
            } else {
                writing = nil
                refuse("That line was not added: the draft is on its way or gone (drafts says where it is).")
            }
            return true
        }
        let word = String(trimmed.prefix { !$0.isWhitespace })
        let argument = trimmed.dropFirst(word.count).trimmingCharacters(in: .whitespaces)
        let drafts = session.drafts
        switch word {
        case ".":
            send(current.draft, staying: current)
        case ".discard":
            writing = nil
            drafts.discard(current.draft)
            say("Draft thrown away.")
        case ".back":
            leave(current)
        case ".show":
            say(header(current.draft))
            emit(textLines(drafts[current.draft]?.draft.text ?? ""))
        case ".undo":
            var removed: String?
            drafts.update(current.draft) { draft in
                guard !draft.text.isEmpty else { return }
                if let newline = draft.text.lastIndex(of: "\n") {
                    removed = String(draft.text[draft.text.index(after: newline)...])
                    draft.text = String(draft.text[..<newline])
                } else {
                    removed = draft.text
                    draft.text = ""
                }
            }
            guard let removed else {
                refuse("The draft has no text to take back.")
                return true
            }
            current.typed = max(0, current.typed - 1)
            if drafts[current.draft]?.draft.text.isEmpty == true { current.typed = 0 }
            current.replaces = false
            writing = current
            say("Took back the last line: \(Self.excerpt(removed)).")
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
        case ".schedule":
            let off = argument.isEmpty || argument.lowercased() == "off"
            do {
                if let date = try drafts.schedule(current.draft, at: off ? nil : argument) {
                    say("Scheduled for \(moment(date)): . sends it to the server, which posts it then.")
                } else {
                    say("Not scheduled: . posts it at once.")
                }
            } catch {
                refuse(error.message)
            }
        case ".attach":
            attach(argument, to: current.draft)
        case ".detach":
            drafts.update(current.draft) { $0.media.removeAll { $0.existingID == nil } }
            say("New attachments removed.")
        case ".quote":
            quote(argument, in: current.draft)
        case ".quotable":
            guard let policy = QuotePolicy(typed: argument) else {
                refuse(".quotable takes anyone, followers or nobody: who may quote your post.")
                return true
            }
            drafts.update(current.draft) { $0.quotePolicy = policy }
            let visibility = drafts[current.draft]?.draft.visibility ?? .public
            say(visibility >= .private
                ? "Quotes: \(policy.phrase) — but a \(visibility == .direct ? "direct" : "followers-only") post can be quoted by you only."
                : "Quotes: \(policy.phrase).")
        case ".edit":
            guard options.editor != nil else {
                refuse("No editor: set VISUAL or EDITOR to write drafts in one.")
                return true
            }
            var reopened = Writing(replacing: current.draft)
            reopened.start = current.start
            writing = reopened
            openEditor(current.draft)
        case ".help":
            say("While writing: type the text (each line is kept in the draft as you type it); . sends, .back keeps the draft for later (so does Ctrl-D), .discard throws it away, .show shows it, .undo takes back the last line, .edit opens your editor ($VISUAL, $EDITOR), .cw TEXT sets the content warning (.cw alone removes it), .visibility public|unlisted|followers|direct, .lang CODE, .sensitive, .poll A | B [| …] [--multiple] [--expires 1d] (.poll alone removes it), .attach FILE \"description\" (.detach removes new ones), .quote N quotes row N's post (.quote alone removes it), .quotable anyone|followers|nobody says who may quote yours, .schedule 2026-12-01T09:00 (local time) or .schedule in 30m|2h|1d posts it later (.schedule off posts it at once); Tab completes @handles, #tags, :emoji: and these words; start a line with .. to begin it with a dot. The prompt counts the characters left.")
        default:
            refuse("\(Echo.shortened(word, to: 24)) is not a draft command; .help lists them. (Start a line with .. to begin it with a dot.)")
        }
        return true
    }

    /// Stops taking lines into `current`: a new post or reply that holds nothing but what it
    /// started with (no text typed, no warning, poll or attachment) is thrown away, any other
    /// draft is kept.
    func leave(_ current: Writing) {
        writing = nil
        if nothingWritten(current) {
            session.drafts.discard(current.draft)
            say("Nothing written, so no draft is kept.")
        } else {
            say("Draft kept; drafts lists it, draft \(draftNumber(current.draft)) opens it again.")
        }
    }

    /// Whether `current` is a new post or reply holding nothing but what it started with.
    func nothingWritten(_ current: Writing) -> Bool {
        guard let start = current.start, let draft = session.drafts[current.draft]?.draft, draft.editing == nil else { return false }
        let body = draft.text.hasPrefix(start) ? draft.text.dropFirst(start.count) : Substring(draft.text)
        return body.allSatisfy(\.isWhitespace) && draft.warning == nil && draft.poll == nil && draft.media.isEmpty && draft.quoting == nil
    }

    /// `.quote N` (row N of the screen on top) or `.quote` alone (no quote) in draft `id`.
    private func quote(_ argument: String, in id: DraftID) {
        guard !argument.isEmpty else {
            if let refusal = session.drafts.quote(nil, in: id) {
                refuse(refusal)
            } else {
                say("No quote.")
            }
            return
        }
        guard case .success(let number) = CommandParser.rowNumber(argument) else {
            refuse(".quote takes the number of the row whose post to quote (.quote alone removes the quote).")
            return
        }
        guard case .list(let entry)? = stack.last, let row = row(number, in: entry), let shown = post(of: row, number: number) else {
            if case .post? = stack.last { refuse(".quote N takes a row of a list; back to the list first.") }
            return
        }
        if let refusal = session.drafts.quote(shown.post, in: id) {
            refuse(refusal)
            return
        }
        let described = quoteDescription(shown.post.content.id)
        say(described.prefix(1).uppercased() + described.dropFirst() + ".")
    }

    /// What draft quotes, for its header: `quoting @ana: "…"`, and what its author's policy means.
    func quoteDescription(_ id: PostID) -> String {
        guard let post = session.store.post(id)?.content else { return "quoting post \(id)" }
        var text = "quoting @\(post.author.handle): \(Self.excerpt(post.text))"
        if post.quoteAwaitsApproval, post.author.id != session.drafts.account?.id {
            text += " (its author approves quotes: pending until then)"
        }
        return text
    }

    /// The number `drafts` lists draft `id` under.
    func draftNumber(_ id: DraftID) -> Int {
        (session.drafts.all.firstIndex { $0.id == id } ?? 0) + 1
    }

    /// `text` as `.show` prints it: `Text:`, then its lines as typed (control characters shown
    /// in caret notation), each wrapped and indented; `Text: (empty)` for none.
    func textLines(_ text: String) -> [String] {
        guard !text.allSatisfy(\.isWhitespace) else { return ["Text: (empty)"] }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return ["Text:"] + lines.flatMap { line -> [String] in
            line.isEmpty ? [""] : TextWidth.wrap(ScriptRunner.echo(String(line)), to: max(10, options.width - 2)).map { "  " + $0 }
        }
    }

    /// `.attach FILE "description"`.
    private func attach(_ argument: String, to id: DraftID) {
        let drafts = session.drafts
        let (file, description) = Self.attachment(argument)
        guard !file.isEmpty else {
            refuse(".attach takes a file and its description, for example: .attach pond.png \"Frogs at dawn\".")
            return
        }
        let path = (file as NSString).expandingTildeInPath
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
            FileManager.default.isReadableFile(atPath: path)
        else {
            refuse("There is no file \(Echo.shortened(file, to: 60)) to attach (or it cannot be read).")
            return
        }
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        drafts.update(id) { $0.media.append(Draft.MediaDraft(file: absolute, description: description)) }
        let count = drafts[id]?.draft.media.count ?? 0
        say("Attached \(URL(fileURLWithPath: path).lastPathComponent)\(description.isEmpty ? " (no description: people who cannot see it get nothing)" : "") — \(count) attachment\(count == 1 ? "" : "s").")
    }

    /// Opens the editor on draft `id` (saved already), takes back the text it leaves, and shows
    /// the draft, waiting for `.` to send it; the draft stays as it was when the editor fails.
    func openEditor(_ id: DraftID) {
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
        // The characters left changed. When the editor opened after the command returned (a
        // post waiting for the account), no line is being answered to bring the new prompt.
        options.promptChanged?(prompt)
        say(header(id))
        say("Text: \(Self.excerpt(session.drafts[id]?.draft.text ?? "", limit: 500)). A line with only . sends it, .edit opens the editor again, .back keeps it for later, .help lists the rest.")
    }

    /// `draft N`: opens draft N (as drafts numbers them) to write on.
    func reopenDraft(_ number: Int) {
        guard let submission = draft(number) else { return }
        guard submission.isEditable else {
            refuse("Draft \(number) is on its way (\(Self.phrase(submission.phase, refusal: submission.refusal))); it cannot change now.")
            return
        }
        writing = Writing(replacing: submission.id)
        if options.editor != nil {
            openEditor(submission.id)
            return
        }
        say(header(submission.id))
        emit(textLines(submission.draft.text))
        say("Type new text to replace it, or . to send it as it is; .help lists the rest.")
    }

    /// What a person writing needs to see of draft `id`: what it replies to, quotes or edits,
    /// who may see it, its warning, language, poll, attachments, and the characters left.
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
        if let quoted = draft.quoting { parts.append(quoteDescription(quoted)) }
        parts.append(draft.visibility.label.isEmpty ? "public" : draft.visibility.label)
        if let policy = draft.quotePolicy, draft.editing == nil { parts.append(draft.visibility >= .private ? "only you may quote it" : policy.phrase) }
        if let warning = draft.warning { parts.append("CW: \(warning)") }
        if let language = draft.language { parts.append("language \(language)") }
        if let poll = draft.poll { parts.append("poll: " + Self.describe(poll)) }
        if !draft.media.isEmpty { parts.append("\(draft.media.count) attachment\(draft.media.count == 1 ? "" : "s")") }
        if draft.sensitive { parts.append("sensitive") }
        if draft.isScheduled, let at = draft.scheduledAt { parts.append("scheduled for " + moment(at)) }
        let left = draft.charactersLeft(limits: session.drafts.limits)
        parts.append(left >= 0 ? "\(left) characters left" : "\(-left) characters over")
        return parts.joined(separator: " · ")
    }

    /// Who may see draft `draft`, its warning and what it quotes, as the `Sending:` line says
    /// them: `public`, `followers only · CW: spoilers · quoting @ana`.
    func audience(_ draft: Draft) -> String {
        var parts = [draft.visibility.label.isEmpty ? "public" : draft.visibility.label]
        if let warning = draft.warning { parts.append("CW: \(Echo.shortened(warning, to: 60))") }
        if let quoted = draft.quoting, draft.editing == nil {
            parts.append("quoting " + (session.store.post(quoted).map { "@" + $0.content.author.handle } ?? "post \(quoted)"))
        }
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
}
