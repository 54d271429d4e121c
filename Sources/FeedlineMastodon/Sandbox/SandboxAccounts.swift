@_spi(FeedService) import Feedline
import Foundation

/// What a fixture says about one account beyond what its statuses carry: the profile as
/// `GET /api/v1/accounts/:id` shows it and how the signed-in user relates to it. One entry of
/// the file a scenario names as `accounts` (see `Fixtures/README.md`).
///
/// Every field left `nil` keeps what the account's statuses say. An account no status,
/// notification or scenario names (an old account that moved, someone asking to follow the
/// user) is added by giving its ``id``.
public struct SandboxAccountDetails: Hashable, Sendable {
    /// `user` (local) or `user@host`, as the API spells the account's `acct`.
    public var acct: String
    /// The id of an account the fixtures do not have yet; for one they have, it must be its id.
    public var id: String?
    public var displayName: String?
    /// The profile page (an added account without one gets `https://host/@user`).
    public var url: String?
    /// The biography, HTML.
    public var note: String?
    /// The profile's metadata rows (values are HTML; a row with `verified_at` is verified).
    public var fields: [Mastodon.Account.Field]?
    public var followersCount: Int?
    public var followingCount: Int?
    public var statusesCount: Int?
    public var createdAt: Date?
    public var bot: Bool?
    public var locked: Bool?
    /// A group account (Mastodon's `group`).
    public var group: Bool?
    /// The `acct` of the account it moved to.
    public var movedTo: String?
    /// How the user relates to it at the start (`accountID` is filled in when the sandbox
    /// starts: any value does here).
    @_spi(FeedService) public var relationship: Relationship
    /// It asked to follow the user and waits for an answer (Mastodon's `requested_by`).
    public var requestedBy: Bool
    /// The `acct`s of accounts that follow it, as its list of followers starts (not the
    /// signed-in account: the user's follows are the relationships).
    public var followers: [String]
    /// The `acct`s of accounts it follows, as its list starts (not the signed-in account).
    public var following: [String]
    /// The `acct`s of accounts it features on its profile (Mastodon's endorsements), in order.
    public var endorsed: [String]
    /// The names of the hashtags it features on its profile (without `#`), in order.
    public var featuredTags: [String]
    /// An account on another server that this one has not seen yet: a search finds it only by
    /// its full handle (Mastodon's `resolve`), and from then on it is known. Only for an account
    /// the entry adds (with an ``id``).
    public var resolvable: Bool

    /// An account of a scenario (an `@_spi(FeedService)` initialiser: its `relationship` is
    /// the core's service value).
    @_spi(FeedService) public init(
        acct: String, id: String? = nil, displayName: String? = nil, url: String? = nil, note: String? = nil,
        fields: [Mastodon.Account.Field]? = nil, followersCount: Int? = nil, followingCount: Int? = nil, statusesCount: Int? = nil,
        createdAt: Date? = nil, bot: Bool? = nil, locked: Bool? = nil, group: Bool? = nil, movedTo: String? = nil,
        relationship: Relationship? = nil, requestedBy: Bool = false, followers: [String] = [], following: [String] = [],
        endorsed: [String] = [], featuredTags: [String] = [], resolvable: Bool = false
    ) {
        self.acct = acct
        self.id = id
        self.displayName = displayName
        self.url = url
        self.note = note
        self.fields = fields
        self.followersCount = followersCount
        self.followingCount = followingCount
        self.statusesCount = statusesCount
        self.createdAt = createdAt
        self.bot = bot
        self.locked = locked
        self.group = group
        self.movedTo = movedTo
        self.relationship = relationship ?? Relationship(accountID: AccountID(handle: acct))
        self.requestedBy = requestedBy
        self.followers = followers
        self.following = following
        self.endorsed = endorsed
        self.featuredTags = featuredTags
        self.resolvable = resolvable
    }
}

/// The sandbox server's accounts: a directory of every account it knows (each author of a
/// status, a boost or a notification, the signed-in account, and the ones a fixture adds) with
/// their profiles, and the signed-in user's relationship with each of them.
///
/// A value kept in ``SandboxService``'s locked state; every change is a `mutating` call, so
/// concurrent requests see them one at a time. Rules follow Mastodon's: a follow of a locked
/// account is a request; blocking unfollows both ways and drops their follow request;
/// following moves both accounts' counts; a mute with an end reads as over once the sandbox's
/// clock passes it; accepting a follow request makes the account follow the user.
///
/// It also keeps what lists of accounts are made of (see `SandboxService+AccountLists.swift`):
/// the directory order, the follows among other accounts that the accounts file declares, when
/// each of the user's follows, followers, mutes and blocks began in the session (a count of
/// changes, never a clock), and which accounts the server has not seen yet.
///
/// And the domains the user blocks (see `SandboxService+DomainBlocks.swift`): every
/// relationship with an account of a blocked domain says `domainBlocking`, derived from the list
/// when it is read (never stored), so blocking and unblocking a domain turns it on and off for
/// all of them at once.
struct SandboxAccounts: Sendable {
    /// One account of the directory.
    struct Entry: Sendable {
        var account: Mastodon.Account
        /// The id of the account it moved to, when a fixture's details say so
        /// (``Mastodon/Account/moved`` is filled in when the profile is read, so it shows that
        /// account as it is then).
        var movedTo: String?
    }

    /// Every account by id.
    private var entries: [String: Entry] = [:]
    /// Relationships that differ from a relationship with nothing set, by account id.
    private var relationships: [String: Relationship] = [:]
    /// The ids of the accounts asking to follow the user, in the order they asked.
    private(set) var followRequestIDs: [String] = []
    /// The signed-in account's id.
    let signedIn: String
    /// The sandbox's own domain (see ``SandboxStore/account(named:)``).
    private let domain: String?
    /// Every account's id in directory order: the accounts file's entries in its order, then
    /// the others as the fixtures first name them (the signed-in account first).
    private(set) var order: [String] = []
    /// The followers of each account beyond the signed-in user, as the accounts file gives them:
    /// its `followers`, then those whose `following` names it (in directory order).
    private(set) var declaredFollowers: [String: [String]] = [:]
    /// The accounts each account follows beyond the signed-in user, likewise.
    private(set) var declaredFollowing: [String: [String]] = [:]
    /// The accounts each account features on its profile, as the accounts file gives them.
    private(set) var endorsed: [String: [String]] = [:]
    /// The hashtags each account features on its profile, as the accounts file names them.
    private(set) var featuredTags: [String: [String]] = [:]
    /// Accounts the server has not seen yet (``SandboxAccountDetails/resolvable``).
    private(set) var unseen: Set<String> = []
    /// When each of the user's listed relationships (following, followed by, muting, blocking)
    /// last turned on during the session, by a count of such changes; absent for the fixture's.
    private var listedSince: [ListedKey: Int] = [:]
    private var listedChanges = 0
    /// The domains the user blocks, lower-cased, each once, the newest block first (the order
    /// Mastodon's `GET /api/v1/domain_blocks` pages them in).
    private(set) var blockedDomains: [String] = []
    /// Whether the signed-in account is in the profile directory.
    private var ownDiscoverable = false

    /// A directory of `authors` (repeats and all: the first copy of each id is kept) and the
    /// signed-in account, with `details` applied in order, and `domainBlocks` blocked (checked
    /// by ``SandboxScenario/problem``), then the domain of each entry whose relationship says
    /// `domain_blocking`.
    ///
    /// - Throws: ``SandboxError/invalidScenario(_:)`` naming the entry (`accounts[3].moved`) when
    ///   an entry names no account the fixtures have and gives no id, gives an id that is not
    ///   the account's, moves to an account the directory does not hold, or says
    ///   `domain_blocking` of a local account.
    init(
        authors: [Mastodon.Account], signedIn: Mastodon.Account, domain: String?, details: [SandboxAccountDetails], domainBlocks: [String] = []
    ) throws(SandboxError) {
        self.signedIn = signedIn.id
        self.domain = domain
        entries[signedIn.id] = Entry(account: signedIn)
        var named = [signedIn.id]
        for author in authors where entries[author.id] == nil {
            entries[author.id] = Entry(account: author)
            named.append(author.id)
        }
        var byAcct: [String: String] = [:]
        for (id, entry) in entries where byAcct[entry.account.acct.lowercased()].map({ id < $0 }) ?? true {
            byAcct[entry.account.acct.lowercased()] = id  // the lowest id, as handles are looked up
        }
        var resolved: [(index: Int, id: String)] = []
        for (index, detail) in details.enumerated() {
            let field = "accounts[\(index)]"
            var entry: Entry
            if let known = byAcct[detail.acct.lowercased()], let existing = entries[known] {
                if let id = detail.id, id != known {
                    throw .invalidScenario("\(field).id: @\(detail.acct) is account \(known) in the fixtures, not \(id)")
                }
                if detail.resolvable, named.contains(known) {
                    throw .invalidScenario("\(field).resolvable: the fixtures already show @\(detail.acct) to this server")
                }
                entry = existing
            } else {
                guard let id = detail.id, !id.isEmpty else {
                    throw .invalidScenario("\(field).acct: no account @\(detail.acct) in the fixtures (give an id to add one)")
                }
                if entries[id] != nil { throw .invalidScenario("\(field).id: \(id) is already another account's") }
                let parts = detail.acct.split(separator: "@", maxSplits: 1).map(String.init)
                if detail.resolvable, parts.count < 2 {
                    throw .invalidScenario("\(field).resolvable: @\(detail.acct) is local, so the server knows it")
                }
                let host = parts.count == 2 ? parts[1] : domain ?? "sandbox.example"
                entry = Entry(
                    account: Mastodon.Account(id: id, username: parts.first ?? detail.acct, acct: detail.acct, url: "https://\(host)/@\(parts.first ?? "")")
                )
            }
            entry.apply(detail)
            entries[entry.account.id] = entry
            byAcct[detail.acct.lowercased()] = entry.account.id
            resolved.append((index, entry.account.id))
        }
        var listed = Set<String>()
        order = resolved.map(\.id).filter { listed.insert($0).inserted } + named.filter { listed.insert($0).inserted }
        var followers: [String: [String]] = [:]
        var following: [String: [String]] = [:]
        for (index, id) in resolved {
            let detail = details[index]
            if detail.resolvable { unseen.insert(id) }
            for (key, accts) in [("followers", detail.followers), ("following", detail.following)] where !accts.isEmpty {
                if id == self.signedIn {
                    throw .invalidScenario("accounts[\(index)].\(key): the signed-in account's follows are its relationships (following, followed_by)")
                }
                for acct in accts {
                    guard let other = byAcct[acct.lowercased()] else { throw .invalidScenario("accounts[\(index)].\(key): no account @\(acct) in the fixtures") }
                    if other == self.signedIn {
                        throw .invalidScenario("accounts[\(index)].\(key): @\(acct) is the signed-in account, whose follows are its relationships")
                    }
                    if key == "followers" { followers[id, default: []].append(other) } else { following[id, default: []].append(other) }
                }
            }
        }
        // Each follow seen from both ends: a's `following` naming b makes a one of b's followers.
        var namedByFollowers: [String: [String]] = [:]
        var namedByFollowing: [String: [String]] = [:]
        for id in order {
            for followed in following[id] ?? [] { namedByFollowing[followed, default: []].append(id) }
            for follower in followers[id] ?? [] { namedByFollowers[follower, default: []].append(id) }
        }
        declaredFollowers = followers.merging(namedByFollowing, uniquingKeysWith: +).mapValues(Self.unique)
        declaredFollowing = following.merging(namedByFollowers, uniquingKeysWith: +).mapValues(Self.unique)
        for (index, id) in resolved where !details[index].featuredTags.isEmpty {
            featuredTags[id] = details[index].featuredTags.map { $0.hasPrefix("#") ? String($0.dropFirst()) : $0 }
        }
        for (index, id) in resolved where !details[index].endorsed.isEmpty {
            var featured: [String] = []
            for acct in details[index].endorsed {
                guard let other = byAcct[acct.lowercased()] else { throw .invalidScenario("accounts[\(index)].endorsed: no account @\(acct) in the fixtures") }
                featured.append(other)
            }
            endorsed[id] = Self.unique(featured)
        }
        for (index, id) in resolved {
            let detail = details[index]
            if let target = detail.movedTo {
                guard let targetID = byAcct[target.lowercased()] else {
                    throw .invalidScenario("accounts[\(index)].moved: no account @\(target) in the fixtures")
                }
                entries[id]?.movedTo = targetID
            }
            var relationship = detail.relationship
            relationship.accountID = AccountID(id)
            store(relationship)
            if detail.requestedBy, !followRequestIDs.contains(id) { followRequestIDs.append(id) }
        }
        var declared = domainBlocks.map(Self.domainKey)
        for (index, id) in resolved where details[index].relationship.domainBlocking {
            guard let blocked = self.domain(of: id) else {
                let field = "accounts[\(index)].relationship.domain_blocking"
                throw .invalidScenario("\(field): @\(details[index].acct) is on this server, whose domain cannot be blocked")
            }
            declared.append(blocked)
        }
        blockedDomains = Self.unique(declared)
    }

    // MARK: - Looking up

    /// Whether the directory holds the account `id`.
    func contains(_ id: String) -> Bool { entries[id] != nil }

    /// The account `handle` names among the directory's, by the rules of
    /// ``SandboxStore/account(named:)``.
    ///
    /// - Complexity: O(accounts).
    func account(named handle: String) -> Mastodon.Account? {
        SandboxStore.account(named: handle, among: entries.values.lazy.map(\.account), domain: domain)
    }

    /// The profile of account `id`, mapped as the HTTP service maps one (``Feedline/Profile/init(_:)``).
    func profile(of id: String) -> Profile? {
        guard let entry = entries[id] else { return nil }
        var account = entry.account
        if let target = entry.movedTo.flatMap({ entries[$0]?.account }) { account.moved = target }
        return Profile(account)
    }

    /// The accounts asking to follow the user, in the order they asked.
    var followRequests: [Mastodon.Account] { followRequestIDs.compactMap { entries[$0]?.account } }

    /// How the user relates to account `id` at `now`: a mute whose end has passed reads as over;
    /// `requestedBy` says whether its follow request waits; `domainBlocking` whether the user
    /// blocks the account's domain.
    ///
    /// - Complexity: O(follow requests + blocked domains).
    func relationship(of id: String, at now: Date) -> Relationship {
        var relationship = relationships[id] ?? Relationship(accountID: AccountID(id))
        relationship.requestedBy = followRequestIDs.contains(id)
        relationship.domainBlocking = isDomainBlocked(id)
        if relationship.muting, let end = relationship.mutingUntil, end <= now {
            relationship.muting = false
            relationship.mutingNotifications = false
            relationship.mutingUntil = nil
        }
        return relationship
    }

    // MARK: - Lists

    /// The user's relationships that make a list of accounts.
    enum Listed: CaseIterable, Sendable {
        case following, followedBy, muting, blocking

        func isOn(_ relationship: Relationship) -> Bool {
            switch self {
            case .following: relationship.following
            case .followedBy: relationship.followedBy
            case .muting: relationship.muting
            case .blocking: relationship.blocking
            }
        }
    }

    private struct ListedKey: Hashable, Sendable {
        var id: String
        var listed: Listed
    }

    /// The accounts whose relationship with the user has `listed` on at `now`: the most recently
    /// turned on first, then the fixture's in directory order.
    ///
    /// - Complexity: O(accounts log accounts).
    func accounts(_ listed: Listed, at now: Date) -> [String] {
        order.enumerated()
            .filter { $0.element != signedIn && listed.isOn(relationship(of: $0.element, at: now)) }
            .map { (id: $0.element, position: $0.offset, since: listedSince[ListedKey(id: $0.element, listed: listed)] ?? 0) }
            .sorted { ($0.since, -$0.position) > ($1.since, -$1.position) }
            .map(\.id)
    }

    // MARK: - Changing

    /// Sets `kind` of the relationship with account `id` to `value` at `now`, as Mastodon's
    /// `follow` (with `notify` / `reblogs` for ``RelationshipKind/notify`` and
    /// ``RelationshipKind/boosts``), `unfollow`, `mute`, `unmute`, `block` and `unblock` do, and
    /// returns the relationship afterwards. Asking for what already holds changes nothing.
    ///
    /// - follow: following, or requested for a locked account; a new follow shows their boosts
    ///   and does not notify; both accounts' counts move. Unfollow clears following, requested
    ///   and notifying (and shows boosts again, as a relationship with nothing set does).
    /// - mute: muting, hiding notifications as `mute` says, until `now + duration` if it has
    ///   one; muting again replaces the options. Unmute clears all three.
    /// - block: blocking; it also unfollows them, makes them unfollow the user and drops their
    ///   follow request. Unblock clears blocking only.
    /// - notify and boosts: only while following (or requested).
    ///
    /// - Throws: ``SandboxError/refused(_:)`` (a 422 or 403, never transient) for the user's own
    ///   account, a follow of an account that blocked the user, that the user blocks or that
    ///   moved, and notify or boosts changed without a follow.
    mutating func set(_ kind: RelationshipKind, to value: Bool, of id: String, mute: MuteOptions, at now: Date) throws(SandboxError) -> Relationship {
        let handle = "@" + (entries[id]?.account.acct ?? id)
        guard id != signedIn else { throw .refused("You cannot \(kind.verb(value)) yourself.") }
        let before = relationship(of: id, at: now)
        var relationship = before
        switch (kind, value) {
        case (.follow, true):
            guard !relationship.following, !relationship.requested else { break }
            if relationship.blockedBy { throw .refused("\(handle) has blocked you, so you cannot follow them.") }
            if relationship.blocking { throw .refused("You have blocked \(handle); unblock them before following them.") }
            if relationship.domainBlocking, let blocked = domain(of: id) {
                throw .refused("You have blocked the domain \(blocked); unblock it before following \(handle).")
            }
            if let movedTo = entries[id]?.movedTo, let target = entries[movedTo] {
                throw .refused("\(handle) has moved to @\(target.account.acct); follow them there.")
            }
            relationship.notifying = false
            relationship.showingBoosts = true
            if entries[id]?.account.locked == true {
                relationship.requested = true
            } else {
                relationship.following = true
                countFollow(of: id, by: 1)
            }
        case (.follow, false):
            unfollow(&relationship)
        case (.mute, true):
            relationship.muting = true
            relationship.mutingNotifications = mute.notifications
            relationship.mutingUntil = mute.duration.map { now.addingTimeInterval(Self.seconds($0)) }
        case (.mute, false):
            relationship.muting = false
            relationship.mutingNotifications = false
            relationship.mutingUntil = nil
        case (.block, true):
            guard !relationship.blocking else { break }
            unfollow(&relationship)
            relationship.blocking = true
            if relationship.followedBy {
                relationship.followedBy = false
                countFollow(of: signedIn, by: -1, from: id)
            }
            followRequestIDs.removeAll { $0 == id }
            relationship.requestedBy = false
        case (.block, false):
            relationship.blocking = false
        case (.notify, _), (.boosts, _):
            guard relationship.isOn(kind) != value else { break }
            guard relationship.following || relationship.requested else {
                throw .refused(
                    kind == .notify
                        ? "You can only be notified of the posts of accounts you follow; follow \(handle) first."
                        : "You can only choose whether to see the boosts of accounts you follow; follow \(handle) first."
                )
            }
            if kind == .notify { relationship.notifying = value } else { relationship.showingBoosts = value }
        }
        unseen.remove(id)  // following (or blocking) an account makes it known
        store(relationship, replacing: before)
        return relationship
    }

    /// Answers the follow request of account `id` as Mastodon's `authorize` (`accept`: they
    /// follow the user from now on, and both counts move) and `reject` do.
    ///
    /// - Throws: ``SandboxError/refused(_:)`` when `id` has no request waiting (never answered
    ///   twice: the first answer ends the request).
    mutating func answerRequest(of id: String, accept: Bool) throws(SandboxError) {
        guard followRequestIDs.contains(id) else {
            throw .refused("@\(entries[id]?.account.acct ?? id) has no follow request waiting.")
        }
        if accept {
            followedUser(by: id)
        } else {
            followRequestIDs.removeAll { $0 == id }
        }
    }

    /// Account `id` is known to the server from now on (a search or profile resolved it).
    /// Your profile as you wrote it: the signed-in account's bio and fields as text.
    var ownProfile: OwnProfile {
        let account = entries[signedIn]?.account
        let profile = account.map(Profile.init)
        return OwnProfile(
            author: account.map(Author.init) ?? Author(id: signedIn, displayName: "", handle: signedIn), bio: profile?.bio ?? "",
            fields: profile?.fields.map { Profile.Field(name: $0.name, value: $0.value) } ?? [], locked: account?.locked ?? false,
            bot: account?.bot ?? false, discoverable: ownDiscoverable, avatar: account?.avatar ?? "", header: account?.header ?? ""
        )
    }

    /// Changes what `edit` gives of the signed-in account, as Mastodon's `update_credentials`
    /// validates it: a display name of at most 30 characters, a bio of at most 500, at most 4
    /// fields of at most 255 characters each.
    mutating func updateOwnProfile(_ edit: ProfileEdit) throws(SandboxError) -> OwnProfile {
        guard var account = entries[signedIn]?.account else { throw .unknownAccount(signedIn) }
        if let name = edit.displayName {
            guard name.count <= 30 else { throw .refused("Validation failed: Display name is too long (maximum is 30 characters)") }
            account.displayName = name
        }
        if let bio = edit.bio {
            guard bio.count <= 500 else { throw .refused("Validation failed: Note is too long (maximum is 500 characters)") }
            account.note = Self.html(bio)
        }
        if let fields = edit.fields {
            guard fields.count <= 4 else { throw .refused("Validation failed: Fields is too long (maximum is 4 fields)") }
            guard fields.allSatisfy({ $0.name.count <= 255 && $0.value.count <= 255 }) else {
                throw .refused("Validation failed: Fields is too long (maximum is 255 characters)")
            }
            account.fields = fields.map { Mastodon.Account.Field(name: $0.name, value: Self.escaped($0.value), verifiedAt: nil) }
        }
        if let locked = edit.locked { account.locked = locked }
        if let bot = edit.bot { account.bot = bot }
        if let discoverable = edit.discoverable { ownDiscoverable = discoverable }
        // An image is kept as the sandbox's own address for it, as a server answers an upload.
        for (role, path) in [("avatar", edit.avatar), ("header", edit.header)] {
            guard let path else { continue }
            let url = URL(fileURLWithPath: path)
            guard FileManager.default.isReadableFile(atPath: url.path) else { throw .refused("Cannot read the file \(path) for your \(role).") }
            let address = "https://sandbox.invalid/\(role)s/\(url.lastPathComponent)"
            if role == "avatar" { account.avatar = address } else { account.header = address }
        }
        entries[signedIn]?.account = account
        return ownProfile
    }

    /// Text as a bio's HTML: a paragraph per blank-line-separated part, `<br>` per line break.
    private static func html(_ text: String) -> String {
        guard !text.isEmpty else { return "" }
        return text.components(separatedBy: "\n\n").map { "<p>" + escaped($0).replacingOccurrences(of: "\n", with: "<br>") + "</p>" }.joined()
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            .replacingOccurrences(of: "\"", with: "&quot;")
    }

    mutating func see(_ id: String) {
        unseen.remove(id)
    }

    /// Account `id` followed the user (a scenario's `follow` reaction): they follow the user,
    /// their request (if any) is answered, and both counts move.
    mutating func followedUser(by id: String) {
        guard contains(id), id != signedIn else { return }
        let before = relationships[id] ?? Relationship(accountID: AccountID(id))
        var relationship = before
        followRequestIDs.removeAll { $0 == id }
        guard !relationship.followedBy else { return }
        relationship.followedBy = true
        store(relationship, replacing: before)
        countFollow(of: signedIn, by: 1, from: id)
    }

    /// Clears following, requested and notifying (boosts shown again), moving the counts.
    private mutating func unfollow(_ relationship: inout Relationship) {
        if relationship.following { countFollow(of: relationship.accountID.rawValue, by: -1) }
        relationship.following = false
        relationship.requested = false
        relationship.notifying = false
        relationship.showingBoosts = true
    }

    /// `target`'s followers and `follower`'s followings (the user's by default) move by `delta`.
    private mutating func countFollow(of target: String, by delta: Int, from follower: String? = nil) {
        if let count = entries[target]?.account.followersCount { entries[target]?.account.followersCount = max(0, count + delta) }
        let follower = follower ?? signedIn
        if let count = entries[follower]?.account.followingCount { entries[follower]?.account.followingCount = max(0, count + delta) }
    }

    /// Keeps `relationship` (without `requestedBy`: the requests are ``followRequestIDs``; nor
    /// `domainBlocking`: the domains are ``blockedDomains``), or forgets it when nothing is set.
    /// Of a change from `before`, dates each listed relationship that turned on (see ``listedSince``).
    private mutating func store(_ relationship: Relationship, replacing before: Relationship? = nil) {
        var relationship = relationship
        relationship.requestedBy = false
        relationship.domainBlocking = false
        let id = relationship.accountID.rawValue
        if let before {
            for listed in Listed.allCases where listed.isOn(relationship) && !listed.isOn(before) {
                listedChanges += 1
                listedSince[ListedKey(id: id, listed: listed)] = listedChanges
            }
        }
        relationships[id] = relationship == Relationship(accountID: relationship.accountID) ? nil : relationship
    }

    // MARK: - Domain blocks

    /// The domain of account `id`, lower-cased: the host of its `acct`; `nil` for a local
    /// account (or one the directory does not hold).
    func domain(of id: String) -> String? {
        guard let acct = entries[id]?.account.acct else { return nil }
        let parts = acct.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[1].isEmpty else { return nil }
        return Self.domainKey(String(parts[1]))
    }

    /// Whether the user blocks the domain of account `id`.
    ///
    /// - Complexity: O(blocked domains).
    func isDomainBlocked(_ id: String) -> Bool {
        guard !blockedDomains.isEmpty, let domain = domain(of: id) else { return false }
        return blockedDomains.contains(domain)
    }

    /// Blocks (`true`) or unblocks `domain` (any case, a leading `@` dropped), as Mastodon's
    /// `POST` / `DELETE /api/v1/domain_blocks` do: a new block comes first in the list, and
    /// removes the user's followers on that domain (their follow, both counts) and drops their
    /// follow requests; the user's own follows there stay. Blocking a blocked domain or
    /// unblocking one that is not blocked changes nothing.
    ///
    /// - Throws: ``SandboxError/refused(_:)`` (a 422, never transient) for something that is no
    ///   domain name, and for blocking the sandbox's own domain.
    ///
    /// - Complexity: O(accounts × follow requests) for a new block, O(blocked domains) otherwise.
    mutating func setDomainBlock(_ domain: String, to value: Bool) throws(SandboxError) {
        let key = Self.domainKey(domain)
        guard Self.isDomainName(key) else { throw .refused("\"\(Self.shown(key))\" is not a domain name.") }
        guard value else {
            blockedDomains.removeAll { $0 == key }
            return
        }
        if let own = self.domain, Self.domainKey(own) == key { throw .refused("You cannot block your own domain.") }
        guard !blockedDomains.contains(key) else { return }
        blockedDomains.insert(key, at: 0)
        for id in order where id != signedIn && self.domain(of: id) == key {
            followRequestIDs.removeAll { $0 == id }
            guard let before = relationships[id], before.followedBy else { continue }
            var relationship = before
            relationship.followedBy = false
            store(relationship, replacing: before)
            countFollow(of: signedIn, by: -1, from: id)
        }
    }

    /// `domain` as the sandbox keeps it: trimmed, without leading `@`, lower-cased.
    static func domainKey(_ domain: String) -> String {
        var name = Substring(domain.trimmingBlanks(newlines: true))
        while name.hasPrefix("@") { name = name.dropFirst() }
        return name.lowercased()
    }

    /// Whether `key` (see ``domainKey(_:)``) can be a domain: 1–253 ASCII letters, digits, `-`,
    /// `.` (at least one, not at either end) and a `:port`.
    static func isDomainName(_ key: String) -> Bool {
        guard (1...253).contains(key.utf8.count), key.contains("."), !key.hasPrefix("."), !key.hasSuffix(".") else { return false }
        return key.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-.:".unicodeScalars.contains($0)) }
    }

    /// Input as a message shows it: one line, at most 60 characters.
    private static func shown(_ text: String) -> String {
        let line = String(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) })
        return line.count > 60 ? String(line.prefix(60)) + "…" : line
    }

    /// `ids` without repeats, in their first places.
    private static func unique(_ ids: [String]) -> [String] {
        var seen = Set<String>()
        return ids.filter { seen.insert($0).inserted }
    }

    private static func seconds(_ duration: Duration) -> TimeInterval {
        let (seconds, attoseconds) = duration.components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}

extension SandboxAccounts.Entry {
    /// The account with what `detail` gives instead of what its statuses said.
    fileprivate mutating func apply(_ detail: SandboxAccountDetails) {
        if let value = detail.displayName { account.displayName = value }
        if let value = detail.url { account.url = value }
        if let value = detail.note { account.note = value }
        if let value = detail.fields { account.fields = value }
        if let value = detail.followersCount { account.followersCount = value }
        if let value = detail.followingCount { account.followingCount = value }
        if let value = detail.statusesCount { account.statusesCount = value }
        if let value = detail.createdAt { account.createdAt = value }
        if let value = detail.bot { account.bot = value }
        if let value = detail.locked { account.locked = value }
        if let value = detail.group { account.group = value }
    }
}

// MARK: - The accounts file

extension SandboxAccountDetails: Decodable {
    /// Reads one entry of an accounts file; unknown keys are errors (see `Fixtures/README.md`).
    public init(from decoder: any Decoder) throws {
        let keys: Set<String> = [
            "acct", "id", "display_name", "url", "note", "fields", "followers_count", "following_count", "statuses_count", "created_at",
            "bot", "locked", "group", "moved", "relationship", "followers", "following", "endorsed", "featured_tags", "resolvable",
        ]
        let container = try decoder.strictContainer(allowing: keys)
        func value<Value: Decodable>(_ key: String) throws -> Value? {
            try container.decodeIfPresent(Value.self, forKey: AnyCodingKey(key))
        }
        let acct: String = try container.decode(String.self, forKey: AnyCodingKey("acct"))
        let relationship = try value("relationship") as RelationshipEntry?
        var initial = relationship?.value ?? Relationship(accountID: AccountID(handle: acct))
        initial.accountID = AccountID(handle: acct)
        self.init(
            acct: acct, id: try value("id"), displayName: try value("display_name"), url: try value("url"), note: try value("note"),
            fields: try value("fields"), followersCount: try value("followers_count"), followingCount: try value("following_count"),
            statusesCount: try value("statuses_count"), createdAt: try value("created_at"), bot: try value("bot"), locked: try value("locked"),
            group: try value("group"), movedTo: try value("moved"), relationship: initial,
            requestedBy: relationship?.requestedBy ?? false, followers: try value("followers") ?? [], following: try value("following") ?? [],
            endorsed: try value("endorsed") ?? [], featuredTags: try value("featured_tags") ?? [], resolvable: try value("resolvable") ?? false
        )
    }

    /// A relationship as Mastodon's API writes it (`followed_by`, `showing_reblogs` …), with
    /// `requested_by` and the end of a mute (`mute_expires_at`, as Mastodon's list of mutes names it).
    private struct RelationshipEntry: Decodable {
        var value: Relationship
        var requestedBy: Bool

        init(from decoder: any Decoder) throws {
            let keys: Set<String> = [
                "following", "requested", "followed_by", "requested_by", "muting", "muting_notifications", "mute_expires_at", "blocking",
                "blocked_by", "domain_blocking", "notifying", "showing_reblogs", "note",
            ]
            let container = try decoder.strictContainer(allowing: keys)
            func flag(_ key: String, _ otherwise: Bool = false) throws -> Bool {
                try container.decodeIfPresent(Bool.self, forKey: AnyCodingKey(key)) ?? otherwise
            }
            value = Relationship(
                accountID: AccountID(""),
                following: try flag("following"),
                requested: try flag("requested"),
                followedBy: try flag("followed_by"),
                muting: try flag("muting"),
                mutingNotifications: try flag("muting_notifications"),
                mutingUntil: try container.decodeIfPresent(Date.self, forKey: AnyCodingKey("mute_expires_at")),
                blocking: try flag("blocking"),
                blockedBy: try flag("blocked_by"),
                domainBlocking: try flag("domain_blocking"),
                notifying: try flag("notifying"),
                showingBoosts: try flag("showing_reblogs", true),
                note: try container.decodeIfPresent(String.self, forKey: AnyCodingKey("note")) ?? ""
            )
            requestedBy = try flag("requested_by")
        }
    }
}
