@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

@_spi(FeedService) @testable import FeedlineMastodon

/// Lists of accounts, search and follow requests on the bundled sandbox (`Fixtures/timeline`
/// with its `accounts/directory.json`), pages of five as in the scripted sessions. Lists are
/// compared whole, by handle, so a wrong order, a missing or an extra account fails.
@Suite struct SandboxAccountListsTests {
    typealias ID = SandboxAccountsTests.ID

    static let otto = AccountID("113702224455660017")
    static let fern = AccountID("112845530021907715")
    static let ines = AccountID("113102998877001234")

    /// The user's followers in the fixture: every account whose relationship says `followed_by`,
    /// in directory order.
    static let fixtureFollowers = [
        "hugo@kettle.town", "sam@inkwell.art", "aoi@ginkgo.garden", "wen@teahouse.cafe", "rowan@bramble.zone", "nadia",
        "marisol@garza.social", "kwame@kestrel.social", "pete@moorhen.club", "elin@myr.social", "yuki@enaga.social", "theo@quill.town",
        "lin@inkwell.art",
    ]
    /// The accounts the user follows in the fixture, in directory order.
    static let fixtureFollowing = [
        "tidepool", "kemi@fieldnotes.science", "hugo@kettle.town", "ruth", "sam@inkwell.art", "aoi@ginkgo.garden", "jonas@chaosdorf.space",
        "mira", "wen@teahouse.cafe", "tomas@kettle.town", "layla@nakhla.social", "priya@foss.community", "ana@pixelpond.social",
        "rowan@bramble.zone", "nadia",
    ]

    func makeService(faults: [SandboxScenario.Fault] = [], wallClock: WallClock = .fixed(SandboxAccountsTests.start)) throws -> SandboxService {
        var fixture = try SandboxAccountsTests.fixture()
        fixture.scenario.faults = faults
        return try SandboxService(fixture: fixture, pageSize: 5, clock: VirtualClock(), wallClock: wallClock)
    }

    /// Every account of `list`, page by page; each page holds five but the last, which has no cursor.
    func handles(_ service: SandboxService, _ list: AccountList, sourceLocation: SourceLocation = #_sourceLocation) async throws -> [String] {
        var handles: [String] = []
        var cursor: PageCursor?
        for _ in 0..<20 {
            let page = try await service.accounts(in: list, after: cursor)
            handles += page.items.map(\.author.handle)
            guard let next = page.next else {
                #expect(page.items.count <= 5, sourceLocation: sourceLocation)
                return handles
            }
            #expect(page.items.count == 5, sourceLocation: sourceLocation)
            cursor = next
        }
        Issue.record("\(list) never ended", sourceLocation: sourceLocation)
        return handles
    }

    func relationship(_ service: SandboxService, _ account: AccountID) async throws -> Relationship {
        try #require(try await service.relationships(of: [account]).first)
    }

    // MARK: - Followers and following

    @Test func theFollowersOfAnAccountTakeTwoPagesOfFive() async throws {
        let service = try makeService()
        let first = try await service.accounts(in: .followers(ID.kemi), after: nil)
        #expect(first.items.map(\.author.handle) == ["you", "mira", "marisol@garza.social", "kwame@kestrel.social", "pete@moorhen.club"])
        let next = try #require(first.next)
        let second = try await service.accounts(in: .followers(ID.kemi), after: next)
        // Kemi's own list, then Juniper, whose `following` names her.
        #expect(second.items.map(\.author.handle) == ["yuki@enaga.social", "elin@myr.social", "lin@inkwell.art", "juniper@saltmarsh.town"])
        #expect(second.next == nil)
        #expect(first.items.first == (try await service.profile(of: ID.you)), "each row is the account's profile")

        let byHandle = try await service.accounts(in: .followers(AccountID(handle: "@kemi@fieldnotes.science")), after: nil)
        #expect(byHandle == first, "an account named by its handle is looked up first")
    }

    @Test func whomAnAccountFollowsIsItsListAndTheListsThatNameIt() async throws {
        let service = try makeService()
        #expect(
            try await handles(service, .following(ID.kemi))
                == ["birdlog@feeders.cloud", "marisol@garza.social", "elin@myr.social", "gardenbirds@flock.community"]
        )
        // Exactly a page: no cursor to an empty page.
        let mira = try await service.accounts(in: .following(ID.mira), after: nil)
        #expect(mira.items.map(\.author.handle) == ["kemi@fieldnotes.science", "priya@foss.community", "nadia", "ruth", "tidepool"])
        #expect(mira.next == nil)
        #expect(try await handles(service, .followers(ID.mira)) == ["you", "ruth", "nadia", "tomas@kettle.town", "priya@foss.community"])
        // Hugo follows the user, so the user is among his following; nobody else is listed.
        #expect(try await handles(service, .following(AccountID(handle: "hugo@kettle.town"))) == ["you"])
        // Kemi's and Otto's `following` name Elin.
        #expect(try await handles(service, .followers(ID.elin)) == ["kemi@fieldnotes.science", "otto@reedbed.social"])
    }

    @Test func whomAnAccountFeaturesIsItsEntrysEndorsedInOrderAndNoOneElses() async throws {
        let service = try makeService()
        #expect(try await handles(service, .endorsed(ID.kemi)) == ["elin@myr.social", "mira", "juniper@saltmarsh.town"])
        #expect(try await handles(service, .endorsed(AccountID(handle: "kemi@fieldnotes.science"))) == ["elin@myr.social", "mira", "juniper@saltmarsh.town"])
        #expect(try await handles(service, .endorsed(ID.mira)) == [])
    }

    @Test func theUsersListsAreTheirRelationshipsAsTheSessionChangesThem() async throws {
        let service = try makeService()
        #expect(try await handles(service, .followers(ID.you)) == Self.fixtureFollowers)
        #expect(try await handles(service, .following(AccountID(handle: "you"))) == Self.fixtureFollowing)

        _ = try await service.setRelationship(.follow, to: true, of: ID.kwame, mute: MuteOptions())
        _ = try await service.setRelationship(.follow, to: true, of: ID.elin, mute: MuteOptions())  // locked: a request, not a follow
        _ = try await service.setRelationship(.follow, to: false, of: ID.mira, mute: MuteOptions())
        #expect(try await handles(service, .following(ID.you)) == ["kwame@kestrel.social"] + Self.fixtureFollowing.filter { $0 != "mira" })
        #expect(try await handles(service, .followers(ID.mira)) == ["ruth", "nadia", "tomas@kettle.town", "priya@foss.community"])
        #expect(try await handles(service, .followers(ID.kwame)).first == "you")

        _ = try await service.page(of: .home, after: nil)
        _ = try await service.page(of: .home, after: nil)  // the scenario's follow reaction (Tomás) comes after two pages
        #expect(try await handles(service, .followers(ID.you)) == ["tomas@kettle.town"] + Self.fixtureFollowers)
        #expect(try await handles(service, .following(ID.tomas)) == ["you", "mira"], "Mira's followers name Tomás")
    }

    @Test func anUnknownAccountOrCursorIsRefusedAsAProfileIs() async throws {
        let service = try makeService()
        for list in [AccountList.followers(AccountID(handle: "nobody@nowhere.example")), .following(AccountID(handle: "nobody@nowhere.example"))] {
            await #expect(throws: SandboxError.unknownAccount("nobody@nowhere.example")) { try await service.accounts(in: list, after: nil) }
        }
        await #expect(throws: SandboxError.unknownAccount("4242")) { try await service.accounts(in: .followers(AccountID("4242")), after: nil) }
        await #expect(throws: SandboxError.unknownCursor("five")) {
            try await service.accounts(in: .followers(ID.you), after: PageCursor("five"))
        }
        await #expect(throws: SandboxError.unknownCursor("-5")) { try await service.search("bird", after: PageCursor("-5")) }
        // A cursor past the end is an empty last page, as Mastodon's offset is.
        #expect(try await service.accounts(in: .followers(ID.you), after: PageCursor("500")) == Page(items: [], next: nil))
    }

    // MARK: - Mutes and blocks

    @Test func mutesAndBlocksAreTheCurrentRelationshipsMostRecentFirst() async throws {
        let wall = SandboxAccountsTests.MovableWallClock()
        let service = try makeService(wallClock: wall.clock)
        #expect(try await handles(service, .mutes) == [])
        #expect(try await handles(service, .blocks) == ["growth.deals@promo.example"])

        _ = try await service.setRelationship(.mute, to: true, of: ID.mira, mute: MuteOptions())
        _ = try await service.setRelationship(.mute, to: true, of: ID.kemi, mute: MuteOptions(duration: .seconds(600)))
        _ = try await service.setRelationship(.mute, to: true, of: ID.tomas, mute: MuteOptions())
        #expect(try await handles(service, .mutes) == ["tomas@kettle.town", "kemi@fieldnotes.science", "mira"])
        _ = try await service.setRelationship(.mute, to: true, of: ID.mira, mute: MuteOptions(notifications: false))
        #expect(try await handles(service, .mutes) == ["tomas@kettle.town", "kemi@fieldnotes.science", "mira"], "muting again keeps the place")
        _ = try await service.setRelationship(.mute, to: false, of: ID.tomas, mute: MuteOptions())
        #expect(try await handles(service, .mutes) == ["kemi@fieldnotes.science", "mira"])
        wall.advance(by: 600)
        #expect(try await handles(service, .mutes) == ["mira"], "Kemi's mute is over")

        _ = try await service.setRelationship(.block, to: true, of: ID.hugo, mute: MuteOptions())
        #expect(try await handles(service, .blocks) == ["hugo@kettle.town", "growth.deals@promo.example"])
        _ = try await service.setRelationship(.block, to: false, of: ID.spammer, mute: MuteOptions())
        #expect(try await handles(service, .blocks) == ["hugo@kettle.town"])
        #expect(try await handles(service, .followers(ID.you)) == Self.fixtureFollowers.filter { $0 != "hugo@kettle.town" }, "a block unfollows both ways")
    }

    // MARK: - Follow requests

    @Test func eachRequestIsAnsweredOnceAcceptedOrRejected() async throws {
        let service = try makeService()
        #expect(try await handles(service, .requests) == ["juniper@saltmarsh.town", "otto@reedbed.social"])
        let before = try await relationship(service, ID.juniper)
        #expect(before == Relationship(accountID: ID.juniper, requestedBy: true))
        let followers = try await service.profile(of: ID.you).followersCount

        let accepted = try await service.answerFollowRequest(from: AccountID(handle: "juniper@saltmarsh.town"), accept: true)
        var expected = before
        expected.requestedBy = false
        expected.followedBy = true
        #expect(accepted == expected)
        #expect(try await relationship(service, ID.juniper) == expected)
        #expect(try await handles(service, .requests) == ["otto@reedbed.social"])
        #expect(try await handles(service, .followers(ID.you)) == ["juniper@saltmarsh.town"] + Self.fixtureFollowers)
        #expect(try await handles(service, .following(ID.juniper)).first == "you")
        #expect(try await service.profile(of: ID.you).followersCount == followers + 1)

        let rejected = try await service.answerFollowRequest(from: Self.otto, accept: false)
        #expect(rejected == Relationship(accountID: Self.otto))
        #expect(try await handles(service, .requests) == [])
        #expect(try await handles(service, .followers(ID.you)) == ["juniper@saltmarsh.town"] + Self.fixtureFollowers)
        #expect(try await service.profile(of: ID.you).followersCount == followers + 1)
    }

    @Test func answeringAnAccountWithoutARequestIsRefused() async throws {
        let service = try makeService()
        _ = try await service.answerFollowRequest(from: ID.juniper, accept: false)
        for (account, accept) in [(ID.juniper, true), (ID.kemi, false)] {
            do {
                _ = try await service.answerFollowRequest(from: account, accept: accept)
                Issue.record("\(account) has no request")
            } catch let error as SandboxError {
                let handle = account == ID.kemi ? "kemi@fieldnotes.science" : "juniper@saltmarsh.town"
                #expect(error == .refused("@\(handle) has no follow request waiting."))
                #expect(!error.isTransient)
            }
        }
        #expect(try await relationship(service, ID.juniper) == Relationship(accountID: ID.juniper), "rejected, and not accepted by the refusal")
        await #expect(throws: SandboxError.unknownAccount("4242")) { try await service.answerFollowRequest(from: AccountID("4242"), accept: true) }
    }

    @Test func eachNewCallIsItsOwnRequestKind() async throws {
        let cases: [(SandboxScenario.Request, @Sendable (SandboxService) async throws -> Void)] = [
            (.accounts, { _ = try await $0.accounts(in: .mutes, after: nil) }),
            (.search, { _ = try await $0.search("kemi", after: nil) }),
            (.authorize, { _ = try await $0.answerFollowRequest(from: ID.juniper, accept: true) }),
            (.reject, { _ = try await $0.answerFollowRequest(from: ID.juniper, accept: false) }),
        ]
        for (request, call) in cases {
            let service = try makeService(faults: [.init(.init(request, times: 1), failure: .timeout)])
            await #expect(throws: SandboxError.fault(.timeout, request: request)) { try await call(service) }
            try await call(service)  // the fault covered one request
        }
    }

    // MARK: - Search

    @Test func accountsMatchHandleOrNameIgnoringCaseExactUsernamesFirst() async throws {
        let service = try makeService()
        let hugo = try await service.search("HUGO", after: nil)
        #expect(hugo.items.compactMap(\.account).map(\.author.handle) == ["hugo@kettle.town", "hugo@upright.social"])
        let marchetti = try await service.search("marchetti", after: nil)
        #expect(marchetti.items.compactMap(\.account).map(\.author.handle) == ["hugo@kettle.town", "hugo@upright.social"], "by display name")
        let garden = try await service.search("@garden", after: nil)
        // Not fern@lichen.garden, whom the server has not seen.
        #expect(garden.items.compactMap(\.account).map(\.author.handle) == ["aoi@ginkgo.garden", "birdlog@feeders.cloud", "gardenbirds@flock.community"])
        let mira = try await service.search("@mira@tidepool.social", after: nil)
        #expect(mira.items.compactMap(\.account).map(\.author.handle) == ["mira"], "a local account by its full handle")
        #expect(try await service.search("kestrel.social", after: nil).items.compactMap(\.account).map(\.accountID) == [ID.kwame])
    }

    @Test func hashtagsMatchByPrefixCountingThePostsOfTheirFeeds() async throws {
        let service = try makeService()
        _ = try await service.page(of: .home, after: nil)  // the arrivals join first, so the tag feeds stay as searched
        let tags = try await service.search("#bird", after: nil).items.compactMap(\.hashtag)
        #expect(tags.map(\.name) == ["birds", "birdfeeder"])
        for tag in tags {
            var posts: [Post] = []
            var cursor: PageCursor?
            repeat {
                let page = try await service.page(of: .tag(tag.name), after: cursor)
                posts += page.posts
                cursor = page.next
            } while cursor != nil
            #expect(tag.weeklyUses == posts.count, "#\(tag.name)")
            #expect(tag.weeklyAccounts == Set(posts.map(\.author.id)).count, "#\(tag.name)")
        }
        #expect(try await service.search("#Birds", after: nil).items.compactMap(\.hashtag).map(\.name) == ["birds"], "any case; exact first")
        #expect(try await service.search("#nosuchtag", after: nil).items == [])
        #expect(try await service.search("#birds", after: nil).items.compactMap(\.account) == [], "a tag query finds no accounts")
    }

    @Test func postsHoldTheTextNewestFirstWithoutThoseOfMutedAccounts() async throws {
        let service = try makeService()
        var posts: [Post] = []
        var cursor: PageCursor?
        var pages = 0
        repeat {
            let page = try await service.search("DRAGONFL", after: cursor)
            // One word: the #dragonflies tag matches it too, on the first page.
            #expect(page.items.compactMap(\.hashtag).map(\.name) == (cursor == nil ? ["dragonflies"] : []))
            #expect(page.items.compactMap(\.account) == [])
            #expect(page.items.compactMap(\.post).count <= 5)
            posts += page.items.compactMap(\.post)
            cursor = page.next
            pages += 1
        } while cursor != nil && pages < 20
        #expect(posts.count > 5, "more than a page")
        #expect(Set(posts.map(\.id)).count == posts.count)
        #expect(posts.allSatisfy { $0.text.localizedCaseInsensitiveContains("dragonfl") || ($0.contentWarning ?? "").localizedCaseInsensitiveContains("dragonfl") })
        #expect(zip(posts, posts.dropFirst()).allSatisfy { $0.createdAt >= $1.createdAt })
        #expect(posts.contains { $0.author.id == ID.kemi.rawValue })

        _ = try await service.setRelationship(.mute, to: true, of: ID.kemi, mute: MuteOptions())
        var muted: [Post] = []
        cursor = nil
        repeat {
            let page = try await service.search("dragonfl", after: cursor)
            muted += page.items.compactMap(\.post)
            cursor = page.next
        } while cursor != nil
        #expect(muted == posts.filter { $0.author.id != ID.kemi.rawValue })
    }

    @Test func resultsComeAccountsThenHashtagsThenPostsAPageOfEachAtATime() async throws {
        let service = try makeService()
        let first = try await service.search("bird", after: nil)
        let kinds = first.items.map(\.kind)
        #expect(kinds == kinds.sorted(), "accounts, then hashtags, then posts")
        #expect(first.items.compactMap(\.account).map(\.author.handle) == ["birdlog@feeders.cloud", "gardenbirds@flock.community"])
        #expect(first.items.compactMap(\.hashtag).map(\.name) == ["birds", "birdfeeder"])
        #expect(first.items.compactMap(\.post).count == 5)
        let next = try #require(first.next)
        let second = try await service.search("bird", after: next)
        #expect(second.items.allSatisfy { $0.post != nil }, "accounts and hashtags ran out on the first page")
        #expect(Set(second.items.compactMap(\.post?.id)).isDisjoint(with: first.items.compactMap(\.post?.id)))
        #expect(try await service.search("bird", after: next) == second, "the same cursor, the same page")
    }

    @Test func aRemoteAccountTheServerHasNotSeenIsFoundOnlyByItsFullHandle() async throws {
        let service = try makeService()
        for query in ["fern", "lichen", "Okoro", "fern@lichen", "@fern@lichen.garde"] {
            #expect(try await service.search(query, after: nil).items.compactMap(\.account) == [], "\(query)")
        }
        let resolved = try await service.search("@FERN@lichen.garden", after: nil)
        #expect(resolved.items.compactMap(\.account).map(\.accountID) == [Self.fern])
        #expect(resolved.next == nil)
        #expect(try await service.search("okoro", after: nil).items.compactMap(\.account).map(\.accountID) == [Self.fern], "known from then on")

        // Resolved, it can be followed; the locked one takes a request.
        #expect(try await service.setRelationship(.follow, to: true, of: Self.fern, mute: MuteOptions()).following)
        #expect(try await handles(service, .following(ID.you)).first == "fern@lichen.garden")
        #expect(try await service.search("Inês", after: nil).items.compactMap(\.account) == [])
        let ines = try await service.search("ines@tidemark.pt", after: nil).items.compactMap(\.account)
        #expect(ines.map(\.accountID) == [Self.ines] && ines.first?.locked == true)
        #expect(try await service.setRelationship(.follow, to: true, of: Self.ines, mute: MuteOptions()).requested)
    }

    @Test func aProfileLookupByFullHandleResolvesTooAsTheHTTPServiceDoes() async throws {
        let service = try makeService()
        #expect(try await service.profile(of: AccountID(handle: "fern@lichen.garden")).accountID == Self.fern)
        #expect(try await service.search("fern", after: nil).items.compactMap(\.account).map(\.accountID) == [Self.fern])
    }

    @Test(arguments: ["", "   ", " \n\t"])
    func anEmptyQueryIsRefused(_ query: String) async throws {
        let service = try makeService()
        do {
            _ = try await service.search(query, after: nil)
            Issue.record("an empty query should be refused")
        } catch let error as SandboxError {
            #expect(error == .refused("Type something to search for."))
            #expect(!error.isTransient)
        }
    }

    // MARK: - The accounts file

    @Test func listsInTheAccountsFileNameKnownAccountsAndNotTheUser() throws {
        let status = Mastodon.Status(
            id: "1", uri: "", url: nil, createdAt: SandboxAccountsTests.start, account: Mastodon.Account(id: "9", username: "a", acct: "a"),
            content: "<p>hi</p>"
        )
        let me = Mastodon.Account(id: "7", username: "me", acct: "me")
        func make(_ details: [SandboxAccountDetails]) throws(SandboxError) -> SandboxService {
            try SandboxService(statuses: [status], scenario: SandboxScenario(account: me), accounts: details, clock: VirtualClock())
        }
        #expect(throws: SandboxError.invalidScenario("accounts[0].followers: no account @b in the fixtures")) {
            try make([SandboxAccountDetails(acct: "a", followers: ["b"])])
        }
        #expect(throws: SandboxError.invalidScenario("accounts[0].following: @me is the signed-in account, whose follows are its relationships")) {
            try make([SandboxAccountDetails(acct: "a", following: ["me"])])
        }
        #expect(throws: SandboxError.invalidScenario("accounts[0].followers: the signed-in account's follows are its relationships (following, followed_by)")) {
            try make([SandboxAccountDetails(acct: "me", followers: ["a"])])
        }
        #expect(throws: SandboxError.invalidScenario("accounts[0].endorsed: no account @b in the fixtures")) {
            try make([SandboxAccountDetails(acct: "a", endorsed: ["b"])])
        }
        #expect(throws: SandboxError.invalidScenario("accounts[0].resolvable: the fixtures already show @a to this server")) {
            try make([SandboxAccountDetails(acct: "a", resolvable: true)])
        }
        #expect(throws: SandboxError.invalidScenario("accounts[0].resolvable: @b is local, so the server knows it")) {
            try make([SandboxAccountDetails(acct: "b", id: "8", resolvable: true)])
        }
    }
}

extension SearchResult {
    fileprivate var account: Profile? {
        if case .account(let profile) = self { profile } else { nil }
    }
    fileprivate var hashtag: Hashtag? {
        if case .hashtag(let tag) = self { tag } else { nil }
    }
    fileprivate var post: Post? {
        if case .post(let post) = self { post } else { nil }
    }
    /// 0 for an account, 1 for a hashtag, 2 for a post.
    fileprivate var kind: Int {
        switch self {
        case .account: 0
        case .hashtag: 1
        case .post: 2
        }
    }
}
