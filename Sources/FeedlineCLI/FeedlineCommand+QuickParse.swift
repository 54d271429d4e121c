import ArgumentParser

extension FeedlineCommand {
    /// The command a plain command line gives, read without ArgumentParser: its reflection over
    /// the command's properties and its first-use type look-ups were about 6 % of a short
    /// script's start (Docs/BENCHMARKS.md, "issue 33's fourth round").
    ///
    /// Only `feedline`'s own flags and `--name value` options are read, each value non-empty and
    /// not starting with "-", a number as ArgumentParser reads an `Int`; a repeated option keeps
    /// its last value, as ArgumentParser's do (a script's `# args:` header comes first, so the
    /// command line wins). The result must pass both `validate()`s. Anything else — help,
    /// `--version`, a subcommand, `--name=value`, an unknown or misspelt flag, a value
    /// ArgumentParser would refuse, flags that do not go together — gives `nil`, and
    /// ArgumentParser parses the line as ever and words any error.
    static func parsedQuickly(_ arguments: [String]) -> FeedlineCommand? {
        var options = SessionOptions()
        options.fixtures = nil
        options.sandbox = false
        options.server = nil
        options.account = nil
        options.timeline = nil
        options.tokenFile = nil
        options.pageSize = nil
        options.width = nil
        options.color = nil
        options.history = nil
        var command = FeedlineCommand()
        command.postsPerPage = nil
        command.noStream = false
        command.jsonl = false
        command.script = nil
        command.bail = false
        command.state = nil
        command.noState = false
        command.now = nil

        var index = arguments.startIndex
        while index < arguments.endIndex {
            let name = arguments[index]
            index += 1
            switch name {
            case "--sandbox": options.sandbox = true
            case "--color": options.color = true
            case "--no-color": options.color = false
            case "--no-stream": command.noStream = true
            case "--jsonl": command.jsonl = true
            case "--bail": command.bail = true
            case "--no-state": command.noState = true
            default:
                guard index < arguments.endIndex else { return nil }
                let value = arguments[index]
                index += 1
                guard !value.isEmpty, !value.hasPrefix("-") else { return nil }
                switch name {
                case "--fixtures": options.fixtures = value
                case "--server": options.server = value
                case "--account": options.account = value
                case "--timeline": options.timeline = value
                case "--token-file": options.tokenFile = value
                case "--history": options.history = value
                case "--script": command.script = value
                case "--state": command.state = value
                case "--now": command.now = value
                case "--page-size":
                    guard let number = Int(value) else { return nil }
                    options.pageSize = number
                case "--width":
                    guard let number = Int(value) else { return nil }
                    options.width = number
                case "--posts-per-page":
                    guard let number = Int(value) else { return nil }
                    command.postsPerPage = number
                default: return nil
                }
            }
        }
        command.options = options
        do {
            try options.validate()
            try command.validate()
        } catch {
            return nil
        }
        return command
    }
}
