import Feedline

/// The name of a command (its aliases resolve to it).
public enum CommandName: String, Hashable, Sendable, CaseIterable {
    case back, bookmark, bookmarks, boost, delete, draft, drafts, edit, fav, favourites, gap, help, history, home, list, local, more, new
    case notifications, open, post, profile, `public`, quit, redraft, refresh, reply, retry, show, tag, thread, top, unbookmark, unboost
    case quote, translate, original
    case quotePost = "quote-post"
    case unfav, vote
    case pin, unpin
    case muteThread = "mute-thread"
    case unmuteThread = "unmute-thread"
    case follow, unfollow, mute, unmute, block, unblock, notify, boosts
    case search, followers, following, endorsed, mutes, blocks, requests, accept, reject, domains, tags, trends, lists, filters
    case scheduled
    case favouritedBy = "favourited-by"
    case boostedBy = "boosted-by"
    case conversations, remove, dismiss
    case reload, link, browse
    case blockDomain = "block-domain"
    case unblockDomain = "unblock-domain"
    case whereAmI = "where"
    case report, rules, announcements
    case account
}

/// Which kind of screen is on top.
public enum ScreenKind: String, Hashable, Sendable {
    /// A list: a timeline, an account's posts, a hashtag, a thread, notifications, bookmarks…
    case list
    /// A post's detail.
    case post
}

/// The kinds of command `help` lists together, in the order it lists them.
public enum CommandGroup: String, Hashable, Sendable, CaseIterable {
    case reading, writing, people, listsAndTags, session

    /// How help titles it: `Reading`, `Lists and tags`.
    public var title: String {
        switch self {
        case .reading: "Reading"
        case .writing: "Writing"
        case .people: "People"
        case .listsAndTags: "Lists and tags"
        case .session: "Session"
        }
    }

    /// What `help` takes to list it: `reading`, `lists and tags` (also `lists-and-tags`).
    public var topic: String { title.lowercased() }

    /// The group `text` names (any case, words separated by spaces or hyphens), if any.
    public static func named(_ text: String) -> CommandGroup? {
        let words = text.lowercased().split { $0 == " " || $0 == "-" || $0 == "\t" }.joined(separator: " ")
        return allCases.first { $0.topic == words }
    }
}

/// What a list screen holds, as far as commands care: a command that acts only on some kinds of
/// rows is not listed (nor completed) on a screen that holds none of them.
public enum ScreenTrait: Hashable, Sendable {
    /// Post rows (timelines, profiles, hashtags, threads, bookmarks, search results…).
    case posts
    /// Notification rows (which act on their post).
    case notifications
    /// Account rows.
    case accounts
    /// Account rows asking to follow you (the requests screen).
    case requests
    /// Hashtag rows.
    case hashtags
    /// Blocked-domain rows.
    case domains
    /// Conversation rows (which act on their last post).
    case conversations
    /// Rows of your lists.
    case userLists
    /// Rows of your server filters.
    case filters
    /// Rows of the instance's announcements.
    case announcements
    /// Rows of your scheduled posts.
    case scheduled
    /// Requests of filtered notifications, one per account (the filtered-notifications screen).
    case notificationRequests
    /// Versions of an edited post.
    case versions
    /// A list that takes newer items above its rows (live updates, gaps).
    case newer
}

/// One entry of the command table: the single declaration from which parsing, help and tab
/// completion are all derived.
public struct CommandSpec: Hashable, Sendable {
    /// What follows the command word.
    public enum Argument: Hashable, Sendable {
        /// Nothing.
        case none
        /// A row number, always.
        case row
        /// A row number on a list; nothing on a post (the command acts on the post).
        case rowOnList
        /// Nothing, a row number, or `all`.
        case listRange
        /// A row number or an `@handle` on a list; on a post also nothing (the post's author).
        case profile
        /// A word (a hashtag's name).
        case word
        /// An optional command name.
        case topic
        /// The rest of the line as text, maybe none.
        case text
        /// A row number on a list (nothing on a post), then the rest of the line as text.
        case rowAndText
        /// A row number on a list (nothing on a post), then maybe `--yes`.
        case rowConfirmed
        /// Nothing (the profile or post on top), a row number or an `@handle` (the account),
        /// then options (`on|off`, `--for`, `--keep-notifications`, `--yes`).
        case account
        /// The rest of the line as text, at least one word (a search).
        case query
        /// Nothing (the profile or post on top), a row number or a domain, then maybe `--yes`.
        case domain
        /// A row number on a list (nothing on a post), then maybe a number of what it holds.
        case rowAndItem
    }

    /// The command's name.
    public var name: CommandName
    /// Other words for it.
    public var aliases: [String]
    /// What follows the word.
    public var argument: Argument
    /// How to type it, e.g. `open N`.
    public var usage: String
    /// How to type it on a post, when that differs.
    public var postUsage: String?
    /// One line for the command list.
    public var summary: String
    /// The line for the command list on a post, when it is not `summary` with "row N's post"
    /// read as "this post".
    public var postSummary: String?
    /// More lines for `help <command>`.
    public var details: String
    /// The screens it works on.
    public var screens: Set<ScreenKind>
    /// Which part of help lists it.
    public var group: CommandGroup
    /// On a list, the screens it does something on: those with one of these traits (`nil`: any).
    public var traits: Set<ScreenTrait>? = nil
    /// Whether it is shown on the bottom screen (going back is not).
    public var atBottom = true

    /// Every word that names this command.
    public var words: [String] { [name.rawValue] + aliases }
}

/// The command table, in the order help lists it.
public enum CommandTable {
    /// Every command.
    public static let all: [CommandSpec] = [
        CommandSpec(
            name: .list, aliases: ["ls"], argument: .listRange, usage: "list [N|all]", postUsage: "list",
            summary: "redraw the last screen of rows (N: from row N; all)",
            postSummary: "print the post again",
            details: "On a list, prints the last screen of rows shown and the status line; list N prints a screen from row N, list all every row shown so far. Rows are printed with their numbers now: until a row is printed again its number stays the one you saw, even when rows above it came or went. On a post, prints the post again.",
            screens: [.list, .post], group: .reading
        ),
        CommandSpec(
            name: .more, aliases: [], argument: .none, usage: "more",
            summary: "show the next screen of rows, loading older ones",
            details: "Rows that come into view are displayed, which loads the next page before you reach the end.",
            screens: [.list], group: .reading
        ),
        CommandSpec(
            name: .open, aliases: [], argument: .row, usage: "open N",
            summary: "open the post of row N",
            details: "Shows the full post, its media, counts and replies; on a notification, the post it is about (or the profile of who followed you). back returns to the list.",
            screens: [.list], group: .reading, traits: [.posts, .notifications, .accounts, .requests, .hashtags, .conversations, .userLists]
        ),
        CommandSpec(
            name: .fav, aliases: ["favourite", "favorite"], argument: .rowOnList, usage: "fav N", postUsage: "fav",
            summary: "favourite or unfavourite row N's post",
            details: "Shows the change at once on every screen that shows the post; if the server refuses, it is rolled back with the reason. If the server cannot be reached it stays, marked ★…, and is sent again (after 2 s, 4 s … at most a minute, at retry, and at the next start when the session keeps state).",
            screens: [.list, .post], group: .reading, traits: [.posts, .notifications, .conversations]
        ),
        CommandSpec(
            name: .boost, aliases: ["reblog"], argument: .rowOnList, usage: "boost N", postUsage: "boost",
            summary: "boost or unboost row N's post",
            details: "Every row of the same post changes with it, on every screen; if the server refuses, it is rolled back with the reason.",
            screens: [.list, .post], group: .reading, traits: [.posts, .notifications, .conversations]
        ),
        CommandSpec(
            name: .bookmark, aliases: [], argument: .rowOnList, usage: "bookmark N", postUsage: "bookmark",
            summary: "bookmark row N's post, or remove the bookmark",
            details: "Bookmarks are private: only you see them, in bookmarks. Every screen that shows the post marks it at once.",
            screens: [.list, .post], group: .reading, traits: [.posts, .notifications, .conversations]
        ),
        CommandSpec(
            name: .unfav, aliases: ["unfavourite", "unfavorite"], argument: .rowOnList, usage: "unfav N", postUsage: "unfav",
            summary: "remove your favourite of row N's post, if there is one",
            details: "Unlike fav, which toggles, unfav only ever removes: on a post you have not favourited it does nothing, so a script can say it twice.",
            screens: [.list, .post], group: .reading, traits: [.posts, .notifications, .conversations]
        ),
        CommandSpec(
            name: .unboost, aliases: ["unreblog"], argument: .rowOnList, usage: "unboost N", postUsage: "unboost",
            summary: "remove your boost of row N's post, if there is one",
            details: "Unlike boost, which toggles, unboost only ever removes: on a post you have not boosted it does nothing.",
            screens: [.list, .post], group: .reading, traits: [.posts, .notifications, .conversations]
        ),
        CommandSpec(
            name: .unbookmark, aliases: [], argument: .rowOnList, usage: "unbookmark N", postUsage: "unbookmark",
            summary: "remove the bookmark of row N's post, if there is one",
            details: "Unlike bookmark, which toggles, unbookmark only ever removes: on a post without your bookmark it does nothing.",
            screens: [.list, .post], group: .reading, traits: [.posts, .notifications, .conversations]
        ),
        CommandSpec(
            name: .muteThread, aliases: [], argument: .rowOnList, usage: "mute-thread N", postUsage: "mute-thread",
            summary: "mute the conversation of row N's post: no more notifications from it",
            details: "Your server stops notifying you of replies, favourites and boosts in that conversation; the notifications you have stay. Only a conversation you take part in (a post of yours or one mentioning you in it) can be muted. The post screen says the conversation is muted, on every screen at once; unmute-thread undoes it.",
            screens: [.list, .post], group: .reading, traits: [.posts, .notifications, .conversations]
        ),
        CommandSpec(
            name: .unmuteThread, aliases: [], argument: .rowOnList, usage: "unmute-thread N", postUsage: "unmute-thread",
            summary: "unmute the conversation of row N's post",
            details: "Notifications from the conversation come again; those sent while it was muted do not.",
            screens: [.list, .post], group: .reading, traits: [.posts, .notifications, .conversations]
        ),
        CommandSpec(
            name: .show, aliases: ["reveal"], argument: .rowOnList, usage: "show N", postUsage: "show",
            summary: "show the post a filter of yours warns about",
            details: "Your server's filters put \"Filtered: TITLE\" in place of a matching post (or hide its media). show reveals it on every screen that shows it, for the rest of the session.",
            screens: [.list, .post], group: .reading, traits: [.posts, .notifications]
        ),
        CommandSpec(
            name: .translate, aliases: [], argument: .rowOnList, usage: "translate N", postUsage: "translate",
            summary: "show row N's post translated into your language",
            postSummary: "show this post translated into your language",
            details: "Asks your server for a translation (when it offers them: it says so if not) and shows it under the original on the post screen, on every screen of the post at once; original shows the post alone again.",
            screens: [.list, .post], group: .reading, traits: [.posts, .notifications, .conversations]
        ),
        CommandSpec(
            name: .original, aliases: [], argument: .rowOnList, usage: "original N", postUsage: "original",
            summary: "show row N's post without its translation",
            postSummary: "show this post without its translation",
            details: "The translation translate showed goes, on every screen of the post.",
            screens: [.list, .post], group: .reading, traits: [.posts, .notifications, .conversations]
        ),
        CommandSpec(
            name: .thread, aliases: [], argument: .rowOnList, usage: "thread N", postUsage: "thread",
            summary: "open the thread of row N's post",
            details: "The post with what it replies to above it and its replies below, as rows you can open, favourite and boost. Each reply is indented under the post it answers (two columns a level, up to five levels; less on a narrow terminal), and ▸ before the number marks the post the thread was opened for.",
            screens: [.list, .post], group: .reading, traits: [.posts, .notifications, .conversations]
        ),
        CommandSpec(
            name: .quote, aliases: [], argument: .rowOnList, usage: "quote N", postUsage: "quote",
            summary: "open the post row N's post quotes",
            details: "A quote post shows the post it quotes under its text, behind │, with that post's own ★ and ▲ (favourite it from there: they are the quoted post's, on every screen). quote N opens the quoted post; on a post, quote opens the post it quotes. A quote that is not shown says why: waiting for its author's approval, refused or withdrawn by them, deleted, or hidden by one of your filters where the quoting post is shown.",
            screens: [.list, .post], group: .reading, traits: [.posts, .notifications, .conversations]
        ),
        CommandSpec(
            name: .link, aliases: ["links"], argument: .rowOnList, usage: "link N", postUsage: "link",
            summary: "print the web address of row N's post and the links it holds",
            details: "The post's own address on its server, then what it links to, numbered: the links in its text, its link preview, its attachments. browse N K opens the K-th in your browser.",
            screens: [.list, .post], group: .reading, traits: [.posts, .notifications, .conversations]
        ),
        CommandSpec(
            name: .browse, aliases: [], argument: .rowAndItem, usage: "browse N [K]", postUsage: "browse [K]",
            summary: "open row N's post in your browser, or its K-th link (as link N numbers them)",
            postSummary: "open this post in your browser, or its K-th link (as link numbers them)",
            details: "Opens the address with the program named by the BROWSER environment variable, else xdg-open. Only in an interactive session (a script prints the address instead), and only http and https addresses.",
            screens: [.list, .post], group: .reading, traits: [.posts, .notifications, .conversations]
        ),
        CommandSpec(
            name: .profile, aliases: [], argument: .profile, usage: "profile N|@user@host", postUsage: "profile [@user@host]",
            summary: "open the posts of row N's author, or of @user@host",
            details: "On a post, profile alone opens its author's posts. @user names an account of this server, @user@host one of another (the @ in front is optional; a host may end in :PORT, as in @grace@127.0.0.1:38111). Tab completes the handles of every row received in this session, shown or not. profile edit changes your own profile: --name NAME, --bio TEXT, --field NAME=VALUE (again for each field, at most 4; --no-fields clears them), --locked on|off (follows need your approval), --bot on|off, --discoverable on|off (in the profile directory), --avatar FILE and --header FILE (a PNG, JPEG, GIF or WebP image; a missing file or one that is not an image sends nothing); a value with spaces goes in quotes. profile edit alone opens your profile in $EDITOR as Name:, Bio:, Field:, Locked:, Bot: and Discoverable: lines, and sends what you changed. The change shows at once on your profile and your name on your posts, on every screen; if the server refuses, it is back as it was with the server's reason; without a connection it is sent again later.",
            screens: [.list, .post], group: .people
        ),
        CommandSpec(
            name: .follow, aliases: [], argument: .account, usage: "follow [N|@user|#tag]",
            summary: "follow row N's author, @user@host, or the profile shown",
            details: "Alone on a profile (or a post), follows that account; with N, row N's author; with @user@host, an account seen in this session. Shown at once on every screen, marked … until the server answers; an account that approves its followers answers with a request, shown as requested. Tab completes handles.",
            screens: [.list, .post], group: .people
        ),
        CommandSpec(
            name: .unfollow, aliases: [], argument: .account, usage: "unfollow [N|@user|#tag]",
            summary: "unfollow (or withdraw a follow request); their posts leave home at once",
            details: "Takes the account's posts and boosts off home at once (boosts of their posts by accounts you follow stay); if the server refuses, they come back where they were.",
            screens: [.list, .post], group: .people
        ),
        CommandSpec(
            name: .mute, aliases: [], argument: .account, usage: "mute [N|@user] [--for 1d]",
            summary: "mute an account: their posts, boosts and notifications leave every screen",
            details: "Their posts, their boosts, boosts of their posts and notifications from them leave every screen of the stack at once — but their own profile, which says they are muted. --for sets how long (s, m, h, d or w: --for 30m, --for 1d); --keep-notifications keeps their notifications (mute 3 --for 1d --keep-notifications). If the server refuses, everything comes back where it was.",
            screens: [.list, .post], group: .people
        ),
        CommandSpec(
            name: .unmute, aliases: [], argument: .account, usage: "unmute [N|@user]",
            summary: "unmute an account; lists show their posts again as they load",
            details: "Later pages, refreshes and the stream show their posts again; rows already gone come back when a list loads them again.",
            screens: [.list, .post], group: .people
        ),
        CommandSpec(
            name: .block, aliases: [], argument: .account, usage: "block [N|@user] [--yes]",
            summary: "block an account (asks to confirm; --yes does not ask)",
            details: "Blocking also ends a follow both ways. Their posts, boosts and notifications leave every screen at once, their profile included. Typed alone it asks to confirm; block N --yes (or in a script) blocks at once.",
            screens: [.list, .post], group: .people
        ),
        CommandSpec(
            name: .unblock, aliases: [], argument: .account, usage: "unblock [N|@user]",
            summary: "unblock an account",
            details: "Their posts show again as lists load them; a follow that the block ended is not restored.",
            screens: [.list, .post], group: .people
        ),
        CommandSpec(
            name: .notify, aliases: [], argument: .account, usage: "notify on|off [N|@user]",
            summary: "be told (or not) when an account you follow posts",
            details: "Only for accounts you follow. Shown at once, … until the server answers.",
            screens: [.list, .post], group: .people
        ),
        CommandSpec(
            name: .boosts, aliases: [], argument: .account, usage: "boosts on|off [N|@user]",
            summary: "show (or hide) an account's boosts in home",
            details: "Only for accounts you follow. Shown at once, … until the server answers.",
            screens: [.list, .post], group: .people
        ),
        CommandSpec(
            name: .search, aliases: ["find"], argument: .query, usage: "search QUERY",
            summary: "search accounts, hashtags and posts",
            details: "Opens a screen of what the server finds: accounts first, then hashtags, then posts; more loads more of each. A handle (@user@host) or a post's URL is looked up on its server too, so an account your server has not seen yet is found. open N opens an account's profile, a hashtag's timeline or a post; follow N, mute N and the rest act on an account row.",
            screens: [.list, .post], group: .reading
        ),
        CommandSpec(
            name: .followers, aliases: [], argument: .profile, usage: "followers [N|@user]",
            summary: "the accounts that follow the profile on top (or row N's author, or @user)",
            details: "A screen of accounts, each with how you relate to it — the same relationship every screen shows, so following someone here shows on their profile at once. open N opens a profile.",
            screens: [.list, .post], group: .people
        ),
        CommandSpec(
            name: .following, aliases: [], argument: .profile, usage: "following [N|@user]",
            summary: "the accounts the profile on top follows (or row N's author, or @user)",
            details: "A screen of accounts, as followers shows them.",
            screens: [.list, .post], group: .people
        ),
        CommandSpec(
            name: .endorsed, aliases: ["featured-accounts"], argument: .profile, usage: "endorsed [N|@user]",
            summary: "the accounts the profile on top features (or row N's author's, or @user's)",
            details: "A screen of the accounts the profile features on itself (Mastodon's endorsements, served by Mastodon 4.4 and later), as followers shows them: each with how you relate to it.",
            screens: [.list, .post], group: .people
        ),
        CommandSpec(
            name: .favouritedBy, aliases: ["favorited-by"], argument: .rowOnList, usage: "favourited-by N", postUsage: "favourited-by",
            summary: "the accounts that favourited row N's post",
            postSummary: "the accounts that favourited this post",
            details: "A screen of accounts, as followers shows them: each with how you relate to it, so following someone here shows on every screen at once. A boost's row lists those of the boosted post.",
            screens: [.list, .post], group: .people, traits: [.posts, .notifications, .conversations]
        ),
        CommandSpec(
            name: .boostedBy, aliases: ["reblogged-by"], argument: .rowOnList, usage: "boosted-by N", postUsage: "boosted-by",
            summary: "the accounts that boosted row N's post",
            postSummary: "the accounts that boosted this post",
            details: "A screen of accounts, as favourited-by shows them.",
            screens: [.list, .post], group: .people, traits: [.posts, .notifications, .conversations]
        ),
        CommandSpec(
            name: .mutes, aliases: [], argument: .none, usage: "mutes",
            summary: "the accounts you muted",
            details: "unmute N on a row unmutes that account; its posts come back on the next load of each screen.",
            screens: [.list, .post], group: .people
        ),
        CommandSpec(
            name: .blocks, aliases: [], argument: .none, usage: "blocks",
            summary: "the accounts you blocked",
            details: "unblock N on a row unblocks that account.",
            screens: [.list, .post], group: .people
        ),
        CommandSpec(
            name: .requests, aliases: [], argument: .none, usage: "requests",
            summary: "the accounts asking to follow you",
            details: "accept N or reject N answers row N; once the server took the answer the row leaves every requests screen and the account's profile shows it (an accepted account follows you).",
            screens: [.list, .post], group: .people
        ),
        CommandSpec(
            name: .conversations, aliases: ["dms"], argument: .none, usage: "conversations",
            summary: "your direct conversations (open one to read its thread)",
            details: "A screen of your direct conversations, most recent first: who takes part, unread while it is, the last post. open N shows its thread and marks it read on every screen at once; reply there answers it, and the conversation moves to the top. remove N takes it off your conversations (its posts stay); fav, boost and bookmark act on its last post.",
            screens: [.list, .post], group: .reading
        ),
        CommandSpec(
            name: .remove, aliases: [], argument: .row, usage: "remove N",
            summary: "remove conversation N from your conversations",
            details: "Takes row N off every conversations screen at once (its posts stay, and a new post in it brings it back); if the server refuses, it comes back where it was, saying why.",
            screens: [.list], group: .reading, traits: [.conversations]
        ),
        CommandSpec(
            name: .dismiss, aliases: [], argument: .row, usage: "dismiss N",
            summary: "dismiss notification N",
            details: "Takes row N off every notifications screen at once (the whole list and those of one kind), and the server forgets it; if the server refuses, it comes back where it was, saying why. If the server cannot be reached it stays off and is sent again (at retry too). notifications clear dismisses them all. On the filtered notifications (notifications filtered), dismiss N drops row N's account's filtered notifications, the same way, and dismiss --all drops every one loaded there.",
            screens: [.list], group: .reading, traits: [.notifications, .notificationRequests]
        ),
        CommandSpec(
            name: .tags, aliases: [], argument: .none, usage: "tags",
            summary: "the hashtags you follow",
            details: "A screen of the hashtags you follow, with their use this week; open N shows a hashtag's posts, unfollow N stops following it (the row stays, and every screen showing the hashtag follows at once). follow #NAME and unfollow #NAME work anywhere, and follow alone on a hashtag's timeline follows it.",
            screens: [.list, .post], group: .listsAndTags
        ),
        CommandSpec(
            name: .trends, aliases: ["trending"], argument: .word, usage: "trends [tags]",
            summary: "the posts trending on the server (trends tags: the hashtags)",
            details: "The posts the server's users engage with most right now, as a list you can open, favourite and boost; trends tags lists the trending hashtags, with their use this week, to open or follow.",
            screens: [.list, .post], group: .listsAndTags
        ),
        CommandSpec(
            name: .lists, aliases: [], argument: .text, usage: "lists [ACTION]",
            summary: "your lists: make, rename, delete and fill them",
            details: "lists alone shows your lists (open N shows a list's posts). lists new NAME makes one; lists rename NAME NEW renames it; lists delete NAME [--yes] deletes it (asking first); lists add NAME @user and lists remove NAME @user change who is on it (only accounts you follow can be added); lists accounts NAME shows who is on it; lists open NAME shows its posts. NAME is a list's name (in quotes when it has spaces: lists rename \"Field notes\" Notes) or its row number on the lists screen. Every change shows at once on every screen and is undone, with the server's reason, if the server refuses it.",
            screens: [.list, .post], group: .listsAndTags
        ),
        CommandSpec(
            name: .blockDomain, aliases: [], argument: .domain, usage: "block-domain [N|DOMAIN] [--yes]",
            summary: "block a whole server: every account of the domain",
            details: "Names a domain (promo.example), or row N's author's, or — alone — the domain of the profile or post on top. Asks first (--yes does not): every post by an account of that domain, their boosts and notifications from them leave every screen at once, and later pages and the stream do not bring them back; if the server refuses, they come back with its reason. Accounts of your own server cannot be blocked this way (block them one by one).",
            screens: [.list, .post], group: .people
        ),
        CommandSpec(
            name: .unblockDomain, aliases: [], argument: .domain, usage: "unblock-domain [N|DOMAIN]",
            summary: "unblock a domain you blocked",
            details: "Their posts come back on the next load of each screen. On the domains screen, unblock-domain N acts on row N.",
            screens: [.list, .post], group: .people
        ),
        CommandSpec(
            name: .domains, aliases: [], argument: .none, usage: "domains",
            summary: "the domains you blocked",
            details: "A screen of your blocked domains; unblock-domain N unblocks row N (the row stays, marked not blocked).",
            screens: [.list, .post], group: .people
        ),
        CommandSpec(
            name: .report, aliases: [], argument: .rowAndText,
            usage: "report N [--posts 3,5] [--forward] [--category spam|legal|violation|other] [--rules 1,2] [--yes] COMMENT",
            postUsage: "report [--posts 3,5] [--forward] [--category C] [--rules 1,2] [--yes] COMMENT",
            summary: "report row N's account to your server's moderators (a post row: with that post)",
            postSummary: "report this post's author, with the post, to your server's moderators",
            details: "N is an account row or a post row (its author is reported and the post attached); --posts adds more rows' posts by the same account. --category says why (other unless said); violation names the broken rules with --rules, numbered as rules shows them, and only violation takes --rules. --forward sends a copy to the moderators of the account's own server. The rest of the line is the comment the moderators read (at most 1,000 characters). It asks to confirm (y/N); in a script or piped input it needs --yes. Every row of the account and the reported posts are marked ⚑ on every screen at once; if the server refuses, the marks go with its reason; if it cannot be reached, the report waits and is sent again.",
            screens: [.list, .post], group: .people, traits: [.posts, .notifications, .accounts, .requests, .conversations]
        ),
        CommandSpec(
            name: .rules, aliases: [], argument: .none, usage: "rules",
            summary: "your server's rules, numbered for report --rules",
            details: "Lists the instance's rules in its order, each with its number (what report --rules takes) and its hint, when it has one.",
            screens: [.list, .post], group: .people
        ),
        CommandSpec(
            name: .announcements, aliases: [], argument: .text, usage: "announcements [read N|read --all]",
            summary: "your server's announcements: read them, mark them read",
            details: "announcements alone shows what your server's administrators announce now, newest first as the server orders them, each unread one marked ●, with when it was published (and the dates of the event it announces). announcements read N marks row N read; announcements read --all marks every unread one read. Marked read at once on every screen — saving… until the server answers — and unread again, with the server's reason, if it refuses; if it cannot be reached, it stays read and is sent again (at retry too). When a session starts with unread announcements, one line says how many.",
            screens: [.list, .post], group: .people
        ),
        CommandSpec(
            name: .filters, aliases: [], argument: .text, usage: "filters [ACTION]",
            summary: "your server filters: make, change and delete them",
            details: "filters alone shows your server filters (Mastodon's filters): each one's title, what it does (warn, hide or blur) and where (home, notifications, public, thread, account), its keywords (a whole word in quotes) and when it expires. filters new TITLE --keyword WORD [--keyword WORD…] [--whole-word] [--context home,notifications,public,thread,account] [--hide|--warn|--blur] [--expires 30m|12h|7d] makes one (by default it warns, everywhere, for good); filters edit N [TITLE] with the same options changes row N of the filters screen (--keyword replaces its keywords); filters delete N [--yes] deletes it (asking first). A title with spaces goes in quotes, as a keyword of several words. Every change shows at once on every screen — a hide filter takes the posts it matches off every list it applies to, a warn filter puts its warning on them, a deleted one brings them back — saving… until the server answers, and is undone, with the server's reason, if it refuses.",
            screens: [.list, .post], group: .people
        ),
        CommandSpec(
            name: .accept, aliases: ["authorize"], argument: .row, usage: "accept N",
            summary: "accept the follow request of row N",
            details: "On the requests screen. Shown at once as accepting… on every screen of the account; if the server refuses, the row says why and accept N sends it again. On the filtered notifications (notifications filtered), accept N takes row N's account's notifications in: the row leaves at once and your notifications load again to show them; accept --all takes every one loaded there in.",
            screens: [.list], group: .people, traits: [.requests, .notificationRequests]
        ),
        CommandSpec(
            name: .reject, aliases: [], argument: .row, usage: "reject N",
            summary: "reject the follow request of row N",
            details: "On the requests screen, as accept.",
            screens: [.list], group: .people, traits: [.requests]
        ),
        CommandSpec(
            name: .tag, aliases: [], argument: .word, usage: "tag NAME",
            summary: "open the timeline of a hashtag",
            details: "NAME with or without #. Tab completes the hashtags of every row received in this session, shown or not.",
            screens: [.list, .post], group: .listsAndTags
        ),
        CommandSpec(
            name: .refresh, aliases: [], argument: .none, usage: "refresh",
            summary: "load newer posts above the top row",
            details: "When more new posts exist than one page holds, a gap row marks where posts are missing. A thread, bookmarks and favourites load again instead.",
            screens: [.list], group: .reading
        ),
        CommandSpec(
            name: .reload, aliases: [], argument: .none, usage: "reload",
            summary: "load the list again from its top",
            details: "Its first page replaces the rows once it comes (until then, or if it fails, the rows stay), and more loads older ones again: for posts a list cannot get back otherwise. After unmute or unblock, the screens that left out that account's posts reload by themselves.",
            screens: [.list], group: .reading
        ),
        CommandSpec(
            name: .new, aliases: ["newer"], argument: .none, usage: "new",
            summary: "show the newer rows waiting above the top row",
            details: "While the session is live, and when it starts where you left off, newer posts and notifications do not move the rows you are reading: they wait above, and the status line counts them. new (or newer) puts them on top, renumbering the rows below, with a gap row under them when some may be missing.",
            screens: [.list], group: .reading, traits: [.newer]
        ),
        CommandSpec(
            name: .gap, aliases: [], argument: .row, usage: "gap N",
            summary: "load the posts missing at gap row N",
            details: "The newest missing posts fill the gap; a smaller gap remains while more are missing.",
            screens: [.list], group: .reading, traits: [.newer]
        ),
        CommandSpec(
            name: .notifications, aliases: ["notifs"], argument: .word, usage: "notifications [KIND|policy|filtered]",
            summary: "open your notifications, or those of one kind",
            details: "Favourites and boosts of one post, and follows, are grouped on one row (\"Ana, Bo and 3 others favourited your post\"); open N shows the post. KIND is mentions, follows, favourites, boosts, polls, edits or requests (several comma-separated): notifications mentions shows only those, and new ones of that kind arrive there as on the whole list. dismiss N dismisses one. notifications clear dismisses every notification: it asks first (y/N); in a script, type notifications clear --yes. Every notifications screen empties at once; if the server refuses, they come back. notifications policy shows your notification policy (Mastodon 4.3 or later): for people you don't follow, people who don't follow you, new accounts, private mentions and moderated accounts, whether their notifications are accepted, filtered (kept aside as requests) or dropped, and how many requests wait. notifications policy FIELD accept|filter|drop sets one (FIELD: not-following, not-followers, new-accounts, private-mentions, limited-accounts): it shows at once, saving… until the server answers, and comes back with the server's reason if it refuses. notifications filtered opens the filtered notifications (notifications requests is the follow-request kind): one row per account whose notifications your policy kept aside, with how many and the last post. accept N takes that account's in (every notifications screen loads again to show them), dismiss N drops them: the row leaves every screen at once and comes back, with the server's reason, if it refuses; without a connection it is sent again (at retry too). accept --all and dismiss --all there answer every request loaded, one sentence saying how it went.",
            screens: [.list, .post], group: .reading
        ),
        CommandSpec(
            name: .bookmarks, aliases: [], argument: .none, usage: "bookmarks",
            summary: "open the posts you bookmarked",
            details: "Newest bookmark first. refresh loads the list again.",
            screens: [.list, .post], group: .reading
        ),
        CommandSpec(
            name: .favourites, aliases: ["favorites"], argument: .none, usage: "favourites",
            summary: "open the posts you favourited",
            details: "Newest favourite first. refresh loads the list again.",
            screens: [.list, .post], group: .reading
        ),
        CommandSpec(
            name: .home, aliases: [], argument: .none, usage: "home",
            summary: "switch the bottom timeline to your home timeline",
            details: "Closes every screen and starts the home timeline afresh. Also: local, public.",
            screens: [.list, .post], group: .reading
        ),
        CommandSpec(
            name: .local, aliases: [], argument: .none, usage: "local",
            summary: "switch the bottom timeline to this server's local one",
            details: "Public posts of this server's accounts. Closes every screen above it.",
            screens: [.list, .post], group: .reading
        ),
        CommandSpec(
            name: .public, aliases: ["federated"], argument: .none, usage: "public",
            summary: "switch the bottom timeline to the federated one",
            details: "Every public post this server knows. Closes every screen above it.",
            screens: [.list, .post], group: .reading
        ),
        CommandSpec(
            name: .retry, aliases: [], argument: .none, usage: "retry",
            summary: "run again everything that failed, on every screen",
            details: "On every screen: a page, refresh or gap that failed, a post or thread that did not load, a favourite, boost or bookmark that was rolled back, and one queued until the server can be reached (★…): each is sent again at once.",
            screens: [.list, .post], group: .session
        ),
        CommandSpec(
            name: .back, aliases: [], argument: .none, usage: "back",
            summary: "go back to the previous screen",
            details: "Rows that changed while you were away (a favourite made on another screen, say) are shown again, marked ~.",
            screens: [.list, .post], group: .session, atBottom: false
        ),
        CommandSpec(
            name: .top, aliases: [], argument: .none, usage: "top",
            summary: "go back to the bottom timeline",
            details: "Closes every screen above the bottom one; rows that changed meanwhile are shown, marked ~.",
            screens: [.list, .post], group: .session, atBottom: false
        ),
        CommandSpec(
            name: .whereAmI, aliases: [], argument: .none, usage: "where",
            summary: "show the screens open, bottom first",
            details: "For example: home › @kemi › post 1176… › thread.",
            screens: [.list, .post], group: .session
        ),
        CommandSpec(
            name: .help, aliases: ["?"], argument: .topic, usage: "help [command]",
            summary: "list the commands, or explain one",
            details: "Marks on rows: ★/☆ favourited or not, ▲/△ boosted or not (each with its count), 🔖 bookmarked, 📌 pinned to your profile, … waiting for the server; before the number, + new, ~ changed, · a saved copy from the last run the server has not confirmed yet, ▸ in a thread the post it was opened for.",
            screens: [.list, .post], group: .session
        ),
        CommandSpec(
            name: .account, aliases: [], argument: .word, usage: "account [NAME]",
            summary: "switch to another signed-in account (alone: list them)",
            details: "NAME is an account as feedline accounts prints it (kemi@mastodon.social), or the start of only one (kemi). The screens start again on that account's home; each account keeps its own saved state and drafts, and what was not sent yet waits in the account it was made on, sent when that account is opened again. The prompt names the account you are. Tab completes the names. On the sandbox, the accounts are its identities: yours and the others its scenario lists (identities in scenario.json; the bundled sandbox has kemi), the prompt naming the other one you are (kemi@sandbox home>).",
            screens: [.list, .post], group: .session
        ),
        CommandSpec(
            name: .quit, aliases: ["exit"], argument: .none, usage: "quit",
            summary: "end the session (also Ctrl-D)",
            details: "History is saved to the history file in interactive sessions.",
            screens: [.list, .post], group: .session
        ),
        CommandSpec(
            name: .post, aliases: ["toot"], argument: .text, usage: "post [TEXT]",
            summary: "write a post: TEXT on one line, or the lines that follow up to one holding a dot",
            details: "post TEXT sends TEXT with your account's default visibility. post alone starts a draft — in your editor when VISUAL or EDITOR is set — and shows what it will be: type its lines, then a line holding only . to send it; .cw, .visibility, .lang, .poll, .attach and the other dot commands (.help lists them) change it, .back keeps it for later, .discard throws it away. The draft is saved before it is sent; a post that cannot reach the server waits with its reason and is sent again with the same idempotency key, so a retry never posts twice. Your post shows at once, marked sending…, on top of home, of your profile, and under its parent in open threads.",
            screens: [.list, .post], group: .writing
        ),
        CommandSpec(
            name: .reply, aliases: [], argument: .rowAndText, usage: "reply N [TEXT]", postUsage: "reply [TEXT]",
            summary: "reply to row N's post: TEXT, or the lines that follow up to a dot",
            postSummary: "reply to this post: TEXT, or the lines that follow up to a dot",
            details: "A reply mentions the post's author and everyone it mentions (never you), keeps its content warning, and is no more public than it: a reply to a followers-only post is followers-only. A boost row replies to the boosted post. The reply shows at once under its parent in every open thread and on top of home.",
            screens: [.list, .post], group: .writing, traits: [.posts, .notifications, .conversations]
        ),
        CommandSpec(
            name: .quotePost, aliases: [], argument: .rowAndText, usage: "quote-post N [TEXT]", postUsage: "quote-post [TEXT]",
            summary: "write a post quoting row N's post: TEXT, or the lines that follow up to a dot",
            postSummary: "write a post quoting this post: TEXT, or the lines that follow up to a dot",
            details: "The quoted post shows under yours on every screen. Its author's policy is respected: a post only its author or followers may quote is refused with the reason, and one whose author reviews quotes is posted with the quote pending until approved (post shows what each post allows). A quote of a followers-only post is followers-only; a quote carries no media and no poll. In a draft, .quote N quotes row N's post (.quote alone removes it) and .quotable anyone|followers|nobody says who may quote yours.",
            screens: [.list, .post], group: .writing, traits: [.posts, .notifications, .conversations]
        ),
        CommandSpec(
            name: .edit, aliases: [], argument: .rowAndText, usage: "edit N [TEXT]", postUsage: "edit [TEXT]",
            summary: "edit row N's post (yours): TEXT, or the lines that follow up to a dot",
            postSummary: "edit this post (yours): TEXT, or the lines that follow up to a dot",
            details: "The edit starts from the post as you typed it (the server's source) and keeps its attachments, poll, visibility and reply target (an edit cannot change those two). It shows at once on every row and screen of the post, boosts included, marked edited; if the server refuses it, the post shows again as it was, with the server's sentence. One edit of a post is on its way at a time.",
            screens: [.list, .post], group: .writing, traits: [.posts, .notifications, .conversations]
        ),
        CommandSpec(
            name: .delete, aliases: [], argument: .rowConfirmed, usage: "delete N [--yes]", postUsage: "delete [--yes]",
            summary: "delete row N's post (yours), after you confirm with --yes",
            postSummary: "delete this post (yours), after you confirm with --yes",
            details: "Without --yes, says what would be deleted and how to confirm. Once the server confirms, the post leaves every list on every screen, with its boosts and the notifications about it, and an open post says it was deleted.",
            screens: [.list, .post], group: .writing, traits: [.posts, .notifications, .conversations]
        ),
        CommandSpec(
            name: .redraft, aliases: [], argument: .rowOnList, usage: "redraft N", postUsage: "redraft",
            summary: "delete row N's post (yours) and write it again from its text",
            postSummary: "delete this post (yours) and write it again from its text",
            details: "Deletes the post (as delete does: it leaves every screen at once, and comes back if the server refuses) and makes a draft of it with its text as you typed it, its attachments, poll choices, reply target, visibility, content warning and language. Type the new text; a line with only . sends it.",
            screens: [.list, .post], group: .writing, traits: [.posts, .notifications, .conversations]
        ),
        CommandSpec(
            name: .history, aliases: [], argument: .rowOnList, usage: "history N", postUsage: "history",
            summary: "open the versions of row N's post, newest first",
            postSummary: "open the versions of this post, newest first",
            details: "A screen of the post's versions, the post as it is now first, each with when it was made (`edited`); back returns.",
            screens: [.list, .post], group: .writing, traits: [.posts, .notifications, .conversations]
        ),
        CommandSpec(
            name: .vote, aliases: [], argument: .rowAndText, usage: "vote N CHOICE[,CHOICE]", postUsage: "vote CHOICE[,CHOICE]",
            summary: "vote in row N's poll: choice numbers as the post lists them",
            postSummary: "vote in this post's poll: choice numbers as the post lists them",
            details: "The vote shows at once on every row and screen of the post; if the server refuses (the poll ended, you voted already), the poll shows as the server has it. A poll that takes one choice takes one number.",
            screens: [.list, .post], group: .writing, traits: [.posts, .notifications, .conversations]
        ),
        CommandSpec(
            name: .drafts, aliases: [], argument: .none, usage: "drafts [delete N]",
            summary: "list your drafts and the posts on their way (delete N throws draft N away)",
            details: "Each draft with where it is: being written, refused (with the server's sentence), sending, queued (why, and when it is tried next). Every line typed into a draft is kept as it is typed: drafts and queued posts are kept with the session's state (queued ones sent at the next start). drafts delete N throws draft N away; one on its way cannot be, since a post may be made of it.",
            screens: [.list, .post], group: .writing
        ),
        CommandSpec(
            name: .scheduled, aliases: [], argument: .text, usage: "scheduled [edit N TIME|cancel N]",
            summary: "your scheduled posts (edit N TIME moves one, cancel N cancels it)",
            details: "A screen of the posts the server keeps to publish later, soonest first (.schedule TIME in a draft makes one; they show on no timeline before their time). scheduled edit N TIME moves row N's post (TIME: 2026-12-01T09:00 in your local time, or in 30m, in 2h, in 1d; more than 5 minutes ahead, as Mastodon requires); scheduled cancel N cancels it. Both show at once on every screen; a refusal puts it back with the server's sentence, and a change the server could not be reached for is sent again later (retry sends it now).",
            screens: [.list, .post], group: .writing
        ),
        CommandSpec(
            name: .draft, aliases: [], argument: .row, usage: "draft N",
            summary: "open draft N (as drafts numbers them) to write on",
            details: "Shows what the draft replies to or edits, who may see it, its content warning, language, poll and the characters left; new lines replace its text, . sends it (as it is when no line was typed), .back keeps it, .help lists the rest.",
            screens: [.list, .post], group: .writing
        ),
        CommandSpec(
            name: .pin, aliases: [], argument: .rowOnList, usage: "pin N", postUsage: "pin",
            summary: "pin row N's post (yours) to the top of your profile",
            postSummary: "pin this post (yours) to the top of your profile",
            details: "Pinned posts come first on your profile, marked 📌 on every row and screen that shows them, at once. Only your own posts can be pinned, not direct messages; Mastodon keeps at most five: a sixth is refused with the server's sentence and the mark goes again. unpin undoes it.",
            screens: [.list, .post], group: .writing, traits: [.posts, .notifications, .conversations]
        ),
        CommandSpec(
            name: .unpin, aliases: [], argument: .rowOnList, usage: "unpin N", postUsage: "unpin",
            summary: "unpin row N's post from your profile",
            postSummary: "unpin this post from your profile",
            details: "The 📌 goes from every screen at once; on a post that is not pinned it does nothing. Your profile shows it in its place again when it loads again (reload).",
            screens: [.list, .post], group: .writing, traits: [.posts, .notifications, .conversations]
        ),
    ]

    private static let byName: [CommandName: CommandSpec] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })
    private static let byWord: [String: CommandName] = Dictionary(
        all.flatMap { spec in spec.words.map { ($0, spec.name) } }, uniquingKeysWith: { first, _ in first }
    )

    /// The entry of `name`.
    public static func spec(_ name: CommandName) -> CommandSpec {
        // The table lists every case; the fallback keeps this total without a force unwrap.
        byName[name] ?? CommandSpec(name: name, aliases: [], argument: .none, usage: name.rawValue, summary: "", details: "", screens: [], group: .session)
    }

    /// The command a word names (case-insensitive), if any.
    public static func command(named word: String) -> CommandName? {
        byWord[word.lowercased()]
    }

    /// The commands shown on `screen` (at the bottom of the stack or above it), in table order;
    /// on a list with `traits`, only those that do something there (``CommandSpec/traits``).
    public static func commands(on screen: ScreenKind, atBottom: Bool, traits: Set<ScreenTrait>? = nil) -> [CommandSpec] {
        all.filter { spec in spec.screens.contains(screen) && (!atBottom || spec.atBottom) && applies(spec, on: screen, traits: traits) }
    }

    /// Whether `spec` does something on a list with `traits` (always, on a post).
    public static func applies(_ spec: CommandSpec, on screen: ScreenKind, traits: Set<ScreenTrait>?) -> Bool {
        guard screen == .list, let traits, let wanted = spec.traits else { return true }
        return !wanted.isDisjoint(with: traits)
    }

    /// The command closest to a mistyped word: one edit away (two for words of five letters or
    /// more, a swap of neighbours counting as one), or the only command the word starts.
    /// `nil` when nothing is close.
    public static func suggestion(for word: String) -> CommandName? {
        let lowered = word.lowercased()
        guard !lowered.isEmpty, lowered.count <= 32 else { return nil }
        let limit = lowered.count >= 5 ? 2 : 1
        var best: (name: CommandName, distance: Int)?
        for spec in all {
            for candidate in spec.words where candidate.allSatisfy(\.isLetter) {
                let distance = EditDistance.between(lowered, candidate)
                if distance <= limit, distance < (best?.distance ?? .max) { best = (spec.name, distance) }
            }
        }
        if let best { return best.name }
        let starting = Set(all.filter { spec in spec.words.contains { $0.allSatisfy(\.isLetter) && $0.hasPrefix(lowered) } }.map(\.name))
        return starting.count == 1 ? starting.first : nil
    }
}
