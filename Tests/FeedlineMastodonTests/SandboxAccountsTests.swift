@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

@_spi(FeedService) @testable import FeedlineMastodon

/// Profiles and relationships on the bundled sandbox (`Fixtures/timeline` with its
/// `accounts/directory.json`), through `SandboxService`'s public API. Every change of a
/// relationship is asserted as the whole relationship before, mutated into the one expected.
@Suite struct SandboxAccountsTests {
    enum ID {
        static let you = AccountID("109296114702930001")
        static let kemi = AccountID("109380112244668800")
        static let hugo = AccountID("110630098765432100")
        static let mira = AccountID("109296114702936401")
        static let tomas = AccountID("109313372055109922")
        static let kwame = AccountID("109871200456123007")
        static let elin = AccountID("110512340098761203")
        static let birdlog = AccountID("112019845630004412")
        static let oldHugo = AccountID("109318845520176003")
        static let gardenBirds = AccountID("110998877665544332")
        static let juniper = AccountID("113560218873360021")
        static let spammer = AccountID("115480009911220087")
    }

    /// 2026-11-21T18:00:00Z, "now" in the scripted sessions.
    static let start = Date(timeIntervalSince1970: 1_795_284_000)

    /// A wall clock a test moves by hand.
    final class MovableWallClock: Sendable {
        private let date = Locked(SandboxAccountsTests.start)
        var now: Date { date.withLock { $0 } }
        func advance(by seconds: TimeInterval) { date.withLock { $0 += seconds } }
        var clock: WallClock { WallClock(timeZone: TimeZone(identifier: "UTC") ?? .current) { [self] in now } }
    }

    static func fixture() throws -> SandboxFixture {
        var fixture = try FixtureLoader.load(from: FixturePaths.directory("timeline"))
        fixture.scenario.defaultLatency = .none
        return fixture
    }

    func makeService(faults: [SandboxScenario.Fault] = [], wallClock: WallClock = .fixed(start)) throws -> SandboxService {
        var fixture = try Self.fixture()
        fixture.scenario.faults = faults
        return try SandboxService(fixture: fixture, clock: VirtualClock(), wallClock: wallClock)
    }

    func relationship(_ service: SandboxService, _ account: AccountID) async throws -> Relationship {
        try #require(try await service.relationships(of: [account]).first)
    }

    // MARK: - Profiles

    @Test func aProfileShowsTheBioAsTextWithItsFieldsCountsAndMarkers() async throws {
        let service = try makeService()
        let kemi = try await service.profile(of: ID.kemi)
        #expect(
            kemi
                == Profile(
                    author: Author(id: ID.kemi.rawValue, displayName: "Dr. Kemi Adeyemi", handle: "kemi@fieldnotes.science"),
                    bio: """
                        Freshwater ecologist. Counting dragonflies so you don't have to (but you can!).

                        Running the spring pond survey: 18 ponds, a few hundred volunteers and one spreadsheet that wants to be a database. \
                        Ask me about culverts at your own risk. 🐸
                        """,
                    fields: [
                        Profile.Field(name: "Lab", value: "Freshwater Ecology Group"),
                        Profile.Field(name: "Pond survey", value: "fieldnotes.science/ponds", verified: true),
                        Profile.Field(name: "Pronouns", value: "she/her"),
                    ],
                    followersCount: 3977, followingCount: 688, postsCount: 2960,
                    joined: Mastodon.DateFormat.date(from: "2022-11-20T00:00:00.000Z")
                )
        )

        let elin = try await service.profile(of: ID.elin)
        #expect(elin.locked && !elin.bot && !elin.group)
        #expect(elin.bio.hasPrefix("Wetland birder on the Baltic coast.") && elin.bio.contains("\n\nLocked because"))
        let birdlog = try await service.profile(of: ID.birdlog)
        #expect(birdlog.bot && !birdlog.locked)
        #expect(birdlog.fields.first == Profile.Field(name: "Operator", value: "@kemi"))
        let group = try await service.profile(of: ID.gardenBirds)
        #expect(group.group && group.author.handle == "gardenbirds@flock.community" && group.followersCount == 1874)
    }

    @Test func aMovedAccountNamesWhereItWent() async throws {
        let service = try makeService()
        let old = try await service.profile(of: ID.oldHugo)
        #expect(old.movedTo == Author(id: ID.hugo.rawValue, displayName: "Hugo Marchetti", handle: "hugo@kettle.town"))
        #expect(old.bio == "I've moved to @hugo. Same piano, new server.")
        #expect(old.postsCount == 261 && old.joined == Mastodon.DateFormat.date(from: "2022-11-08T00:00:00.000Z"))
        #expect(try await service.profile(of: ID.hugo).movedTo == nil)
        await #expect(throws: SandboxError.refused("@hugo@upright.social has moved to @hugo@kettle.town; follow them there.")) {
            try await service.setRelationship(.follow, to: true, of: ID.oldHugo, mute: MuteOptions())
        }
    }

    @Test(arguments: [
        ("@kemi@fieldnotes.science", ID.kemi), ("KEMI@FieldNotes.Science", ID.kemi), ("mira", ID.mira), ("@mira@tidepool.social", ID.mira),
        ("tomas@kettle.town", ID.tomas), ("juniper@saltmarsh.town", ID.juniper), ("hugo@upright.social", ID.oldHugo), ("you", ID.you),
    ])
    func aProfileIsFoundByHandle(_ handle: String, _ id: AccountID) async throws {
        let service = try makeService()
        let profile = try await service.profile(of: AccountID(handle: handle))
        #expect(profile.accountID == id)
        #expect(profile == (try await service.profile(of: id)))
    }

    @Test func anUnknownAccountIsOneSentence() async throws {
        let service = try makeService()
        await #expect(throws: SandboxError.unknownAccount("nobody@nowhere.example")) {
            try await service.profile(of: AccountID(handle: "@nobody@nowhere.example"))
        }
        await #expect(throws: SandboxError.unknownAccount("4242")) { try await service.profile(of: AccountID("4242")) }
        #expect(SandboxError.unknownAccount("nobody@nowhere.example").errorDescription == "No account @nobody@nowhere.example is known here.")
        await #expect(throws: SandboxError.unknownAccount("4242")) {
            try await service.setRelationship(.follow, to: true, of: AccountID("4242"), mute: MuteOptions())
        }
    }

    // MARK: - The fixture's relationships

    @Test func relationshipsComeInTheOrderAskedEachOnceWithoutUnknownAccounts() async throws {
        let service = try makeService()
        let asked = [ID.kemi, AccountID(handle: "elin@myr.social"), AccountID("4242"), ID.hugo, ID.kemi, AccountID(handle: "nobody"), ID.spammer]
        #expect(
            try await service.relationships(of: asked) == [
                Relationship(accountID: ID.kemi, following: true, notifying: true),
                Relationship(accountID: ID.elin, followedBy: true),
                Relationship(accountID: ID.hugo, following: true, followedBy: true),
                Relationship(accountID: ID.spammer, blocking: true),
            ]
        )
        #expect(try await service.relationships(of: []) == [])
    }

    @Test func theHomeTimelinesAuthorsAreFollowedAndEveryoneWhoFollowedTheUserFollowsThem() async throws {
        let fixture = try Self.fixture()
        let service = try SandboxService(fixture: fixture, clock: VirtualClock(), wallClock: .fixed(Self.start))
        let authors = Set(fixture.statuses.map { AccountID($0.account.id) })
        let followed = try await service.relationships(of: Array(authors)).filter(\.following).map(\.accountID)
        // The Garden Bird Log reaches home through the followed #birds tag.
        #expect(Set(followed) == authors.subtracting([ID.birdlog]))
        let followers = Set(fixture.notifications.filter { $0.type == "follow" }.map { AccountID($0.account.id) })
        #expect(followers.count == 13)
        let followingBack = try await service.relationships(of: Array(followers)).filter(\.followedBy).map(\.accountID)
        #expect(Set(followingBack) == followers)
        #expect(
            service.followRequests() == [
                Author(id: ID.juniper.rawValue, displayName: "Juniper Hale", handle: "juniper@saltmarsh.town"),
                Author(id: "113702224455660017", displayName: "Otto Brandt", handle: "otto@reedbed.social"),
            ]
        )
    }

    @Test func aFollowReactionMakesTheAccountFollowTheUser() async throws {
        let service = try makeService()
        let before = try await relationship(service, ID.tomas)
        #expect(before == Relationship(accountID: ID.tomas, following: true))
        let followers = try await service.profile(of: ID.you).followersCount
        _ = try await service.page(of: .home, after: nil)
        _ = try await service.page(of: .home, after: nil)  // the scenario's reactions come after two pages
        var expected = before
        expected.followedBy = true
        #expect(try await relationship(service, ID.tomas) == expected)
        #expect(try await service.profile(of: ID.you).followersCount == followers + 1)
    }

    // MARK: - Follow

    @Test func followingFollowsOnceAndMovesBothCounts() async throws {
        let service = try makeService()
        let before = try await relationship(service, ID.kwame)
        let (kwame, you) = (try await service.profile(of: ID.kwame), try await service.profile(of: ID.you))

        let followed = try await service.setRelationship(.follow, to: true, of: ID.kwame, mute: MuteOptions())
        var expected = before
        expected.following = true
        #expect(followed == expected)
        #expect(try await service.setRelationship(.follow, to: true, of: ID.kwame, mute: MuteOptions()) == expected, "idempotent")
        #expect(try await relationship(service, ID.kwame) == expected)
        #expect(try await service.profile(of: ID.kwame).followersCount == kwame.followersCount + 1)
        #expect(try await service.profile(of: ID.you).followingCount == you.followingCount + 1)

        let unfollowed = try await service.setRelationship(.follow, to: false, of: ID.kwame, mute: MuteOptions())
        #expect(unfollowed == before)
        #expect(try await service.setRelationship(.follow, to: false, of: ID.kwame, mute: MuteOptions()) == before, "idempotent")
        #expect(try await service.profile(of: ID.kwame) == kwame)
        #expect(try await service.profile(of: ID.you) == you)
    }

    @Test func followingALockedAccountIsARequestUntilUnfollowed() async throws {
        let service = try makeService()
        let before = try await relationship(service, ID.elin)
        let elin = try await service.profile(of: ID.elin)

        let asked = try await service.setRelationship(.follow, to: true, of: ID.elin, mute: MuteOptions())
        var expected = before
        expected.requested = true
        #expect(asked == expected)
        #expect(asked.isOn(.follow) && !asked.following)
        #expect(try await service.setRelationship(.follow, to: true, of: ID.elin, mute: MuteOptions()) == expected, "idempotent")
        #expect(try await service.profile(of: ID.elin).followersCount == elin.followersCount, "a request does not count")

        #expect(try await service.setRelationship(.follow, to: false, of: ID.elin, mute: MuteOptions()) == before)
    }

    @Test func theUserCannotChangeTheirRelationshipWithThemselves() async throws {
        let service = try makeService()
        await #expect(throws: SandboxError.refused("You cannot follow yourself.")) {
            try await service.setRelationship(.follow, to: true, of: AccountID(handle: "you"), mute: MuteOptions())
        }
        #expect(try await service.relationships(of: [ID.you]) == [Relationship(accountID: ID.you)])
    }

    // MARK: - Notify and boosts

    @Test func notifyAndBoostsNeedAFollow() async throws {
        let service = try makeService()
        let before = try await relationship(service, ID.kwame)
        do {
            _ = try await service.setRelationship(.notify, to: true, of: ID.kwame, mute: MuteOptions())
            Issue.record("notify without a follow should be refused")
        } catch let error as SandboxError {
            #expect(error == .refused("You can only be notified of the posts of accounts you follow; follow @kwame@kestrel.social first."))
            #expect(!error.isTransient)
        }
        await #expect(throws: SandboxError.refused("You can only choose whether to see the boosts of accounts you follow; follow @kwame@kestrel.social first.")) {
            try await service.setRelationship(.boosts, to: false, of: ID.kwame, mute: MuteOptions())
        }
        #expect(try await service.setRelationship(.notify, to: false, of: ID.kwame, mute: MuteOptions()) == before, "already off: nothing to refuse")
        #expect(try await relationship(service, ID.kwame) == before)

        var expected = try await service.setRelationship(.follow, to: true, of: ID.kwame, mute: MuteOptions())
        expected.notifying = true
        #expect(try await service.setRelationship(.notify, to: true, of: ID.kwame, mute: MuteOptions()) == expected)
        expected.showingBoosts = false
        #expect(try await service.setRelationship(.boosts, to: false, of: ID.kwame, mute: MuteOptions()) == expected)
        expected.showingBoosts = true
        #expect(try await service.setRelationship(.boosts, to: true, of: ID.kwame, mute: MuteOptions()) == expected)
        expected.notifying = false
        #expect(try await service.setRelationship(.notify, to: false, of: ID.kwame, mute: MuteOptions()) == expected)

        _ = try await service.setRelationship(.notify, to: true, of: ID.kwame, mute: MuteOptions())
        #expect(try await service.setRelationship(.follow, to: false, of: ID.kwame, mute: MuteOptions()) == before, "unfollowing stops notifications")
    }

    @Test func aFixtureAccountWithBoostsHiddenShowsThemAgainWhenAsked() async throws {
        let service = try makeService()
        let rowan = try await service.relationships(of: [AccountID(handle: "rowan@bramble.zone")]).first
        var expected = try #require(rowan)
        #expect(!expected.showingBoosts && expected.following)
        expected.showingBoosts = true
        #expect(try await service.setRelationship(.boosts, to: true, of: expected.accountID, mute: MuteOptions()) == expected)
    }

    // MARK: - Mute

    @Test func aMuteKeepsItsOptionsAndEndsOnTheSandboxsClock() async throws {
        let wall = MovableWallClock()
        let service = try makeService(wallClock: wall.clock)
        let before = try await relationship(service, ID.mira)

        let muted = try await service.setRelationship(.mute, to: true, of: ID.mira, mute: MuteOptions(duration: .seconds(3_600), notifications: false))
        var expected = before
        expected.muting = true
        expected.mutingUntil = Self.start.addingTimeInterval(3_600)
        #expect(muted == expected)
        #expect(muted.hidesTheirPosts)

        wall.advance(by: 3_599)
        #expect(try await relationship(service, ID.mira) == expected)
        wall.advance(by: 1)
        #expect(try await relationship(service, ID.mira) == before, "the mute is over")

        let forever = try await service.setRelationship(.mute, to: true, of: ID.mira, mute: MuteOptions())
        expected.mutingNotifications = true
        expected.mutingUntil = nil
        #expect(forever == expected)
        #expect(try await service.setRelationship(.mute, to: true, of: ID.mira, mute: MuteOptions()) == expected, "idempotent")
        #expect(try await service.setRelationship(.mute, to: false, of: ID.mira, mute: MuteOptions()) == before)
        #expect(try await service.setRelationship(.mute, to: false, of: ID.mira, mute: MuteOptions()) == before, "idempotent")
    }

    // MARK: - Block

    @Test func blockingUnfollowsBothWaysAndUnblockingUndoesOnlyTheBlock() async throws {
        let service = try makeService()
        _ = try await service.setRelationship(.notify, to: true, of: ID.hugo, mute: MuteOptions())
        let before = try await relationship(service, ID.hugo)
        #expect(before == Relationship(accountID: ID.hugo, following: true, followedBy: true, notifying: true))
        let (hugo, you) = (try await service.profile(of: ID.hugo), try await service.profile(of: ID.you))

        let blocked = try await service.setRelationship(.block, to: true, of: ID.hugo, mute: MuteOptions())
        var expected = before
        expected.blocking = true
        expected.following = false
        expected.followedBy = false
        expected.notifying = false
        #expect(blocked == expected)
        #expect(try await service.setRelationship(.block, to: true, of: ID.hugo, mute: MuteOptions()) == expected, "idempotent")
        let (hugoAfter, youAfter) = (try await service.profile(of: ID.hugo), try await service.profile(of: ID.you))
        #expect((hugoAfter.followersCount, hugoAfter.followingCount) == (hugo.followersCount - 1, hugo.followingCount - 1))
        #expect((youAfter.followersCount, youAfter.followingCount) == (you.followersCount - 1, you.followingCount - 1))
        await #expect(throws: SandboxError.refused("You have blocked @hugo@kettle.town; unblock them before following them.")) {
            try await service.setRelationship(.follow, to: true, of: ID.hugo, mute: MuteOptions())
        }

        expected.blocking = false
        #expect(try await service.setRelationship(.block, to: false, of: ID.hugo, mute: MuteOptions()) == expected)
        #expect(try await service.setRelationship(.block, to: false, of: ID.hugo, mute: MuteOptions()) == expected, "idempotent")
    }

    @Test func blockingSomeoneAskingToFollowTheUserDropsTheirRequest() async throws {
        let service = try makeService()
        #expect(service.followRequests().map(\.handle) == ["juniper@saltmarsh.town", "otto@reedbed.social"])
        let blocked = try await service.setRelationship(.block, to: true, of: AccountID(handle: "juniper@saltmarsh.town"), mute: MuteOptions())
        #expect(blocked == Relationship(accountID: ID.juniper, blocking: true))
        #expect(service.followRequests().map(\.handle) == ["otto@reedbed.social"])
    }

    // MARK: - Scenario

    @Test func aFollowFaultInAScenarioFileFailsTheFollowAndChangesNothing() async throws {
        let scenario = try FixtureLoader.scenario(
            from: Data(#"{"faults": [{"request": "follow", "times": 1, "error": "server_error"}], "latency": {"unfollow": {"ms": 300}}}"#.utf8)
        ) { _ in [] }
        #expect(scenario.faults == [SandboxScenario.Fault(.init(.follow, times: 1), failure: .serverError)])
        #expect(scenario.latency(for: .unfollow) == .fixed(300))
        let service = try makeService(faults: scenario.faults)
        let before = try await relationship(service, ID.kwame)

        await #expect(throws: SandboxError.fault(.serverError, request: .follow)) {
            try await service.setRelationship(.follow, to: true, of: ID.kwame, mute: MuteOptions())
        }
        #expect(try await relationship(service, ID.kwame) == before)
        #expect(try await service.setRelationship(.follow, to: true, of: ID.kwame, mute: MuteOptions()).following, "the fault covered one request")
    }

    @Test func eachKindAndValueIsItsOwnRequest() async throws {
        let cases: [(RelationshipKind, Bool, SandboxScenario.Request)] = [
            (.follow, true, .follow), (.follow, false, .unfollow), (.mute, true, .mute), (.mute, false, .unmute),
            (.block, true, .block), (.block, false, .unblock), (.notify, true, .follow), (.boosts, false, .follow),
        ]
        for (kind, value, request) in cases {
            let service = try makeService(faults: [.init(.init(request), failure: .timeout)])
            await #expect(throws: SandboxError.fault(.timeout, request: request), "\(kind) \(value)") {
                try await service.setRelationship(kind, to: value, of: ID.hugo, mute: MuteOptions())
            }
        }
        let service = try makeService(faults: [.init(.init(.profile)), .init(.init(.relationships))])
        await #expect(throws: SandboxError.fault(.unavailable, request: .profile)) { try await service.profile(of: ID.kemi) }
        await #expect(throws: SandboxError.fault(.unavailable, request: .relationships)) { try await service.relationships(of: [ID.kemi]) }
    }

    @Test func aLostAnswerFollowsAndThenFails() async throws {
        let service = try makeService(faults: [.init(.init(.follow, times: 1), failure: .lostAnswer)])
        do {
            _ = try await service.setRelationship(.follow, to: true, of: ID.kwame, mute: MuteOptions())
            Issue.record("the answer should be lost")
        } catch let error as SandboxError {
            #expect(error == .fault(.lostAnswer, request: .follow) && error.isTransient)
        }
        #expect(try await relationship(service, ID.kwame).following, "the server followed before the answer was lost")
    }

    // MARK: - The accounts file

    @Test func anAccountsFileWithAnUnknownKeyNamesItsFileAndKey() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        try scratch.write("home.json", #"[{"id": "1", "created_at": "2026-11-21T09:15:02.000Z", "account": {"id": "9", "acct": "a"}}]"#)
        try scratch.write("scenario.json", #"{"accounts": "people.json"}"#)
        try scratch.write("people.json", #"[{"acct": "a", "relationship": {"folowing": true}}]"#)
        let folder = scratch.url.lastPathComponent
        #expect(throws: FixtureError.self) { try FixtureLoader.load(from: scratch.url) }
        do {
            _ = try FixtureLoader.load(from: scratch.url)
        } catch {
            #expect(
                error.errorDescription
                    == "The fixture file \(folder)/people.json is not an array of sandbox account details ([0].relationship.folowing: unknown key (expected one of blocked_by, blocking, domain_blocking, followed_by, following, mute_expires_at, muting, muting_notifications, note, notifying, requested, requested_by, showing_reblogs))."
            )
        }
        try FileManager.default.removeItem(at: scratch.url.appendingPathComponent("people.json"))
        try scratch.write("scenario.json", #"{"accounts": "nobody.json"}"#)
        #expect(throws: FixtureError.badScenario("\(folder)/scenario.json", "accounts: no file nobody.json in \(folder)")) {
            try FixtureLoader.load(from: scratch.url)
        }
    }

    @Test func anEntryForAnAccountTheFixturesLackNeedsAnId() async throws {
        let status = Mastodon.Status(
            id: "1", uri: "", url: nil, createdAt: Self.start, account: Mastodon.Account(id: "9", username: "a", acct: "a"), content: "<p>hi</p>"
        )
        #expect(throws: SandboxError.invalidScenario("accounts[0].acct: no account @b@elsewhere.example in the fixtures (give an id to add one)")) {
            try SandboxService(statuses: [status], accounts: [SandboxAccountDetails(acct: "b@elsewhere.example")], clock: VirtualClock())
        }
        #expect(throws: SandboxError.invalidScenario("accounts[0].moved: no account @c in the fixtures")) {
            try SandboxService(statuses: [status], accounts: [SandboxAccountDetails(acct: "a", movedTo: "c")], clock: VirtualClock())
        }
        let added = try SandboxService(
            statuses: [status], accounts: [SandboxAccountDetails(acct: "b@elsewhere.example", id: "10", displayName: "B", movedTo: "a")],
            clock: VirtualClock()
        )
        let profile = try await added.profile(of: AccountID(handle: "b@elsewhere.example"))
        #expect(profile == Profile(author: Author(id: "10", displayName: "B", handle: "b@elsewhere.example"), movedTo: Author(id: "9", displayName: "", handle: "a")))
    }
}
