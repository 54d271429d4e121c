@_spi(FeedService) import Feedline
@_spi(FeedService) import FeedlineMastodon
import Foundation
import Testing

/// Issue 36's announcements over HTTP: `GET /api/v1/announcements` read as Mastodon sends it
/// (every field of its `Announcement`, the HTML content made text by the one sanitiser), and
/// `POST /api/v1/announcements/:id/dismiss` to mark one read, with the server's refusals kept.
@Suite("HTTP announcements")
struct HTTPAnnouncementTests {
    static let announcements = [
        (id: "8", content: "<p>Maintenance <strong>tonight</strong> &amp; tomorrow: <a href=\"https://status.example\">status</a></p><p>Sorry!</p>", publishedAt: "2026-11-20T01:27:38.726Z", read: false),
        (id: "5", content: "<p>Welcome to the server.</p>", publishedAt: "2026-10-01T09:00:00.000Z", read: true),
    ]

    @Test("the announcements are read with their real shape, their HTML made text, read as the server says")
    func list() async throws {
        try await withFakeServer { fake, server in
            fake.setAnnouncements(Self.announcements)
            let service = try makeService(server)
            let read = try await service.announcements()
            #expect(read.map(\.id) == ["8", "5"])
            #expect(read.map(\.read) == [false, true])
            #expect(read.first?.text == "Maintenance tonight & tomorrow: status\n\nSorry!", "\(read.first?.text ?? "")")
            #expect(read.first?.updatedAt == nil, "an update at the publication is none")
            #expect(fake.requests.filter { $0.path == "/api/v1/announcements" }.allSatisfy { $0.method == "GET" && $0.authorization == "Bearer \(secretToken)" })
        }
    }

    @Test("marking one read is a POST to its dismiss path; the server's refusals keep their sentence")
    func dismiss() async throws {
        try await withFakeServer { fake, server in
            fake.setAnnouncements(Self.announcements)
            let service = try makeService(server)
            try await service.dismissAnnouncement("8")
            #expect(fake.announcementsDismissed == ["8"])
            #expect(fake.requests.contains { $0.method == "POST" && $0.path == "/api/v1/announcements/8/dismiss" })
            #expect(try await service.announcements().map(\.read) == [true, true])
            do {
                try await service.dismissAnnouncement("99")
                Issue.record("an announcement the server has not was dismissed")
            } catch {
                #expect(FeedFailure(error).message.contains("Record not found"), "\(FeedFailure(error).message)")
                #expect(!FeedFailure(error).isTransient)
            }
            fake.forbidDismissals()
            do {
                try await service.dismissAnnouncement("5")
                Issue.record("a dismissal without write:accounts went through")
            } catch {
                #expect(FeedFailure(error).message.contains("feedline login"), "\(FeedFailure(error).message)")
            }
        }
    }

    @Test("a session shows the announcement read at once, and the server has it")
    @MainActor
    func session() async throws {
        try await withFakeServer { fake, server in
            fake.setAnnouncements(Self.announcements)
            let session = FeedSession(service: try makeService(server), clock: .fixed(Date(timeIntervalSince1970: 1_795_348_800)))
            session.navigator.push(.list(.announcements))
            let list = try #require(session.navigator.screens.compactMap(\.list).last)
            list.appeared()
            await session.settle()
            #expect(list.rows.compactMap { $0.announcement?.read.isOn } == [false, true])
            #expect(session.markAnnouncementRead("8") == nil)
            #expect(list.rows.first?.announcement?.read == ToggleDisplay(isOn: true, pending: true))
            await session.settle()
            #expect(list.rows.first?.announcement?.read == ToggleDisplay(isOn: true))
            #expect(fake.announcementsDismissed == ["8"])
        }
    }
}
