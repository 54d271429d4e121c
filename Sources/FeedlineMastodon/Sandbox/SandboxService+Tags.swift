@_spi(FeedService) import Feedline
import Foundation

/// Hashtags on the sandbox, as Mastodon's `GET /api/v1/followed_tags`, `GET /api/v1/trends/tags`
/// and `POST /api/v1/tags/:name/follow|unfollow` answer them. (The trending *posts* are a feed,
/// ``Feedline/Feed/trending``: see ``SandboxStore/feed(_:)``.)
///
/// A hashtag's use is counted over the sandbox's public posts (no boosts) as they are when
/// asked: ``Feedline/Hashtag/weeklyUses`` is the posts that use it, ``Feedline/Hashtag/weeklyAccounts``
/// their distinct authors, and its name is spelled as its oldest post spells it (as Mastodon
/// keeps a hashtag's first spelling). Every hashtag the sandbox answers — here and in search
/// results — says whether the user follows it. The followed hashtags start as the scenario's
/// `followed_tags` (``SandboxScenario/followedTags``, rules in ``SandboxTags``).
///
/// Pages hold ``pageSize`` hashtags; the cursor is the offset of the next page (opaque to
/// callers) and the last page has none. Each call is a request of its own kind
/// (``SandboxScenario/Request/followedTags``, ``SandboxScenario/Request/trendingTags``,
/// ``SandboxScenario/Request/tagFollow``) with latency and faults like the others; a lost answer
/// makes the change and then fails as a timeout.
extension SandboxService {
    /// A page of the hashtags the user follows, the newest follow first, each with its use
    /// (none for a hashtag no post uses) and `following` on.
    ///
    /// - Throws: ``SandboxError/unknownCursor(_:)`` for a cursor it did not give, or a scheduled fault.
    @_spi(FeedService) public func followedTags(after cursor: PageCursor?) async throws -> Page<Hashtag> {
        let size = pageSize
        return try await performOnAccounts(.followedTags) { state, _ throws(SandboxError) in
            let window = try OffsetWindow(after: cursor, size: size)
            let uses = state.tagUses()
            return window.page(of: state.tags.followed) { state.hashtag(named: $0, uses: uses) }
        }
    }

    /// A page of the hashtags the public posts use, most used first (ties: more authors first,
    /// then by name), each saying whether the user follows it. Deterministic: the same statuses
    /// rank the same.
    ///
    /// - Throws: ``SandboxError/unknownCursor(_:)`` for a cursor it did not give, or a scheduled fault.
    @_spi(FeedService) public func trendingTags(after cursor: PageCursor?) async throws -> Page<Hashtag> {
        let size = pageSize
        return try await performOnAccounts(.trendingTags) { state, _ throws(SandboxError) in
            let window = try OffsetWindow(after: cursor, size: size)
            let ranked = state.tagUses().sorted { lhs, rhs in
                if lhs.value.uses != rhs.value.uses { return lhs.value.uses > rhs.value.uses }
                if lhs.value.authors.count != rhs.value.authors.count { return lhs.value.authors.count > rhs.value.authors.count }
                return lhs.key < rhs.key
            }
            return window.page(of: ranked) { state.hashtag($0.value) }
        }
    }

    /// The hashtag `name` (trimmed, `#` optional, any case): spelled as the posts spell it, with
    /// its use over the week and whether you follow it.
    ///
    /// - Throws: ``SandboxError/refused(_:)`` for an empty name or one that is no hashtag.
    public func tag(named name: String) async throws -> Hashtag {
        try await performOnAccounts(.tag) { state, _ throws(SandboxError) in
            let key = SandboxTags.name(name)
            guard !key.isEmpty, key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
                throw .refused("\"#\(key)\" is not a hashtag: a hashtag has only letters, digits and underscores.")
            }
            return state.hashtag(named: key, uses: state.tagUses())
        }
    }

    /// The hashtags `account` features (its accounts-file entry's `featured_tags`, in that
    /// order), each spelled as its posts spell it, with how many of the account's public posts
    /// (no boosts) use it and when the newest did, counted over the posts as they are when asked.
    ///
    /// - Throws: ``SandboxError`` for an account the sandbox does not know, or a scheduled fault.
    public func featuredTags(of account: AccountID) async throws -> [Hashtag] {
        try await performOnAccounts(.featuredTags) { state, _ throws(SandboxError) in
            let id = try state.accountID(account)
            let names = state.accounts.featuredTags[id] ?? []
            guard !names.isEmpty else { return [] }
            let uses = state.tagUses(by: id)
            return names.map { name in
                let use = uses[SandboxTags.key(name)]
                return Hashtag(name: use?.name ?? name, accountPosts: use?.uses ?? 0, lastUsed: use?.newest)
            }
        }
    }

    /// Follows (`true`) or unfollows the hashtag `name` (trimmed, `#` optional, any case) and
    /// returns it afterwards: spelled as the posts spell it, with its use and `following`.
    /// Idempotent; a new follow comes first in ``followedTags(after:)``.
    ///
    /// - Throws: ``SandboxError/refused(_:)`` — never transient — for an empty name, or one that
    ///   is no hashtag ("\"#a-b\" is not a hashtag: a hashtag has only letters, digits and
    ///   underscores."); or a scheduled fault.
    public func setTagFollow(_ name: String, to value: Bool) async throws -> Hashtag {
        try await performOnAccounts(.tagFollow) { state, _ throws(SandboxError) in
            try state.tags.set(name, to: value)
            return state.hashtag(named: SandboxTags.name(name), uses: state.tagUses())
        }
    }
}

/// How much the public posts use one hashtag.
struct SandboxTagUse: Sendable {
    /// As its oldest post spells it.
    var name: String
    /// The posts that use it.
    var uses: Int
    /// The ids of their authors.
    var authors: Set<String>
    /// When the newest of them was posted.
    var newest: Date? = nil
}

extension SandboxService.State {
    /// The use of every hashtag of the public posts (no boosts; deleted posts left out), by key
    /// (the name lower-cased); only `author`'s posts when one is given. A post counts once per
    /// hashtag, whatever the case of its tags.
    ///
    /// - Complexity: O(public posts × their tags).
    mutating func tagUses(by author: String? = nil) -> [String: SandboxTagUse] {
        // Oldest first, so a tag is spelled as its first post spelled it (as Mastodon keeps it).
        guard let ids = try? store.feed(.public).ids.reversed() else { return [:] }
        var uses: [String: SandboxTagUse] = [:]
        for id in ids {
            guard let status = store.rendered(id), status.reblog == nil, author == nil || status.account.id == author else { continue }
            var counted = Set<String>()
            for tag in status.tags where counted.insert(SandboxTags.key(tag.name)).inserted {
                let key = SandboxTags.key(tag.name)
                uses[key, default: SandboxTagUse(name: tag.name, uses: 0, authors: [])].uses += 1
                uses[key]?.authors.insert(status.account.id)
                let newest = uses[key]?.newest ?? status.createdAt
                uses[key]?.newest = max(newest, status.createdAt)
            }
        }
        return uses
    }

    /// The hashtag of `use`, with whether the user follows it.
    func hashtag(_ use: SandboxTagUse) -> Hashtag {
        Hashtag(name: use.name, weeklyUses: use.uses, weeklyAccounts: use.authors.count, following: tags.isFollowed(use.name))
    }

    /// The hashtag `name` (see ``SandboxTags/name(_:)``) as the posts spell and use it (`uses`,
    /// from ``tagUses()``); as given and unused when no post uses it.
    func hashtag(named name: String, uses: [String: SandboxTagUse]) -> Hashtag {
        uses[SandboxTags.key(name)].map(hashtag) ?? Hashtag(name: name, weeklyUses: 0, weeklyAccounts: 0, following: tags.isFollowed(name))
    }
}
