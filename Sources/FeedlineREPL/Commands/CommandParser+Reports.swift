@_spi(FeedService) import Feedline

/// `report …` and its options: the row, the options in any order, then the comment (the rest
/// of the line as typed).
extension CommandParser {
    /// Parses what follows `report` on a line.
    static func parseReport(_ rest: Substring, isSeparator: (Character) -> Bool) -> Result<Command, ParseError> {
        var command = ReportCommand(row: nil)
        var remaining = rest.drop(while: isSeparator)
        func nextWord() -> Substring? {
            guard !remaining.isEmpty else { return nil }
            let word = remaining.prefix { !isSeparator($0) }
            remaining = remaining[word.endIndex...].drop(while: isSeparator)
            return word
        }
        func numbers(_ option: String) -> Result<[Int], ParseError> {
            guard let list = nextWord() else { return .failure(.report("\(option) needs numbers, for example: \(option) 3,5.")) }
            var numbers: [Int] = []
            for piece in list.split(separator: ",", omittingEmptySubsequences: true) {
                guard case .success(let number) = rowNumber(String(piece)), number > 0 else {
                    return .failure(.report("\"\(ParseError.echo(String(piece)))\" is not a number; \(option) takes numbers separated by commas, for example: \(option) 3,5."))
                }
                if !numbers.contains(number) { numbers.append(number) }
            }
            guard !numbers.isEmpty else { return .failure(.report("\(option) needs numbers, for example: \(option) 3,5.")) }
            return .success(numbers)
        }
        var first = true
        while !remaining.isEmpty {
            let start = remaining
            guard let word = nextWord() else { break }
            let lowered = word.lowercased()
            defer { first = false }
            if first {
                switch rowNumber(String(word)) {
                case .success(let number):
                    command.row = number
                    continue
                case .failure(.tooLarge): return .failure(.rowTooLarge(.report, String(word)))
                case .failure(.notDigits): break
                }
            }
            switch lowered {
            case "--posts":
                switch numbers("--posts") {
                case .success(let posts): command.posts = posts
                case .failure(let error): return .failure(error)
                }
            case "--rules":
                switch numbers("--rules") {
                case .success(let rules): command.rules = rules
                case .failure(let error): return .failure(error)
                }
            case "--forward": command.forward = true
            case "--yes", "-y": command.confirmed = true
            case "--category":
                guard let name = nextWord() else { return .failure(.report(Self.categorySentence(nil))) }
                guard let category = ReportCategory(rawValue: name.lowercased()) else { return .failure(.report(Self.categorySentence(String(name)))) }
                command.category = category
            default:
                if word.hasPrefix("--") {
                    return .failure(.report("report does not take \"\(ParseError.echo(String(word)))\"; usage: \(CommandTable.spec(.report).usage)."))
                }
                // The comment: the rest of the line as typed.
                command.comment = String(start).trimmingCharacters(in: .whitespacesAndNewlines)
                remaining = remaining[remaining.endIndex...]
            }
        }
        if !command.rules.isEmpty, command.category != .violation {
            return .failure(.report("--rules names the rules broken, so it goes with --category violation (this report is \(command.category.rawValue)); rules lists them."))
        }
        if command.category == .violation, command.rules.isEmpty {
            return .failure(.report("--category violation names the rules broken: add --rules with their numbers (rules lists them)."))
        }
        if command.comment.count > ReportCommand.commentLimit {
            return .failure(.report("The comment is \(command.comment.count) characters; moderators read at most \(ReportCommand.commentLimit)."))
        }
        return .success(.report(command))
    }

    private static func categorySentence(_ word: String?) -> String {
        let names = ReportCategory.allCases.map(\.rawValue).joined(separator: ", ")
        guard let word else { return "--category needs one of \(names)." }
        return "\"\(ParseError.echo(word))\" is not a category; --category takes \(names)."
    }
}
