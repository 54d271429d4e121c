@_spi(FeedService) import Feedline
@_spi(FeedService) @testable import FeedlineMastodon
import FeedlineTestSupport
import Foundation
import Testing

/// Lists over HTTP, checked against the fake server's Mastodon rules (`FakeMastodon+Lists.swift`):
/// make, rename and delete a list; its accounts paged by their `Link` header over membership
/// record ids; add and remove accounts with `account_ids[]`; every error as its sentence.
@Suite("HTTP lists")
struct HTTPListsTests {
    /// Accounts of the fixture statuses, the first `count` of them, followed by the user.
    static func followed(_ fake: FakeMastodon, _ count: Int) -> [Mastodon.Account] {
        let accounts = Array(fake.knownAccounts().prefix(count))
        for account in accounts { fake.setRelationship(Mastodon.Relationship(id: account.id, following: true)) }
        return accounts
    }

    @Test("make, rename and delete a list: each request as Mastodon reads it, the lists as the server has them")
    func makeRenameDelete() async throws {
        try await withFixtureServer { fake, server in
            let service = try makeService(server)
            fake.makeList("Birders")
            let made = try await service.createList(title: "  Field notes ")
            #expect(made.title == "Field notes")
            #expect(try await service.lists() == fake.userLists)
            #expect(fake.userLists.map(\.title) == ["Birders", "Field notes"])
            let renamed = try await service.renameList(made.id, to: "Notes")
            #expect(renamed == UserList(id: made.id, title: "Notes"))
            try await service.deleteList(made.id)
            #expect(fake.userLists.map(\.title) == ["Birders"])
            let writes = fake.requests.filter { $0.method != "GET" }
            #expect(writes.map { "\($0.method) \($0.path)" } == ["POST /api/v1/lists", "PUT /api/v1/lists/\(made.id)", "DELETE /api/v1/lists/\(made.id)"])
            #expect(writes[0].form == ["title": "Field notes"])
            #expect(writes[1].form == ["title": "Notes"])

            let gone = await thrownError { _ = try await service.renameList(made.id, to: "Again") }
            #expect(FeedFailure(try #require(gone)).message.contains("There is no list \(made.id) of yours"))
            let count = fake.requests.count
            let blank = await thrownError { _ = try await service.createList(title: "  ") }
            #expect(FeedFailure(try #require(blank)).message == "The server could not do this (\"a list needs a title to make it\").")
            #expect(fake.requests.count == count, "nothing sent")
            // A form decodes `+` as a space: a title's `+`, `&` and `=` are sent escaped.
            let plus = try await service.createList(title: "C++ & a=b")
            #expect(plus.title == "C++ & a=b")
            #expect(fake.userLists.map(\.title) == ["Birders", "C++ & a=b"])
        }
    }

    @Test("a list's accounts page by their Link header (membership records, not accounts) to the end, the latest added first")
    func membersPagedByLink() async throws {
        try await withFixtureServer { fake, server in
            let accounts = Self.followed(fake, 5)
            let list = fake.makeList("Birders", accounts: accounts.map(\.id))
            let service = try makeService(server, pageSize: 2)
            var cursor: PageCursor?
            var seen: [String] = []
            var pages = 0
            repeat {
                let page = try await service.accounts(in: .members(list), after: cursor)
                seen += page.items.map(\.accountID.rawValue)
                cursor = page.next
                pages += 1
            } while cursor != nil && pages < 10
            #expect(seen == accounts.map(\.id).reversed(), "every account once, the latest added first")
            let asked = fake.requests.filter { $0.path == "/api/v1/lists/\(list)/accounts" }
            let records = fake.listRecordIDs(list)
            #expect(asked.dropFirst().map { $0.query["max_id"] } == [String(records[1]), String(records[3])], "the last page is short: no next")
            #expect(asked.allSatisfy { $0.query["limit"] == "2" })
        }
    }

    @Test("adding and removing an account sends account_ids[]; Mastodon's refusal of an account you do not follow is shown with its sentence")
    func membership() async throws {
        try await withFixtureServer { fake, server in
            let accounts = Self.followed(fake, 1)
            let stranger = try #require(fake.knownAccounts().dropFirst(3).first)
            let list = fake.makeList("Birders")
            let service = try makeService(server)
            try await service.setListMembership(list: list, account: AccountID(accounts[0].id), to: true)
            try await service.setListMembership(list: list, account: AccountID(accounts[0].id), to: true)
            #expect(fake.listMembers(list) == [accounts[0].id], "adding twice changes nothing")
            let refused = await thrownError { try await service.setListMembership(list: list, account: AccountID(stranger.id), to: true) }
            #expect(FeedFailure(try #require(refused)).message == "The server could not do this (\"\(FakeMastodon.notFollowedRefusal)\").")
            #expect(!FeedFailure(try #require(refused)).isTransient)
            try await service.setListMembership(list: list, account: AccountID(accounts[0].id), to: false)
            #expect(fake.listMembers(list).isEmpty)
            let writes = fake.requests.filter { $0.path == "/api/v1/lists/\(list)/accounts" }
            #expect(writes.map(\.method) == ["POST", "POST", "POST", "DELETE"])
            #expect(writes[0].form == ["account_ids[]": accounts[0].id])
            #expect(writes[3].query["account_ids[]"] == accounts[0].id)
            // By handle: looked up first.
            try await service.setListMembership(list: list, account: AccountID(handle: accounts[0].acct), to: true)
            #expect(fake.listMembers(list) == [accounts[0].id])
        }
    }

    @Test("signed out, or a token without the scope (403), the lists and their changes say to run feedline login")
    func needsSignIn() async throws {
        try await withFakeServer(statuses: []) { fake, server in
            let login = "feedline login \(server.loginArgument)"
            let visitor = await thrownError { _ = try await makeService(server, token: nil).lists() }
            #expect(FeedFailure(try #require(visitor)).message.contains(login))
            let service = try makeService(server)
            fake.fail("/api/v1/lists", method: "GET", status: 403, error: "This action is outside the authorized scopes")
            let unscopedRead = await thrownError { _ = try await service.lists() }
            #expect(FeedFailure(try #require(unscopedRead)).message.contains(login))
            fake.fail("/api/v1/lists", method: "POST", status: 403, error: "This action is outside the authorized scopes")
            let unscopedWrite = await thrownError { _ = try await service.createList(title: "Birders") }
            #expect(
                unscopedWrite as? MastodonHTTPError == .writeRefused(serverMessage: "This action is outside the authorized scopes", server: server.loginArgument)
            )
            #expect(FeedFailure(try #require(unscopedWrite)).message.contains(login))
        }
    }

    @Test("through a session: the lists screen loads, a new list shows at once and becomes the server's, a list's accounts screen follows an add")
    @MainActor
    func session() async throws {
        try await withFixtureServer { fake, server in
            let accounts = Self.followed(fake, 2)
            let list = fake.makeList("Birders", accounts: [accounts[0].id])
            let session = FeedSession(service: try makeService(server), clock: .fixed(Date(timeIntervalSince1970: 1_795_348_800)), retryClock: ManualClock())
            session.navigator.push(.list(.userLists))
            let screen = try #require(session.navigator.top.list)
            screen.appeared()
            await session.settle()
            #expect(screen.rows.compactMap(\.userList?.title) == ["Birders"])
            let made = try session.createList(title: "Moths")
            #expect(screen.rows.compactMap(\.userList?.id) == [list, made.id])
            await session.settle()
            #expect(screen.rows.compactMap(\.userList?.title) == ["Birders", "Moths"])
            #expect(screen.rows.compactMap(\.userList).allSatisfy { !$0.list.isProvisional })
            session.navigator.push(.list(.accounts(.members(list))))
            let members = try #require(session.navigator.top.list)
            members.appeared()
            await session.settle()
            #expect(members.rows.compactMap(\.account?.id.rawValue) == [accounts[0].id])
            try session.setListMembership(list: list, account: Profile(author: Author(accounts[1])), true)
            #expect(members.rows.compactMap(\.account?.id.rawValue) == [accounts[1].id, accounts[0].id])
            await session.settle()
            #expect(fake.listMembers(list) == [accounts[1].id, accounts[0].id])
        }
    }
}
