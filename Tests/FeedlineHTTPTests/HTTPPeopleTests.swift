@_spi(FeedService) import Feedline
@_spi(FeedService) @testable import FeedlineMastodon
import FeedlineTestSupport
import Foundation
import Testing

/// People over HTTP against the fake server: an unmute brings the account's posts back to a
/// list loaded to its end, hidden boosts stay out of the live stream, and account rows come with
/// their relationships. (Live notifications joining the groups a page showed are tested in the
/// core, `UnhideReloadTests`' "Live notifications join their groups".)
@MainActor
@Suite("People over HTTP", .timeLimit(.minutes(10)))
struct HTTPPeopleTests {
    static let now = HTTPStreamingTests.now

    /// A session whose home has loaded to its end (pages of 40).
    static func homeToTheEnd(_ service: MastodonHTTPService) async -> FeedSession {
        let session = FeedSession(service: service, clock: .fixed(now), retryClock: ManualClock())
        session.root.appeared()
        await session.settle()
        while !session.root.status.reachedEnd {
            session.root.loadMore()
            await session.settle()
        }
        return session
    }

    static func authors(_ list: FeedListViewModel) -> [String] {
        list.rows.compactMap { $0.post?.post.author.handle }
    }

    @Test("an unmute the server took loads home again: Kemi's posts, gone with the mute from a home loaded to its end, are back")
    func unmuteReloadsHome() async throws {
        try await withFixtureServer { fake, server in
            let service = try makeService(server, pageSize: 40)
            let session = await Self.homeToTheEnd(service)
            let kemi = try #require(fake.knownAccounts().first { $0.acct == FixtureStatuses.kemi })
            let before = Self.authors(session.root).count { $0 == FixtureStatuses.kemi }
            #expect(before > 0)
            session.set(.mute, true, account: AccountID(kemi.id))
            await session.settle()
            #expect(!Self.authors(session.root).contains(FixtureStatuses.kemi))
            session.set(.mute, false, account: AccountID(kemi.id))
            await session.settle()
            #expect(fake.requests.contains { $0.path == "/api/v1/accounts/\(kemi.id)/unmute" })
            // Loaded again from the top: her posts of the first page are back.
            #expect(Self.authors(session.root).contains(FixtureStatuses.kemi), "\(Self.authors(session.root))")
        }
    }

    @Test("boosts off: a boost by that account streamed to home stays out; their own post comes")
    func hiddenBoostsStayOutOfTheStream() async throws {
        let statuses = try FixtureStatuses.timeline()
        try await withFakeServer(statuses: statuses) { fake, server in
            fake.serveStream()
            let service = try makeService(server)
            let session = await HTTPStreamingTests.session(service)
            let originals = statuses.filter { $0.reblog == nil }
            let booster = originals[0].account
            fake.setRelationship(Mastodon.Relationship(id: booster.id, following: true, showingReblogs: true))
            session.loadRelationships([AccountID(booster.id)])
            await session.settle()
            session.set(.boosts, false, account: AccountID(booster.id))
            await session.settle()
            #expect(fake.relationship(booster.id).showingReblogs == false)
            let clock = ManualClock()
            let live = HTTPStreamingTests.liveUpdates(service, session, clock: clock)
            live.start()
            await firstValue(of: session.streamState) { $0 == .live }
            var boost = originals[3]
            boost.id = "990100"
            boost.account = booster
            boost.reblog = originals[5]
            var own = originals[4]
            own.id = "990101"
            own.account = booster
            fake.streamStatus(boost)
            fake.streamStatus(own)
            await firstValue(of: session.root.snapshot) { $0.status.waiting >= 1 }
            await session.settle()
            #expect(session.root.waiting.map(\.id) == [.post("990101")], "only their own post waits")
            live.stop()
        }
    }

    @Test("requests and search: every account row comes with its relationship, never bare and never an older copy first")
    func accountRowsComeWithRelationships() async throws {
        try await withFixtureServer { fake, server in
            fake.fill(.requests, with: [HTTPAccountListsTests.juniper])
            let juniper = AccountID(HTTPAccountListsTests.juniper.id)
            let service = try makeService(server)
            let session = FeedSession(service: service, clock: .fixed(Self.now), retryClock: ManualClock())
            // An older copy in the store: she followed you and you her.
            fake.setRelationship(Mastodon.Relationship(id: juniper.rawValue, following: true, followedBy: true))
            session.loadRelationships([juniper])
            await session.settle()
            fake.setRelationship(Mastodon.Relationship(id: juniper.rawValue, requestedBy: true))
            session.navigator.push(.list(.accounts(.requests)))
            guard case .list(let requests) = session.navigator.top else {
                Issue.record("expected the requests on top")
                return
            }
            var shown: [RelationshipDisplay?] = []
            let watch = requests.snapshot.observe { snapshot in
                if let account = snapshot.rows.first?.account { shown.append(account.relationship) }
            }
            requests.appeared()
            await session.settle()
            watch.cancel()
            #expect(!shown.isEmpty)
            #expect(shown.allSatisfy { $0?.relationship.requestedBy == true && $0?.relationship.following == false }, "\(shown)")
        }
    }
}
