@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

/// Lists as shared state: every lists screen and every screen of a list's accounts follows the
/// one store, optimistic and rolled back with the reason.
@MainActor
@Suite("Lists")
struct UserListSessionTests {
    static func titles(_ list: FeedListViewModel) -> [String] {
        list.rows.compactMap { $0.userList.map { "\($0.title)\($0.pending ? "…" : "")" } }
    }

    static func accounts(_ list: FeedListViewModel) -> [String] {
        list.rows.compactMap { $0.account?.id.rawValue }
    }

    /// Two lists screens with something between them.
    static func twoListsScreens(_ server: GatedServer) async -> (FeedSession, FeedListViewModel, FeedListViewModel) {
        let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: ManualClock())
        session.navigator.push(.list(.userLists))
        session.navigator.push(.list(.feed(.local)))
        session.navigator.push(.list(.userLists))
        await session.settle()
        let lists = session.navigator.screens.compactMap(\.list).filter { $0.source == .userLists }
        return (session, lists[0], lists[1])
    }

    @Test("a new list shows at once on every lists screen with a provisional id; the server's list replaces it where it stands")
    func createShowsAtOnce() async throws {
        let server = GatedServer.lists([UserList(id: "L1", title: "Birders")])
        let (session, first, second) = await Self.twoListsScreens(server)
        #expect(Self.titles(first) == ["Birders"])
        let made = try session.createList(title: "  Field notes ")
        #expect(made.isProvisional)
        #expect(made.title == "Field notes")
        #expect(Self.titles(first) == ["Birders", "Field notes…"])
        #expect(Self.titles(second) == ["Birders", "Field notes…"])
        #expect(throws: UserListProblem.duplicate("Field notes").failure) { try session.createList(title: "field NOTES") }
        #expect(throws: UserListProblem.emptyTitle.failure) { try session.createList(title: "   ") }
        #expect(throws: UserListProblem.provisional("Field notes").failure) { try session.renameList(made.id, to: "Notes") }
        let log = OutcomeLog(session)
        await server.waitForHeld(1)
        server.answerHeld(at: 0)
        await session.settle()
        #expect(Self.titles(first) == ["Birders", "Field notes"])
        #expect(second.rows.compactMap(\.userList?.id) == ["L1", "list1"])
        #expect(second.rows.map(\.id) == [.list("L1"), .list(made.id)], "the row keeps its identity: an update, not a new row")
        #expect(second.current.changes.updates.map(\.element.id) == [.list(made.id)])
        #expect(log.heard == [Outcome.done(.list(made.id, title: "Field notes", was: nil))], "told under the provisional id")
        #expect(server.sent.map(\.description) == ["createList(Field notes)"])
    }

    @Test("a refused new list leaves every lists screen and says why")
    func refusedCreate() async throws {
        let server = GatedServer.lists([UserList(id: "L1", title: "Birders")])
        let (session, first, second) = await Self.twoListsScreens(server)
        let log = OutcomeLog(session)
        let made = try session.createList(title: "Moths")
        await server.waitForHeld(1)
        server.refuse(at: 0)
        await session.settle()
        #expect(Self.titles(first) == ["Birders"])
        #expect(Self.titles(second) == ["Birders"])
        #expect(log.heard == [Outcome.refused(.list(made.id, title: "Moths", was: nil), sentence: "Forbidden.")])
    }

    @Test("a rename shows at once on every lists screen and a list timeline's title; a refusal brings the title back with the reason on the row")
    func renameAndRollback() async throws {
        let server = GatedServer.lists([UserList(id: "L1", title: "Birders"), UserList(id: "L2", title: "Field notes")])
        let (session, first, second) = await Self.twoListsScreens(server)
        #expect(session.title(of: .list("L1")) == "the list Birders")
        #expect(session.title(of: .list("L9")) == "list L9")
        #expect(try session.renameList("L1", to: "Birds"))
        #expect(Self.titles(first) == ["Birds…", "Field notes"])
        #expect(Self.titles(second) == ["Birds…", "Field notes"])
        #expect(session.title(of: .list("L1")) == "the list Birds")
        // A second rename while the first waits only moves the wish: one request in flight.
        #expect(try session.renameList("L1", to: "Birdwatch"))
        #expect(throws: UserListProblem.duplicate("Field notes").failure) { try session.renameList("L1", to: "field notes") }
        await server.waitForHeld(1)
        #expect(session.lists.operationsInFlight == 1)
        server.answerHeld(at: 0)
        await server.waitForHeld(1)
        #expect(server.waiting.map(\.description) == ["renameList(L1, to: Birdwatch)"])
        server.refuse(at: 0)
        await session.settle()
        #expect(Self.titles(first) == ["Birds", "Field notes"], "back to what the server confirmed")
        #expect(first.rows.first?.userList?.failure == "Could not rename the list Birds to Birdwatch: Forbidden.")
        #expect(second.rows.first?.userList?.failure == first.rows.first?.userList?.failure)
        #expect(server.model.lists.lists.map(\.title) == ["Birds", "Field notes"])
    }

    @Test("a delete leaves every lists screen at once; a refusal puts it back where it was")
    func deleteAndRollback() async throws {
        let server = GatedServer.lists([UserList(id: "L1", title: "Birders"), UserList(id: "L2", title: "Field notes"), UserList(id: "L3", title: "Moths")])
        let (session, first, second) = await Self.twoListsScreens(server)
        try session.deleteList("L2")
        #expect(Self.titles(first) == ["Birders", "Moths"])
        #expect(Self.titles(second) == ["Birders", "Moths"])
        #expect(throws: UserListProblem.unknown("L2").failure) { try session.deleteList("L2") }
        await server.waitForHeld(1)
        server.refuse(at: 0)
        await session.settle()
        #expect(Self.titles(first) == ["Birders", "Field notes", "Moths"])
        #expect(Self.titles(second) == ["Birders", "Field notes", "Moths"])
        #expect(second.rows[1].userList?.failure == "Could not delete the list Field notes: Forbidden.")
        try session.deleteList("L3")
        await server.waitForHeld(1)
        server.answerHeld(at: 0)
        await session.settle()
        #expect(Self.titles(second) == ["Birders", "Field notes"])
        #expect(server.model.lists.lists.map(\.id) == ["L1", "L2"])
    }

    @Test("adding and removing accounts shows at once on every screen of the list's accounts; a refusal (not followed) rolls back with the server's sentence")
    func membership() async throws {
        let server = GatedServer.lists([UserList(id: "L1", title: "Birders")], members: ["L1": ["kemi", "ada"]], notFollowed: ["lin"])
        let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: ManualClock())
        session.navigator.push(.list(.userLists))
        session.navigator.push(.list(.accounts(.members("L1"))))
        session.navigator.push(.list(.feed(.list("L1"))))
        session.navigator.push(.list(.accounts(.members("L1"))))
        await session.settle()
        let screens = session.navigator.screens.compactMap(\.list).filter { $0.source == .accounts(.members("L1")) }
        let (first, second) = (screens[0], screens[1])
        #expect(Self.accounts(first) == ["kemi", "ada"])
        #expect(session.listMembership(list: "L1", account: "kemi") == ToggleDisplay(isOn: true))
        let kemi = try #require(server.model.relationships.profiles["kemi"])
        let lin = try #require(server.model.relationships.profiles["lin"])
        try session.setListMembership(list: "L1", account: kemi, false)
        #expect(Self.accounts(first) == ["ada"])
        #expect(Self.accounts(second) == ["ada"])
        await server.waitForHeld(1)
        server.refuse(at: 0)
        await session.settle()
        #expect(Self.accounts(first) == ["kemi", "ada"], "back where it was")
        #expect(Self.accounts(second) == ["kemi", "ada"])
        #expect(session.listMembership(list: "L1", account: "kemi")?.failure == "Could not remove @kemi from the list Birders: Forbidden.")
        try session.setListMembership(list: "L1", account: lin, true)
        #expect(Self.accounts(first) == ["lin", "kemi", "ada"])
        #expect(Self.accounts(second) == ["lin", "kemi", "ada"])
        await server.waitForHeld(1)
        server.answerHeld(at: 0)
        await session.settle()
        #expect(Self.accounts(second) == ["kemi", "ada"])
        #expect(session.listMembership(list: "L1", account: "lin")?.failure
            == "Could not add @lin to the list Birders: Validation failed: Account follow relationship missing")
        #expect(!session.hasFailures, "a refusal: nothing a retry would send")
        #expect(server.members("L1") == ["kemi", "ada"])
        // A list the session has not seen is the server's to know.
        try session.setListMembership(list: "L9", account: kemi, true)
        await server.waitForHeld(1)
        server.answerHeld(at: 0)
        await session.settle()
        #expect(session.listMembership(list: "L9", account: "kemi")?.failure == "Could not add @kemi to the list L9: Record not found")
        #expect(throws: UserListProblem.unknown("new-7").failure) { try session.setListMembership(list: "new-7", account: kemi, true) }
    }

    @Test("a fetch that began before a change does not undo it; lists gone from the server leave")
    func fetchEpochs() async throws {
        let server = GatedServer.lists([UserList(id: "L1", title: "Birders"), UserList(id: "L2", title: "Field notes")])
        let (session, first, _) = await Self.twoListsScreens(server)
        try session.renameList("L1", to: "Birds")
        try session.deleteList("L2")
        // Refreshing while both wait: the server still has the old title and L2.
        first.refresh()
        await server.waitForHeld(2)
        #expect(Self.titles(first) == ["Birds…"])
        server.answerHeld(at: 0)
        server.answerHeld(at: 0)
        await session.settle()
        #expect(Self.titles(first) == ["Birds"])
        first.refresh()
        await session.settle()
        #expect(Self.titles(first) == ["Birds"])
        #expect(RowID("list:L1") == .list("L1"))
        #expect(RowID(RowID.list("new-3").description) == .list("new-3"))
        #expect(AccountList("members:L1") == .members("L1"))
    }

    /// A lists screen of `server` (which holds reads) loaded once, with a refresh of it held.
    static func refreshing(_ server: GatedServer) async throws -> (FeedSession, FeedListViewModel) {
        let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: ManualClock())
        session.navigator.push(.list(.userLists))
        let screen = try #require(session.navigator.top.list)
        await server.waitForHeld(1)
        server.answerHeld(at: 0)
        await server.waitForHeld(0)
        while screen.rows.isEmpty { await Task.yield() }
        screen.refresh()
        await server.waitForHeld(1)
        return (session, screen)
    }

    @Test("a list made while a fetch of the lists was on its way stays when the older answer comes")
    func madeDuringFetch() async throws {
        let server = GatedServer.lists([UserList(id: "L1", title: "Birders")], holdReads: true)
        let (session, screen) = try await Self.refreshing(server)
        try session.createList(title: "Moths")
        await server.waitForHeld(2)
        #expect(server.waiting.map(\.description) == ["lists()", "createList(Moths)"])
        server.answerHeld(at: 1)
        while session.userLists.contains(where: \.list.isProvisional) { await Task.yield() }
        server.answerHeld(at: 0, asAsked: true)
        await session.settle()
        #expect(Self.titles(screen) == ["Birders", "Moths"], "the older answer does not take the new list away")
        screen.refresh()
        await server.waitForHeld(1)
        server.answerHeld(at: 0)
        await session.settle()
        #expect(screen.rows.compactMap(\.userList?.id) == ["L1", "list1"])
    }

    @Test("a list deleted while a fetch of the lists was on its way does not come back with the older answer")
    func deletedDuringAFetch() async throws {
        let server = GatedServer.lists([UserList(id: "L1", title: "Birders"), UserList(id: "L2", title: "Moths")], holdReads: true)
        let (session, screen) = try await Self.refreshing(server)
        try session.deleteList("L1")
        await server.waitForHeld(2)
        server.answerHeld(at: 1)
        while session.userLists.contains(where: { $0.id == "L1" }) || session.lists.operationsInFlight > 0 { await Task.yield() }
        server.answerHeld(at: 0, asAsked: true)
        await session.settle()
        #expect(Self.titles(screen) == ["Moths"], "the older answer does not bring the deleted list back")
        #expect(session.userLists.map(\.title) == ["Moths"])
    }

    @Test("a refused rename sends the rename asked while it was on its way, and the list ends with that title")
    func refusedRenameSendsTheNext() async throws {
        let server = GatedServer.lists([UserList(id: "L1", title: "Birders")])
        let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: ManualClock())
        session.navigator.push(.list(.userLists))
        await session.settle()
        #expect(try session.renameList("L1", to: "Birds"))
        await server.waitForHeld(1)
        #expect(try session.renameList("L1", to: "Birdwatch"))
        server.refuse(at: 0)
        await server.waitForHeld(1)
        #expect(server.waiting.map(\.description) == ["renameList(L1, to: Birdwatch)"])
        server.answerHeld(at: 0)
        await session.settle()
        #expect(session.userLists.map(\.title) == ["Birdwatch"])
        #expect(server.model.lists.lists.map(\.title) == ["Birdwatch"])
    }

    @Test("a rename the server could not be reached for stays shown and waits; a retry sends it at once; unsent names it")
    func lostRenameWaits() async throws {
        let server = GatedServer.lists([UserList(id: "L1", title: "Birders")])
        let clock = ManualClock()
        let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: clock)
        session.navigator.push(.list(.userLists))
        await session.settle()
        let screen = try #require(session.navigator.screens.last?.list)
        #expect(try session.renameList("L1", to: "Birds"))
        await server.waitForHeld(1)
        server.lose(at: 0)
        // Settling does not wait for the re-send's backoff.
        await session.settle()
        #expect(Self.titles(screen) == ["Birds…"])
        #expect(session.userLists.first?.failure == nil)
        #expect(session.lists.unsent == ["rename the list Birders to Birds"])
        #expect(session.hasFailures)
        try #require(session.retry())
        await server.waitForHeld(1)
        #expect(server.waiting.map(\.description) == ["renameList(L1, to: Birds)"])
        server.answerHeld(at: 0)
        await session.settle()
        #expect(Self.titles(screen) == ["Birds"])
        #expect(server.model.lists.lists.map(\.title) == ["Birds"] && session.lists.unsent.isEmpty && !session.hasFailures)
    }

    @Test("a delete the server could not be reached for keeps the list off and waits; a retry sends it at once; unsent names it")
    func lostDeleteWaits() async throws {
        let server = GatedServer.lists([UserList(id: "L1", title: "Birders"), UserList(id: "L2", title: "Moths")])
        let (session, first, _) = await Self.twoListsScreens(server)
        try session.deleteList("L1")
        await server.waitForHeld(1)
        server.lose(at: 0)
        await session.settle()
        #expect(Self.titles(first) == ["Moths"])
        #expect(session.lists.unsent == ["delete the list Birders"])
        #expect(session.hasFailures)
        try #require(session.retry())
        await server.waitForHeld(1)
        #expect(server.waiting.map(\.description) == ["deleteList(L1)"])
        server.answerHeld(at: 0)
        await session.settle()
        #expect(Self.titles(first) == ["Moths"])
        #expect(server.model.lists.lists.map(\.id) == ["L2"] && session.lists.unsent.isEmpty && !session.hasFailures)
    }

    @Test("a new list the server could not be reached for leaves and says why; it is never sent again by itself (a lost answer may have made it)")
    func lostCreateLeaves() async throws {
        let server = GatedServer.lists([UserList(id: "L1", title: "Birders")])
        let (session, first, _) = await Self.twoListsScreens(server)
        let log = OutcomeLog(session)
        let made = try session.createList(title: "Ferns")
        #expect(session.lists.unsent == ["create the list Ferns"])
        await server.waitForHeld(1)
        server.lose(at: 0)
        await session.settle()
        #expect(Self.titles(first) == ["Birders"])
        #expect(log.heard == [Outcome.refused(.list(made.id, title: "Ferns", was: nil), sentence: "The server could not be reached.")])
        #expect(!session.hasFailures && session.lists.unsent.isEmpty)
        #expect(!session.retry())
        await session.settle()
        #expect(server.sent.map(\.description) == ["createList(Ferns)"])
    }

    @Test("a delete asked while a rename of the list is on its way is sent after its answer (one change per list in flight); the list stays off meanwhile")
    func deleteAfterRename() async throws {
        let server = GatedServer.lists([UserList(id: "L1", title: "Birders"), UserList(id: "L2", title: "Moths")])
        let (session, first, _) = await Self.twoListsScreens(server)
        #expect(try session.renameList("L1", to: "Birds"))
        await server.waitForHeld(1)
        try session.deleteList("L1")
        #expect(Self.titles(first) == ["Moths"])
        #expect(throws: UserListProblem.unknown("L1").failure) { try session.renameList("L1", to: "Birdwatch") }
        #expect(server.waiting.map(\.description) == ["renameList(L1, to: Birds)"])
        server.answerHeld(at: 0)
        await server.waitForHeld(1)
        #expect(server.waiting.map(\.description) == ["deleteList(L1)"])
        #expect(Self.titles(first) == ["Moths"])
        server.answerHeld(at: 0)
        await session.settle()
        #expect(Self.titles(first) == ["Moths"])
        #expect(server.model.lists.lists.map(\.id) == ["L2"])
        #expect(session.lists.unsent.isEmpty)
    }

    /// A service with no lists at all: its list calls are refused.
    static func noLists() -> GatedServer {
        let server = GatedServer()
        server.fail(.lists, .createList, .renameList, .deleteList, .setListMembership, with: AccountsUnsupported())
        return server
    }

    @Test("loadLists fetches the lists once for a front that names one before any screen showed them; a failure says why")
    func loadWithoutAScreen() async throws {
        let server = GatedServer.lists([UserList(id: "L1", title: "Birders")])
        let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: ManualClock())
        var heard = 0
        let token = session.lists.observe { _ in heard += 1 }
        #expect(!session.areListsLoaded)
        session.loadLists()
        session.loadLists()
        await session.settle()
        #expect(session.areListsLoaded)
        #expect(session.lists.list(named: "birders")?.id == "L1")
        #expect(session.userList("L1")?.title == "Birders" && session.userLists.map(\.id) == ["L1"])
        #expect(heard == 1)
        token.cancel()

        let bare = FeedSession(service: Self.noLists(), clock: .fixed(testNow), retryClock: ManualClock())
        bare.loadLists()
        await bare.settle()
        #expect(!bare.areListsLoaded)
        #expect(bare.listsLoadFailure == AccountsUnsupported().errorDescription)
    }
}

extension GatedServer {
    /// A server of `lists` whose writes (create, rename, delete, add, remove) wait until the
    /// test answers or fails them (a cancelled request leaves the held ones, as a cancelled HTTP
    /// request does), each applied to the model when answered; reads of the lists too with
    /// `holdReads`. `accounts` have profiles and are followed, but for `notFollowed` (adding
    /// them is refused, as Mastodon does).
    static func lists(
        _ lists: [UserList], members: [String: [AccountID]] = [:], accounts: [AccountID] = ["kemi", "ada", "lin"], notFollowed: Set<AccountID> = [],
        holdReads: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
    ) -> GatedServer {
        var model = ServerModel<Post>()
        model.lists = ServerLists(lists, members: members)
        for account in accounts {
            let name = account.rawValue
            model.relationships.profiles[account] = Profile(author: Author(id: name, displayName: name.capitalized, handle: name))
            if !notFollowed.contains(account) { model.relationships.byAccount[account] = Relationship(accountID: account, following: true) }
        }
        let server = GatedServer(model, answering: [.page, .newer, .accounts, .relationships], sourceLocation: sourceLocation)
        server.hold(.createList, .renameList, .deleteList, .setListMembership, cancellable: true)
        if holdReads { server.hold(.lists, cancellable: true) } else { server.answer(.lists) }
        return server
    }

    /// The members of `list` on the server now.
    func members(_ list: String) -> [AccountID] { model.lists.members[list] ?? [] }
}
