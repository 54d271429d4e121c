@_spi(FeedService) import Feedline

/// Screens: switching the bottom timeline, the entries kept per screen of the stack, their names.
extension REPLDriver {
    func openScreen(_ name: CommandName) {
        let navigator = session.navigator
        switch name {
        case .notifications: navigator.push(.list(.notifications))
        case .bookmarks: navigator.push(.list(.feed(.bookmarks)))
        case .favourites: navigator.push(.list(.feed(.favourites)))
        case .mutes: navigator.push(.list(.accounts(.mutes)))
        case .blocks: navigator.push(.list(.accounts(.blocks)))
        case .requests: navigator.push(.list(.accounts(.requests)))
        case .domains: navigator.push(.list(.domainBlocks))
        case .filters: navigator.push(.list(.filters))
        case .announcements: navigator.push(.list(.announcements))
        case .tags: navigator.push(.list(.followedTags))
        case .conversations: navigator.push(.list(.conversations))
        case .home, .local, .public:
            let feed: Feed = name == .home ? .home : name == .local ? .local : .public
            if session.root.source == .feed(feed) {
                if navigator.depth > 1 {
                    navigator.popToRoot()
                } else {
                    refuse("Already on \(feed.title).")
                }
                return
            }
            // Said first: the new root starts loading (and says so) as it appears.
            say("Switched to \(feed.title).")
            navigator.replaceRoot(feed)
        default: break
        }
    }

    /// Keeps one entry per screen of the navigator's stack: entries of screens still there stay
    /// (with what they printed), popped ones go, pushed ones are made.
    func routesChanged() {
        let screens = session.navigator.screens
        var kept = 0
        while kept < stack.count, kept < screens.count, Self.same(stack[kept], screens[kept]) { kept += 1 }
        stack.removeSubrange(kept...)
        for screen in screens[kept...] {
            switch screen {
            case .list(let list):
                let entry = ListEntry(list)
                // Every list shows its first screen of rows when they come, the root at start too.
                if !stack.isEmpty || started { entry.screen.owed = options.pageSize }
                stack.append(.list(entry))
                entry.subscription = list.snapshot.observe { [weak self, weak entry] snapshot in
                    guard let self, let entry else { return }
                    self.listChanged(entry, snapshot)
                }
                entry.headerSubscription = list.profile?.header.observe { [weak self, weak entry] header in
                    guard !header.isLoading, let self, let entry, self.options.live, self.following, self.isTop(entry) else { return }
                    self.flush()
                }
                    ?? list.tagHeader?.header.observe { [weak self, weak entry] header in
                        guard !header.isLoading, let self, let entry, self.options.live, self.following, self.isTop(entry) else { return }
                        self.flush()
                    }
            case .post(let detail):
                let entry = PostEntry(detail)
                stack.append(.post(entry))
                entry.subscription = detail.state.observe { [weak self, weak entry] state in
                    guard let self, let entry else { return }
                    if state.failure != nil, entry.screen.state?.failure != state.failure { self.failures += 1 }
                    entry.screen.receive(state)
                    if self.options.live, self.following, self.isTop(entry) { self.flush() }
                }
            }
        }
    }

    func isTop(_ entry: ListEntry) -> Bool {
        if case .list(let top)? = stack.last { return top === entry }
        return false
    }

    func isTop(_ entry: PostEntry) -> Bool {
        if case .post(let top)? = stack.last { return top === entry }
        return false
    }

    static func same(_ entry: Entry, _ screen: Screen) -> Bool {
        switch (entry, screen) {
        case (.list(let entry), .list(let list)): entry.list === list
        case (.post(let entry), .post(let detail)): entry.detail === detail
        default: false
        }
    }

    func title(of entry: Entry?) -> String {
        switch entry {
        case .list(let entry)?:
            if let title = entry.title { return title }
            switch entry.list.source {
            case .feed(.home): return "home"
            case .feed(.local): return "local"
            case .feed(.public): return "public"
            case .feed(.tag(let name)): return "#" + name
            case .feed(.account(let id)):
                if let handle = id.handle ?? handles[id.rawValue] { return "@" + (handle.split(separator: "@").first.map(String.init) ?? handle) }
                return "profile"
            case .feed(.bookmarks): return "bookmarks"
            case .feed(.favourites): return "favourites"
            case .feed(.list(let id)): return "list " + TextWidth.truncate(TextWidth.oneLine(session.lists.title(of: id) ?? id), to: 24)
            case .userLists: return "lists"
            case .filters: return "filters"
            case .announcements: return "announcements"
            case .scheduled: return "scheduled"
            case .notificationRequests: return "filtered notifications"
            case .accounts(.members(let id)): return "accounts of " + TextWidth.truncate(TextWidth.oneLine(session.lists.title(of: id) ?? id), to: 24)
            case .feed(.trending): return "trends"
            case .followedTags: return "tags"
            case .trendingTags: return "trending tags"
            case .thread: return "thread"
            case .notifications: return "notifications"
            case .notificationsOf(let kinds): return "notifications: " + NotificationGroup.Kind.filterNames(of: kinds)
            case .history: return "history"
            case .accounts(.followers(let id)): return "followers of " + accountName(id)
            case .accounts(.following(let id)): return "following of " + accountName(id)
            case .accounts(.endorsed(let id)): return "featured by " + accountName(id)
            case .accounts(.mutes): return "mutes"
            case .accounts(.blocks): return "blocks"
            case .accounts(.requests): return "requests"
            case .accounts(.favouritedBy): return "favourited by"
            case .accounts(.boostedBy): return "boosted by"
            case .search(let query): return "search " + TextWidth.truncate(TextWidth.oneLine(query), to: 24)
            case .domainBlocks: return "domains"
            case .conversations: return "conversations"
            }
        case .post(let entry)?:
            guard let author = entry.detail.current.post?.content.author else { return "a post" }
            return "@" + (author.handle.split(separator: "@").first.map(String.init) ?? author.handle) + "'s post"
        case nil:
            return "home"
        }
    }

    /// `@kemi` for an account seen in this session, else `account ID`.
    func accountName(_ id: AccountID) -> String {
        if let handle = id.handle ?? handles[id.rawValue] { return "@" + (handle.split(separator: "@").first.map(String.init) ?? handle) }
        return "account \(id)"
    }

    func wording(of entry: ListEntry) -> ListWording {
        switch entry.list.source {
        case .feed(.account): ListWording(title: "this profile", loading: "the profile", empty: "No posts on this profile.", end: "profile")
        case .feed(.bookmarks): ListWording(title: "your bookmarks", loading: "your bookmarks", empty: "No bookmarks yet.", end: "bookmarks")
        case .feed(.favourites): ListWording(title: "your favourites", loading: "your favourites", empty: "No favourites yet.", end: "favourites")
        case .feed(.tag(let name)):
            ListWording(title: "#" + name, loading: "#" + name, empty: "No posts with #\(name).", end: "#" + name)
        case .feed(.trending):
            ListWording(title: "the trending posts", loading: "the trending posts", empty: "Nothing is trending.", end: "trends")
        case .feed: ListWording(title: "the timeline", loading: "the timeline", empty: "The timeline is empty.", end: "timeline")
        case .thread: ListWording(title: "the thread", loading: "the thread", empty: "The thread is empty.", end: "thread")
        case .history:
            ListWording(title: "the edit history", loading: "the edit history", empty: "No versions.", end: "history", items: "versions")
        case .notifications:
            ListWording(title: "your notifications", loading: "your notifications", empty: "No notifications.", end: "notifications", items: "notifications")
        case .notificationsOf(let kinds):
            ListWording(
                title: "your notifications (\(NotificationGroup.Kind.filterNames(of: kinds)))",
                loading: "your notifications (\(NotificationGroup.Kind.filterNames(of: kinds)))",
                empty: "No notifications of that kind.", end: "notifications", items: "notifications"
            )
        case .accounts(.followers(let id)):
            ListWording(title: "the followers", loading: "the followers of \(accountName(id))", empty: "No followers.", end: "followers", items: "accounts")
        case .accounts(.following(let id)):
            ListWording(title: "the accounts followed", loading: "whom \(accountName(id)) follows", empty: "Follows no one.", end: "following", items: "accounts")
        case .accounts(.endorsed(let id)):
            ListWording(
                title: "the accounts featured", loading: "whom \(accountName(id)) features", empty: "Features no one.", end: "featured accounts",
                items: "accounts"
            )
        case .accounts(.mutes): ListWording(title: "your mutes", loading: "your mutes", empty: "You muted no one.", end: "mutes", items: "accounts")
        case .accounts(.blocks): ListWording(title: "your blocks", loading: "your blocks", empty: "You blocked no one.", end: "blocks", items: "accounts")
        case .accounts(.requests):
            ListWording(title: "your follow requests", loading: "your follow requests", empty: "No follow requests wait.", end: "requests", items: "requests")
        case .accounts(.favouritedBy):
            ListWording(title: "who favourited", loading: "who favourited the post", empty: "No one favourited it.", end: "favourites", items: "accounts")
        case .accounts(.boostedBy):
            ListWording(title: "who boosted", loading: "who boosted the post", empty: "No one boosted it.", end: "boosts", items: "accounts")
        case .followedTags:
            ListWording(title: "your hashtags", loading: "the hashtags you follow", empty: "You follow no hashtag.", end: "hashtags", items: "hashtags")
        case .trendingTags:
            ListWording(title: "the trending hashtags", loading: "the trending hashtags", empty: "No hashtag is trending.", end: "trending hashtags", items: "hashtags")
        case .conversations:
            ListWording(
                title: "your conversations", loading: "your conversations", empty: "No direct conversations.", end: "conversations",
                items: "conversations"
            )
        case .userLists:
            ListWording(title: "your lists", loading: "your lists", empty: "You have no lists; lists new NAME makes one.", end: "lists", items: "lists")
        case .accounts(.members(let id)):
            ListWording(
                title: "the list's accounts", loading: "the accounts of the list \(session.lists.title(of: id) ?? id)", empty: "No one is on this list.",
                end: "accounts", items: "accounts"
            )
        case .filters:
            ListWording(
                title: "your filters", loading: "your filters", empty: "You have no filters; filters new TITLE --keyword WORD makes one.", end: "filters",
                items: "filters"
            )
        case .announcements:
            ListWording(
                title: "your server's announcements", loading: "your server's announcements", empty: "Your server announces nothing now.", end: "announcements",
                items: "announcements"
            )
        case .scheduled:
            ListWording(
                title: "your scheduled posts", loading: "your scheduled posts", empty: "Nothing is scheduled; .schedule TIME in a draft schedules it.",
                end: "scheduled posts", items: "scheduled posts"
            )
        case .notificationRequests:
            ListWording(
                title: "your filtered notifications", loading: "your filtered notifications",
                empty: "No filtered notifications wait; notifications policy says whose are filtered.", end: "filtered notifications",
                items: "requests"
            )
        case .domainBlocks:
            ListWording(title: "your blocked domains", loading: "your blocked domains", empty: "You blocked no domain.", end: "domains", items: "domains")
        case .search(let query):
            ListWording(
                title: "the results", loading: "results for \"\(Echo.shortened(query, to: 40))\"", empty: "Nothing found for \"\(Echo.shortened(query, to: 40))\".",
                end: "results", items: "results"
            )
        }
    }
}
