@_spi(FeedService) import Feedline
import Foundation

/// Lists of accounts, search and follow requests on the sandbox, as Mastodon's
/// `GET /api/v1/accounts/:id/{followers,following}`, `GET /api/v1/{mutes,blocks,follow_requests}`,
/// `GET /api/v2/search` and `POST /api/v1/follow_requests/:id/{authorize,reject}` answer them.
///
/// Pages hold ``pageSize`` items (a search: up to ``pageSize`` of each kind); the cursor is the
/// offset of the next page (opaque to callers) and the last page has none. Everything is
/// derived from the directory (``SandboxAccounts``) and the statuses as they are when the page
/// is asked for, so the same calls in the same order answer the same pages. Each call is a
/// request of its own kind (``SandboxScenario/Request/accounts``, `search`, `authorize`,
/// `reject`) with latency and faults like the others.
extension SandboxService {
    /// A page of `list`:
    /// - followers and following of the signed-in account: the accounts whose relationship
    ///   says they follow the user (`followedBy`) or the user follows (`following`; not a
    ///   request), those of this session most recent first, then the fixture's in directory order;
    /// - of another account: the user first when the relationship says so, then what the
    ///   accounts file gives (its `followers` / `following`, and the accounts whose own lists
    ///   name it);
    /// - mutes and blocks: the accounts the user mutes (a mute whose end passed is over) or
    ///   blocks now, most recently muted or blocked first, then the fixture's in directory order;
    /// - requests: the accounts asking to follow the user, in the order they asked;
    /// - members of a list: its accounts, in the order they were added;
    /// - who favourited or boosted a post (its original): the user first when they did, then
    ///   the accounts of the notifications of that kind about it, newest first, each once — so
    ///   the fixture's notifications (and reactions that happened) are who reacted to your posts.
    ///
    /// - Throws: ``SandboxError/unknownAccount(_:)`` for an account the sandbox does not know
    ///   (as ``profile(of:)``), ``SandboxError/unknownList(_:)`` for a list it does not have,
    ///   ``SandboxError/notFound(_:)`` for a post it does not have (or deleted),
    ///   ``SandboxError/unknownCursor(_:)`` for a cursor it did not give,
    ///   or a scheduled fault.
    @_spi(FeedService) public func accounts(in list: AccountList, after cursor: PageCursor?) async throws -> Page<Profile> {
        let size = pageSize
        return try await performOnAccounts(.accounts) { state, now throws(SandboxError) in
            let window = try OffsetWindow(after: cursor, size: size)
            return window.page(of: try state.accountIDs(in: list, at: now)) { state.accounts.profile(of: $0) }
        }
    }

    /// What `query` finds, accounts first, then hashtags, then posts; each page holds up to
    /// ``pageSize`` of each, and `next` is `nil` once no kind has more.
    ///
    /// - Accounts: a full handle (`@user@host`, `user@host`) names one account exactly and
    ///   resolves it, so an account the server had not seen (``SandboxAccountDetails/resolvable``)
    ///   is found and known from then on; any other query (a leading `@` dropped) matches the
    ///   handle or display name of the known accounts, ignoring case: exact usernames first, then
    ///   in directory order. A `#tag` query finds no accounts.
    /// - Hashtags: for a query of one word without `@` (a leading `#` dropped), the tags of the
    ///   server's public posts that start with it, ignoring case: an exact name first, then the
    ///   most used; `weeklyUses` counts the posts with the tag, `weeklyAccounts` their authors,
    ///   and `following` says whether the user follows it (`SandboxService+Tags.swift`).
    /// - Posts: the public posts whose text or content warning holds the query, ignoring case,
    ///   newest first, without those of accounts the user mutes or blocks.
    ///
    /// - Throws: ``SandboxError/refused(_:)`` for an empty query, ``SandboxError/unknownCursor(_:)``
    ///   for a cursor it did not give, or a scheduled fault.
    @_spi(FeedService) public func search(_ query: String, after cursor: PageCursor?) async throws -> Page<SearchResult> {
        let size = pageSize
        return try await performOnAccounts(.search) { state, now throws(SandboxError) in
            let wanted = query.trimmingBlanks(newlines: true)
            guard !wanted.isEmpty else { throw .refused("Type something to search for.") }
            let window = try OffsetWindow(after: cursor, size: size)
            let accounts = state.searchAccounts(wanted)
            let hashtags = state.searchHashtags(wanted)
            let posts = state.searchPosts(wanted, at: now)
            let items =
                window.slice(of: accounts).compactMap { state.accounts.profile(of: $0).map(SearchResult.account) }
                + window.slice(of: hashtags).map(SearchResult.hashtag)
                + window.slice(of: posts).compactMap { state.store.post($0).map(SearchResult.post) }
            let longest = max(accounts.count, hashtags.count, posts.count)
            return Page(items: items, next: window.next(total: longest))
        }
    }

    /// Accepts or rejects the follow request of `account` (see
    /// ``SandboxAccounts/answerRequest(of:accept:)``) and returns the relationship afterwards:
    /// `requestedBy` off, and after an accept `followedBy` on (the account is among the user's
    /// followers, first).
    ///
    /// - Throws: ``SandboxError/unknownAccount(_:)``, ``SandboxError/refused(_:)`` ("@x has no
    ///   follow request waiting.") for an account without a request, or a scheduled fault.
    @_spi(FeedService) public func answerFollowRequest(from account: AccountID, accept: Bool) async throws -> Relationship {
        try await performOnAccounts(accept ? .authorize : .reject) { state, now throws(SandboxError) in
            let id = try state.accountID(account)
            try state.accounts.answerRequest(of: id, accept: accept)
            return state.accounts.relationship(of: id, at: now)
        }
    }

    /// The offset a cursor of these pages names: 0 without one.
    static func offset(of cursor: PageCursor?) throws(SandboxError) -> Int {
        guard let cursor else { return 0 }
        let digits = cursor.rawValue
        guard !digits.isEmpty, digits.count < 10, digits.allSatisfy({ ("0"..."9").contains($0) }), let offset = Int(digits) else {
            throw .unknownCursor(cursor.rawValue)
        }
        return offset
    }

    /// The cursor of the page after the one at `start`, `nil` when it held the last of `total`.
    static func cursor(after start: Int, size: Int, total: Int) -> PageCursor? {
        start + size < total ? PageCursor(String(start + size)) : nil
    }
}

/// One page of a list paged by offset (the sandbox's account lists, searches, domain blocks,
/// hashtags and conversations): where it starts, read from the cursor before anything else is
/// looked at, and how many it holds.
struct OffsetWindow {
    /// The offset of the page's first element.
    let start: Int
    /// How many elements a page holds at the most.
    let size: Int

    /// The page `cursor` names (the first without one), of `size` elements.
    ///
    /// - Throws: ``SandboxError/unknownCursor(_:)`` for a cursor the sandbox did not give.
    init(after cursor: PageCursor?, size: Int) throws(SandboxError) {
        start = try SandboxService.offset(of: cursor)
        self.size = size
    }

    /// The elements of `items` in this page (none past the end).
    func slice<Element>(of items: [Element]) -> ArraySlice<Element> {
        items[min(start, items.count)..<min(start + size, items.count)]
    }

    /// The cursor of the page after this one, `nil` when this one held the last of `total`.
    func next(total: Int) -> PageCursor? {
        SandboxService.cursor(after: start, size: size, total: total)
    }

    /// This page of `items`, each made an item by `transform` (one it makes `nil` is left out,
    /// without taking another's place), and the next page's cursor.
    func page<Element, Item>(of items: [Element], _ transform: (Element) -> Item?) -> Page<Item> {
        Page(items: slice(of: items).compactMap(transform), next: next(total: items.count))
    }
}

extension SandboxService.State {
    /// The ids of `list`'s accounts at `now`, in the order ``SandboxService/accounts(in:after:)`` serves them.
    fileprivate mutating func accountIDs(in list: AccountList, at now: Date) throws(SandboxError) -> [String] {
        switch list {
        case .followers(let account):
            let id = try accountID(account)
            if id == accounts.signedIn { return accounts.accounts(.followedBy, at: now) }
            let user = accounts.relationship(of: id, at: now).following ? [accounts.signedIn] : []
            return user + (accounts.declaredFollowers[id] ?? [])
        case .following(let account):
            let id = try accountID(account)
            if id == accounts.signedIn { return accounts.accounts(.following, at: now) }
            let user = accounts.relationship(of: id, at: now).followedBy ? [accounts.signedIn] : []
            return user + (accounts.declaredFollowing[id] ?? [])
        case .endorsed(let account): return accounts.endorsed[try accountID(account)] ?? []
        case .mutes: return accounts.accounts(.muting, at: now)
        case .blocks: return accounts.accounts(.blocking, at: now)
        case .requests: return accounts.followRequestIDs
        case .members(let list): return try lists.accountIDs(list)
        case .favouritedBy(let post): return try reacted(to: post, kind: "favourite")
        case .boostedBy(let post): return try reacted(to: post, kind: "reblog")
        }
    }

    /// Who favourited (`kind` `favourite`) or boosted (`reblog`) the original `post` shows: the
    /// user first when they did, then the accounts of the notifications of that kind about it,
    /// newest first, each once.
    private mutating func reacted(to post: PostID, kind: String) throws(SandboxError) -> [String] {
        let original = try store.original(of: post.rawValue)
        try loadNotifications()
        let own = kind == "favourite" ? original.favourited == true : original.reblogged == true
        var seen: Set<String> = own ? [accounts.signedIn] : []
        var ids = own ? [accounts.signedIn] : []
        for notification in notifications.items where notification.type == kind && notification.status?.id == original.id {
            if seen.insert(notification.account.id).inserted { ids.append(notification.account.id) }
        }
        return ids
    }

    /// The ids of the accounts `query` (trimmed, not empty) finds; a full handle resolves the
    /// account it names (see ``SandboxService/search(_:after:)``).
    ///
    /// - Complexity: O(accounts).
    mutating func searchAccounts(_ query: String) -> [String] {
        guard !query.hasPrefix("#") else { return [] }
        var wanted = Substring(query)
        while wanted.hasPrefix("@") { wanted = wanted.dropFirst() }
        guard !wanted.isEmpty else { return [] }
        if wanted.contains("@") {
            guard let account = accounts.account(named: String(wanted)) else { return [] }
            accounts.see(account.id)
            return [account.id]
        }
        var exact: [String] = []
        var others: [String] = []
        for id in accounts.order where !accounts.unseen.contains(id) {
            guard let author = accounts.profile(of: id)?.author else { continue }
            let username = author.handle.split(separator: "@", maxSplits: 1).first.map(String.init) ?? author.handle
            if username.caseInsensitiveCompare(wanted) == .orderedSame {
                exact.append(id)
            } else if author.handle.range(of: wanted, options: .caseInsensitive) != nil
                || author.displayName.range(of: wanted, options: .caseInsensitive) != nil
            {
                others.append(id)
            }
        }
        return exact + others
    }

    /// The hashtags `query` finds among the tags of the public posts (see
    /// ``SandboxService/search(_:after:)``).
    ///
    /// - Complexity: O(posts × their tags).
    fileprivate mutating func searchHashtags(_ query: String) -> [Hashtag] {
        let wanted = query.hasPrefix("#") ? String(query.dropFirst()) : query
        guard !wanted.isEmpty, !wanted.contains("@"), !wanted.contains(where: \.isWhitespace) else { return [] }
        let exact = SandboxTags.key(wanted)
        return tagUses().filter { $0.key.hasPrefix(exact) }.sorted { lhs, rhs in
            if (lhs.key == exact) != (rhs.key == exact) { return lhs.key == exact }
            if lhs.value.uses != rhs.value.uses { return lhs.value.uses > rhs.value.uses }
            return lhs.key < rhs.key
        }
        .map { hashtag($0.value) }
    }

    /// The ids of the public posts whose text or content warning holds `query`, newest first,
    /// without those of accounts the user mutes or blocks at `now`.
    ///
    /// - Complexity: O(posts × query length); each post's text is converted once.
    fileprivate mutating func searchPosts(_ query: String, at now: Date) -> [String] {
        guard let ids = try? store.feed(.public).ids else { return [] }
        return ids.filter { id in
            guard let post = store.post(id), !accounts.relationship(of: post.author.id, at: now).hidesTheirPosts else { return false }
            return post.text.range(of: query, options: .caseInsensitive) != nil
                || post.contentWarning?.range(of: query, options: .caseInsensitive) != nil
        }
    }
}
