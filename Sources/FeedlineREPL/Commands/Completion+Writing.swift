import Feedline

extension Completion {
    /// The commands whose text (after the row) completes as a draft's does.
    static let textCommands: Set<CommandName> = [.post, .reply, .edit]

    /// The words a draft takes on its own line (`.` sends), as `.help` lists them.
    public static let draftCommands = [
        ".", ".attach", ".back", ".cw", ".detach", ".discard", ".edit", ".help", ".lang", ".poll", ".sensitive", ".show", ".undo",
        ".visibility",
    ]

    /// In a draft: the dot commands for a first word starting with `.`, the audiences after
    /// `.visibility`, and `@handle`, `#tag`, `:emoji:` anywhere.
    static func draftMatches(before: [String], word: String, context: CompletionContext) -> [String] {
        let lowered = word.lowercased()
        if before.isEmpty, word.hasPrefix("."), !word.hasPrefix("..") { return draftCommands.filter { $0.hasPrefix(lowered) } }
        if before == [".visibility"] { return ["direct", "followers", "public", "unlisted"].filter { $0.hasPrefix(lowered) } }
        return textMatches(word, context: context) ?? []
    }

    /// What a word of a post's text completes to: `@` and the handles seen, then those the server
    /// found; `#` and the hashtags seen, then those you follow and those trending; `:` and the
    /// server's custom emoji, closed with `:`. `nil` for a word that starts with none of them.
    public static func textMatches(_ word: String, context: CompletionContext) -> [String]? {
        guard let first = word.first, "@#:".contains(first) else { return nil }
        let stem = String(word.dropFirst()).lowercased()
        switch first {
        case "@":
            return ordered(context.handles + context.foundHandles, startingWith: stem).map { "@" + $0 }
        case "#":
            return ordered(context.tags + (context.moreTags ?? []), startingWith: stem).map { "#" + $0 }
        default:
            return ordered(context.emoji ?? [], startingWith: stem).map { ":" + $0 + ":" }
        }
    }

    /// What the server should be asked so that `word` (of a post's text, or of a draft's line)
    /// may complete: accounts starting with what follows `@` (each start once), the followed and
    /// trending hashtags for `#`, the custom emoji for `:`; `nil` when it was asked already, or
    /// the word is not one of those.
    package static func lookup(line: String, word: String, context: CompletionContext) -> ComposeSuggestions.Request? {
        let before = line.dropLast(word.count).split(separator: " ", omittingEmptySubsequences: true)
        if !context.writing {
            guard let command = before.first.flatMap({ CommandTable.command(named: String($0)) }), textCommands.contains(command) else { return nil }
        } else if before.isEmpty, word.hasPrefix(".") {
            return nil
        }
        guard let first = word.first else { return nil }
        let stem = String(word.dropFirst()).lowercased()
        switch first {
        case "@":
            guard !stem.isEmpty, !stem.contains("@"), !context.searched.contains(stem) else { return nil }
            return .accounts(stem)
        case "#": return context.moreTags == nil ? .tags : nil
        case ":": return context.emoji == nil ? .emoji : nil
        default: return nil
        }
    }

    /// Whether `context` holds the server's answer to `request`.
    package static func answered(_ request: ComposeSuggestions.Request, in context: CompletionContext) -> Bool {
        switch request {
        case .accounts(let start): context.searched.contains(start)
        case .tags: context.moreTags != nil
        case .emoji: context.emoji != nil
        }
    }

    /// `names` that start with `stem` (any case), each once, in their order.
    private static func ordered(_ names: [String], startingWith stem: String) -> [String] {
        var seen = Set<String>()
        return names.filter { $0.lowercased().hasPrefix(stem) && seen.insert($0.lowercased()).inserted }
    }
}
