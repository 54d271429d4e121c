@_spi(FeedService) import Feedline

/// `filters [new|edit|delete …]`. Linear in the line: it is cut into words once. A title is
/// the words before the first option (bare words joined by one space, or one quoted title); a
/// keyword is one word, or words in double quotes.
extension CommandParser {
    static func parseFilters(_ rest: Substring, isSeparator: (Character) -> Bool) -> Result<Command, ParseError> {
        var rest = rest.drop(while: isSeparator)
        while let last = rest.last, isSeparator(last) { rest = rest.dropLast() }
        let words: [Word]
        switch splitWords(rest, isSeparator: isSeparator) {
        case .success(let split): words = split
        case .failure(.lists(let sentence)): return .failure(.filters(sentence))
        case .failure(let error): return .failure(error)
        }
        guard let first = words.first else { return .success(.screen(.filters)) }
        let action = first.text.lowercased()
        let after = Array(words.dropFirst())
        switch action {
        case "new":
            let (titleWords, optionWords) = split(after)
            let title = titleWords.map(\.text).joined(separator: " ")
            guard !title.isEmpty else {
                return .failure(.filters("filters new needs a title and a keyword, for example: filters new Spoilers --keyword finale --warn."))
            }
            return options(optionWords, action: "new").flatMap { options in
                guard !options.keywords.isEmpty else {
                    return .failure(.filters("filters new needs at least one --keyword WORD, for example: filters new \(FiltersCommand.quoted(title)) --keyword finale."))
                }
                return .success(.filters(.create(title: title, options)))
            }
        case "edit", "delete":
            let example = action == "edit" ? "filters edit 2 --hide" : "filters delete 2"
            guard let number = after.first, !number.quoted, case .success(let row) = rowNumber(number.text), row > 0 else {
                let word = after.first.map { "\"\(ParseError.echo($0.text))\" is not a row number; " } ?? ""
                return .failure(.filters(word + "filters \(action) needs the row number of a filter on the filters screen, for example: \(example)."))
            }
            let rest = Array(after.dropFirst())
            if action == "delete" {
                if rest.isEmpty { return .success(.filters(.delete(row: row, confirmed: false))) }
                if rest.count == 1, !rest[0].quoted, rest[0].text.lowercased() == "--yes" { return .success(.filters(.delete(row: row, confirmed: true))) }
                return .failure(.filters("filters delete takes a row number and --yes, not \"\(ParseError.echo(rest[0].text))\"."))
            }
            let (titleWords, optionWords) = split(rest)
            let title = titleWords.isEmpty ? nil : titleWords.map(\.text).joined(separator: " ")
            return options(optionWords, action: "edit").flatMap { options in
                guard title != nil || options != FilterOptions() else {
                    return .failure(.filters("filters edit \(row) changes nothing; give a new title or an option, for example: filters edit \(row) --hide."))
                }
                return .success(.filters(.edit(row: row, title: title, options)))
            }
        default:
            return .failure(.filters("filters takes new, edit or delete, not \"\(ParseError.echo(first.text))\"; filters alone shows them."))
        }
    }

    /// The words before the first option (`--…`, unquoted), and the rest.
    private static func split(_ words: [Word]) -> ([Word], [Word]) {
        let index = words.firstIndex { !$0.quoted && $0.text.hasPrefix("--") } ?? words.endIndex
        return (Array(words[..<index]), Array(words[index...]))
    }

    /// The options of `filters new` / `filters edit`.
    private static func options(_ words: [Word], action: String) -> Result<FilterOptions, ParseError> {
        var options = FilterOptions()
        var index = 0
        func value(_ option: String, _ example: String) -> Result<String, ParseError> {
            guard index + 1 < words.count, words[index + 1].quoted || !words[index + 1].text.hasPrefix("--") else {
                return .failure(.filters("\(option) needs a value, for example: \(option) \(example)."))
            }
            index += 1
            return .success(words[index].text)
        }
        while index < words.count {
            let word = words[index]
            guard !word.quoted, word.text.hasPrefix("--") else {
                return .failure(.filters("\"\(ParseError.echo(word.text))\" is not an option of filters \(action); the title comes before the options (in quotes when it has spaces)."))
            }
            let option = word.text.lowercased()
            switch option {
            case "--keyword":
                switch value(option, "spoiler") {
                case .success(let keyword):
                    guard !keyword.trimmingCharacters(in: .whitespaces).isEmpty else { return .failure(.filters("A filter's keyword cannot be blank.")) }
                    options.keywords.append(keyword)
                case .failure(let error): return .failure(error)
                }
            case "--whole-word":
                options.wholeWord = true
            case "--hide", "--warn", "--blur":
                let action = PostFilter.Action(rawValue: String(option.dropFirst(2)))
                if let chosen = options.action, chosen != action {
                    return .failure(.filters("A filter does one thing: give one of --hide, --warn and --blur."))
                }
                options.action = action
            case "--context":
                switch value(option, "home,public") {
                case .success(let list):
                    var contexts: Set<FilterContext> = []
                    for name in list.lowercased().split(separator: ",", omittingEmptySubsequences: true) {
                        guard let context = FilterContext(rawValue: name.trimmingCharacters(in: .whitespaces)) else {
                            return .failure(.filters("\"\(ParseError.echo(String(name)))\" is not a place filters apply; --context takes home, notifications, public, thread and account, for example: --context home,public."))
                        }
                        contexts.insert(context)
                    }
                    guard !contexts.isEmpty else { return .failure(.filters("--context needs a place, for example: --context home,public.")) }
                    options.contexts = FilterContext.allCases.filter(contexts.contains).map(\.rawValue)
                case .failure(let error): return .failure(error)
                }
            case "--expires":
                switch value(option, "1d") {
                case .success(let text):
                    guard let seconds = expirySeconds(text) else {
                        return .failure(.filters("\"\(ParseError.echo(text))\" is not a time; --expires takes minutes, hours or days, for example: --expires 30m, 12h or 7d."))
                    }
                    options.expiresIn = seconds
                case .failure(let error): return .failure(error)
                }
            default:
                return .failure(.filters("filters \(action) takes --keyword, --whole-word, --context, --hide, --warn, --blur and --expires, not \"\(ParseError.echo(word.text))\"."))
            }
            index += 1
        }
        return .success(options)
    }

    /// `30m`, `12h`, `7d` (or `90s`) in seconds; `nil` for anything else, zero or over a year.
    static func expirySeconds(_ text: String) -> Int? {
        let lowered = text.lowercased()
        guard let unit = lowered.last, let size = ["s": 1, "m": 60, "h": 3_600, "d": 86_400][String(unit)] else { return nil }
        let digits = lowered.dropLast()
        guard !digits.isEmpty, digits.count <= 6, digits.allSatisfy(\.isASCII), let count = Int(digits), count > 0 else { return nil }
        let seconds = count * size
        return seconds <= 366 * 86_400 ? seconds : nil
    }
}
