@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

/// The instance's announcements: marking one read shows it read at once on every announcements
/// screen; refused, it shows unread again with the server's sentence; unreachable, it stays read
/// and is sent again; a fetch begun before the answer does not undo it.
@MainActor
@Suite("Announcements read", .timeLimit(.minutes(10)))
struct AnnouncementSessionTests {
    static let announcements = [
        Announcement(id: "8", text: "Maintenance tonight.", publishedAt: testNow),
        Announcement(id: "7", text: "New rules.", publishedAt: testNow, read: false),
        Announcement(id: "5", text: "Welcome.", publishedAt: testNow, read: true),
    ]

    /// A session with two announcements screens open over a server that holds reads until the
    /// test answers them.
    private func session(retryClock: ManualClock = ManualClock()) async throws -> (FeedSession, GatedServer, first: FeedListViewModel, second: FeedListViewModel) {
        let server = GatedServer(posts: makePosts(5), answering: [.page, .announcements])
        server.update { $0.announcements = Self.announcements }
        server.hold(.dismissAnnouncement)
        let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: retryClock)
        session.navigator.push(.list(.announcements))
        session.navigator.push(.list(.announcements))
        for list in session.navigator.screens.compactMap(\.list) where list.source == .announcements { list.appeared() }
        await session.settle()
        let lists = session.navigator.screens.compactMap(\.list).filter { $0.source == .announcements }
        try #require(lists.count == 2)
        return (session, server, lists[0], lists[1])
    }

    /// Each row's id and read mark: `8`, `8 read`, `8 reading` (waiting), `8 ! sentence`.
    static func shown(_ list: FeedListViewModel) -> [String] {
        list.rows.compactMap { row in
            guard let shown = row.announcement else { return nil }
            let (announcement, read) = (shown.announcement, shown.read)
            var text = announcement.id
            if read.isOn { text += read.pending ? " reading" : " read" }
            if let failure = read.failure { text += " ! " + failure }
            return text
        }
    }

    @Test("the screen lists them in the server's order, read as the server says")
    func list() async throws {
        let (session, _, first, second) = try await session()
        #expect(Self.shown(first) == ["8", "7", "5 read"])
        #expect(Self.shown(second) == Self.shown(first))
        #expect(session.announcements.unread == ["8", "7"])
        #expect(session.announcementRead("5") == ToggleDisplay(isOn: true))
        #expect(session.announcementRead("404") == nil)
    }

    @Test("marked read, it shows read at once on every screen, and stays read once the server took it")
    func read() async throws {
        let (session, server, first, second) = try await session()
        let log = OutcomeLog(session)
        #expect(session.markAnnouncementRead("8") == nil)
        #expect(Self.shown(first) == ["8 reading", "7", "5 read"])
        #expect(Self.shown(second) == ["8 reading", "7", "5 read"])
        #expect(session.markAnnouncementRead("8") == "The announcement \"Maintenance tonight.\" is being marked read.")
        #expect(session.markAnnouncementRead("5") == "The announcement \"Welcome.\" is read already.")
        #expect(session.markAnnouncementRead("404") == "There is no announcement 404.")
        await server.waitForHeld(1)
        #expect(server.waiting.map(\.kind) == [.dismissAnnouncement] && server.waiting.map(\.key) == ["8"])
        // A fetch begun before the answer, which the server answers as it was then (unread),
        // does not undo it.
        server.hold(.announcements)
        first.reload()
        await server.waitForHeld(2)
        server.answer(at: try #require(server.waiting.firstIndex { $0.kind == .dismissAnnouncement }))
        await session.announcements.waitForRequests(atMost: .seconds(600))
        _ = server.answerHeld(at: 0, asAsked: true)
        await session.settle()
        #expect(log.heard == [.done(.announcementRead("8"))])
        #expect(Self.shown(first) == ["8 read", "7", "5 read"])
        #expect(Self.shown(second) == ["8 read", "7", "5 read"])
        server.answer(.announcements)
        second.reload()
        await session.settle()
        #expect(Self.shown(second) == ["8 read", "7", "5 read"])
        #expect(server.model.announcements.map(\.read) == [true, false, true])
        #expect(!session.hasFailures)
    }

    @Test("refused, it shows unread again on every screen with the server's sentence, and is not sent again")
    func refused() async throws {
        let (session, server, first, second) = try await session()
        let log = OutcomeLog(session)
        #expect(session.markAnnouncementRead("7") == nil)
        await server.waitForHeld(1)
        server.refuse(at: 0)
        await session.settle()
        let unread = "7 ! Could not mark the announcement \"New rules.\" read: Forbidden."
        #expect(Self.shown(first) == ["8", unread, "5 read"])
        #expect(Self.shown(second) == ["8", unread, "5 read"])
        #expect(log.heard == [.refused(.announcementRead("7"), sentence: "Forbidden.")])
        #expect(!session.hasFailures, "a refusal is not sent again")
        #expect(session.announcements.unread == ["8", "7"])
    }

    @Test("unreachable, it stays read and waits; sent again after the backoff, or at once by a retry")
    func queued() async throws {
        let clock = ManualClock()
        let (session, server, first, second) = try await session(retryClock: clock)
        let log = OutcomeLog(session)
        #expect(session.markAnnouncementRead("8") == nil)
        await server.waitForHeld(1)
        server.lose(at: 0)
        await session.settle()
        #expect(Self.shown(first) == ["8 reading", "7", "5 read"] && Self.shown(second) == Self.shown(first), "it stays read while it waits")
        #expect(session.hasFailures)
        #expect(log.heard == [.queued(.announcementRead("8"), reason: "The server could not be reached.", resendAfter: .seconds(2))])
        try #require(session.retry())
        // Lost again: the backoff ends and it is sent by itself.
        await server.loseThenAnswerAfterBackoff(session, clock: clock)
        #expect(log.heard.last == .done(.announcementRead("8")))
        #expect(!session.hasFailures)
        #expect(server.calls(.dismissAnnouncement).count == 3)
        #expect(Self.shown(first) == ["8 read", "7", "5 read"])
    }

    @Test("every unread one marked read at once: one request each, answered in any order")
    func all() async throws {
        let (session, server, first, _) = try await session()
        let log = OutcomeLog(session)
        #expect(Set(try session.markAllAnnouncementsRead()) == ["8", "7"])
        #expect(Self.shown(first) == ["8 reading", "7 reading", "5 read"])
        #expect(throws: FeedFailure(message: "Every announcement is read already.", isTransient: false), "none is unread any more") {
            try session.markAllAnnouncementsRead()
        }
        await server.waitForHeld(2)
        #expect(Set(server.waiting.map(\.key)) == ["8", "7"])
        let seven = try #require(server.waiting.firstIndex { $0.key == "7" })
        server.refuse(at: seven)
        server.answer(at: 0)
        await session.settle()
        #expect(Set(log.heard) == [.done(.announcementRead("8")), .refused(.announcementRead("7"), sentence: "Forbidden.")])
        #expect(Self.shown(first).prefix(1) == ["8 read"])
        #expect(session.announcements.unread == ["7"])
    }

    @Test("the count at the start: fetched once, counted in the activity, learnt by every screen's store")
    func count() async throws {
        let server = GatedServer(posts: makePosts(5), answering: [.page, .announcements])
        server.update { $0.announcements = Self.announcements }
        let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: ManualClock())
        #expect(!session.announcements.isLoaded)
        let result = await session.loadAnnouncements()
        #expect((try? result.get())?.map(\.id) == ["8", "7", "5"])
        #expect(session.announcements.unread == ["8", "7"])
        server.close(.announcements)
        server.fail(.announcements, with: ServerRefusal("Gone."))
        if case .success = await session.loadAnnouncements() { Issue.record("a failed fetch succeeded") }
        #expect(session.announcements.unread == ["8", "7"], "a failed fetch keeps what is known")
    }
}
