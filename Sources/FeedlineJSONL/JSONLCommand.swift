@_spi(FeedService) import Feedline
import Foundation

/// One command of the JSON-lines protocol: `{"cmd": "favourite", "post": "123", "id": "7"}`.
///
/// Commands mirror the view models' inputs and address rows and posts by id, never by position.
/// List commands act on one list screen of the stack: `"screen": N` (its index, 0 at the
/// bottom), or the top-most list screen when absent.
public struct JSONLCommand: Sendable, Equatable {
    /// What to do.
    public enum Action: Sendable, Equatable {
        /// Reply with a full snapshot of a list screen.
        case timeline(screen: Int?)
        /// These rows of a list screen became visible (drives prefetching).
        case display([RowID], screen: Int?)
        case loadMore(screen: Int?)
        case refresh(screen: Int?)
        /// Loads the list again from its top: its first page replaces the rows when it comes.
        case reload(screen: Int?)
        /// Shows what a stream brought above the rows (`"N new posts"`), as a refresh would.
        case showWaiting(screen: Int?)
        /// Reveals a post a filter warns about, on every screen.
        case show(PostID)
        /// Run again everything that failed, on every screen.
        case retry
        case openGap(RowID, screen: Int?)
        /// Push a screen (`open` is `push` of a post route, `search` of a search route).
        case push(Route)
        /// Pop the top screen (`back` is the same).
        case pop
        /// Pop every screen above the bottom one.
        case top
        /// Replace the whole stack with a list of this feed.
        case root(Feed)
        /// Toggle `kind` of a post, or — with `"value": true|false` — set it (nothing happens
        /// when it already is: a client that says what it wants can repeat itself).
        case toggle(InteractionKind, PostID, value: Bool?)
        /// Reply `{"type":"idle"}` once no request is running.
        case wait
        case quit
        /// Start a post — or, with `replyTo`, a reply to that post (one the session knows) —
        /// with these fields; the reply is the draft's state.
        case draft(replyTo: PostID?, DraftFields)
        /// Change a draft that is being written (not one on its way).
        case editDraft(DraftID, DraftFields)
        /// Send a draft that has no problems.
        case send(DraftID)
        /// Throw a draft away (not one on its way: a post may be made of it).
        case discard(DraftID)
        /// Reply with every draft and submission on its way.
        case drafts
        /// Delete one of the user's posts; the reply waits for the server's answer.
        case delete(PostID)
        /// Start an edit of one of the user's posts: a draft of its text as typed (the server's
        /// source), changed with `editDraft` and sent with `send` as any draft.
        case editPost(PostID)
        /// Delete one of the user's posts and make a new draft of it; the reply waits for the delete.
        case redraft(PostID)
        /// Vote in a post's poll for `choices`, numbered from 1 as a person reads them (the
        /// line's numbers, not yet the core's 0-based indices); the reply waits for the server.
        case vote(PostID, choices: [Int])
        /// Reply with every version of a post, oldest first.
        case history(PostID)
        /// Show a post's translation (asked of the server) on every screen of it; the reply
        /// waits for the server.
        case translate(PostID)
        /// Report an account (and posts of theirs) to your server's moderators: optimistic,
        /// marked at once on every row of the account and of the posts; the server's answer is
        /// an `outcome`.
        /// `category` is `spam`, `legal`, `violation` or `other`; `rules` are rule ids.
        case report(account: AccountID, posts: [PostID], comment: String, forward: Bool, category: String, rules: [String])
        /// Reply with the instance's rules (`rules`), in the server's order.
        case rules
        /// Switch the session to another signed-in account (named as `feedline accounts` prints
        /// it, or by the start of only one's name): `ok`, `bye` for the account left, then the
        /// new account's `hello` and messages.
        case switchAccount(String)
        /// Show a post without its translation again.
        case original(PostID)
        /// Set `kind` of the relationship with an account (named by id) to `value`; a mute with
        /// `mute`'s options. Nothing happens when it already is `value`.
        case relationship(RelationshipKind, AccountID, value: Bool, mute: Mute?)
        /// Load the relationships with these accounts (named by id) in one request.
        case relationships([AccountID])
        /// Accept (`accept`) or reject the follow request an account row of a list of follow
        /// requests shows (`accept`, `reject`).
        case answerRequest(RowID, accept: Bool, screen: Int?)
        /// Block (`value` true) or unblock a domain: one named as it is, or the domain of a row of
        /// a list screen (`blockDomain`, `unblockDomain`).
        case domainBlock(DomainTarget, value: Bool, screen: Int?)
        /// Follow (`value` true) or unfollow a hashtag, named by its key (without `#`,
        /// lower-cased) as the session's tag store keys it (`followTag`, `unfollowTag`).
        case tagFollow(String, value: Bool)
        /// Open (its thread, marked read), mark read, or remove a direct conversation, by the
        /// server's id (`openConversation`, `markRead`, `removeConversation`).
        case conversation(ConversationAction, String)
        /// Dismiss one notification group, by its key (`dismissNotification`), or every
        /// notification (`clearNotifications`).
        case notifications(NotificationAction)
        /// Make, rename or delete a list, or add or remove an account (`createList`,
        /// `renameList`, `deleteList`, `addToList`, `removeFromList`).
        case listChange(ListChange)
        /// Make, change or delete one of your filters (`createFilter`, `updateFilter`, `deleteFilter`).
        case filterChange(FilterChange)
        /// Mark one of the instance's announcements read, by its id — or every unread one (`nil`)
        /// (`readAnnouncement`).
        case readAnnouncement(String?)
        /// Move a scheduled post to a time (`editScheduled`, `"at"` as `.schedule` takes it) or
        /// cancel it (`cancelScheduled`), by the server's id of it (a scheduled row's `"scheduled"`).
        case scheduledChange(id: String, at: String?)
        /// Reply with your notification policy, read from the server (`notificationPolicy`), or
        /// set one field of it (`setNotificationPolicy`, `"field"` such as `not-following` and
        /// `"value"` `accept`, `filter` or `drop`; both checked); the server's answer is an `outcome`.
        case notificationPolicy(field: String?, value: String?)
        /// Accept (`accept` true: its notifications join yours) or dismiss a request of filtered
        /// notifications, by the server's id of it (`acceptNotificationRequest`,
        /// `dismissNotificationRequest`, `"request"`: a notificationRequest row's `"request"`), or
        /// every one loaded (`id` nil: `"all":true`).
        case notificationRequest(id: String?, accept: Bool)
        /// Change your profile (`editProfile`: name, bio, fields, locked, bot, discoverable).
        case profileEdit(ProfileChange)
    }

    /// What a `blockDomain` or `unblockDomain` line names.
    public enum DomainTarget: Sendable, Equatable {
        /// A domain, checked and keyed as the session's domain block store keys it (from
        /// `"domain"`, or a domain row's id).
        case domain(String)
        /// An account, post or notification row of a list screen: the domain of its account,
        /// which the driver finds (and refuses for an account of the user's own server).
        case row(RowID)
    }

    /// The client's id for this command, echoed by the replies.
    public var id: JSONLValue?
    public var action: Action
    /// The name the command was given as (`open` and `push` both push).
    public var name: String

    public init(id: JSONLValue? = nil, action: Action, name: String) {
        self.id = id
        self.action = action
        self.name = name
    }

    /// Every command name, for help and errors.
    public static let names = [
        "accept", "acceptNotificationRequest", "addToList", "back", "block", "blockDomain", "bookmark", "boosts", "cancelScheduled", "clearNotifications", "createFilter", "createList", "delete",
        "deleteFilter", "deleteList", "discard", "dismissNotification", "dismissNotificationRequest", "display", "draft", "drafts", "editDraft", "editPost", "editProfile", "editScheduled", "favourite",
        "follow", "followTag", "history",
        "loadMore", "markRead", "mute", "muteThread", "notificationPolicy", "notify", "open", "openConversation", "openGap", "original", "pin", "pop", "push", "quit", "readAnnouncement", "reblog",
        "redraft", "refresh", "reject", "reload", "relationships", "removeConversation", "removeFromList", "renameList", "report", "retry", "root", "rules",
        "search", "send", "setNotificationPolicy", "show", "showWaiting", "switchAccount", "timeline", "top", "translate", "unblock", "unblockDomain", "unfollow", "unfollowTag",
        "unmute", "unmuteThread", "unpin", "updateFilter", "vote", "wait",
    ]

    /// The commands that read `"screen"` (list commands: they act on a list screen's rows or
    /// state). On any other command it is an unknown field, ignored like the others.
    static let listCommands: Set<String> = [
        "timeline", "display", "loadMore", "refresh", "reload", "showWaiting", "openGap", "accept", "reject", "blockDomain", "unblockDomain",
    ]

    /// Why a line is not a command: one sentence, plus the id when the line had one.
    public struct ParseError: Error, Equatable, Sendable {
        public var message: String
        public var id: JSONLValue?
    }

    /// Parses one input line.
    public static func parse(_ line: String) -> Result<JSONLCommand, ParseError> {
        guard let data = line.data(using: .utf8), let value = try? JSONDecoder().decode(JSONLValue.self, from: data) else {
            return .failure(ParseError(message: "The line is not valid JSON.", id: nil))
        }
        guard case .object = value else {
            return .failure(ParseError(message: "A command is a JSON object such as {\"cmd\":\"timeline\"}.", id: nil))
        }
        let id = value["id"]
        func fail(_ message: String) -> Result<JSONLCommand, ParseError> { .failure(ParseError(message: message, id: id)) }
        guard let name = value["cmd"]?.string else { return fail("The command has no \"cmd\" string.") }
        func string(_ key: String) -> String? {
            guard let text = value[key]?.string, !text.isEmpty else { return nil }
            return text
        }
        // Only list commands read "screen": on any other command it is an unknown field, ignored
        // like the others, and an unknown command is reported as one.
        var screen: Int?
        if let field = value["screen"], Self.listCommands.contains(name) {
            guard case .number(let number) = field, number >= 0, number < 1_000_000, number == number.rounded(), let index = Int(exactly: number) else {
                return fail("\(name): \"screen\" is the index of a screen on the stack (0 at the bottom), not \(echo(field.json)).")
            }
            screen = index
        }
        let action: Action
        switch name {
        case "timeline": action = .timeline(screen: screen)
        case "display":
            guard case .array(let list)? = value["rows"] else {
                return fail("display needs \"rows\": a list of row ids such as \"post:123\".")
            }
            var rows: [RowID] = []
            for item in list {
                guard let text = item.string, let row = RowID(text) else {
                    return fail("display: \(echo(item.json)) is not a row id (\"post:ID\", \"gap:ID\", \"notification:KEY\", \"account:ID\", \"tag:NAME\" or \"domain:NAME\").")
                }
                rows.append(row)
            }
            action = .display(rows, screen: screen)
        case "loadMore": action = .loadMore(screen: screen)
        case "refresh": action = .refresh(screen: screen)
        case "reload": action = .reload(screen: screen)
        case "showWaiting": action = .showWaiting(screen: screen)
        case "retry": action = .retry
        case "openGap":
            guard let text = string("row"), let row = RowID(text), case .gap = row else {
                return fail("openGap needs \"row\": a gap row id such as \"gap:123\".")
            }
            action = .openGap(row, screen: screen)
        case "open":
            guard let post = string("post") else { return fail("open needs \"post\": a post id string.") }
            action = .push(.post(PostID(post)))
        case "push":
            switch route(value["route"]) {
            case .success(let route): action = .push(route)
            case .failure(let problem): return fail("push: \(problem.message)")
            }
        case "search", "accept", "reject":
            switch accountLists(name, value, screen: screen) {
            case .success(let parsed): action = parsed
            case .failure(let problem): return fail(problem.message)
            }
        case "favourite", "reblog", "bookmark", "pin", "muteThread":
            guard let post = string("post") else { return fail("\(name) needs \"post\": a post id string.") }
            let kinds: [String: InteractionKind] = ["favourite": .favourite, "reblog": .reblog, "bookmark": .bookmark, "pin": .pin, "muteThread": .muteThread]
            let kind = kinds[name] ?? .favourite
            var wanted: Bool?
            if let field = value["value"] {
                guard case .bool(let flag) = field else { return fail("\(name): \"value\" is true or false, not \(field.json).") }
                wanted = flag
            }
            action = .toggle(kind, PostID(post), value: wanted)
        case "unpin", "unmuteThread":
            guard let post = string("post") else { return fail("\(name) needs \"post\": a post id string.") }
            action = .toggle(name == "unpin" ? .pin : .muteThread, PostID(post), value: false)
        case "show":
            guard let post = string("post") else { return fail("show needs \"post\": a post id string.") }
            action = .show(PostID(post))
        case "report":
            switch Self.report(value) {
            case .success(let report):
                action = .report(
                    account: report.account, posts: report.posts, comment: report.comment, forward: report.forward, category: report.category.rawValue,
                    rules: report.rules
                )
            case .failure(let problem): return fail(problem.message)
            }
        case "rules": action = .rules
        case "switchAccount":
            guard let account = string("account") else {
                return fail("switchAccount needs \"account\": a signed-in account such as \"kemi@mastodon.social\" (or the start of only one's name).")
            }
            action = .switchAccount(account)
        case "readAnnouncement":
            switch Self.readAnnouncement(value) {
            case .success(let parsed): action = parsed
            case .failure(let problem): return fail(problem.message)
            }
        case "editProfile":
            switch profileEdit(value) {
            case .success(let parsed): action = parsed
            case .failure(let problem): return fail(problem.message)
            }
        case "translate", "original":
            guard let post = string("post") else { return fail("\(name) needs \"post\": a post id string.") }
            action = name == "translate" ? .translate(PostID(post)) : .original(PostID(post))
        case "back", "pop": action = .pop
        case "top": action = .top
        case "root":
            guard let text = string("feed"), let feed = Feed(text) else {
                return fail("root needs \"feed\": home, local, public, tag:NAME, account:ID (or account:@user@host), bookmarks, favourites, list:ID or trending.")
            }
            action = .root(feed)
        case "wait": action = .wait
        case "quit": action = .quit
        case "draft", "editDraft", "send", "discard", "drafts", "delete", "editPost", "redraft", "vote", "history":
            switch writing(name, value) {
            case .success(let parsed): action = parsed
            case .failure(let problem): return fail(problem.message)
            }
        case "follow", "unfollow", "mute", "unmute", "block", "unblock", "notify", "boosts", "relationships":
            switch accounts(name, value) {
            case .success(let parsed): action = parsed
            case .failure(let problem): return fail(problem.message)
            }
        case "blockDomain", "unblockDomain":
            switch domainBlock(name, value, screen: screen) {
            case .success(let parsed): action = parsed
            case .failure(let problem): return fail(problem.message)
            }
        case "openConversation", "markRead", "removeConversation":
            switch conversation(name, value) {
            case .success(let parsed): action = parsed
            case .failure(let problem): return fail(problem.message)
            }
        case "notificationPolicy", "setNotificationPolicy":
            switch notificationPolicy(name, value) {
            case .success(let parsed): action = parsed
            case .failure(let problem): return fail(problem.message)
            }
        case "dismissNotification", "clearNotifications":
            switch notifications(name, value) {
            case .success(let parsed): action = parsed
            case .failure(let problem): return fail(problem.message)
            }
        case "followTag", "unfollowTag":
            switch tagFollow(name, value) {
            case .success(let parsed): action = parsed
            case .failure(let problem): return fail(problem.message)
            }
        case "acceptNotificationRequest", "dismissNotificationRequest":
            let usage = "\(name) needs \"request\": a filtered notifications request's id such as \"3\" (a notificationRequest row's \"request\"), or \"all\":true."
            switch (value["request"], value["all"]) {
            case (let request?, nil):
                guard let request = request.string, !request.isEmpty else { return fail(usage) }
                action = .notificationRequest(id: request, accept: name == "acceptNotificationRequest")
            case (nil, .bool(true)?):
                action = .notificationRequest(id: nil, accept: name == "acceptNotificationRequest")
            default:
                return fail(usage)
            }
        case "editScheduled", "cancelScheduled":
            guard let scheduled = value["scheduled"]?.string, !scheduled.isEmpty else {
                return fail("\(name) needs \"scheduled\": a scheduled post's id such as \"1\" (a scheduled row's \"scheduled\").")
            }
            if name == "cancelScheduled" {
                action = .scheduledChange(id: scheduled, at: nil)
            } else {
                guard let at = value["at"]?.string, !at.allSatisfy(\.isWhitespace) else {
                    return fail("editScheduled needs \"at\": a time such as \"2026-12-01T09:00\" (local) or \"in 2h\".")
                }
                action = .scheduledChange(id: scheduled, at: at)
            }
        case _ where listCommandNames.contains(name):
            switch listChange(name, value) {
            case .success(let parsed): action = parsed
            case .failure(let problem): return fail(problem.message)
            }
        case _ where filterCommandNames.contains(name):
            switch filterChange(name, value) {
            case .success(let parsed): action = parsed
            case .failure(let problem): return fail(problem.message)
            }
        default:
            let lowered = name.lowercased()
            // Suggest only for word-sized names: the distance is O(length × name length).
            let nearest = lowered.count > 32 ? nil : names.min { EditDistance.between($0.lowercased(), lowered) < EditDistance.between($1.lowercased(), lowered) }
            let hint = nearest.flatMap { EditDistance.between($0.lowercased(), lowered) <= 2 ? " Did you mean \"\($0)\"?" : nil } ?? ""
            return fail("Unknown command \"\(echo(name))\".\(hint) Commands: \(names.joined(separator: ", ")).")
        }
        return .success(JSONLCommand(id: id, action: action, name: name))
    }

    /// What the client sent, as an error message quotes it: cut after 40 characters (then `…`),
    /// so a megabyte of junk in a field is not written back in full.
    static func echo(_ text: String) -> String {
        Echo.shortened(text, to: 40)
    }

    struct FieldProblem: Error {
        var message: String
    }

    /// A route object as ``JSONLMessage`` writes it: `{"route":"feed","feed":"tag:birds"}`,
    /// `{"route":"thread","post":"1"}`, `{"route":"notifications"}` (of some kinds:
    /// `{"route":"notifications","kinds":"mentions,boosts"}`), `{"route":"post","post":"1"}`,
    /// `{"route":"history","post":"1"}`, `{"route":"accounts","list":"followers:1"}`,
    /// `{"route":"search","query":"birds"}`, `{"route":"domainBlocks"}`, `{"route":"followedTags"}`,
    /// `{"route":"trendingTags"}`, `{"route":"conversations"}`, `{"route":"lists"}`, `{"route":"filters"}`, `{"route":"scheduled"}`, `{"route":"announcements"}` (a list's accounts:
    /// `{"route":"accounts","list":"members:ID"}`).
    private static func route(_ value: JSONLValue?) -> Result<Route, FieldProblem> {
        let usage = "\"route\" is an object such as {\"route\":\"feed\",\"feed\":\"tag:birds\"}, {\"route\":\"thread\",\"post\":\"ID\"}, {\"route\":\"notifications\"} (or with \"kinds\":\"mentions\"), {\"route\":\"post\",\"post\":\"ID\"}, {\"route\":\"accounts\",\"list\":\"requests\"}, {\"route\":\"search\",\"query\":\"birds\"}, {\"route\":\"domainBlocks\"}, {\"route\":\"followedTags\"}, {\"route\":\"trendingTags\"}, {\"route\":\"conversations\"}, {\"route\":\"lists\"}, {\"route\":\"filters\"}, {\"route\":\"scheduled\"}, {\"route\":\"notificationRequests\"} or {\"route\":\"announcements\"}."
        guard let value, case .object = value, let kind = value["route"]?.string else { return .failure(FieldProblem(message: usage)) }
        func post() -> PostID? { value["post"]?.string.flatMap { $0.isEmpty ? nil : PostID($0) } }
        switch kind {
        case "feed":
            guard let text = value["feed"]?.string, let feed = Feed(text) else {
                return .failure(FieldProblem(message: "a feed route needs \"feed\": home, local, public, tag:NAME, account:ID (or account:@user@host), bookmarks, favourites, list:ID or trending."))
            }
            return .success(.list(.feed(feed)))
        case "thread", "post", "history":
            guard let id = post() else { return .failure(FieldProblem(message: "a \(kind) route needs \"post\": a post id string.")) }
            return .success(kind == "thread" ? .list(.thread(id)) : kind == "history" ? .list(.history(id)) : .post(id))
        case "notifications":
            guard let field = value["kinds"], field != .null else { return .success(.list(.notifications)) }
            return notificationKinds(field).map { .list(.notificationsOf($0)) }
        case "domainBlocks": return .success(.list(.domainBlocks))
        case "followedTags": return .success(.list(.followedTags))
        case "trendingTags": return .success(.list(.trendingTags))
        case "conversations": return .success(.list(.conversations))
        case "lists": return .success(.list(.userLists))
        case "filters": return .success(.list(.filters))
        case "announcements": return .success(.list(.announcements))
        case "scheduled": return .success(.list(.scheduled))
        case "notificationRequests": return .success(.list(.notificationRequests))
        case "accounts":
            guard let text = value["list"]?.string, let list = AccountList(text) else {
                return .failure(FieldProblem(message: "an accounts route needs \"list\": \(accountListUsage)."))
            }
            if case .members(let id) = list, UserList(id: id, title: "").isProvisional {
                return .failure(FieldProblem(message: "the list \(echo(id)) is still being made; its accounts can be shown once the server has it (a lists message gives its id)."))
            }
            return .success(.list(.accounts(list)))
        case "search":
            guard let query = searchQuery(value["query"]) else { return .failure(FieldProblem(message: "a search route needs \(queryUsage).")) }
            return .success(.list(.search(query)))
        default: return .failure(FieldProblem(message: "unknown route \"\(echo(kind))\"; " + usage))
        }
    }
}
