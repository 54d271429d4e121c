@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

@_spi(FeedService) import FeedlineMastodon

/// Lists on the sandbox, on the bundled fixture: the scenario's two lists, their timelines made
/// of their accounts' home entries, and every change as Mastodon answers it (a blank title and
/// an account not followed refused with Mastodon's sentence, a list gone a 404).
@Suite struct SandboxListsTests {
    static func service() throws -> SandboxService {
        try SandboxService(fixture: try SandboxAccountsTests.fixture(), pageSize: 20, clock: VirtualClock())
    }

    /// Every post of a feed, page after page.
    static func all(_ service: SandboxService, _ feed: Feed) async throws -> [Post] {
        var posts: [Post] = []
        var cursor: PageCursor?
        repeat {
            let page = try await service.page(of: feed, after: cursor)
            posts += page.posts
            cursor = page.next
        } while cursor != nil && posts.count < 1_000
        return posts
    }

    @Test func theScenarioListsComeWithTheirAccounts() async throws {
        let service = try Self.service()
        #expect(try await service.lists() == [UserList(id: "1", title: "Birders"), UserList(id: "2", title: "Field notes")])
        let birders = try await service.accounts(in: .members("1"), after: nil)
        #expect(birders.items.map(\.author.handle) == ["kemi@fieldnotes.science", "rowan@bramble.zone"])
        #expect(birders.next == nil)
        #expect(try await service.accounts(in: .members("2"), after: nil).items.map(\.author.handle) == ["aoi@ginkgo.garden"])
    }

    @Test func aListsTimelineIsTheHomeEntriesOfItsAccountsAndFollowsItsChanges() async throws {
        let service = try Self.service()
        // The arrivals join after the first page: the second walk sees every entry.
        _ = try await Self.all(service, .home)
        let home = try await Self.all(service, .home)
        let birders = try await Self.all(service, .list("1"))
        let members: Set<String> = ["kemi@fieldnotes.science", "rowan@bramble.zone"]
        #expect(!birders.isEmpty)
        #expect(birders.map(\.id) == home.filter { members.contains($0.author.handle) }.map(\.id), "home's order, only theirs")
        let rowan = try #require(birders.first { $0.author.handle == "rowan@bramble.zone" }?.author)
        try await service.setListMembership(list: "1", account: AccountID(rowan.id), to: false)
        #expect(try await Self.all(service, .list("1")).allSatisfy { $0.author.handle == "kemi@fieldnotes.science" })
        try await service.setListMembership(list: "1", account: AccountID(handle: "rowan@bramble.zone"), to: true)
        #expect(try await Self.all(service, .list("1")).map(\.id) == birders.map(\.id))
    }

    @Test func makeRenameAndDeleteAsMastodonDoes() async throws {
        let service = try Self.service()
        let made = try await service.createList(title: "  Moths ")
        #expect(made == UserList(id: "3", title: "Moths"))
        #expect(try await Self.all(service, .list("3")).isEmpty)
        #expect(try await service.renameList("3", to: "Night moths") == UserList(id: "3", title: "Night moths"))
        await #expect(throws: SandboxError.refused("Validation failed: Title can't be blank")) { _ = try await service.createList(title: " ") }
        await #expect(throws: SandboxError.refused("Validation failed: Title can't be blank")) { _ = try await service.renameList("3", to: "") }
        try await service.deleteList("2")
        #expect(try await service.lists().map(\.title) == ["Birders", "Night moths"])
        await #expect(throws: SandboxError.unknownList("2")) { _ = try await service.page(of: .list("2"), after: nil) }
        await #expect(throws: SandboxError.unknownList("2")) { _ = try await service.accounts(in: .members("2"), after: nil) }
        await #expect(throws: SandboxError.unknownList("2")) { try await service.deleteList("2") }
        #expect(SandboxError.unknownList("2").errorDescription == "There is no list 2 here.")
        #expect(try await service.createList(title: "Again").id == "4", "ids are never reused")
    }

    @Test func onlyAnAccountYouFollowCanBeAdded() async throws {
        let service = try Self.service()
        // Followed by the user's follower, not by the user.
        await #expect(throws: SandboxError.refused("Validation failed: Account follow relationship missing")) {
            try await service.setListMembership(list: "2", account: AccountID(handle: "marisol@garza.social"), to: true)
        }
        try await service.setListMembership(list: "2", account: AccountID(handle: "ruth"), to: true)
        try await service.setListMembership(list: "2", account: AccountID(handle: "ruth"), to: true)
        #expect(try await service.accounts(in: .members("2"), after: nil).items.map(\.author.handle) == ["aoi@ginkgo.garden", "ruth"])
        await #expect(throws: SandboxError.unknownAccount("nobody@nowhere.example")) {
            try await service.setListMembership(list: "2", account: AccountID(handle: "nobody@nowhere.example"), to: true)
        }
    }

    @Test func theScenarioListsAreChecked() async throws {
        var fixture = try SandboxAccountsTests.fixture()
        fixture.scenario.lists = [SandboxScenario.ListFixture(title: "Strangers", accounts: ["marisol@garza.social"])]
        #expect(throws: SandboxError.invalidScenario("lists[0].accounts: the user does not follow @marisol@garza.social, and a list holds only followed accounts")) {
            _ = try SandboxService(fixture: fixture, clock: VirtualClock())
        }
        fixture.scenario.lists = [SandboxScenario.ListFixture(title: "Ghosts", accounts: ["nobody@nowhere.example"])]
        #expect(throws: SandboxError.invalidScenario("lists[0].accounts: no account @nobody@nowhere.example in the fixtures")) {
            _ = try SandboxService(fixture: fixture, clock: VirtualClock())
        }
        let scenario = try FixtureLoader.scenario(from: Data(#"{"lists": [{"title": "Birders", "accounts": ["kemi@fieldnotes.science"]}, {"title": "Empty"}]}"#.utf8)) { _ in [] }
        #expect(scenario.lists == [SandboxScenario.ListFixture(title: "Birders", accounts: ["kemi@fieldnotes.science"]), SandboxScenario.ListFixture(title: "Empty")])
    }
}
