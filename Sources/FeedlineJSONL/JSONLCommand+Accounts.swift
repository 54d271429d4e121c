import Feedline

extension JSONLCommand {
    /// How a `mute` line mutes: `"duration"` in seconds (`nil`: without end) and
    /// `"notifications"` (whether theirs are muted too).
    public struct Mute: Hashable, Sendable {
        /// How long the mute lasts; `nil` for a mute without end.
        public var duration: Duration?
        /// Whether their notifications are muted too (Mastodon's default: yes).
        public var notifications: Bool

        public init(duration: Duration? = nil, notifications: Bool = true) {
            self.duration = duration
            self.notifications = notifications
        }
    }

    /// The relationship commands and the kind and value each sets: `follow`, `mute`, `block`,
    /// `notify` and `boosts` set their kind to `"value"` (true when absent); `unfollow`, `unmute`
    /// and `unblock` set theirs to false (they read no `"value"`).
    static let relationshipCommands: [String: (kind: RelationshipKind, value: Bool?)] = [
        "follow": (.follow, nil), "mute": (.mute, nil), "block": (.block, nil), "notify": (.notify, nil), "boosts": (.boosts, nil),
        "unfollow": (.follow, false), "unmute": (.mute, false), "unblock": (.block, false),
    ]

    /// The account commands: the relationship commands (see ``relationshipCommands``) and
    /// `relationships`.
    ///
    /// Accounts are named by id (an ``Author/id``, a ``Profile/accountID``, an account row's
    /// `account`): a handle is refused with a sentence saying how to find the id — the session's
    /// relationships are kept by id, and a handle is looked up only when a profile loads — and so
    /// is a row id (`account:ID`, `tag:NAME`…), with the id to use when the row is an account's.
    static func accounts(_ name: String, _ value: JSONLValue) -> Result<Action, FieldProblem> {
        // `relationships` is the one account command that sets nothing.
        guard let (kind, fixed) = relationshipCommands[name] else {
            return relationshipsToLoad(value["accounts"]).map(Action.relationships)
        }
        guard let text = value["account"]?.string, !text.isEmpty else {
            return .failure(FieldProblem(message: "\(name) needs \"account\": an account id string."))
        }
        if let problem = handleProblem(name, text) ?? rowProblem(name, text) { return .failure(problem) }
        var wanted = fixed ?? true
        if fixed == nil, let field = value["value"] {
            guard case .bool(let flag) = field else {
                return .failure(FieldProblem(message: "\(name): \"value\" is true or false, not \(echo(field.json))."))
            }
            wanted = flag
        }
        var mute: Mute?
        if kind == .mute, wanted {
            switch muteOptions(name, value) {
            case .success(let options): mute = options
            case .failure(let problem): return .failure(problem)
            }
        }
        return .success(.relationship(kind, AccountID(text), value: wanted, mute: mute))
    }

    /// `"duration"` (whole seconds above 0; `null` or absent: a mute without end) and
    /// `"notifications"` (true or false; true when absent, as Mastodon mutes) of a mute.
    private static func muteOptions(_ name: String, _ value: JSONLValue) -> Result<Mute, FieldProblem> {
        var options = Mute()
        switch value["duration"] {
        case nil, .null?:
            break
        case .number(let seconds)? where seconds >= 1 && seconds < 1_000_000_000 && seconds == seconds.rounded():
            options.duration = .seconds(Int(seconds))
        case let field?:
            return .failure(FieldProblem(
                message: "\(name): \"duration\" is how long the mute lasts in whole seconds, above 0 (leave it out for a mute without end), not \(echo(field.json))."
            ))
        }
        if let field = value["notifications"] {
            guard case .bool(let flag) = field else {
                return .failure(FieldProblem(message: "\(name): \"notifications\" is true or false (whether their notifications are muted too), not \(echo(field.json))."))
            }
            options.notifications = flag
        }
        return .success(options)
    }

    /// `"accounts"` of a `relationships` line: a non-empty list of account id strings, each
    /// once, in the order given.
    private static func relationshipsToLoad(_ field: JSONLValue?) -> Result<[AccountID], FieldProblem> {
        guard case .array(let list)? = field, !list.isEmpty else {
            return .failure(FieldProblem(message: "relationships needs \"accounts\": a list of account id strings such as [\"109302\"]."))
        }
        var accounts: [AccountID] = []
        var seen: Set<String> = []
        for item in list {
            guard let text = item.string, !text.isEmpty else {
                return .failure(FieldProblem(message: "relationships: \(echo(item.json)) is not an account id string."))
            }
            if let problem = handleProblem("relationships", text) ?? rowProblem("relationships", text) { return .failure(problem) }
            if seen.insert(text).inserted { accounts.append(AccountID(text)) }
        }
        return .success(accounts)
    }

    /// Why `text` cannot name an account in command `name`: it is a handle (`@user@host`,
    /// `user@host`), which the session resolves only when a profile of it loads.
    static func handleProblem(_ name: String, _ text: String) -> FieldProblem? {
        guard text.contains("@") else { return nil }
        let handle = echo(AccountID(handle: text).rawValue)
        return FieldProblem(message:
            "\(name): \(handle) is a handle, not an account id; push {\"route\":\"feed\",\"feed\":\"account:\(handle)\"} first and use the \"account\" of its profile message."
        )
    }

    /// Why `text` cannot name an account in command `name`: it is a row id. An account row's
    /// (`account:ID`) says which id to use; a hashtag row's names no account.
    static func rowProblem(_ name: String, _ text: String) -> FieldProblem? {
        guard let row = RowID(text) else { return nil }
        switch row {
        case .account(let id):
            return FieldProblem(message: "\(name): \(echo(text)) is a row id; the account's id is \(echo(id.rawValue)), the row's \"account\".")
        case .tag:
            return FieldProblem(message: "\(name): \(echo(text)) is a hashtag row, not an account.")
        case .post, .gap, .notification, .domain, .conversation, .list, .filter, .announcement, .scheduled, .notificationRequest:
            return FieldProblem(message: "\(name): \(echo(text)) is a row id, not an account id; an account row or a profile message gives the \"account\".")
        }
    }
}
