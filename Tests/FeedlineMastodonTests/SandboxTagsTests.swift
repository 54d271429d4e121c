@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

@_spi(FeedService) @testable import FeedlineMastodon

/// Hashtags and trends on the sandbox: the trending posts (a feed, paged by offset), the
/// trending and followed hashtags, following and unfollowing, and the scenario's
/// `followed_tags`. Most tests run on a small timeline whose ranking is written out by hand;
/// the last ones on the bundled fixture. Pages and hashtags are compared whole.
@Suite struct SandboxTagsTests {
    /// A post by `author` at minute `id` with these tags and counts.
    static func post(
        _ id: Int, by author: String, tags: [String] = [], favourites: Int = 0, reblogs: Int = 0, visibility: Mastodon.Visibility = .public
    ) -> Mastodon.Status {
        var status = Build.status(id, author: author, favourites: favourites, reblogs: reblogs)
        status.tags = tags.map { Mastodon.Tag(name: $0, url: "https://example.social/tags/\($0.lowercased())") }
        status.visibility = visibility
        return status
    }

    /// Nine statuses: seven public posts, an unlisted one and a boost (neither trends).
    ///
    /// - trending posts: 1 (5 favourites), 3 (2 boosts), 2 (1 favourite), then 9, 8, 7, 5 (none, newest first);
    /// - hashtags: gardening 3 posts by 3 people; Birds 2 by 2 (spelled as post 1, its oldest,
    ///   spells it); owls 2 by 1; alpha and tidepools 1 by 1 (by name). Post 4 is unlisted, so its
    ///   #birds does not count.
    static let statuses: [Mastodon.Status] = [
        post(1, by: "alice", tags: ["Birds"], favourites: 5),
        post(2, by: "bob", tags: ["birds", "gardening"], favourites: 1),
        post(3, by: "alice", tags: ["gardening"], reblogs: 2),
        post(4, by: "carol", tags: ["birds"], favourites: 50, visibility: .unlisted),
        post(5, by: "dave", tags: ["tidepools", "alpha"]),
        Build.status(6, author: "erin", reblog: post(2, by: "bob", tags: ["birds", "gardening"], favourites: 1)),
        post(7, by: "erin", tags: ["gardening", "GARDENING"]),
        post(8, by: "frank", tags: ["owls"]),
        post(9, by: "frank", tags: ["Owls"]),
    ]

    func makeService(
        pageSize: Int = 3, followed: [String] = [], faults: [SandboxScenario.Fault] = []
    ) throws -> SandboxService {
        let scenario = SandboxScenario(faults: faults, followedTags: followed)
        return try SandboxService(statuses: Self.statuses, scenario: scenario, pageSize: pageSize, clock: VirtualClock())
    }

    @Test("featured hashtags: the accounts file's, in its order, each counted over the account's public posts (no boosts) with the newest's time")
    func featuredTags() async throws {
        let alice = Self.statuses[0].account
        let service = try SandboxService(
            statuses: Self.statuses, scenario: SandboxScenario(), accounts: [SandboxAccountDetails(acct: "alice@example.social", featuredTags: ["gardening", "#BIRDS", "owls"])],
            clock: VirtualClock()
        )
        // Alice's public posts: 1 (#Birds) and 3 (#gardening); frank's owls are not hers.
        #expect(
            try await service.featuredTags(of: AccountID(alice.id)) == [
                Hashtag(name: "gardening", accountPosts: 1, lastUsed: Self.statuses[2].createdAt),
                Hashtag(name: "Birds", accountPosts: 1, lastUsed: Self.statuses[0].createdAt),
                Hashtag(name: "owls", accountPosts: 0),
            ]
        )
        #expect(try await service.featuredTags(of: AccountID(Self.statuses[1].account.id)).isEmpty, "bob features none")
    }

    /// Every page of a list from the top (at most 40 pages: a loop is a failure).
    static func walk<Item>(
        sourceLocation: SourceLocation = #_sourceLocation, _ page: (PageCursor?) async throws -> Page<Item>
    ) async throws -> [Page<Item>] {
        var pages: [Page<Item>] = []
        var cursor: PageCursor?
        repeat {
            let next = try await page(cursor)
            pages.append(next)
            cursor = next.next
        } while cursor != nil && pages.count < 40
        #expect(cursor == nil, "the list did not end within 40 pages", sourceLocation: sourceLocation)
        return pages
    }

    // MARK: - Trending posts

    @Test func trendingPostsArePublicOriginalsMostEngagedFirstThenNewestPagedByOffset() async throws {
        let service = try makeService()
        let pages = try await Self.walk { try await service.page(of: .trending, after: $0) }
        #expect(pages.map(\.ids) == [["1", "3", "2"], ["9", "8", "7"], ["5"]])
        #expect(pages.map(\.next) == [PageCursor("3"), PageCursor("6"), nil])

        // A cursor past the end is an empty last page; anything but an offset is refused.
        #expect(try await service.page(of: .trending, after: PageCursor("50")) == Page(posts: [], next: nil))
        await #expect(throws: SandboxError.unknownCursor("117645328513148734x")) {
            _ = try await service.page(of: .trending, after: PageCursor("117645328513148734x"))
        }
    }

    @Test func theRankingHoldsWhileTheUserInteractsAndNothingIsNewerThanATrend() async throws {
        let service = try makeService()
        let first = try await service.page(of: .trending, after: nil)
        _ = try await service.set(.favourite, to: true, postID: PostID("5"))
        _ = try await service.set(.reblog, to: true, postID: PostID("5"))
        _ = try await service.set(.reblog, to: true, postID: PostID("9"))
        let second = try await service.page(of: .trending, after: first.next)
        #expect(second.ids == ["9", "8", "7"], "the posts under the reader's offset did not move")
        #expect(second.posts.first?.reblogsCount == 1, "though the counts are today's")
        #expect(try await service.newer(in: .trending, than: PostID("1"), olderThan: nil) == NewerPage(posts: [], hasMore: false))

        // Loading the first page again ranks anew: 5 (now 2) ties 3 and is newer; 9 (1) ties 2.
        let reloaded = try await Self.walk { try await service.page(of: .trending, after: $0) }
        #expect(reloaded.map(\.ids) == [["1", "5", "3"], ["9", "2", "8"], ["7"]])
    }

    @Test func anArrivalWhileReadingJoinsTheTrendsOnTheNextReload() async throws {
        let hot = Self.post(10, by: "gina", tags: ["owls"], favourites: 100)
        let scenario = SandboxScenario(arrivals: [SandboxScenario.Arrival(afterPages: 1, statuses: [hot])])
        let service = try SandboxService(statuses: Self.statuses, scenario: scenario, pageSize: 3, clock: VirtualClock())
        let reading = try await Self.walk { try await service.page(of: .trending, after: $0) }
        #expect(reading.map(\.ids) == [["1", "3", "2"], ["9", "8", "7"], ["5"]], "the arrival after the first page moved nothing")
        #expect(try await service.page(of: .trending, after: nil).ids == ["10", "1", "3"])
        #expect(
            try await service.trendingTags(after: nil).items == [
                Hashtag(name: "gardening", weeklyUses: 3, weeklyAccounts: 3, following: false),
                Hashtag(name: "owls", weeklyUses: 3, weeklyAccounts: 2, following: false),
                Hashtag(name: "Birds", weeklyUses: 2, weeklyAccounts: 2, following: false),
            ],
            "the hashtags count it at once"
        )
    }

    // MARK: - Trending hashtags

    @Test func trendingHashtagsAreTheTagsOfThePublicPostsByUseThenPeopleThenName() async throws {
        let service = try makeService(pageSize: 2, followed: ["owls"])
        let pages = try await Self.walk { try await service.trendingTags(after: $0) }
        #expect(
            pages.map(\.items) == [
                [
                    Hashtag(name: "gardening", weeklyUses: 3, weeklyAccounts: 3, following: false),
                    Hashtag(name: "Birds", weeklyUses: 2, weeklyAccounts: 2, following: false),
                ],
                [
                    Hashtag(name: "owls", weeklyUses: 2, weeklyAccounts: 1, following: true),
                    Hashtag(name: "alpha", weeklyUses: 1, weeklyAccounts: 1, following: false),
                ],
                [Hashtag(name: "tidepools", weeklyUses: 1, weeklyAccounts: 1, following: false)],
            ]
        )
        #expect(pages.map(\.next) == [PageCursor("2"), PageCursor("4"), nil])
        await #expect(throws: SandboxError.unknownCursor("owls")) { _ = try await service.trendingTags(after: PageCursor("owls")) }
    }

    // MARK: - Following

    @Test func followingPutsAHashtagFirstInTheFollowedOnesAndEveryAnswerSaysSo() async throws {
        let service = try makeService(pageSize: 2, followed: ["owls", "#Gardening"])
        #expect(
            try await service.setTagFollow(" #BIRDS", to: true) == Hashtag(name: "Birds", weeklyUses: 2, weeklyAccounts: 2, following: true),
            "spelled as the posts spell it"
        )
        #expect(try await service.setTagFollow("nobodyuses", to: true) == Hashtag(name: "nobodyuses", weeklyUses: 0, weeklyAccounts: 0, following: true))
        #expect(try await service.setTagFollow("owls", to: true).following == true, "following again keeps its place")

        let pages = try await Self.walk { try await service.followedTags(after: $0) }
        #expect(
            pages.map(\.items) == [
                [
                    Hashtag(name: "nobodyuses", weeklyUses: 0, weeklyAccounts: 0, following: true),
                    Hashtag(name: "Birds", weeklyUses: 2, weeklyAccounts: 2, following: true),
                ],
                [
                    Hashtag(name: "owls", weeklyUses: 2, weeklyAccounts: 1, following: true),
                    Hashtag(name: "gardening", weeklyUses: 3, weeklyAccounts: 3, following: true),
                ],
            ]
        )
        #expect(pages.map(\.next) == [PageCursor("2"), nil])
        #expect(try await service.trendingTags(after: nil).items.map(\.following) == [true, true], "gardening, Birds")
        let found = try await service.search("#bird", after: nil).items.compactMap { if case .hashtag(let tag) = $0 { tag } else { nil } }
        #expect(found == [Hashtag(name: "Birds", weeklyUses: 2, weeklyAccounts: 2, following: true)], "search says so too")

        #expect(try await service.setTagFollow("birds", to: false) == Hashtag(name: "Birds", weeklyUses: 2, weeklyAccounts: 2, following: false))
        #expect(try await service.setTagFollow("neverfollowed", to: false).following == false, "nothing to undo")
        let left = try await Self.walk { try await service.followedTags(after: $0) }.flatMap(\.items).map(\.name)
        #expect(left == ["nobodyuses", "owls", "gardening"])
        #expect(try await service.search("birds", after: nil).items.contains(.hashtag(Hashtag(name: "Birds", weeklyUses: 2, weeklyAccounts: 2, following: false))))
    }

    @Test func whatIsNoHashtagIsRefusedNeverTransient() async throws {
        let service = try makeService()
        let refusals: [(String, String)] = [
            ("a-b", "\"#a-b\" is not a hashtag: a hashtag has only letters, digits and underscores."),
            ("bird watching", "\"#bird watching\" is not a hashtag: a hashtag has only letters, digits and underscores."),
            (" # ", "There is no hashtag to follow."),
        ]
        for (name, sentence) in refusals {
            do {
                _ = try await service.setTagFollow(name, to: true)
                Issue.record("\(name) was followed")
            } catch let error as SandboxError {
                #expect(error == .refused(sentence))
                #expect(!error.isTransient)
                #expect(FeedFailure(error).message == sentence)
            }
        }
        #expect(try await service.followedTags(after: nil) == Page(items: [], next: nil))
    }

    // MARK: - Scenario

    @Test func eachCallIsItsOwnRequestKindAndALostAnswerStillActs() async throws {
        let cases: [(SandboxScenario.Request, @Sendable (SandboxService) async throws -> Void)] = [
            (.followedTags, { _ = try await $0.followedTags(after: nil) }),
            (.trendingTags, { _ = try await $0.trendingTags(after: nil) }),
            (.tagFollow, { _ = try await $0.setTagFollow("owls", to: true) }),
            (.page, { _ = try await $0.page(of: .trending, after: nil) }),
        ]
        for (request, call) in cases {
            let service = try makeService(faults: [.init(.init(request, times: 1), failure: .timeout)])
            await #expect(throws: SandboxError.fault(.timeout, request: request)) { try await call(service) }
            try await call(service)  // the fault covered one request
        }

        let lost = try makeService(faults: [.init(.init(.tagFollow, times: 1), failure: .lostAnswer)])
        await #expect(throws: SandboxError.fault(.lostAnswer, request: .tagFollow)) { _ = try await lost.setTagFollow("owls", to: true) }
        #expect(try await lost.followedTags(after: nil).items.map(\.name) == ["owls"], "the server acted before the answer was lost")
    }

    @Test func theStartingFollowsComeFromTheScenarioFileEachOnceNewestFirst() async throws {
        let scenario = try FixtureLoader.scenario(from: Data(##"{"followed_tags": ["#Owls", "gardening", "owls", "nobodyuses"]}"##.utf8)) { _ in [] }
        #expect(scenario.followedTags == ["#Owls", "gardening", "owls", "nobodyuses"])
        let service = try SandboxService(statuses: Self.statuses, scenario: scenario, pageSize: 10, clock: VirtualClock())
        #expect(
            try await service.followedTags(after: nil).items == [
                Hashtag(name: "owls", weeklyUses: 2, weeklyAccounts: 1, following: true),
                Hashtag(name: "gardening", weeklyUses: 3, weeklyAccounts: 3, following: true),
                Hashtag(name: "nobodyuses", weeklyUses: 0, weeklyAccounts: 0, following: true),
            ]
        )
        #expect(throws: SandboxError.invalidScenario("followed_tags[0]: \"a-b\" is not a hashtag name (letters, digits and underscores)")) {
            _ = try SandboxService(statuses: Self.statuses, scenario: SandboxScenario(followedTags: ["a-b"]), clock: VirtualClock())
        }
    }

    // MARK: - The bundled fixture

    @Test func theFixturesTrendingPostsAreEveryPublicPostOnceMostEngagedFirst() async throws {
        let service = try SandboxService(fixture: try SandboxAccountsTests.fixture(), pageSize: 20, clock: VirtualClock())
        // The arrivals join and the reactions happen first (after one and two pages), so the
        // ranking is made with the counts the posts show.
        let home = try await service.page(of: .home, after: nil)
        _ = try await service.page(of: .home, after: home.next)
        let trending = try await Self.walk { try await service.page(of: .trending, after: $0) }.flatMap(\.posts)
        let public_ = try await Self.walk { try await service.page(of: .public, after: $0) }.flatMap(\.posts)
        #expect(trending.count == public_.count)
        #expect(Set(trending.map(\.id)) == Set(public_.map(\.id)))
        let ranks = trending.map { (engagement: $0.favouritesCount + $0.reblogsCount, date: $0.createdAt) }
        for (higher, lower) in zip(ranks, ranks.dropFirst()) {
            #expect(higher.engagement > lower.engagement || (higher.engagement == lower.engagement && higher.date >= lower.date))
        }
    }

    @Test func theFixturesSearchSaysWhichHashtagsAreFollowed() async throws {
        var fixture = try SandboxAccountsTests.fixture()
        fixture.scenario.followedTags = ["birds"]
        let service = try SandboxService(fixture: fixture, pageSize: 5, clock: VirtualClock())
        let tags = try await service.search("#bird", after: nil).items.compactMap { if case .hashtag(let tag) = $0 { tag } else { nil } }
        #expect(tags.map(\.name) == ["birds", "birdfeeder"])
        #expect(tags.map(\.following) == [true, false])
        let followed = try #require(try await service.followedTags(after: nil).items.first)
        #expect(followed == tags.first, "the same hashtag, counted the same")
    }
}
