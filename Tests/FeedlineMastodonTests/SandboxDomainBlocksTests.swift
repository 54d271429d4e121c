@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

@_spi(FeedService) import FeedlineMastodon

/// Domain blocks on the bundled sandbox (`Fixtures/timeline`), its scenario starting with
/// `promo.example` (the spammer's domain) blocked, as `"domain_blocks": ["promo.example"]` in
/// its `scenario.json` would; pages of two. Lists are compared whole, so a wrong order, a
/// missing or an extra domain fails; relationships are compared whole too.
@Suite struct SandboxDomainBlocksTests {
    typealias ID = SandboxAccountsTests.ID

    func makeService(faults: [SandboxScenario.Fault] = []) throws -> SandboxService {
        var fixture = try SandboxAccountsTests.fixture()
        fixture.scenario.faults = faults
        fixture.scenario.domainBlocks = ["promo.example"]
        return try SandboxService(fixture: fixture, pageSize: 2, clock: VirtualClock(), wallClock: .fixed(SandboxAccountsTests.start))
    }

    /// Every blocked domain, page by page; each page holds two but the last, which has no cursor.
    func domains(_ service: SandboxService, sourceLocation: SourceLocation = #_sourceLocation) async throws -> [String] {
        var domains: [String] = []
        var cursor: PageCursor?
        for _ in 0..<20 {
            let page = try await service.domainBlocks(after: cursor)
            domains += page.items
            guard let next = page.next else {
                #expect(page.items.count <= 2, sourceLocation: sourceLocation)
                return domains
            }
            #expect(page.items.count == 2, sourceLocation: sourceLocation)
            cursor = next
        }
        Issue.record("the domain blocks never ended", sourceLocation: sourceLocation)
        return domains
    }

    func relationship(_ service: SandboxService, _ account: AccountID) async throws -> Relationship {
        try #require(try await service.relationships(of: [account]).first)
    }

    // MARK: - The list

    @Test func theScenarioStartsWithTheSpammersDomainBlocked() async throws {
        let plain = try SandboxService(fixture: try SandboxAccountsTests.fixture(), pageSize: 2, clock: VirtualClock())
        #expect(try await plain.domainBlocks(after: nil) == Page(items: [], next: nil))
        #expect(try await relationship(plain, ID.spammer) == Relationship(accountID: ID.spammer, blocking: true))

        let service = try makeService()
        #expect(try await service.domainBlocks(after: nil) == Page(items: ["promo.example"], next: nil))
        #expect(try await relationship(service, ID.spammer) == Relationship(accountID: ID.spammer, blocking: true, domainBlocking: true))
        #expect(try await relationship(service, ID.kemi) == Relationship(accountID: ID.kemi, following: true, notifying: true))
        #expect(try await relationship(service, ID.mira) == Relationship(accountID: ID.mira, following: true), "a local account")
    }

    @Test func blocksComeNewestFirstPageByPageAndUnblocksLeaveTheList() async throws {
        let service = try makeService()
        for domain in ["kettle.town", "Fieldnotes.Science", " @myr.social", "ginkgo.garden"] {
            try await service.setDomainBlock(domain, to: true)
        }
        let all = ["ginkgo.garden", "myr.social", "fieldnotes.science", "kettle.town", "promo.example"]
        #expect(try await domains(service) == all)
        let first = try await service.domainBlocks(after: nil)
        #expect(first == Page(items: ["ginkgo.garden", "myr.social"], next: PageCursor("2")))

        try await service.setDomainBlock("kettle.town", to: true)
        #expect(try await domains(service) == all, "blocking again keeps the place")

        try await service.setDomainBlock("MYR.social", to: false)
        try await service.setDomainBlock("promo.example", to: false)
        try await service.setDomainBlock("never.example", to: false)
        #expect(try await domains(service) == ["ginkgo.garden", "fieldnotes.science", "kettle.town"])

        // A cursor past the end is an empty last page, as for the account lists.
        #expect(try await service.domainBlocks(after: PageCursor("50")) == Page(items: [], next: nil))
        await #expect(throws: SandboxError.unknownCursor("promo.example")) {
            _ = try await service.domainBlocks(after: PageCursor("promo.example"))
        }
    }

    // MARK: - Relationships

    @Test func relationshipsWithTheDomainsAccountsSayDomainBlockingWhileItIsBlocked() async throws {
        let service = try makeService()
        try await service.setDomainBlock("fieldnotes.science", to: true)
        #expect(
            try await service.relationships(of: [ID.kemi, ID.mira, ID.hugo]) == [
                Relationship(accountID: ID.kemi, following: true, domainBlocking: true, notifying: true),
                Relationship(accountID: ID.mira, following: true),
                Relationship(accountID: ID.hugo, following: true, followedBy: true),
            ]
        )
        // A change of another kind answers with the domain block too.
        let muted = try await service.setRelationship(.mute, to: true, of: ID.kemi, mute: MuteOptions())
        #expect(
            muted == Relationship(accountID: ID.kemi, following: true, muting: true, mutingNotifications: true, domainBlocking: true, notifying: true)
        )
        #expect(try await service.profile(of: ID.kemi).author.handle == "kemi@fieldnotes.science", "the profile is still served")

        try await service.setDomainBlock("fieldnotes.science", to: false)
        try await service.setDomainBlock("promo.example", to: false)
        #expect(
            try await service.relationships(of: [ID.kemi, ID.spammer]) == [
                Relationship(accountID: ID.kemi, following: true, muting: true, mutingNotifications: true, notifying: true),
                Relationship(accountID: ID.spammer, blocking: true),
            ],
            "unblocking the domain leaves every other part of the relationship as it was"
        )
    }

    @Test func aBlockRemovesTheDomainsFollowersAndRequestsButKeepsTheUsersFollows() async throws {
        let service = try makeService()
        let followers = try await service.profile(of: ID.you).followersCount
        try await service.setDomainBlock("kettle.town", to: true)
        #expect(
            try await relationship(service, ID.hugo) == Relationship(accountID: ID.hugo, following: true, domainBlocking: true),
            "Hugo no longer follows the user; the user still follows him"
        )
        #expect(try await service.profile(of: ID.you).followersCount == followers - 1)

        try await service.setDomainBlock("saltmarsh.town", to: true)
        #expect(try await relationship(service, ID.juniper) == Relationship(accountID: ID.juniper, domainBlocking: true), "her request is gone")
        #expect(try await service.accounts(in: .requests, after: nil).items.map(\.author.handle) == ["otto@reedbed.social"])

        // Following someone there is refused until the domain is unblocked.
        try await service.setDomainBlock("myr.social", to: true)
        await #expect(throws: SandboxError.refused("You have blocked the domain myr.social; unblock it before following @elin@myr.social.")) {
            _ = try await service.setRelationship(.follow, to: true, of: ID.elin, mute: MuteOptions())
        }
        try await service.setDomainBlock("myr.social", to: false)
        #expect(try await service.setRelationship(.follow, to: true, of: ID.elin, mute: MuteOptions()).requested)
    }

    // MARK: - Refusals

    @Test func theSandboxsOwnDomainAndWhatIsNoDomainAreRefused() async throws {
        let service = try makeService()
        for own in ["tidepool.social", "@TidePool.Social "] {
            do {
                try await service.setDomainBlock(own, to: true)
                Issue.record("\(own) was blocked")
            } catch let error as SandboxError {
                #expect(error == .refused("You cannot block your own domain."))
                #expect(!error.isTransient)
                #expect(FeedFailure(error).message == "You cannot block your own domain.")
            }
        }
        await #expect(throws: SandboxError.refused("\"promo example\" is not a domain name.")) {
            try await service.setDomainBlock("promo example", to: true)
        }
        try await service.setDomainBlock("tidepool.social", to: false)  // not blocked: nothing to do
        #expect(try await domains(service) == ["promo.example"])
        #expect(try await relationship(service, ID.mira) == Relationship(accountID: ID.mira, following: true))
    }

    // MARK: - Scenario

    @Test func eachCallIsItsOwnRequestKindAndALostAnswerStillActs() async throws {
        let cases: [(SandboxScenario.Request, @Sendable (SandboxService) async throws -> Void)] = [
            (.domainBlocks, { _ = try await $0.domainBlocks(after: nil) }),
            (.domainBlock, { try await $0.setDomainBlock("kettle.town", to: true) }),
        ]
        for (request, call) in cases {
            let service = try makeService(faults: [.init(.init(request, times: 1), failure: .timeout)])
            await #expect(throws: SandboxError.fault(.timeout, request: request)) { try await call(service) }
            try await call(service)  // the fault covered one request
        }

        let lost = try makeService(faults: [.init(.init(.domainBlock, times: 1), failure: .lostAnswer)])
        await #expect(throws: SandboxError.fault(.lostAnswer, request: .domainBlock)) { try await lost.setDomainBlock("kettle.town", to: true) }
        #expect(try await domains(lost) == ["kettle.town", "promo.example"], "the server acted before the answer was lost")
    }

    @Test func theStartingListComesFromTheScenarioAndFromAccountsWhoseRelationshipSaysDomainBlocking() async throws {
        let scenario = try FixtureLoader.scenario(from: Data(#"{"domain_blocks": ["B.example", "@a.example", "b.example"]}"#.utf8)) { _ in [] }
        #expect(scenario.domainBlocks == ["B.example", "@a.example", "b.example"])
        let remote = SandboxAccountDetails(
            acct: "spam@c.example", id: "900", relationship: Relationship(accountID: AccountID(handle: "spam@c.example"), domainBlocking: true)
        )
        let service = try SandboxService(statuses: Build.timeline(1), scenario: scenario, accounts: [remote], clock: VirtualClock())
        #expect(try await service.domainBlocks(after: nil) == Page(items: ["b.example", "a.example", "c.example"], next: nil))
        #expect(try await service.relationships(of: [AccountID("900")]) == [Relationship(accountID: AccountID("900"), domainBlocking: true)])

        var own = SandboxScenario(domainBlocks: ["sandbox.example"])
        #expect(throws: SandboxError.invalidScenario("domain_blocks[0]: sandbox.example is the sandbox's own domain")) {
            _ = try SandboxService(statuses: Build.timeline(1), scenario: own, clock: VirtualClock())
        }
        own.domainBlocks = []
        let local = SandboxAccountDetails(
            acct: "neighbour", id: "901", relationship: Relationship(accountID: AccountID(handle: "neighbour"), domainBlocking: true)
        )
        #expect(
            throws: SandboxError.invalidScenario(
                "accounts[0].relationship.domain_blocking: @neighbour is on this server, whose domain cannot be blocked"
            )
        ) {
            _ = try SandboxService(statuses: Build.timeline(1), scenario: own, accounts: [local], clock: VirtualClock())
        }
    }
}
