@_spi(FeedService) import Feedline
import Foundation
import Testing

@_spi(FeedService) @testable import FeedlineMastodon

/// The sandbox decodes its notifications file when notifications are first asked for, not at
/// start (issue 33's start-up bar), and serves exactly what an eager load serves.
@Suite struct DeferredNotificationsTests {
    static let status = #"{"id": "1", "created_at": "2026-11-20T09:15:02.000Z", "account": {"id": "9", "acct": "a"}}"#
    static let scenario = #"{"notifications": "n.json"}"#

    /// Every page of the service's notifications, following the cursors.
    static func allNotifications(_ service: SandboxService) async throws -> [[NotificationGroup]] {
        var pages: [[NotificationGroup]] = []
        var cursor: PageCursor?
        repeat {
            let page = try await service.notifications(of: [], after: cursor)
            pages.append(page.items)
            cursor = page.next
        } while cursor != nil
        return pages
    }

    @Test func theCommandLineSandboxStartsWithoutDecodingNotifications() async throws {
        let choice = ServiceChoice.sandbox(fixtures: try FixturePaths.directory("timeline"))
        let service = try #require(try choice.makeService(clock: VirtualClock()) as? SandboxService)
        #expect(service.notificationsAwaitDecoding, "nothing asked for notifications yet")
        let page = try await service.page(of: .home, after: nil)
        let first = try #require(page.posts.first)
        _ = try await service.post(first.id)
        _ = try await service.context(of: first.id)
        _ = try await service.profile(of: AccountID(first.author.id))
        #expect(service.notificationsAwaitDecoding, "the home timeline, a post, its thread and a profile need no notifications")
        #expect(try await !service.notifications(of: [], after: nil).items.isEmpty)
        #expect(!service.notificationsAwaitDecoding)
    }

    @Test func aDeferredFixtureServesWhatAnEagerOneServes() async throws {
        let directory = try FixturePaths.directory("timeline")
        let eager = try FixtureLoader.load(from: directory)
        let deferred = try FixtureLoader.load(from: directory, deferringNotifications: true)
        #expect(eager.deferredNotifications == nil)
        #expect(deferred.notifications.isEmpty)
        #expect(deferred.deferredNotifications != nil)
        #expect(deferred.statuses == eager.statuses && deferred.elsewhere == eager.elsewhere && deferred.accounts == eager.accounts)

        let now = WallClock.fixed(Date(timeIntervalSince1970: 1_795_348_800))
        let before = try SandboxService(fixture: eager, clock: VirtualClock(), wallClock: now)
        let after = try SandboxService(fixture: deferred, clock: VirtualClock(), wallClock: now)
        // The directory holds the same accounts: every notifying account's profile, asked for
        // before the notifications are decoded.
        for notification in eager.notifications {
            let id = AccountID(notification.account.id)
            #expect(try await after.profile(of: id) == before.profile(of: id))
        }
        #expect(after.notificationsAwaitDecoding)
        // Two pages release the scenario's reactions, which add notifications before the file is decoded.
        for service in [before, after] {
            let page = try await service.page(of: .home, after: nil)
            _ = try await service.page(of: .home, after: page.next)
        }
        let pages = try await Self.allNotifications(after)
        #expect(try await pages == Self.allNotifications(before))
        let follow = try #require(Mastodon.DateFormat.date(from: "2026-11-21T17:45:00Z"))
        #expect(pages.joined().contains { $0.latestAt == follow && $0.kind == .follow }, "the scenario's follow is among them")
    }

    @Test func aFileBrokenPastItsAccountsFailsTheFirstNotificationsRequest() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        try scratch.write("a.json", Self.status)
        try scratch.write("scenario.json", Self.scenario)
        // The accounts read; the notification has no type.
        try scratch.write("n.json", #"[{"id": "5", "created_at": "2026-11-20T10:00:00Z", "account": {"id": "7", "acct": "b"}}]"#)
        let folder = scratch.url.lastPathComponent
        var sentence = ""
        do {
            _ = try FixtureLoader.load(from: scratch.url)
            Issue.record("an eager load reads the whole file")
        } catch {
            guard case .wrongNotifications(let file, _) = error else { throw error }
            #expect(file == "\(folder)/n.json")
            sentence = error.errorDescription ?? ""
        }
        let fixture = try FixtureLoader.load(from: scratch.url, deferringNotifications: true)
        let service = try SandboxService(fixture: fixture, clock: VirtualClock())
        #expect(try await service.page(of: .home, after: nil).posts.map(\.id) == ["1"])
        #expect(try await service.profile(of: "7").author.handle == "b", "the notifying account is known from the start")
        for _ in 0..<2 {
            await #expect(throws: SandboxError.brokenFixture(sentence)) { _ = try await service.notifications(of: [], after: nil) }
        }
        #expect(SandboxError.brokenFixture(sentence).errorDescription == sentence)
        #expect(sentence.hasPrefix("The fixture file \(folder)/n.json is not an array of Mastodon notifications"))
    }

    @Test func anAccountOnlyTheFileNamesIsDecodedAtStart() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        try scratch.write("a.json", Self.status)
        try scratch.write("scenario.json", Self.scenario)
        // Account 9 is the status's author, known without the file; account 7 is new, and has no handle.
        let notification = #"{"id": "5", "type": "follow", "created_at": "2026-11-20T10:00:00Z", "account": ACCOUNT}"#
        try scratch.write("n.json", "[" + notification.replacingOccurrences(of: "ACCOUNT", with: #"{"id": "7"}"#) + "]")
        let fixture = try FixtureLoader.load(from: scratch.url, deferringNotifications: true)
        #expect(throws: SandboxError.self) { _ = try SandboxService(fixture: fixture, clock: VirtualClock()) }
        do {
            _ = try SandboxService(fixture: fixture, clock: VirtualClock())
        } catch {
            #expect(error.errorDescription?.hasPrefix("The fixture file \(scratch.url.lastPathComponent)/n.json is not an array") == true)
        }
        // The same broken copy of a known account is not read until notifications are asked for.
        try scratch.write("n.json", "[" + notification.replacingOccurrences(of: "ACCOUNT", with: #"{"id": "9"}"#) + "]")
        let known = try FixtureLoader.load(from: scratch.url, deferringNotifications: true)
        let service = try SandboxService(fixture: known, clock: VirtualClock())
        #expect(service.notificationsAwaitDecoding)
    }

    @Test(arguments: [
        (#"[{"id": "5", "type": "follow", "created_at": "2026-11-20T10:00:00Z"}]"#, false),
        (#"[{"id": "5", "account": {"id": "7", "acct": "b"}, "status": {"id": "3"}}]"#, false),
        ("not json", true),
    ])
    func aFileWhoseAccountsCannotBeReadFailsTheStart(_ text: String, notJSON: Bool) throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        try scratch.write("a.json", Self.status)
        try scratch.write("scenario.json", Self.scenario)
        try scratch.write("n.json", text)
        let file = "\(scratch.url.lastPathComponent)/n.json"
        do {
            _ = try FixtureLoader.load(from: scratch.url, deferringNotifications: true)
            Issue.record("loaded a notifications file without its accounts")
        } catch {
            switch error {
            case .invalidJSON(let named): #expect(notJSON && named == file)
            case .wrongNotifications(let named, _): #expect(!notJSON && named == file)
            default: Issue.record("unexpected \(error)")
            }
        }
    }
}
