@_spi(FeedService) import Feedline

/// One command of the REPL, as the parser reads it. Row numbers are as typed (1-based); whether
/// a number names a row on the current screen is for the session to decide.
public enum Command: Hashable, Sendable {
    /// Back to the previous screen.
    case back
    /// `post [TEXT]`: a post of TEXT, or a draft whose lines follow (`nil`).
    case post(text: String?)
    /// `reply [N] [TEXT]`: a reply to row N's post (or the open post).
    case reply(row: Int?, text: String?)
    /// `quote-post [N] [TEXT]`: a post quoting row N's post (or the open post).
    case quotePost(row: Int?, text: String?)
    /// `delete [N] [--yes]`: deletes row N's post (or the open post) once confirmed.
    case delete(row: Int?, confirmed: Bool)
    /// `drafts`: the drafts and submissions on their way.
    case drafts
    /// `draft N`: reopens draft N to write on.
    case draft(Int)
    /// `drafts delete N`: throws draft N away.
    case deleteDraft(Int)
    /// `edit [N] [TEXT]`: an edit of row N's post (or the open post).
    case edit(row: Int?, text: String?)
    /// `history [N]`: the versions of row N's post (or the open post).
    case history(row: Int?)
    /// `redraft [N]`: deletes row N's post and makes a draft of it.
    case redraft(row: Int?)
    /// `vote [N] CHOICES`: a vote (1-based choices) in row N's poll (or the open post's).
    case vote(row: Int?, choices: [Int])
    /// Bookmark or remove the bookmark of a row (`bookmark 3`) or the open post (`bookmark`).
    case bookmark(row: Int?)
    /// Reveal a filtered post: a row's (`show 3`) or the open one (`show`).
    case show(row: Int?)
    /// `translate [N]`: row N's post (or the open post) translated, under the original.
    case translate(row: Int?)
    /// `original [N]`: row N's post (or the open post) without its translation.
    case original(row: Int?)
    /// Boost or unboost a row (`boost 3`) or the open post (`boost`).
    case boost(row: Int?)
    /// Favourite or unfavourite a row (`fav 3`) or the open post (`fav`).
    case favourite(row: Int?)
    /// Set a post's `kind` on or off — `pin 3`, `unpin`, `mute-thread 3`, `unmute-thread` — on
    /// a row or the open post; nothing is sent when it already is.
    case set(InteractionKind, Bool, row: Int?)
    /// Undo a favourite, boost or bookmark of a row (`unfav 3`) or the open post (`unfav`);
    /// nothing happens when there is none to undo.
    case undo(InteractionKind, row: Int?)
    /// Open a list screen: bookmarks, favourites, notifications (pushed), or switch the bottom
    /// timeline to home, local or public.
    case screen(CommandName)
    /// `notifications mentions` (or `follows`, `favourites`, `boosts`, `polls`, `edits`,
    /// `requests`, several comma-separated): the notifications of those kinds only (pushed).
    case notificationsOf(Set<NotificationGroup.Kind>)
    /// Load the posts missing where the gap row stands.
    case gap(row: Int)
    /// The command list, or one command's help.
    case help(CommandName?)
    /// `help reading`, `help lists and tags`: one kind of command, with what each does.
    case helpGroup(CommandGroup)
    /// Redraw the screen: the current screen of rows, a screen from row N, or every row.
    case list(ListRange)
    /// Show the next screen of rows.
    case more
    /// Show the rows waiting above (from the live stream).
    case new
    /// A blank line or a `#` comment: nothing to do.
    case nothing
    /// Open the detail of a row's post.
    case open(row: Int)
    /// Open an account's posts: a row's author, a handle, or the open post's author.
    case profile(ProfileTarget?)
    /// End the session.
    case quit
    /// Load posts newer than the top one.
    case refresh
    /// Load the list again from its top.
    case reload
    /// `link [N]`: the web address of row N's post (or the open post) and what it links to.
    case link(row: Int?)
    /// `browse [N] [K]`: open row N's post (or the open post), or its K-th link or attachment,
    /// in a browser. On a post the one number given is K.
    case browse(row: Int?, item: Int?)
    /// Run again everything that failed.
    case retry
    /// Open a hashtag's timeline.
    case tag(String)
    /// Open the thread of a row's post, or of the open post.
    case thread(row: Int?)
    /// Open the post a row's post quotes, or the open post quotes.
    case quote(row: Int?)
    /// Back to the bottom screen.
    case top
    /// Print the stack of screens.
    case whereAmI
    /// `follow`, `unfollow`, `mute`, `unmute`, `block`, `unblock`, `notify on|off`,
    /// `boosts on|off`: set your relationship with an account.
    case relationship(RelationshipCommand)
    /// `search QUERY`: a screen of what the server finds.
    case search(String)
    /// `followers [N|@user]`, `following [N|@user]`, `endorsed [N|@user]`: an account's
    /// followers, followed or featured accounts (`nil`: the profile or post on top).
    case accountList(AccountListKind, ProfileTarget?)
    /// `favourited-by [N]`, `boosted-by [N]` (`kind` `.favourite` or `.reblog`): the accounts
    /// that favourited or boosted row N's post (or the open post).
    case reactedBy(InteractionKind, row: Int?)
    /// `accept N`, `reject N`: answer the follow request of row N.
    case answer(row: Int, accept: Bool)
    /// `remove N`: take conversation row N off your conversations.
    case removeConversation(row: Int)
    /// `dismiss N`: dismiss notification row N.
    case dismissNotification(row: Int)
    /// `notifications clear [--yes]`: dismiss every notification (`confirmed`: `--yes` typed).
    case clearNotifications(confirmed: Bool)
    /// `notifications policy [FIELD VALUE]`: show your notification policy, or set one field
    /// (its name, `not-following`…) to `accept`, `filter` or `drop` (both checked by the parser).
    case notificationPolicy(field: String?, value: String?)
    /// `notifications filtered`: the requests of filtered notifications, one row per account.
    case notificationRequests
    /// `accept --all`, `dismiss --all` on the filtered notifications: answer every request shown.
    case answerAllNotificationRequests(accept: Bool)
    /// `block-domain`, `unblock-domain`: block or unblock a whole domain.
    case domainBlock(DomainBlockCommand)
    /// `follow #tag`, `unfollow #tag`: follow a hashtag (its key: lower-cased, without `#`).
    case followTag(String, Bool)
    /// `trends` (posts) or `trends tags`.
    case trends(tags: Bool)
    /// `lists …`: your lists (see ``ListsCommand``).
    case lists(ListsCommand)
    /// `filters new|edit|delete …`: your server filters (see ``FiltersCommand``).
    case filters(FiltersCommand)
    /// `report N …`: report an account (and posts of theirs) to your server's moderators.
    case report(ReportCommand)
    /// `rules`: the instance's rules, numbered as `report --rules` names them.
    case rules
    /// `account [NAME]`: switch to the stored account NAME names, or list them.
    case account(String?)
    /// `announcements read N`: mark announcement row N read.
    case readAnnouncement(row: Int)
    /// `announcements read --all`: mark every unread announcement read.
    case readAllAnnouncements
    /// `scheduled …`: your scheduled posts (see ``ScheduledCommand``).
    case scheduled(ScheduledCommand)
    /// `profile edit …`: change your profile (see ``ProfileEditCommand``).
    case profileEdit(ProfileEditCommand)
}

/// What `block-domain` and `unblock-domain` set, and for which domain.
public struct DomainBlockCommand: Hashable, Sendable {
    /// Which domain: a row's author's, or one typed.
    public enum Target: Hashable, Sendable {
        case row(Int)
        /// Lower-cased, as typed otherwise.
        case domain(String)
    }

    /// Block (`true`) or unblock.
    public var value: Bool
    /// `nil`: the domain of the profile or post on top.
    public var target: Target?
    /// `--yes`: a block that does not ask.
    public var confirmed: Bool

    public init(value: Bool, target: Target? = nil, confirmed: Bool = false) {
        self.value = value
        self.target = target
        self.confirmed = confirmed
    }

    /// `block-domain promo.example --yes`, `unblock-domain 3`.
    public var text: String {
        var words = [value ? "block-domain" : "unblock-domain"]
        switch target {
        case .row(let row)?: words.append(String(row))
        case .domain(let domain)?: words.append(domain)
        case nil: break
        }
        if confirmed { words.append("--yes") }
        return words.joined(separator: " ")
    }
}

/// Which accounts `followers`, `following` and `endorsed` list.
public enum AccountListKind: String, Hashable, Sendable {
    case followers, following, endorsed
}

/// What a relationship command sets, for whom, and how.
public struct RelationshipCommand: Hashable, Sendable {
    public var kind: RelationshipKind
    public var value: Bool
    /// Whom: `nil` for the profile (or post) on top.
    public var target: ProfileTarget?
    /// A mute's length in seconds; `nil` for no end.
    public var muteSeconds: Int?
    /// A mute that leaves their notifications shown.
    public var keepNotifications: Bool
    /// `--yes`: a block that does not ask.
    public var confirmed: Bool

    public init(
        kind: RelationshipKind, value: Bool, target: ProfileTarget? = nil, muteSeconds: Int? = nil, keepNotifications: Bool = false,
        confirmed: Bool = false
    ) {
        self.kind = kind
        self.value = value
        self.target = target
        self.muteSeconds = muteSeconds
        self.keepNotifications = keepNotifications
        self.confirmed = confirmed
    }

    /// The command's word: `follow`, `unmute`, `notify` …
    public var name: CommandName {
        switch (kind, value) {
        case (.follow, true): .follow
        case (.follow, false): .unfollow
        case (.mute, true): .mute
        case (.mute, false): .unmute
        case (.block, true): .block
        case (.block, false): .unblock
        case (.notify, _): .notify
        case (.boosts, _): .boosts
        }
    }

    /// How it is typed, canonically: `mute 3 --for 1d --keep-notifications`, `notify on @kemi`.
    public var text: String {
        var words = [name.rawValue]
        if kind == .notify || kind == .boosts { words.append(value ? "on" : "off") }
        switch target {
        case .row(let row)?: words.append(String(row))
        case .handle(let handle)?: words.append("@" + handle)
        case nil: break
        }
        if let seconds = muteSeconds { words += ["--for", Self.durationText(seconds)] }
        if keepNotifications { words.append("--keep-notifications") }
        if confirmed { words.append("--yes") }
        return words.joined(separator: " ")
    }

    /// `90s`, `30m`, `2h`, `1d`, `2w`: the largest unit that divides it.
    static func durationText(_ seconds: Int) -> String {
        for (unit, size) in [("w", 604_800), ("d", 86_400), ("h", 3_600), ("m", 60)] where seconds % size == 0 {
            return "\(seconds / size)\(unit)"
        }
        return "\(seconds)s"
    }

    /// Seconds from `30m`, `2h`, `1d`, `1w`, `45s` (a bare number is minutes); `nil` for anything
    /// else, zero, or more than a year.
    static func seconds(_ text: String) -> Int? {
        let lowered = text.lowercased()
        let units: [Character: Int] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400, "w": 604_800]
        var digits = Substring(lowered)
        var size = 60
        if let last = lowered.last, let unit = units[last] {
            size = unit
            digits = digits.dropLast()
        }
        guard !digits.isEmpty, digits.count <= 6, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(digits), number > 0 else {
            return nil
        }
        let seconds = number * size
        return seconds <= 366 * 86_400 ? seconds : nil
    }
}

/// Which rows `list` draws.
public enum ListRange: Hashable, Sendable {
    /// The current screen: the last screen of rows shown.
    case screen
    /// A screen of rows from row N.
    case from(Int)
    /// Every row shown so far.
    case all
}

/// Whose profile `profile` opens.
public enum ProfileTarget: Hashable, Sendable {
    /// The author of row N.
    case row(Int)
    /// An account by handle, `user` or `user@host` (without the `@`).
    case handle(String)
}

extension Command {
    /// The command as one would type it, in its canonical spelling (`fav 3`, `help open`, `""`
    /// for ``nothing``). Law: ``CommandParser/parse(_:)`` of this text gives the command back.
    public var text: String {
        switch self {
        case .back: "back"
        case .post(let text): text.map { "post \($0)" } ?? "post"
        case .reply(let row, let text): (["reply"] + [row.map(String.init), text].compactMap { $0 }).joined(separator: " ")
        case .quotePost(let row, let text): (["quote-post"] + [row.map(String.init), text].compactMap { $0 }).joined(separator: " ")
        case .delete(let row, let confirmed): (["delete"] + [row.map(String.init), confirmed ? "--yes" : nil].compactMap { $0 }).joined(separator: " ")
        case .drafts: "drafts"
        case .draft(let number): "draft \(number)"
        case .deleteDraft(let number): "drafts delete \(number)"
        case .edit(let row, let text): (["edit"] + [row.map(String.init), text].compactMap { $0 }).joined(separator: " ")
        case .history(let row): row.map { "history \($0)" } ?? "history"
        case .redraft(let row): row.map { "redraft \($0)" } ?? "redraft"
        case .vote(let row, let choices): (["vote"] + [row.map(String.init), choices.map(String.init).joined(separator: ",")].compactMap { $0 }).joined(separator: " ")
        case .bookmark(let row): row.map { "bookmark \($0)" } ?? "bookmark"
        case .show(let row): row.map { "show \($0)" } ?? "show"
        case .translate(let row): row.map { "translate \($0)" } ?? "translate"
        case .original(let row): row.map { "original \($0)" } ?? "original"
        case .boost(let row): row.map { "boost \($0)" } ?? "boost"
        case .favourite(let row): row.map { "fav \($0)" } ?? "fav"
        case .undo(let kind, let row):
            Self.undoName(kind).rawValue + (row.map { " \($0)" } ?? "")
        case .set(let kind, let value, let row):
            (Self.setName(kind, value)?.rawValue ?? Self.undoName(kind).rawValue) + (row.map { " \($0)" } ?? "")
        case .screen(let name): name.rawValue
        case .notificationsOf(let kinds): "notifications " + NotificationGroup.Kind.filterNames(of: kinds)
        case .gap(let row): "gap \(row)"
        case .help(let topic): topic.map { "help \($0.rawValue)" } ?? "help"
        case .helpGroup(let group): "help \(group.topic)"
        case .list(.screen): "list"
        case .list(.from(let row)): "list \(row)"
        case .list(.all): "list all"
        case .more: "more"
        case .new: "new"
        case .nothing: ""
        case .open(let row): "open \(row)"
        case .profile(nil): "profile"
        case .profile(.row(let row)?): "profile \(row)"
        case .profile(.handle(let handle)?): "profile @\(handle)"
        case .quit: "quit"
        case .refresh: "refresh"
        case .reload: "reload"
        case .link(let row): row.map { "link \($0)" } ?? "link"
        case .browse(let row, let item): (["browse"] + [row, item].compactMap { $0.map(String.init) }).joined(separator: " ")
        case .retry: "retry"
        case .tag(let name): "tag \(name)"
        case .thread(let row): row.map { "thread \($0)" } ?? "thread"
        case .quote(let row): row.map { "quote \($0)" } ?? "quote"
        case .top: "top"
        case .whereAmI: "where"
        case .relationship(let command): command.text
        case .search(let query): "search \(query)"
        case .accountList(let kind, nil): kind.rawValue
        case .reactedBy(let kind, let row):
            ([kind == .reblog ? "boosted-by" : "favourited-by"] + [row.map(String.init)].compactMap { $0 }).joined(separator: " ")
        case .accountList(let kind, .row(let row)?): "\(kind.rawValue) \(row)"
        case .accountList(let kind, .handle(let handle)?): "\(kind.rawValue) @\(handle)"
        case .answer(let row, let accept): "\(accept ? "accept" : "reject") \(row)"
        case .removeConversation(let row): "remove \(row)"
        case .dismissNotification(let row): "dismiss \(row)"
        case .clearNotifications(let confirmed): confirmed ? "notifications clear --yes" : "notifications clear"
        case .notificationPolicy(let field, let value): (["notifications policy"] + [field, value].compactMap { $0 }).joined(separator: " ")
        case .notificationRequests: "notifications filtered"
        case .answerAllNotificationRequests(let accept): accept ? "accept --all" : "dismiss --all"
        case .domainBlock(let command): command.text
        case .followTag(let tag, let value): "\(value ? "follow" : "unfollow") #\(tag)"
        case .trends(let tags): tags ? "trends tags" : "trends"
        case .lists(let command): command.text
        case .filters(let command): command.text
        case .report(let command): command.text
        case .rules: "rules"
        case .account(let name): name.map { "account \($0)" } ?? "account"
        case .readAnnouncement(let row): "announcements read \(row)"
        case .readAllAnnouncements: "announcements read --all"
        case .scheduled(let command): command.text
        case .profileEdit(let command): command.text
        }
    }
}

extension Command {
    /// The command that undoes `kind`: `unfav`, `unboost`, `unbookmark`.
    static func undoName(_ kind: InteractionKind) -> CommandName {
        switch kind {
        case .favourite: .unfav
        case .reblog: .unboost
        case .bookmark: .unbookmark
        case .pin: .unpin
        case .muteThread: .unmuteThread
        }
    }

    /// The command that sets `kind` to `value` when one does (`pin`, `unmute-thread`); `nil`
    /// for the toggles (`fav`, `boost`, `bookmark`), which the undo commands turn off.
    static func setName(_ kind: InteractionKind, _ value: Bool) -> CommandName? {
        switch kind {
        case .favourite, .reblog, .bookmark: value ? nil : undoName(kind)
        case .pin: value ? .pin : .unpin
        case .muteThread: value ? .muteThread : .unmuteThread
        }
    }
}
