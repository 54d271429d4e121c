@_spi(FeedService) import Feedline

/// Why a line is not a command. ``message`` is the one line the REPL prints.
public enum ParseError: Error, Hashable, Sendable {
    /// The first word names no command; `suggestion` is a near miss, if any.
    case unknownCommand(String, suggestion: CommandName?)
    /// `help` was given a word that names no command.
    case unknownTopic(String, suggestion: CommandName?)
    /// The command needs a row number and got none.
    case missingRow(CommandName)
    /// The argument is not a row number (digits only).
    case notARow(CommandName, String)
    /// The argument is a row number too large to be any row.
    case rowTooLarge(CommandName, String)
    /// The command takes no (more) arguments.
    case unexpectedArgument(CommandName, String)
    /// `tag` needs a name.
    case missingTag
    /// The word cannot be a hashtag's name.
    case notAHashtag(String)
    /// The word cannot be an account's handle.
    case notAHandle(String)
    /// `list` takes a row number or `all`.
    case notARange(String)
    case missingChoices
    case notAChoice(String)
    /// `notify` and `boosts` need `on` or `off`.
    case missingSwitch(CommandName)
    /// `--for` needs a length such as 1d.
    case notADuration(String)
    /// An option the command does not take.
    case unknownOption(CommandName, String)
    /// `search` needs something to look for.
    case missingQuery
    /// The word cannot be a domain.
    case notADomain(CommandName, String)
    /// `drafts delete` without a draft's number, or with a word that is not one.
    case draftNumber(String?)
    /// A `lists` line that says no list command; the sentence says why (see `CommandParser+Lists.swift`).
    case lists(String)
    /// A `filters` line that says no filter command; the sentence says why (see `CommandParser+Filters.swift`).
    case filters(String)
    /// A `scheduled` line that does not say what to do, with the sentence that says how.
    case scheduled(String)
    /// A `notifications policy` line that does not say what to set, with the sentence that says how.
    case notificationPolicy(String)
    /// A `profile edit` line that cannot be sent as typed; the sentence says why (see `CommandParser+Profile.swift`).
    case profileEdit(String)
    /// `notifications` with a word that names no kind of notification.
    case notAKind(String)
    /// A `report` line that cannot be sent as typed; the sentence says why (see `CommandParser+Reports.swift`).
    case report(String)
    /// An `announcements` line that says no announcements command; the sentence says why.
    case announcements(String)

    /// One sentence for the user (echoed words are cleaned of control characters and shortened).
    public var message: String {
        switch self {
        case .unknownCommand(let word, let suggestion):
            let hint = suggestion.map { " Did you mean \"\($0.rawValue)\"?" } ?? ""
            return "Unknown command \"\(Self.echo(word))\".\(hint) Type help for the commands."
        case .unknownTopic(let word, let suggestion):
            let hint = suggestion.map { " Did you mean \"\($0.rawValue)\"?" } ?? ""
            return "There is no command \"\(Self.echo(word))\" to explain.\(hint) Type help for the commands."
        case .missingRow(let name):
            return "\(name.rawValue) needs a row number, for example: \(name.rawValue) 3."
        case .notARow(let name, let word):
            return "\"\(Self.echo(word))\" is not a row number; \(name.rawValue) takes one, for example: \(name.rawValue) 3."
        case .rowTooLarge(_, let word):
            return "There is no row \(Self.echo(word))."
        case .unexpectedArgument(let name, let word):
            let usage = CommandTable.spec(name).usage
            return "\(name.rawValue) does not take \"\(Self.echo(word))\"; usage: \(usage)."
        case .missingTag:
            return "tag needs a hashtag, for example: tag birds."
        case .notAHashtag(let word):
            return "\"\(Self.echo(word))\" is not a hashtag: a hashtag has only letters, digits and underscores."
        case .notAHandle(let word):
            return "\"\(Self.echo(word))\" is not a row number or a handle; for example: profile 3 or profile @kemi@fieldnotes.science."
        case .missingChoices:
            return "vote needs the numbers of your choices, for example: vote 3 2 (row 3, choice 2) or vote 1,3 on a post."
        case .notAChoice(let word):
            return "\"\(Self.echo(word))\" is not a choice number; vote takes the numbers the poll shows, for example: vote 3 2."
        case .notARange(let word):
            return "\"\(Self.echo(word))\" is not a row number or all; usage: list [N|all]."
        case .missingSwitch(let name):
            return "\(name.rawValue) needs on or off, for example: \(name.rawValue) on 3."
        case .notADuration(let word):
            return "\"\(Self.echo(word))\" is not a length; --for takes one such as 30m, 2h, 1d or 1w (at most a year)."
        case .unknownOption(let name, let word):
            return "\(name.rawValue) does not take \"\(Self.echo(word))\"; usage: \(CommandTable.spec(name).usage)."
        case .notADomain(let name, let word):
            return "\"\(Self.echo(word))\" is not a row number or a domain; for example: \(name.rawValue) 3 or \(name.rawValue) promo.example."
        case .draftNumber(let word):
            let what = word.map { "\"\(Self.echo($0))\" is not a draft's number; " } ?? ""
            return what + "drafts delete takes the number drafts lists the draft under, for example: drafts delete 2."
        case .lists(let sentence), .filters(let sentence), .report(let sentence), .announcements(let sentence), .scheduled(let sentence),
            .notificationPolicy(let sentence), .profileEdit(let sentence):
            return sentence
        case .notAKind(let word):
            return "\"\(Self.echo(word))\" is not a kind of notification; notifications takes \(NotificationGroup.Kind.filterNameList), for example: notifications mentions."
        case .missingQuery:
            return "search needs something to look for, for example: search birds, search #swift or search @kemi@fieldnotes.science."
        }
    }

    /// `word` made safe to print: control characters become `?`, and it is cut at 24 characters.
    static func echo(_ word: String) -> String {
        Echo.shortened(word, to: 24)
    }
}

/// Turns a line of input into a ``Command``. Pure and total: any string — empty, junk, control
/// characters, a megabyte long — gives a command or a ``ParseError``, in time linear in its length.
public enum CommandParser {
    /// Parses one line. Blank lines and lines starting with `#` are ``Command/nothing``. Words are
    /// separated by whitespace; command words are case-insensitive; row numbers are ASCII digits.
    public static func parse(_ line: String) -> Result<Command, ParseError> {
        // Only the first three words matter (a command, its argument, one too many), so a huge
        // line is never split into all its words.
        let isSeparator = { (character: Character) in
            if let ascii = character.asciiValue { return ascii == 0x20 || (0x09...0x0D).contains(ascii) }  // fast path
            return character.isWhitespace || character.unicodeScalars.allSatisfy(isSeparatorControl)
        }
        let pieces = line.split(maxSplits: 2, omittingEmptySubsequences: true, whereSeparator: isSeparator)
        var words = Array(pieces.prefix(2))
        if pieces.count == 3, let third = pieces[2].split(maxSplits: 1, omittingEmptySubsequences: true, whereSeparator: isSeparator).first {
            words.append(third)
        }
        guard let first = words.first else { return .success(.nothing) }
        if first.hasPrefix("#") { return .success(.nothing) }
        let word = String(first)
        guard let name = CommandTable.command(named: word) else {
            return .failure(.unknownCommand(word, suggestion: CommandTable.suggestion(for: word)))
        }
        if let parsed = parseWriting(name, line: line, after: first, isSeparator: isSeparator) { return parsed }
        if name == .lists { return parseLists(line[first.endIndex...], isSeparator: isSeparator) }
        if name == .filters { return parseFilters(line[first.endIndex...], isSeparator: isSeparator) }
        if name == .report { return parseReport(line[first.endIndex...], isSeparator: isSeparator) }
        if name == .scheduled { return parseScheduled(line[first.endIndex...], isSeparator: isSeparator) }
        if name == .notifications, words.count > 1, words[1].lowercased() == "policy" {
            return parseNotificationPolicy(line[words[1].endIndex...], isSeparator: isSeparator)
        }
        if name == .profile, words.count > 1, words[1].lowercased() == "edit" {
            return parseProfileEdit(line[words[1].endIndex...], isSeparator: isSeparator)
        }
        if name == .help, words.count > 1 {
            // A kind of command is named by one or more words: `help lists and tags`.
            let rest = line[first.endIndex...].prefix(64)
            if let group = CommandGroup.named(String(rest)) { return .success(.helpGroup(group)) }
        }
        if name == .browse {
            // Two numbers at most, and the first word after them (one too many).
            var all = line.split(maxSplits: 3, omittingEmptySubsequences: true, whereSeparator: isSeparator).dropFirst().map(String.init)
            if all.count == 3, let word = all[2].split(maxSplits: 1, omittingEmptySubsequences: true, whereSeparator: isSeparator).first {
                all[2] = String(word)
            }
            return parseBrowse(all)
        }
        if CommandTable.spec(name).argument == .domain {
            let all = line.split(maxSplits: 3, omittingEmptySubsequences: true, whereSeparator: isSeparator).dropFirst().prefix(3)
            // The last piece may be only separators (a line ending in two tabs): it is no word.
            let words = all.compactMap { piece in piece.split(maxSplits: 1, omittingEmptySubsequences: true, whereSeparator: isSeparator).first.map(String.init) }
            return parseDomainBlock(name, words)
        }
        if CommandTable.spec(name).argument == .account {
            // At most a handful of words count; more is an error on the first extra one.
            var all = line.split(maxSplits: 6, omittingEmptySubsequences: true, whereSeparator: isSeparator).dropFirst().map(String.init)
            // The last piece is the rest of the line: only its first word counts (one too many).
            // It may be only separators (a line ending in two tabs): then it is no word at all.
            if all.count == 6, let last = all.last {
                if let word = last.split(maxSplits: 1, omittingEmptySubsequences: true, whereSeparator: isSeparator).first {
                    all[5] = String(word)
                } else {
                    all.removeLast()
                }
            }
            if name == .follow || name == .unfollow, let first = all.first, first.hasPrefix("#") {
                if all.count > 1 { return .failure(.unexpectedArgument(name, all[1])) }
                let key = TagStore.key(first)
                guard TagStore.isTag(key) else { return .failure(.notAHashtag(first)) }
                return .success(.followTag(key, name == .follow))
            }
            return parseRelationship(name, all)
        }
        let arguments = words.dropFirst().map(String.init)
        if name == .drafts, let action = arguments.first { return parseDrafts(action, arguments.dropFirst().first) }
        if name == .notifications, let action = arguments.first, action.lowercased() == "clear" {
            return parseClearNotifications(arguments.dropFirst().first)
        }
        if name == .notifications, let action = arguments.first, action.lowercased() == "filtered" {
            if let extra = arguments.dropFirst().first { return .failure(.unexpectedArgument(.notifications, extra)) }
            return .success(.notificationRequests)
        }
        if name == .announcements, let action = arguments.first { return parseReadAnnouncements(action, arguments.dropFirst().first) }
        let spec = CommandTable.spec(name)
        if spec.argument == .none {
            if let extra = arguments.first { return .failure(.unexpectedArgument(name, extra)) }
        } else if arguments.count > 1 {
            return .failure(.unexpectedArgument(name, arguments[1]))
        }
        let argument = arguments.first

        func row(_ text: String) -> Result<Int, ParseError> {
            switch rowNumber(text) {
            case .success(let number): .success(number)
            case .failure(.notDigits): .failure(.notARow(name, text))
            case .failure(.tooLarge): .failure(.rowTooLarge(name, text))
            }
        }
        func optionalRow() -> Result<Int?, ParseError> {
            guard let argument else { return .success(nil) }
            return row(argument).map { $0 }
        }

        switch name {
        case .back: return .success(.back)
        case .top: return .success(.top)
        case .whereAmI: return .success(.whereAmI)
        case .more: return .success(.more)
        case .new: return .success(.new)
        case .quit: return .success(.quit)
        case .refresh: return .success(.refresh)
        case .reload: return .success(.reload)
        case .link: return optionalRow().map { .link(row: $0) }
        case .browse: return .success(.nothing)  // parseBrowse
        case .retry: return .success(.retry)
        case .notifications:
            guard let argument else { return .success(.screen(name)) }
            return parseNotificationKinds(argument)
        case .bookmarks, .favourites, .home, .local, .public: return .success(.screen(name))
        case .drafts: return .success(.drafts)
        case .draft:
            guard let argument else { return .failure(.missingRow(name)) }
            return row(argument).map { .draft($0) }
        case .history: return optionalRow().map { .history(row: $0) }
        case .favouritedBy, .boostedBy: return optionalRow().map { .reactedBy(name == .boostedBy ? .reblog : .favourite, row: $0) }
        case .redraft: return optionalRow().map { .redraft(row: $0) }
        case .edit, .vote: return .success(.nothing)  // parsed by parseWriting
        case .follow, .unfollow, .mute, .unmute, .block, .unblock, .notify, .boosts: return .success(.nothing)  // parseRelationship
        case .post, .reply, .quotePost, .delete: return .success(.nothing)  // parsed by parseWriting
        case .fav: return optionalRow().map { .favourite(row: $0) }
        case .boost: return optionalRow().map { .boost(row: $0) }
        case .bookmark: return optionalRow().map { .bookmark(row: $0) }
        case .unfav: return optionalRow().map { .undo(.favourite, row: $0) }
        case .unboost: return optionalRow().map { .undo(.reblog, row: $0) }
        case .unbookmark: return optionalRow().map { .undo(.bookmark, row: $0) }
        case .pin, .unpin: return optionalRow().map { .set(.pin, name == .pin, row: $0) }
        case .muteThread, .unmuteThread: return optionalRow().map { .set(.muteThread, name == .muteThread, row: $0) }
        case .show: return optionalRow().map { .show(row: $0) }
        case .translate: return optionalRow().map { .translate(row: $0) }
        case .report: return .success(.nothing)  // parseReport
        case .rules: return .success(.rules)
        case .account: return .success(.account(argument))
        case .original: return optionalRow().map { .original(row: $0) }
        case .thread: return optionalRow().map { .thread(row: $0) }
        case .quote: return optionalRow().map { .quote(row: $0) }
        case .open, .gap:
            guard let argument else { return .failure(.missingRow(name)) }
            return row(argument).map { name == .open ? .open(row: $0) : .gap(row: $0) }
        case .list:
            guard let argument else { return .success(.list(.screen)) }
            if argument.lowercased() == "all" { return .success(.list(.all)) }
            switch rowNumber(argument) {
            case .success(let number): return .success(.list(.from(number)))
            case .failure(.tooLarge): return .failure(.rowTooLarge(name, argument))
            case .failure(.notDigits): return .failure(.notARange(argument))
            }
        case .profile, .followers, .following, .endorsed:
            let target: ProfileTarget?
            if let argument {
                if rowNumber(argument) != .failure(.notDigits) {
                    switch row(argument) {
                    case .success(let number): target = .row(number)
                    case .failure(let error): return .failure(error)
                    }
                } else if let handle = Self.handle(argument) {
                    target = .handle(handle)
                } else {
                    return .failure(.notAHandle(argument))
                }
            } else {
                target = nil
            }
            switch name {
            case .followers: return .success(.accountList(.followers, target))
            case .following: return .success(.accountList(.following, target))
            case .endorsed: return .success(.accountList(.endorsed, target))
            default: return .success(.profile(target))
            }
        case .search: return .success(.nothing)  // parsed by parseWriting
        case .blockDomain, .unblockDomain: return .success(.nothing)  // parseDomainBlock
        case .domains, .tags, .conversations, .filters, .announcements: return .success(.screen(name))
        case .remove:
            guard let argument else { return .failure(.missingRow(name)) }
            return row(argument).map { .removeConversation(row: $0) }
        case .dismiss:
            guard let argument else { return .failure(.missingRow(name)) }
            if argument == "--all" { return .success(.answerAllNotificationRequests(accept: false)) }
            return row(argument).map { .dismissNotification(row: $0) }
        case .lists: return .success(.nothing)  // parseLists
        case .scheduled: return .success(.nothing)  // parseScheduled
        case .trends:
            guard let argument else { return .success(.trends(tags: false)) }
            guard ["tags", "hashtags", "#"].contains(argument.lowercased()) else { return .failure(.unexpectedArgument(name, argument)) }
            return .success(.trends(tags: true))
        case .mutes, .blocks, .requests: return .success(.screen(name))
        case .accept, .reject:
            guard let argument else { return .failure(.missingRow(name)) }
            if argument == "--all", name == .accept { return .success(.answerAllNotificationRequests(accept: true)) }
            return row(argument).map { .answer(row: $0, accept: name == .accept) }
        case .tag:
            guard let argument else { return .failure(.missingTag) }
            let tag = argument.hasPrefix("#") ? String(argument.dropFirst()) : argument
            guard Self.isHashtag(tag) else { return .failure(.notAHashtag(argument)) }
            return .success(.tag(tag))
        case .help:
            guard let topic = argument else { return .success(.help(nil)) }
            guard let command = CommandTable.command(named: topic) else {
                return .failure(.unknownTopic(topic, suggestion: CommandTable.suggestion(for: topic)))
            }
            return .success(.help(command))
        }
    }

    /// `browse [N] [K]`: at most two numbers, each a row number's digits.
    private static func parseBrowse(_ words: [String]) -> Result<Command, ParseError> {
        var numbers: [Int] = []
        for word in words {
            guard numbers.count < 2 else { return .failure(.unexpectedArgument(.browse, word)) }
            switch rowNumber(word) {
            case .success(let number): numbers.append(number)
            case .failure(.notDigits): return .failure(.notARow(.browse, word))
            case .failure(.tooLarge): return .failure(.rowTooLarge(.browse, word))
            }
        }
        return .success(.browse(row: numbers.first, item: numbers.count > 1 ? numbers[1] : nil))
    }

    /// `announcements read N` or `announcements read --all` (also `all`): the action word, then a
    /// row number or `--all`.
    private static func parseReadAnnouncements(_ action: String, _ target: String?) -> Result<Command, ParseError> {
        let usage = "announcements read takes a row number or --all, for example: announcements read 2."
        guard action.lowercased() == "read" else { return .failure(.unexpectedArgument(.announcements, action)) }
        guard let target else { return .failure(.announcements(usage)) }
        if ["--all", "all"].contains(target.lowercased()) { return .success(.readAllAnnouncements) }
        switch rowNumber(target) {
        case .success(let number): return .success(.readAnnouncement(row: number))
        case .failure(.notDigits): return .failure(.announcements("\"\(ParseError.echo(target))\" is not a row number; " + usage))
        case .failure(.tooLarge): return .failure(.rowTooLarge(.announcements, target))
        }
    }

    /// `drafts delete N` (also `drafts discard N`): the action word, then a draft's number.
    private static func parseDrafts(_ action: String, _ number: String?) -> Result<Command, ParseError> {
        guard ["delete", "discard"].contains(action.lowercased()) else { return .failure(.unexpectedArgument(.drafts, action)) }
        guard let number else { return .failure(.draftNumber(nil)) }
        guard case .success(let value) = rowNumber(number) else { return .failure(.draftNumber(number)) }
        return .success(.deleteDraft(value))
    }

    /// Parses raw bytes: invalid UTF-8 is replaced (U+FFFD) and then parsed like any line.
    /// `post [TEXT]`, `reply [N] [TEXT]`, `delete [N] [--yes]`: the text is the rest of the line
    /// as typed (inner spacing kept, the ends trimmed); a reply's or delete's first word is a row
    /// number when it is all digits. `nil` for other commands.
    private static func parseWriting(
        _ name: CommandName, line: String, after first: Substring, isSeparator: (Character) -> Bool
    ) -> Result<Command, ParseError>? {
        guard [.post, .reply, .quotePost, .delete, .edit, .vote, .search].contains(name) else { return nil }
        var rest = line[first.endIndex...].drop(while: isSeparator)
        while let last = rest.last, isSeparator(last) { rest = rest.dropLast() }
        if name == .search {
            return rest.isEmpty ? .failure(.missingQuery) : .success(.search(String(rest)))
        }
        var row: Int?
        if name != .post {
            let word = rest.prefix { !isSeparator($0) }
            switch rowNumber(String(word)) {
            case .success(let number):
                row = number
                rest = rest[word.endIndex...].drop(while: isSeparator)
            case .failure(.tooLarge):
                return .failure(.rowTooLarge(name, String(word)))
            case .failure(.notDigits):
                break
            }
        }
        let text = rest.isEmpty ? nil : String(rest)
        switch name {
        case .post: return .success(.post(text: text))
        case .reply: return .success(.reply(row: row, text: text))
        case .quotePost: return .success(.quotePost(row: row, text: text))
        case .edit: return .success(.edit(row: row, text: text))
        case .vote:
            // `vote 3` alone names choice 3 of the open post, not row 3.
            let (row, words) = text == nil ? (nil, row.map(String.init)) : (row, text)
            guard let words else { return .failure(.missingChoices) }
            var choices: [Int] = []
            for word in words.split(whereSeparator: { $0 == "," || isSeparator($0) }) {
                guard let number = Int(word), number >= 1, number <= 64 else { return .failure(.notAChoice(String(word))) }
                choices.append(number - 1)
            }
            guard !choices.isEmpty else { return .failure(.missingChoices) }
            return .success(.vote(row: row, choices: choices))
        default:
            guard let text else { return .success(.delete(row: row, confirmed: false)) }
            guard ["--yes", "-y"].contains(text.lowercased()) else { return .failure(.unexpectedArgument(name, text)) }
            return .success(.delete(row: row, confirmed: true))
        }
    }

    /// `follow [N|@handle]`, `mute [N|@handle] [--for LENGTH] [--keep-notifications]`,
    /// `block [N|@handle] [--yes]`, `notify on|off [N|@handle]` and the rest: a row number or a
    /// handle (at most one), then the options the command takes, in any order.
    private static func parseRelationship(_ name: CommandName, _ words: [String]) -> Result<Command, ParseError> {
        let (kind, value): (RelationshipKind, Bool?) = switch name {
        case .follow: (.follow, true)
        case .unfollow: (.follow, false)
        case .mute: (.mute, true)
        case .unmute: (.mute, false)
        case .block: (.block, true)
        case .unblock: (.block, false)
        case .notify: (.notify, nil)
        default: (.boosts, nil)
        }
        var rest = words[...]
        var switched = value
        if value == nil {
            guard let first = rest.first, ["on", "off"].contains(first.lowercased()) else { return .failure(.missingSwitch(name)) }
            switched = first.lowercased() == "on"
            rest = rest.dropFirst()
        }
        var command = RelationshipCommand(kind: kind, value: switched ?? true)
        while let word = rest.first {
            rest = rest.dropFirst()
            let lowered = word.lowercased()
            if lowered == "--for", name == .mute {
                guard let length = rest.first else { return .failure(.notADuration("")) }
                rest = rest.dropFirst()
                guard let seconds = RelationshipCommand.seconds(length) else { return .failure(.notADuration(length)) }
                command.muteSeconds = seconds
            } else if lowered == "--keep-notifications", name == .mute {
                command.keepNotifications = true
            } else if ["--yes", "-y"].contains(lowered), name == .block {
                command.confirmed = true
            } else {
                switch target(name, word, after: command.target, row: ProfileTarget.row, named: account) {
                case .success(let target): command.target = target
                case .failure(let error): return .failure(error)
                }
            }
        }
        return .success(.relationship(command))
    }

    /// `block-domain [N|DOMAIN] [--yes]`, `unblock-domain [N|DOMAIN]`: a row number or a domain
    /// (at most one), and `--yes` for a block, in any order.
    private static func parseDomainBlock(_ name: CommandName, _ words: [String]) -> Result<Command, ParseError> {
        var command = DomainBlockCommand(value: name == .blockDomain)
        for word in words {
            let lowered = word.lowercased()
            if ["--yes", "-y"].contains(lowered), name == .blockDomain {
                command.confirmed = true
            } else {
                switch target(name, word, after: command.target, row: DomainBlockCommand.Target.row, named: { domain(name, $0) }) {
                case .success(let target): command.target = target
                case .failure(let error): return .failure(error)
                }
            }
        }
        return .success(.domainBlock(command))
    }

    /// `word` as the account of a relationship command: a handle, `@` optional.
    private static func account(_ word: String) -> Result<ProfileTarget, ParseError> {
        handle(word).map { .success(.handle($0)) } ?? .failure(.notAHandle(word))
    }

    /// `word` as the domain of `block-domain` / `unblock-domain` (`name`): lower-cased, a
    /// leading `@` dropped; a word with an `@` further on is a handle, not a domain.
    private static func domain(_ name: CommandName, _ word: String) -> Result<DomainBlockCommand.Target, ParseError> {
        let key = DomainBlockStore.key(word)
        guard DomainBlockStore.isDomain(key), !word.contains("@") || word.hasPrefix("@") else { return .failure(.notADomain(name, word)) }
        return .success(.domain(key))
    }

    /// `word` as the one target of command `name` that takes a row number or a name: an option
    /// (`-…`) the command did not take is unknown, a second target is unexpected, a row number
    /// is `row` of it, and any other word is what `named` makes of it.
    private static func target<Target>(
        _ name: CommandName, _ word: String, after current: Target?, row: (Int) -> Target, named: (String) -> Result<Target, ParseError>
    ) -> Result<Target, ParseError> {
        if word.hasPrefix("-") { return .failure(.unknownOption(name, word)) }
        if current != nil { return .failure(.unexpectedArgument(name, word)) }
        switch rowNumber(word) {
        case .success(let number): return .success(row(number))
        case .failure(.tooLarge): return .failure(.rowTooLarge(name, word))
        case .failure(.notDigits): return named(word)
        }
    }

    public static func parse(bytes: some Collection<UInt8>) -> Result<Command, ParseError> {
        parse(String(decoding: bytes, as: UTF8.self))
    }

    /// `user` or `user@host` from `@user@host`, `user@host` or `user`; `nil` for anything that
    /// cannot be a handle. User names are letters, digits, `_`, `.`, `-`; a host is a name of the
    /// same characters or a bracketed IPv6 address, and may end in `:PORT` — the way Feedline
    /// names an account on a server with a port (`grace@127.0.0.1:38111`, `grace@[::1]:8080`).
    static func handle(_ text: String) -> String? {
        var name = Substring(text)
        if name.hasPrefix("@") { name = name.dropFirst() }
        let parts = name.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        guard let user = parts.first, isName(user) else { return nil }
        if parts.count == 2, !isHost(parts[1]) { return nil }
        return String(name)
    }

    /// A user or host name: 1–253 ASCII letters, digits, `_`, `.` and `-`.
    private static func isName(_ text: Substring) -> Bool {
        !text.isEmpty && text.count <= 253
            && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "_.-".contains($0)) }
    }

    /// A host name or a bracketed IPv6 address, with an optional `:PORT` (1–65535).
    private static func isHost(_ text: Substring) -> Bool {
        var host = text
        if let colon = text.lastIndex(of: ":"), !text.hasPrefix("[") || text[..<colon].hasSuffix("]") {
            let port = text[text.index(after: colon)...]
            guard (1...5).contains(port.count), port.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(port), (1...65535).contains(number) else {
                return false
            }
            host = text[..<colon]
        }
        if host.hasPrefix("["), host.hasSuffix("]") {
            let address = host.dropFirst().dropLast()
            return (2...45).contains(address.count) && address.contains(":")
                && address.allSatisfy { $0.isASCII && ($0.isHexDigit || $0 == ":" || $0 == ".") }
        }
        return isName(host)
    }

    /// Whether `name` can be a hashtag: letters, digits, underscores (any script), at most 100.
    static func isHashtag(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 100 && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
    }

    enum NumberProblem: Error {
        case notDigits
        case tooLarge
    }

    /// A non-negative decimal number of ASCII digits.
    static func rowNumber(_ text: String) -> Result<Int, NumberProblem> {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return .failure(.notDigits)
        }
        guard let value = Int(text) else { return .failure(.tooLarge) }
        return .success(value)
    }

    /// Control characters that separate words like spaces (NUL, escape and the like do not).
    private static func isSeparatorControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\t" || scalar == "\u{0B}" || scalar == "\u{0C}" || scalar == "\r" || scalar == "\n"
    }
}
