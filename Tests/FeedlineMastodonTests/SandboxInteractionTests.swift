@_spi(FeedService) import Feedline
import Foundation
import Testing

@_spi(FeedService) import FeedlineMastodon

@Suite struct SandboxInteractionTests {
    /// Post 3 has a boost (10) in the timeline; post 5 was already favourited and boosted by the user.
    func makeService(laggingCounts: Bool = false) throws -> SandboxService {
        let statuses = [
            Build.status(1), Build.status(2), Build.status(3, favourites: 4, reblogs: 2),
            Build.status(5, favourites: 9, reblogs: 3, favourited: true, reblogged: true),
            Build.status(10, author: "bob", reblog: Build.status(3, favourites: 4, reblogs: 2)),
        ]
        return try SandboxService(
            statuses: statuses,
            scenario: SandboxScenario(laggingCounts: laggingCounts),
            clock: VirtualClock(),
            wallClock: .fixed(Date(timeIntervalSince1970: 1_795_200_000))
        )
    }

    // MARK: - Favourite

    @Test func favouritingSetsTheFlagAndCountAndIsIdempotent() async throws {
        let service = try makeService()
        let favourited = try await service.set(.favourite, to: true, postID: "3")
        #expect(favourited.id == "3")
        #expect(favourited.favourited == true && favourited.favouritesCount == 5)
        let again = try await service.set(.favourite, to: true, postID: "3")
        #expect(again == favourited)
        #expect(try await service.post("3") == favourited)
    }

    @Test func unfavouritingUndoesOnceAndReturnsAnUnfavouritedPostUnchanged() async throws {
        let service = try makeService()
        let untouched = try await service.set(.favourite, to: false, postID: "3")
        #expect(untouched == (try await service.post("3")))
        #expect(untouched.favourited == false && untouched.favouritesCount == 4)

        let undone = try await service.set(.favourite, to: false, postID: "5")
        #expect(undone.favourited == false && undone.favouritesCount == 8)
        let again = try await service.set(.favourite, to: false, postID: "5")
        #expect(again == undone)
    }

    @Test func interactingThroughABoostActsOnTheOriginalEverywhere() async throws {
        let service = try makeService()
        let reply = try await service.set(.favourite, to: true, postID: "10")
        #expect(reply.id == "3")
        #expect(reply.favouritesCount == 5)
        let page = try await service.page(of: .home, after: nil)
        let boost = try #require(page.posts.first { $0.id == "10" })
        let original = try #require(page.posts.first { $0.id == "3" })
        #expect(boost.originalID == "3")
        #expect(boost.content == original)
        #expect(boost.content.favourited == true && boost.content.favouritesCount == 5)
    }

    // MARK: - Reblog

    @Test func reblogReturnsTheUsersWrapperWithTheOriginalInside() async throws {
        let service = try makeService()
        let wrapper = try await service.set(.reblog, to: true, postID: "3")
        #expect(wrapper.id != "3" && wrapper.id != "10")
        #expect(wrapper.originalID == "3")
        #expect(wrapper.author.handle == SandboxScenario.defaultAccount.acct)
        #expect(wrapper.boostedBy != nil)
        #expect(wrapper.createdAt == Date(timeIntervalSince1970: 1_795_200_000))
        #expect(wrapper.content.reblogged == true && wrapper.content.reblogsCount == 3)

        let again = try await service.set(.reblog, to: true, postID: "3")
        #expect(again == wrapper, "the same wrapper, count not bumped twice")
        #expect(try await service.post(wrapper.id) == wrapper)
        #expect(try await service.post("3").reblogsCount == 3)
        #expect(try await service.page(of: .home, after: nil).posts.count == 5, "the user's boost does not join the home timeline")
    }

    @Test func unreblogReturnsTheOriginalAndRemovesTheWrapper() async throws {
        let service = try makeService()
        let wrapper = try await service.set(.reblog, to: true, postID: "10")
        #expect(wrapper.originalID == "3")
        let undone = try await service.set(.reblog, to: false, postID: "3")
        #expect(undone.id == "3")
        #expect(undone.reblogged == false && undone.reblogsCount == 2)
        await #expect(throws: SandboxError.notFound(wrapper.id)) { try await service.post(wrapper.id) }
        let again = try await service.set(.reblog, to: false, postID: "3")
        #expect(again == undone)
    }

    @Test func aPostTheUserHadBoostedAlreadyGetsAWrapperWithoutACountBump() async throws {
        let service = try makeService()
        let wrapper = try await service.set(.reblog, to: true, postID: "5")
        #expect(wrapper.content.reblogsCount == 3 && wrapper.content.reblogged == true)
        let undone = try await service.set(.reblog, to: false, postID: "5")
        #expect(undone.reblogged == false && undone.reblogsCount == 2)
    }

    @Test func theUserCanBoostABoostOfTheirOwnAndUndoItThroughTheWrapper() async throws {
        let service = try makeService()
        let wrapper = try await service.set(.reblog, to: true, postID: "2")
        let undone = try await service.set(.reblog, to: false, postID: wrapper.id)
        #expect(undone.id == "2" && undone.reblogged == false)
    }

    // MARK: - Lagging counts

    @Test func laggingCountsKeepTheOldCountInUndoRepliesOnly() async throws {
        let service = try makeService(laggingCounts: true)
        let unfavourited = try await service.set(.favourite, to: false, postID: "5")
        #expect(unfavourited.favourited == false)
        #expect(unfavourited.favouritesCount == 9, "the reply lags")
        #expect(try await service.post("5").favouritesCount == 8, "the server's state does not")

        let unreblogged = try await service.set(.reblog, to: false, postID: "5")
        #expect(unreblogged.reblogged == false)
        #expect(unreblogged.reblogsCount == 3)
        #expect(try await service.post("5").reblogsCount == 2)

        let favourited = try await service.set(.favourite, to: true, postID: "1")
        #expect(favourited.favouritesCount == 1, "only undo replies lag")
    }

    @Test func countsDoNotLagByDefault() async throws {
        let service = try makeService()
        #expect(try await service.set(.favourite, to: false, postID: "5").favouritesCount == 8)
        #expect(try await service.set(.reblog, to: false, postID: "5").reblogsCount == 2)
    }

    @Test func interactionsWithAnUnknownPostAreRecordNotFound() async throws {
        let service = try makeService()
        await #expect(throws: SandboxError.notFound("404")) { try await service.set(.favourite, to: true, postID: "404") }
        await #expect(throws: SandboxError.notFound("404")) { try await service.set(.reblog, to: true, postID: "404") }
        #expect(FeedFailure(SandboxError.notFound("404")).message == "Record not found")
    }

    @Test func concurrentTogglesLeaveConsistentCounts() async throws {
        let service = try makeService()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<200 {
                group.addTask { _ = try await service.set(.favourite, to: index.isMultiple(of: 2), postID: "3") }
                group.addTask { _ = try await service.set(.reblog, to: index.isMultiple(of: 2), postID: "10") }
            }
            try await group.waitForAll()
        }
        let post = try await service.post("3")
        #expect(post.favouritesCount == 4 + (post.favourited ? 1 : 0))
        #expect(post.reblogsCount == 2 + (post.reblogged ? 1 : 0))
    }

    // MARK: - Single post and context

    @Test func aPostIsFoundByEntryOrOriginalId() async throws {
        let fixture = try FixtureLoader.load(from: try FixturePaths.directory("timeline"))
        let service = try SandboxService(fixture: fixture, clock: VirtualClock())
        let ids = Set(fixture.statuses.map(\.id))
        let boostOfOutsider = try #require(fixture.statuses.first { $0.reblog.map { !ids.contains($0.id) } == true })
        let boost = try await service.post(PostID(boostOfOutsider.id))
        #expect(boost.id.rawValue == boostOfOutsider.id)
        let original = try await service.post(boost.originalID)
        #expect(original == boost.content)
        await #expect(throws: SandboxError.notFound("1")) { try await service.post("1") }
    }

    @Test func contextIsBuiltFromReplies() async throws {
        // 1 ← 2 ← 3, 1 ← 4 ← 6, 1 ← 5; 7 unrelated; 8 boosts 4.
        let statuses = [
            Build.status(1), Build.status(2, replyTo: 1), Build.status(3, replyTo: 2), Build.status(4, replyTo: 1),
            Build.status(5, replyTo: 1), Build.status(6, replyTo: 4), Build.status(7),
            Build.status(8, author: "bob", reblog: Build.status(4, replyTo: 1)),
        ]
        let service = try SandboxService(statuses: statuses, clock: VirtualClock())
        let root = try await service.context(of: "1")
        #expect(root.ancestors.isEmpty)
        #expect(root.descendants.map(\.id) == ["2", "3", "4", "6", "5"])
        let middle = try await service.context(of: "4")
        #expect(middle.ancestors.map(\.id) == ["1"])
        #expect(middle.descendants.map(\.id) == ["6"])
        let leaf = try await service.context(of: "6")
        #expect(leaf.ancestors.map(\.id) == ["1", "4"])
        #expect(leaf.descendants.isEmpty)
        #expect(try await service.context(of: "8") == middle, "a boost shows its original's thread")
        #expect(try await service.context(of: "7") == PostContext())
        await #expect(throws: SandboxError.notFound("99")) { try await service.context(of: "99") }
    }

    @Test func contextSurvivesCyclesAndMissingParents() async throws {
        let statuses = [Build.status(1, replyTo: 2), Build.status(2, replyTo: 1), Build.status(3, replyTo: 404)]
        let service = try SandboxService(statuses: statuses, clock: VirtualClock())
        let cycle = try await service.context(of: "1")
        #expect(cycle.ancestors.map(\.id) == ["2"])
        #expect(cycle.descendants.isEmpty, "2 is already above 1")
        #expect(try await service.context(of: "3") == PostContext())
    }

    @Test func theFixtureThreadHasAncestorsAndDescendants() async throws {
        let fixture = try FixtureLoader.load(from: try FixturePaths.directory("timeline"))
        let service = try SandboxService(fixture: fixture, clock: VirtualClock())
        let root = try #require(fixture.statuses.first { $0.content.contains("Why we count dragonflies") })
        let thread = try await service.context(of: PostID(root.id))
        #expect(thread.ancestors.isEmpty)
        #expect(thread.descendants.count == 5)
        #expect(thread.descendants.map { $0.author.handle } == [
            "kemi@fieldnotes.science", "kemi@fieldnotes.science", "mira", "kemi@fieldnotes.science", "tomas@kettle.town",
        ])
        let last = try #require(thread.descendants.last)
        let fromTheLeaf = try await service.context(of: last.id)
        #expect(fromTheLeaf.ancestors.map(\.author.handle) == ["kemi@fieldnotes.science", "mira", "kemi@fieldnotes.science"])
        #expect(fromTheLeaf.ancestors.first?.id.rawValue == root.id)
    }
}
