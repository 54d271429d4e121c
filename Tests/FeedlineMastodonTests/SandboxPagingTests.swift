@_spi(FeedService) import Feedline
import Foundation
import Testing

@_spi(FeedService) import FeedlineMastodon

@Suite struct SandboxPagingTests {
    @Test func walkingTheTimelineFixtureVisitsEveryPostOnceNewestFirst() async throws {
        let fixture = try FixtureLoader.load(from: try FixturePaths.directory("timeline"))
        let service = try SandboxService(fixture: fixture, clock: VirtualClock())
        var posts: [Post] = []
        var sizes: [Int] = []
        var cursor: PageCursor?
        repeat {
            let page = try await service.page(of: .home, after: cursor)
            posts += page.posts
            sizes.append(page.posts.count)
            cursor = page.next
        } while cursor != nil && sizes.count < 100

        #expect(posts.count == fixture.statuses.count)
        #expect(Set(posts.map(\.id)).count == posts.count, "no duplicates")
        #expect(Set(posts.map(\.id.rawValue)) == Set(fixture.statuses.map(\.id)), "no gaps")
        #expect(zip(posts, posts.dropFirst()).allSatisfy { $0.createdAt >= $1.createdAt })
        #expect(sizes.dropLast().allSatisfy { $0 == 20 })
        #expect(sizes.last == fixture.statuses.count % 20)
    }

    @Test(arguments: [(45, [20, 20, 5]), (40, [20, 20]), (7, [7]), (1, [1])])
    func pagesEndWithoutACursor(_ count: Int, _ expected: [Int]) async throws {
        let service = try SandboxService(statuses: Build.timeline(count).shuffled(), clock: VirtualClock())
        var sizes: [Int] = []
        var ids: [String] = []
        var page = try await service.page(of: .home, after: nil)
        while true {
            sizes.append(page.posts.count)
            ids += page.ids
            guard let next = page.next else { break }
            #expect(next.rawValue == page.ids.last)
            page = try await service.page(of: .home, after: next)
        }
        #expect(sizes == expected)
        #expect(ids == (1...count).reversed().map(String.init))
    }

    @Test("a local account is named by its short handle or by its full one on the sandbox's domain (the signed-in account's host, or its own profile's); a remote one by its full handle",
          arguments: ["timeline", "faults"])
    func localAccountsByFullHandle(_ folder: String) async throws {
        let service = try SandboxService(fixture: try FixtureLoader.load(from: try FixturePaths.directory(folder)), clock: VirtualClock())
        let mira = try await service.account(named: "mira")
        #expect(mira.handle == "mira")
        for handle in ["@mira", "mira@tidepool.social", "@Mira@TidePool.Social"] {
            #expect(try await service.account(named: handle) == mira, "\(handle)")
        }
        let page = try await service.page(of: .account(AccountID(handle: "mira@tidepool.social")), after: nil)
        #expect(!page.posts.isEmpty)
        #expect(page.posts.allSatisfy { $0.author.id == mira.id || $0.reblog != nil })
        #expect(try await service.account(named: "kemi@fieldnotes.science").handle == "kemi@fieldnotes.science")
        for unknown in ["mira@elsewhere.example", "kemi", "kemi@tidepool.social", "mira@"] {
            await #expect(throws: (any Error).self, "\(unknown)") { try await service.account(named: unknown) }
        }
    }

    @Test func thePageAfterTheLastPostIsEmpty() async throws {
        let service = try SandboxService(statuses: Build.timeline(3), clock: VirtualClock())
        let page = try await service.page(of: .home, after: PageCursor("1"))
        #expect(page.posts.isEmpty)
        #expect(page.next == nil)
    }

    @Test func aCursorThatIsNoIdIsAnError() async throws {
        let service = try SandboxService(statuses: Build.timeline(3), clock: VirtualClock())
        await #expect(throws: SandboxError.unknownCursor("x9")) {
            try await service.page(of: .home, after: PageCursor("x9"))
        }
        #expect(SandboxError.unknownCursor("x9").errorDescription == "No page of this feed starts after x9.")
    }

    /// A list saved by an earlier run may end at a post this run's sandbox does not hold (one its
    /// stream brought): like Mastodon's `max_id`, the cursor still bounds by id order.
    @Test func aCursorNamingAPostTheFeedDoesNotHoldPagesOnByIdOrder() async throws {
        let statuses = [Build.status(10), Build.status(20), Build.status(30), Build.status(40)]
        let service = try SandboxService(statuses: statuses, pageSize: 2, clock: VirtualClock())
        let below = try await service.page(of: .home, after: PageCursor("35"))
        #expect(below.ids == ["30", "20"])
        #expect(below.next == PageCursor("20"))
        #expect(try await service.page(of: .home, after: PageCursor("15")).ids == ["10"])
        #expect(try await service.page(of: .home, after: PageCursor("5")).ids == [])
        #expect(try await service.page(of: .home, after: PageCursor("999")).ids == ["40", "30"])
    }

    @Test func postsWithTheSameDateAreOrderedByIdNumerically() async throws {
        let statuses = [Build.status(9, minute: 5), Build.status(10, minute: 5), Build.status(100, minute: 5), Build.status(11, minute: 6)]
        let service = try SandboxService(statuses: statuses, clock: VirtualClock())
        #expect(try await service.page(of: .home, after: nil).ids == ["11", "100", "10", "9"])
    }

    @Test(arguments: [0, -1, 41, 1000])
    func pageSizesOutsideOneToFortyAreRejected(_ size: Int) {
        #expect(throws: SandboxError.invalidPageSize(size)) {
            _ = try SandboxService(statuses: Build.timeline(3), pageSize: size, clock: VirtualClock())
        }
        #expect(SandboxError.invalidPageSize(size).errorDescription == "The page size must be between 1 and 40, not \(size).")
    }

    @Test func thePageSizeComesFromTheCallerThenTheScenarioThenTheDefault() throws {
        let statuses = Build.timeline(3)
        #expect(try SandboxService(statuses: statuses, clock: VirtualClock()).pageSize == 20)
        #expect(try SandboxService(statuses: statuses, scenario: SandboxScenario(pageSize: 5), clock: VirtualClock()).pageSize == 5)
        #expect(try SandboxService(statuses: statuses, scenario: SandboxScenario(pageSize: 5), pageSize: 40, clock: VirtualClock()).pageSize == 40)
        #expect(throws: SandboxError.invalidScenario("page_size must be between 1 and 40, not 50")) {
            _ = try SandboxService(statuses: statuses, scenario: SandboxScenario(pageSize: 50), clock: VirtualClock())
        }
    }

    @Test func repeatedIdsAreRejected() {
        #expect(throws: SandboxError.duplicateStatus("2")) {
            _ = try SandboxService(statuses: Build.timeline(3) + [Build.status(2)], clock: VirtualClock())
        }
    }

    // MARK: - Newer posts: since_id + max_id

    @Test func newerPostsAreTheNewestOfTheRangeAndSayExactlyWhetherMoreRemain() async throws {
        let service = try SandboxService(statuses: Build.timeline(50), clock: VirtualClock())
        let exactlyAPage = try await service.newer(in: .home, than: "30", olderThan: nil)
        #expect(exactlyAPage.ids == (31...50).reversed().map(String.init))
        #expect(exactlyAPage.hasMore == false)

        let moreThanAPage = try await service.newer(in: .home, than: "29", olderThan: nil)
        #expect(moreThanAPage.ids == (31...50).reversed().map(String.init))
        #expect(moreThanAPage.hasMore == true)

        let gap = try await service.newer(in: .home, than: "29", olderThan: "31")
        #expect(gap.ids == ["30"])
        #expect(gap.hasMore == false)

        let wideGap = try await service.newer(in: .home, than: "1", olderThan: "45")
        #expect(wideGap.ids == (24...44).reversed().dropLast().map(String.init))
        #expect(wideGap.hasMore == true)

        let nothingNewer = try await service.newer(in: .home, than: "50", olderThan: nil)
        #expect(nothingNewer.posts.isEmpty && nothingNewer.hasMore == false)

        let emptyRange = try await service.newer(in: .home, than: "20", olderThan: "21")
        #expect(emptyRange.posts.isEmpty && emptyRange.hasMore == false)

        let upsideDown = try await service.newer(in: .home, than: "20", olderThan: "10")
        #expect(upsideDown.posts.isEmpty && upsideDown.hasMore == false)
    }

    @Test func newerPostsAroundAnUnknownPostAreBoundByIDOrderAsOnMastodon() async throws {
        let service = try SandboxService(statuses: Build.timeline(5), clock: VirtualClock())
        // A numeric id the feed does not hold (deleted, or streamed in an earlier run) still
        // bounds by order, as since_id and max_id do on Mastodon.
        #expect(try await service.newer(in: .home, than: "77", olderThan: nil).posts.isEmpty)
        #expect(try await service.newer(in: .home, than: "1", olderThan: "78").posts.map(\.id) == ["5", "4", "3", "2"])
        #expect(try await service.newer(in: .home, than: "0", olderThan: "4").posts.map(\.id) == ["3", "2", "1"])
        // One that is not a number cannot be placed.
        await #expect(throws: SandboxError.notFound("x7")) { try await service.newer(in: .home, than: "x7", olderThan: nil) }
        await #expect(throws: SandboxError.notFound("x8")) { try await service.newer(in: .home, than: "1", olderThan: "x8") }
    }

    // MARK: - Arrivals

    @Test func arrivalsAppearAfterTheFirstPageForARefreshAndAGapToFind() async throws {
        let fixture = try FixtureLoader.load(from: try FixturePaths.directory("timeline"))
        let arrivals = fixture.scenario.arrivals.flatMap(\.statuses).sorted { $0.createdAt > $1.createdAt }
        let service = try SandboxService(fixture: fixture, clock: VirtualClock())

        let first = try await service.page(of: .home, after: nil)
        let top = try #require(first.posts.first)
        #expect(!first.ids.contains { id in arrivals.contains { $0.id == id } }, "held back during the first page")

        let refresh = try await service.newer(in: .home, than: top.id, olderThan: nil)
        #expect(refresh.ids == arrivals.prefix(20).map(\.id))
        #expect(refresh.hasMore == true)

        let oldestShown = try #require(refresh.posts.last)
        let fill = try await service.newer(in: .home, than: top.id, olderThan: oldestShown.id)
        #expect(fill.ids == arrivals.dropFirst(20).map(\.id))
        #expect(fill.ids.count >= 5)
        #expect(fill.hasMore == false)

        let fromTheTop = try await service.page(of: .home, after: nil)
        #expect(fromTheTop.ids == arrivals.prefix(20).map(\.id))
    }

    @Test func arrivalsWaitForTheirPageCount() async throws {
        let arrival = SandboxScenario.Arrival(afterPages: 2, statuses: [Build.status(100)])
        let service = try SandboxService(statuses: Build.timeline(30), scenario: SandboxScenario(arrivals: [arrival]), clock: VirtualClock())
        let before = try await service.newer(in: .home, than: "30", olderThan: nil)
        #expect(before.posts.isEmpty)
        let first = try await service.page(of: .home, after: nil)
        #expect(try await service.newer(in: .home, than: "30", olderThan: nil).posts.isEmpty)
        _ = try await service.page(of: .home, after: first.next)
        #expect(try await service.newer(in: .home, than: "30", olderThan: nil).ids == ["100"])
    }
}
