import Feedline

extension JSONLCommand {
    /// The fields of a draft a `draft` or `editDraft` command sets; `nil` leaves a field as it
    /// is (a new draft: as the account's defaults, or a reply's, start it). For the fields that
    /// can be absent on a draft, `.some(nil)` (JSON `null`) clears them.
    ///
    /// The names and shapes are those of the `draft` message, so a client can send back what it
    /// was shown: `text`, `cw`, `visibility`, `language`, `sensitive`, `poll`, `quote`, `quotable`.
    public struct DraftFields: Sendable, Equatable {
        public var text: String?
        /// `cw`: the content warning; `.some(nil)` for none.
        public var contentWarning: String??
        public var visibility: PostVisibility?
        /// An ISO 639 code; `.some(nil)` lets the server guess.
        public var language: String??
        public var sensitive: Bool?
        /// `.some(nil)` takes the poll off.
        public var poll: Draft.PollDraft??
        /// `quote`: the post to quote (one the session knows); `.some(nil)` quotes nothing. Set
        /// through ``Feedline/Drafts/quote(_:in:)``, so the quoted post's policy is checked.
        public var quote: PostID??
        /// `quotable`: who may quote the post; `.some(nil)` leaves it to the account's default.
        public var quotePolicy: QuotePolicy??
        /// `schedule`: when the post goes, as `.schedule` takes it (`"2026-12-01T09:00"` local,
        /// `"in 2h"`); `.some(nil)` posts it at once.
        public var schedule: String??

        public init(
            text: String? = nil, contentWarning: String?? = nil, visibility: PostVisibility? = nil, language: String?? = nil,
            sensitive: Bool? = nil, poll: Draft.PollDraft?? = nil, quote: PostID?? = nil, quotePolicy: QuotePolicy?? = nil
        ) {
            self.text = text
            self.contentWarning = contentWarning
            self.visibility = visibility
            self.language = language
            self.sensitive = sensitive
            self.poll = poll
            self.quote = quote
            self.quotePolicy = quotePolicy
        }

        /// Sets on `draft` every field that is given.
        func apply(to draft: inout Draft) {
            if let text { draft.text = text }
            if let contentWarning { draft.contentWarning = contentWarning }
            if let visibility { draft.visibility = visibility }
            if let language { draft.language = language }
            if let sensitive { draft.sensitive = sensitive }
            if let poll { draft.poll = poll }
            if let quotePolicy { draft.quotePolicy = quotePolicy }
        }
    }

    /// The writing commands: `draft`, `editDraft`, `send`, `discard`, `drafts`, `delete`,
    /// `editPost`, `redraft`, `vote`, `history`.
    static func writing(_ name: String, _ value: JSONLValue) -> Result<Action, FieldProblem> {
        func draftID() -> Result<DraftID, FieldProblem> {
            guard let text = value["draft"]?.string, !text.isEmpty else {
                return .failure(FieldProblem(message: "\(name) needs \"draft\": a draft id string such as \"1\"."))
            }
            return .success(DraftID(text))
        }
        func postID() -> Result<PostID, FieldProblem> {
            guard let text = value["post"]?.string, !text.isEmpty else {
                return .failure(FieldProblem(message: "\(name) needs \"post\": a post id string."))
            }
            return .success(PostID(text))
        }
        switch name {
        case "draft":
            var replyTo: PostID?
            if let field = value["replyTo"] {
                guard let text = field.string, !text.isEmpty else {
                    return .failure(FieldProblem(message: "draft: \"replyTo\" is the id of the post to reply to, not \(echo(field.json))."))
                }
                replyTo = PostID(text)
            }
            return fields(name, value).map { .draft(replyTo: replyTo, $0) }
        case "editDraft":
            // "replyTo" cannot change: like every field a command does not read, it is ignored
            // (a client may send back a whole draft message's fields).
            return draftID().flatMap { id in fields(name, value).map { .editDraft(id, $0) } }
        case "send": return draftID().map(Action.send)
        case "discard": return draftID().map(Action.discard)
        case "drafts": return .success(.drafts)
        case "editPost": return postID().map(Action.editPost)
        case "redraft": return postID().map(Action.redraft)
        case "history": return postID().map(Action.history)
        case "vote": return postID().flatMap { post in choices(value["choices"]).map { .vote(post, choices: $0) } }
        default: return postID().map(Action.delete)
        }
    }

    /// `"choices"` of a `vote` line: a non-empty list of whole numbers from 1 (below 1000000),
    /// as a person numbers a poll's options. Whether the poll has them is the poll's business.
    private static func choices(_ field: JSONLValue?) -> Result<[Int], FieldProblem> {
        let shape = "a list of choice numbers counted from 1, such as [2] or [1,3]"
        guard let field else { return .failure(FieldProblem(message: "vote needs \"choices\": \(shape).")) }
        guard case .array(let list) = field, !list.isEmpty else {
            return .failure(FieldProblem(message: "vote: \"choices\" is \(shape), not \(echo(field.json))."))
        }
        var numbers: [Int] = []
        for item in list {
            guard case .number(let number) = item, number >= 1, number < 1_000_000, number == number.rounded(), let whole = Int(exactly: number) else {
                return .failure(FieldProblem(message: "vote: \"choices\" is \(shape), not \(echo(field.json))."))
            }
            numbers.append(whole)
        }
        return .success(numbers)
    }

    /// The draft fields of a `draft` or `editDraft` line; the first that has the wrong type is
    /// the problem (checked in the order of the `draft` message).
    private static func fields(_ name: String, _ value: JSONLValue) -> Result<DraftFields, FieldProblem> {
        func problem(_ key: String, _ shape: String, _ field: JSONLValue) -> Result<DraftFields, FieldProblem> {
            .failure(FieldProblem(message: "\(name): \"\(key)\" is \(shape), not \(echo(field.json))."))
        }
        var fields = DraftFields()
        if let field = value["text"] {
            guard let text = field.string else { return problem("text", "a string", field) }
            fields.text = text
        }
        if let field = value["cw"] {
            switch field {
            case .null: fields.contentWarning = .some(nil)
            case .string(let text): fields.contentWarning = .some(text)
            default: return problem("cw", "the content warning, a string (or null for none)", field)
            }
        }
        if let field = value["visibility"] {
            guard let text = field.string, let visibility = PostVisibility(typed: text) else {
                return problem("visibility", "public, unlisted, private (or followers) or direct", field)
            }
            fields.visibility = visibility
        }
        if let field = value["language"] {
            switch field {
            case .null: fields.language = .some(nil)
            case .string(let code): fields.language = .some(code.isEmpty ? nil : code)
            default: return problem("language", "a language code such as \"en\" (or null to let the server guess)", field)
            }
        }
        if let field = value["sensitive"] {
            guard case .bool(let flag) = field else { return problem("sensitive", "true or false", field) }
            fields.sensitive = flag
        }
        if let field = value["poll"] {
            let shape = "an object such as {\"options\":[\"Yes\",\"No\"],\"expiresIn\":86400,\"multiple\":false} (or null for none)"
            if case .null = field {
                fields.poll = .some(nil)
            } else {
                guard let poll = poll(field) else { return problem("poll", shape, field) }
                fields.poll = .some(poll)
            }
        }
        if let field = value["quote"] {
            switch field {
            case .null: fields.quote = .some(nil)
            case .string(let id) where !id.isEmpty: fields.quote = .some(PostID(id))
            default: return problem("quote", "the id of the post to quote (or null for none)", field)
            }
        }
        if let field = value["schedule"] {
            switch field {
            case .null: fields.schedule = .some(nil)
            case .string(let text) where !text.allSatisfy(\.isWhitespace): fields.schedule = .some(text)
            default: return problem("schedule", "a time such as \"2026-12-01T09:00\" (local) or \"in 2h\" (or null to post at once)", field)
            }
        }
        if let field = value["quotable"] {
            switch field {
            case .null: fields.quotePolicy = .some(nil)
            case .string(let typed) where QuotePolicy(typed: typed) != nil: fields.quotePolicy = .some(QuotePolicy(typed: typed))
            default: return problem("quotable", "who may quote the post: public, followers or nobody (or null for the account's default)", field)
            }
        }
        return .success(fields)
    }

    /// `{"options":["Yes","No"],"expiresIn":86400,"multiple":false}`: options strings,
    /// `expiresIn` a whole number of seconds (a day when absent), `multiple` a flag (false when
    /// absent). Whether the server takes it (how many options, how long) is the draft's
    /// problems, not the line's.
    private static func poll(_ value: JSONLValue) -> Draft.PollDraft? {
        guard case .object = value, case .array(let list)? = value["options"] else { return nil }
        var options: [String] = []
        for item in list {
            guard let option = item.string else { return nil }
            options.append(option)
        }
        var poll = Draft.PollDraft(options: options)
        if let field = value["expiresIn"] {
            guard case .number(let seconds) = field, seconds >= 0, seconds < 1_000_000_000, seconds == seconds.rounded(),
                let whole = Int(exactly: seconds)
            else { return nil }
            poll.expiresIn = whole
        }
        if let field = value["multiple"] {
            guard case .bool(let flag) = field else { return nil }
            poll.multiple = flag
        }
        return poll
    }
}
