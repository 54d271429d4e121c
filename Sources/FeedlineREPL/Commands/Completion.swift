@_spi(FeedService) import Feedline

/// What Tab can complete, gathered by the driver as the session goes: the commands of the screen
/// on top, and the hashtags and handles of the rows received on any screen (shown or not yet).
public struct CompletionContext: Hashable, Sendable {
    /// The commands of the screen on top (names only, not aliases), sorted.
    public var commands: [String]
    /// Every command name and kind of command (`writing`, `lists-and-tags`), for `help <Tab>`.
    public var topics: [String]
    /// Hashtags seen in this session, without `#`, sorted.
    public var tags: [String]
    /// Handles seen in this session (`user` or `user@host`, without `@`), sorted.
    public var handles: [String]
    /// The names of your lists, in their order.
    public var lists: [String] = []
    /// The stored accounts `account` switches to (`user@server`), sorted.
    public var accounts: [String] = []
    /// Whether a draft takes the lines typed (`compose>`): words complete as text, not commands.
    public var writing = false
    /// Handles the server found (``Feedline/ComposeSuggestions``), offered after ``handles``.
    public var foundHandles: [String] = []
    /// The account starts the server was asked for (lowercased).
    public var searched: Set<String> = []
    /// The hashtags you follow and those trending, once loaded (offered after ``tags``); `nil` before.
    public var moreTags: [String]?
    /// The shortcodes of the server's custom emoji, once loaded; `nil` before.
    public var emoji: [String]?

    public init(commands: [String] = [], topics: [String] = CompletionContext.helpTopics, tags: [String] = [], handles: [String] = []) {
        self.commands = commands
        self.topics = topics
        self.tags = tags
        self.handles = handles
    }

    /// What `help` takes: every command name and every kind of command (hyphenated), sorted.
    public static let helpTopics = (CommandName.allCases.map(\.rawValue) + CommandGroup.allCases.map { $0.topic.replacingOccurrences(of: " ", with: "-") }).sorted()
}

/// Tab completion, as a pure function of the line and what the session has seen.
public enum Completion {
    /// The completions of the word being typed: `line` is everything before the cursor, `word`
    /// the part of it being completed (after the last space).
    ///
    /// - The first word completes to the commands of the screen on top.
    /// - After `help` (or `?`): any command name. After `tag`: hashtags seen (a typed `#` is kept).
    ///   After `profile`: handles seen, with `@` unless the word was begun without one
    ///   (`profile ro` → `rowan@bramble.zone`; the parser takes either). After `block-domain`
    ///   and `unblock-domain`: the domains of the handles seen. After `follow #` and
    ///   `unfollow #`: hashtags seen. After `notifications`: the kinds it filters by and
    ///   `policy`; after `notifications policy`, the policy's fields, then `accept`, `filter`
    ///   and `drop`. After `announcements`: `read`, then `--all`; after `accept -` and
    ///   `dismiss -`: `--all`. After `followers`,
    ///   `following` and `endorsed`: handles seen, as after `profile`. After `account`: the
    ///   stored accounts' names.
    /// - In the text of `post`, `reply` and `edit`, and in every line of a draft
    ///   (``CompletionContext/writing``): `@handle`, `#tag` and `:emoji:` (see
    ///   ``textMatches(_:context:)``); a draft's first word completes its dot commands.
    /// - Anything else: nothing (no file names).
    ///
    /// A word a server sent (a handle, a hashtag, a shortcode, a list's title) that holds a
    /// control, a bidirectional control or an invisible character is never offered: what Tab
    /// inserts is echoed by the terminal's line editor as it is, so only text the sanitiser
    /// would leave unchanged may reach it.
    public static func matches(line: String, word: String, context: CompletionContext) -> [String] {
        candidates(line: line, word: word, context: context).filter { TextSafety.isClean($0) }
    }

    private static func candidates(line: String, word: String, context: CompletionContext) -> [String] {
        let before = line.dropLast(word.count).split(separator: " ", omittingEmptySubsequences: true)
        let lowered = word.lowercased()
        if context.writing { return draftMatches(before: before.map(String.init), word: word, context: context) }
        guard let command = before.first else {
            return context.commands.filter { $0.hasPrefix(lowered) }
        }
        let name = CommandTable.command(named: String(command))
        if let name, textCommands.contains(name), let matches = textMatches(word, context: context) { return matches }
        if name == .lists { return listsMatches(before: before.dropFirst().map(String.init), word: word, context: context) }
        if name == .notifications, before.count > 1, before[1].lowercased() == "policy" {
            switch before.count {
            case 2: return NotificationPolicy.Field.allCases.map(\.name).filter { $0.hasPrefix(lowered) }
            case 3 where NotificationPolicy.Field(name: String(before[2])) != nil:
                return NotificationPolicy.Handling.allCases.map(\.rawValue).filter { $0.hasPrefix(lowered) }
            default: return []
            }
        }
        if name == .announcements, before.count == 2, before[1].lowercased() == "read" { return ["--all"].filter { $0.hasPrefix(lowered) } }
        // A row number is typed, not completed: only a begun flag completes.
        if name == .accept || name == .dismiss, before.count == 1, word.hasPrefix("-") { return ["--all"].filter { $0.hasPrefix(lowered) } }
        if let name, CommandTable.spec(name).argument == .account {
            // A handle after the command (and after on|off for notify and boosts).
            let switches = name == .notify || name == .boosts
            if switches, before.count == 1 { return ["on", "off"].filter { $0.hasPrefix(lowered) } }
            guard before.count == (switches ? 2 : 1) else { return [] }
            if name == .follow || name == .unfollow, word.hasPrefix("#") {
                let stem = String(lowered.dropFirst())
                return context.tags.filter { $0.lowercased().hasPrefix(stem) }.map { "#" + $0 }
            }
            let at = word.isEmpty || word.hasPrefix("@")
            let stem = word.hasPrefix("@") ? String(lowered.dropFirst()) : lowered
            return context.handles.filter { $0.lowercased().hasPrefix(stem) }.map { at ? "@" + $0 : $0 }
        }
        guard before.count == 1 else { return [] }
        switch name {
        case .help?:
            return context.topics.filter { $0.hasPrefix(lowered) }
        case .tag?:
            let hash = word.hasPrefix("#")
            let stem = hash ? String(lowered.dropFirst()) : lowered
            return context.tags.filter { $0.lowercased().hasPrefix(stem) }.map { hash ? "#" + $0 : $0 }
        case .notifications?:
            return (NotificationGroup.Kind.filterable.map(\.name) + ["policy"]).filter { $0.hasPrefix(lowered) }
        case .announcements?:
            return ["read"].filter { $0.hasPrefix(lowered) }
        case .account?:
            let at = word.hasPrefix("@")
            let stem = at ? String(lowered.dropFirst()) : lowered
            return context.accounts.filter { $0.lowercased().hasPrefix(stem) }.map { at ? "@" + $0 : $0 }
        case .blockDomain?, .unblockDomain?:
            let domains = Set(context.handles.compactMap { handle in handle.split(separator: "@").dropFirst().first.map { $0.lowercased() } })
            return domains.sorted().filter { $0.hasPrefix(lowered) }
        case .profile?, .followers?, .following?, .endorsed?:
            let at = word.isEmpty || word.hasPrefix("@")
            let stem = word.hasPrefix("@") ? String(lowered.dropFirst()) : lowered
            return context.handles.filter { $0.lowercased().hasPrefix(stem) }.map { at ? "@" + $0 : $0 }
        default:
            return []
        }
    }
}
