import Feedline

/// What a `scheduled` line asks for.
public enum ScheduledCommand: Hashable, Sendable {
    /// `scheduled`: the screen of your scheduled posts.
    case show
    /// `scheduled edit N TIME`: row N's post moved to TIME (`2026-12-01T09:00`, `in 2h` …).
    case edit(row: Int, time: String)
    /// `scheduled cancel N`: row N's post cancelled.
    case cancel(row: Int)

    /// The line that parses back to this command.
    public var text: String {
        switch self {
        case .show: "scheduled"
        case .edit(let row, let time): "scheduled edit \(row) \(time)"
        case .cancel(let row): "scheduled cancel \(row)"
        }
    }
}

extension CommandParser {
    /// `scheduled [edit N TIME | cancel N]`: TIME is the rest of the line (trimmed).
    static func parseScheduled(_ rest: Substring, isSeparator: (Character) -> Bool) -> Result<Command, ParseError> {
        let rest = rest.drop(while: isSeparator)
        guard !rest.isEmpty else { return .success(.scheduled(.show)) }
        let actionWord = rest.prefix { !isSeparator($0) }
        let action = actionWord.lowercased()
        let after = rest[actionWord.endIndex...].drop(while: isSeparator)
        let numberWord = after.prefix { !isSeparator($0) }
        var time = after[numberWord.endIndex...].drop(while: isSeparator)
        while let last = time.last, isSeparator(last) { time = time.dropLast() }
        switch action {
        case "edit", "cancel":
            let usage =
                action == "edit"
                ? "scheduled edit takes a row and a time, for example: scheduled edit 1 in 2h or scheduled edit 1 2026-12-01T09:00."
                : "scheduled cancel takes a row, for example: scheduled cancel 1."
            guard !numberWord.isEmpty else { return .failure(.scheduled(usage)) }
            let number: Int
            switch rowNumber(String(numberWord)) {
            case .success(let value): number = value
            case .failure(.tooLarge): return .failure(.rowTooLarge(.scheduled, String(numberWord)))
            case .failure(.notDigits): return .failure(.scheduled("\"\(ParseError.echo(String(numberWord)))\" is not a row number; \(usage)"))
            }
            if action == "cancel" {
                guard time.isEmpty else { return .failure(.unexpectedArgument(.scheduled, String(time.prefix { !isSeparator($0) }))) }
                return .success(.scheduled(.cancel(row: number)))
            }
            guard !time.isEmpty else { return .failure(.scheduled(usage)) }
            let words = time.split(whereSeparator: isSeparator).joined(separator: " ")
            return .success(.scheduled(.edit(row: number, time: words)))
        default:
            return .failure(.scheduled("scheduled takes edit or cancel, not \"\(ParseError.echo(String(actionWord)))\"."))
        }
    }
}
