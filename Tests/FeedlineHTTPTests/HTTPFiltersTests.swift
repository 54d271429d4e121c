@_spi(FeedService) import Feedline
import FeedlineAccounts
@_spi(FeedService) import FeedlineMastodon
import FeedlineTestSupport
import Foundation
import Testing

/// Server filters over HTTP (`/api/v2/filters`), checked against the fake server's Mastodon
/// rules and payloads (`FakeMastodon+Filters.swift`): the list with keywords, a create with its
/// form fields, an update that keeps, adds and destroys keywords, a delete, and the server's
/// 422 and 404 sentences.
@Suite("HTTP filters")
struct HTTPFiltersTests {
    static let spoilers = PostFilter(
        title: "Spoilers", contexts: [.home, .public], action: .hide,
        keywords: [PostFilter.Keyword(keyword: "finale", wholeWord: true), PostFilter.Keyword(keyword: "spoiler", wholeWord: false)]
    )

    @Test("the list reads each filter with its contexts, action, keywords and expiry")
    func list() async throws {
        try await withFakeServer(statuses: []) { fake, server in
            var expiring = Self.spoilers
            expiring.expiresAt = Date(timeIntervalSince1970: 1_800_000_000)
            let made = try fake.addFilter(expiring)
            let filters = try await makeService(server).filters()
            #expect(filters == [made])
            #expect(filters.first?.keywords.map(\.wholeWord) == [true, false])
            #expect(fake.requests.map { "\($0.method) \($0.path)" } == ["GET /api/v2/filters"])
        }
    }

    @Test("a create sends title, context[], filter_action, expires_in and keywords_attributes[], and reads the filter made")
    func create() async throws {
        try await withFakeServer(statuses: []) { fake, server in
            let made = try await makeService(server).createFilter(Self.spoilers, expiresIn: 86_400)
            #expect(made.id.isEmpty == false)
            #expect(made.keywords.map(\.keyword) == ["finale", "spoiler"])
            #expect(made.keywords.allSatisfy { !$0.id.isEmpty })
            #expect(made.expiresAt != nil)
            #expect(fake.serverFilters == [made])
            let body = fake.requests.last?.bodyText ?? ""
            #expect(
                body
                    == "title=Spoilers&context%5B%5D=home&context%5B%5D=public&filter_action=hide&expires_in=86400"
                    + "&keywords_attributes%5B%5D%5Bkeyword%5D=finale&keywords_attributes%5B%5D%5Bwhole_word%5D=true"
                    + "&keywords_attributes%5B%5D%5Bkeyword%5D=spoiler&keywords_attributes%5B%5D%5Bwhole_word%5D=false"
            )
        }
    }

    @Test("an update keeps keywords by id, adds new ones and destroys the ones dropped")
    func update() async throws {
        try await withFakeServer(statuses: []) { fake, server in
            let made = try fake.addFilter(Self.spoilers)
            var changed = made
            changed.title = "Finale"
            changed.action = .warn
            changed.keywords = [made.keywords[0], PostFilter.Keyword(keyword: "ending", wholeWord: true)]
            let saved = try await makeService(server).updateFilter(changed, replacing: made, expiresIn: nil)
            #expect(saved.title == "Finale")
            #expect(saved.action == .warn)
            #expect(saved.keywords.map(\.keyword) == ["finale", "ending"])
            #expect(saved.keywords.first?.id == made.keywords[0].id, "the kept keyword keeps its id")
            #expect(fake.serverFilters == [saved])
            #expect(fake.requests.last.map { "\($0.method) \($0.path)" } == "PUT /api/v2/filters/\(made.id)")
            #expect(fake.requests.last?.bodyText.contains("keywords_attributes%5B%5D%5B_destroy%5D=true") == true)
        }
    }

    @Test("a delete removes the filter; one gone is a 404 that names it; a filter without a context is the server's 422")
    func deleteAndRefusals() async throws {
        try await withFakeServer(statuses: []) { fake, server in
            let made = try fake.addFilter(Self.spoilers)
            let service = try makeService(server)
            try await service.deleteFilter(made.id)
            #expect(fake.serverFilters.isEmpty)

            let gone = await thrownError { try await service.deleteFilter(made.id) }
            #expect(FeedFailure(gone ?? CancellationError()).message.contains("There is no filter \(made.id) of yours"))

            var nowhere = Self.spoilers
            nowhere.contexts = []
            let refused = await thrownError { _ = try await service.createFilter(nowhere, expiresIn: nil) }
            #expect(FeedFailure(refused ?? CancellationError()).message.contains("Context can't be blank"))
            #expect(fake.serverFilters.isEmpty)
        }
    }

    @Test("a blank keyword is refused before anything is sent")
    func blankKeyword() async throws {
        try await withFakeServer(statuses: []) { fake, server in
            var blank = Self.spoilers
            blank.keywords = [PostFilter.Keyword(keyword: "  ", wholeWord: false)]
            let refused = await thrownError { _ = try await makeService(server).createFilter(blank, expiresIn: nil) }
            #expect(refused != nil)
            #expect(fake.requests.isEmpty)
        }
    }

    static func status(_ id: String, minutes: Double, text: String) -> Mastodon.Status {
        HTTPQuotesTests.status(id, minutes: minutes, text: text)
    }

    @MainActor static func ids(_ list: FeedListViewModel) -> [String] {
        list.rows.compactMap { row in if case .post(let id) = row.id { id.rawValue } else { nil } }
    }

    @MainActor
    @Test("a filter made from the session over HTTP: the home rows it matches leave at once, the POST carries its form, a delete brings them back and DELETEs it")
    func sessionCreateAndDelete() async throws {
        let statuses = [Self.status("3", minutes: 3, text: "The finale!"), Self.status("2", minutes: 2, text: "Finales are hard"), Self.status("1", minutes: 1, text: "Coffee")]
        try await withFakeServer(statuses: statuses) { fake, server in
            let service = try makeService(server)
            let session = FeedSession(service: service, clock: .fixed(Date(timeIntervalSince1970: 1_795_348_800)), retryClock: ManualClock())
            session.root.appeared()
            await session.settle()
            #expect(Self.ids(session.root) == ["3", "2", "1"])
            let filter = PostFilter(title: "Finale", contexts: [.home], action: .hide, keywords: [PostFilter.Keyword(keyword: "finale", wholeWord: true)])
            try session.createFilter(filter)
            #expect(Self.ids(session.root) == ["2", "1"], "whole word: Finales stays")
            await session.settle()
            let made = try #require(fake.serverFilters.first)
            #expect(made.title == "Finale")
            #expect(
                fake.requests.last?.bodyText
                    == "title=Finale&context%5B%5D=home&filter_action=hide&keywords_attributes%5B%5D%5Bkeyword%5D=finale&keywords_attributes%5B%5D%5Bwhole_word%5D=true"
            )
            #expect(session.filter(made.id)?.keywords.map(\.id) == made.keywords.map(\.id), "the session holds the server's filter")
            try session.deleteFilter(made.id)
            #expect(Self.ids(session.root) == ["3", "2", "1"])
            await session.settle()
            #expect(fake.requests.last.map { "\($0.method) \($0.path)" } == "DELETE /api/v2/filters/\(made.id)")
            #expect(fake.serverFilters.isEmpty)
        }
    }

    @Test("the sign-in asks for write:filters")
    func scope() {
        #expect(Login.scopes.contains("write:filters"))
    }
}
