import Feedline

/// `lists [new|rename|delete|add|remove|accounts|open …]`. Linear in the line: it is cut into
/// words once. A list's NAME is one word, a row number, or words in double quotes (a quoted
/// name holds no `"`; a bare name holds none either). Where the name is the last thing on the
/// line (`delete`, `accounts`, `open`) or comes before a handle (`add`, `remove`), several bare
/// words are one name (`lists add Field notes @kemi`). A new title (`new`, and after the name
/// of `rename`) is the rest of the line, without the quotes around it.
extension CommandParser {
    struct Word {
        var text: String
        var quoted: Bool
    }

    static func parseLists(_ rest: Substring, isSeparator: (Character) -> Bool) -> Result<Command, ParseError> {
        var rest = rest.drop(while: isSeparator)
        while let last = rest.last, isSeparator(last) { rest = rest.dropLast() }
        guard !rest.isEmpty else { return .success(.lists(.show)) }
        let actionWord = rest.prefix { !isSeparator($0) }
        let action = actionWord.lowercased()
        let after = rest[actionWord.endIndex...].drop(while: isSeparator)
        let example = "for example: lists \(action) Birders"
        switch action {
        case "new":
            let title = stripQuotes(after, isSeparator: isSeparator)
            guard !title.isEmpty else { return .failure(.lists("lists new needs a name, for example: lists new Birders.")) }
            return .success(.lists(.create(title)))
        case "rename":
            guard let (first, end) = firstWord(after, isSeparator: isSeparator) else {
                return .failure(.lists("lists rename needs a list and a new name, for example: lists rename Birders Birdwatch."))
            }
            let title = stripQuotes(after[end...].drop(while: isSeparator), isSeparator: isSeparator)
            guard !title.isEmpty else {
                return .failure(.lists("lists rename needs a new name after the list, for example: lists rename \"Field notes\" Notes."))
            }
            return reference([first], action: action).map { .lists(.rename($0, title)) }
        case "delete", "accounts", "open":
            var words: [Word]
            switch splitWords(after, isSeparator: isSeparator) {
            case .success(let split): words = split
            case .failure(let error): return .failure(error)
            }
            var confirmed = false
            if action == "delete", let last = words.last, !last.quoted, last.text.lowercased() == "--yes" {
                confirmed = true
                words.removeLast()
            }
            guard !words.isEmpty else { return .failure(.lists("lists \(action) needs a list, \(example).")) }
            return reference(words, action: action).map { list in
                switch action {
                case "delete": .lists(.delete(list, confirmed: confirmed))
                case "accounts": .lists(.accounts(list))
                default: .lists(.open(list))
                }
            }
        case "add", "remove":
            let words: [Word]
            switch splitWords(after, isSeparator: isSeparator) {
            case .success(let split): words = split
            case .failure(let error): return .failure(error)
            }
            let usage = "lists \(action) needs a list and an account, for example: lists \(action) Birders @kemi@fieldnotes.science."
            guard words.count >= 2, let last = words.last else { return .failure(.lists(usage)) }
            guard !last.quoted, last.text.hasPrefix("@"), let handle = handle(last.text) else {
                return .failure(.lists("\"\(ParseError.echo(last.text))\" is not a handle; \(usage)"))
            }
            return reference(Array(words.dropLast()), action: action).map { .lists(.membership($0, handle: handle, add: action == "add")) }
        default:
            return .failure(.lists("lists takes new, rename, delete, add, remove, accounts or open, not \"\(ParseError.echo(String(actionWord)))\"."))
        }
    }

    /// The list the words name: one bare word of digits is a row number; otherwise the words
    /// (bare, joined by one space, or one quoted name) are its name.
    private static func reference(_ words: [Word], action: String) -> Result<ListReference, ParseError> {
        if words.count == 1, !words[0].quoted {
            switch rowNumber(words[0].text) {
            case .success(let number): return .success(.row(number))
            case .failure(.tooLarge): return .failure(.rowTooLarge(.lists, words[0].text))
            case .failure(.notDigits): break
            }
        }
        let name = words.map(\.text).joined(separator: " ")
        guard !name.allSatisfy(\.isWhitespace) else { return .failure(.lists("lists \(action) needs a list's name, for example: lists \(action) Birders.")) }
        guard !name.contains("\"") else {
            return .failure(.lists("A list's name in quotes holds no other quote: \"\(ParseError.echo(name))\"."))
        }
        return .success(.name(name))
    }

    /// The first word of `text` (a quoted one whole) and where it ends; `nil` when there is none.
    private static func firstWord(_ text: Substring, isSeparator: (Character) -> Bool) -> (Word, String.Index)? {
        guard let first = text.first else { return nil }
        if first == "\"" {
            let inside = text.dropFirst()
            guard let close = inside.firstIndex(of: "\"") else { return (Word(text: String(text), quoted: false), text.endIndex) }
            return (Word(text: String(inside[..<close]), quoted: true), text.index(after: close))
        }
        let word = text.prefix { !isSeparator($0) }
        return (Word(text: String(word), quoted: false), word.endIndex)
    }

    /// Every word of `text`; a word that opens a quote runs to the next quote.
    static func splitWords(_ text: Substring, isSeparator: (Character) -> Bool) -> Result<[Word], ParseError> {
        var words: [Word] = []
        var rest = text
        while let (word, end) = firstWord(rest, isSeparator: isSeparator) {
            if word.text.hasPrefix("\""), !word.quoted {
                return .failure(.lists("A quote is not closed: \(ParseError.echo(word.text))."))
            }
            words.append(word)
            rest = rest[end...].drop(while: isSeparator)
        }
        return .success(words)
    }

    /// The rest of a line as a title: without one pair of quotes around it, nor the spaces
    /// inside them (a list's title is trimmed).
    private static func stripQuotes(_ text: Substring, isSeparator: (Character) -> Bool) -> String {
        var title = text
        if title.count >= 2, title.hasPrefix("\""), title.hasSuffix("\"") { title = title.dropFirst().dropLast() }
        title = title.drop(while: isSeparator)
        while let last = title.last, isSeparator(last) { title = title.dropLast() }
        return String(title)
    }
}
