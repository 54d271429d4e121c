@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

@_spi(FeedService) import FeedlineMastodon

/// Server filters on the bundled sandbox (`Fixtures/timeline`), whose scenario starts with two:
/// "Gig promotion" (the filter the streamed gig post carries) and "Spoilers". Lists are compared
/// whole, so a wrong order, a missing or an extra filter fails.
@Suite struct SandboxFiltersTests {
    func makeService(faults: [SandboxScenario.Fault] = []) throws -> SandboxService {
        var fixture = try SandboxAccountsTests.fixture()
        fixture.scenario.faults = faults
        return try SandboxService(fixture: fixture, pageSize: 2, clock: VirtualClock(), wallClock: .fixed(SandboxAccountsTests.start))
    }

    @Test("the scenario's filters, with their keywords, in order")
    func fixtureFilters() async throws {
        let filters = try await makeService().filters()
        #expect(filters.map(\.title) == ["Gig promotion", "Spoilers"])
        #expect(filters.map(\.id) == ["1", "2"])
        #expect(filters[1].keywords == [PostFilter.Keyword(id: "12", keyword: "spoiler", wholeWord: false), PostFilter.Keyword(id: "13", keyword: "finale", wholeWord: true)])
        #expect(filters[0].contexts == [.home, .public])
        #expect(filters[0].action == .warn)
    }

    @Test("a create gets fresh ids and its expiry; an update keeps kept keywords; a delete removes it; a filter gone is refused")
    func changes() async throws {
        let service = try makeService()
        let made = try await service.createFilter(
            PostFilter(title: "Frogs", contexts: [.home], action: .hide, keywords: [PostFilter.Keyword(keyword: "frog", wholeWord: true)]), expiresIn: 3600
        )
        #expect(made.id == "14")
        #expect(made.keywords.map(\.id) == ["15"])
        #expect(made.expiresAt == SandboxAccountsTests.start.addingTimeInterval(3600))
        var changed = made
        changed.keywords.append(PostFilter.Keyword(keyword: "toad", wholeWord: false))
        let saved = try await service.updateFilter(changed, replacing: made, expiresIn: nil)
        #expect(saved.keywords.map(\.id) == ["15", "16"])
        #expect(try await service.filters().map(\.title) == ["Gig promotion", "Spoilers", "Frogs"])
        try await service.deleteFilter(made.id)
        #expect(try await service.filters().map(\.title) == ["Gig promotion", "Spoilers"])
        await #expect(throws: SandboxError.refused("Record not found")) { try await service.deleteFilter(made.id) }
        var untitled = made
        untitled.title = " "
        await #expect(throws: SandboxError.refused("Validation failed: Title can't be blank")) { _ = try await service.createFilter(untitled, expiresIn: nil) }
    }

    @Test("a scheduled fault fails the filters request as the others")
    func faults() async throws {
        let service = try makeService(faults: [SandboxScenario.Fault(SandboxScenario.Match(.filters), failure: .unavailable)])
        await #expect(throws: (any Error).self) { _ = try await service.filters() }
    }
}
