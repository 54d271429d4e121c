import Feedline
import FeedlineREPL
import Foundation
import Testing

/// `notifications clear` asks first in a terminal (y/N) and needs `--yes` in a script; `dismiss N`
/// takes one notification off every notifications screen.
@MainActor
@Suite("REPL: dismissing and clearing notifications", .timeLimit(.minutes(10)))
struct NotificationClearTests {
    static func notificationRows(_ harness: DriverHarness) -> Int {
        harness.session.navigator.screens.compactMap(\.list).filter { $0.source.notificationKinds != nil }.map { $0.rows.count }.reduce(0, +)
    }

    @Test("in a terminal, clear asks first: anything but y keeps them; y clears every notifications screen")
    func asks() async throws {
        let harness = try await DriverHarness.start(pageSize: 5, live: true, showing: false)
        _ = await harness.run("notifications")
        let before = Self.notificationRows(harness)
        #expect(before > 0)
        let asked = await harness.run("notifications clear")
        #expect(asked.contains("[y/N]"), "\(asked)")
        #expect(harness.driver.prompt == "[y/N]> ")
        #expect(await harness.run("n") == "Not cleared: your notifications stay.\n")
        #expect(harness.driver.prompt == "notifications> ")
        // Another command in place of an answer keeps them, and runs.
        _ = await harness.run("notifications clear")
        let other = await harness.run("where")
        #expect(other.hasPrefix("Not cleared: your notifications stay.\n") && other.count > "Not cleared: your notifications stay.\n".count, "\(other)")
        #expect(harness.driver.prompt == "notifications> ")
        #expect(Self.notificationRows(harness) == before)
        _ = await harness.run("notifications clear")
        let cleared = await harness.run("y")
        #expect(Self.notificationRows(harness) == 0)
        #expect(cleared.contains("Cleared your notifications."), "\(cleared)")
    }

    @Test("in a script, clear needs --yes and says so; dismiss N leaves every notifications screen")
    func script() async throws {
        let harness = try await DriverHarness.start(pageSize: 5, showing: false)
        _ = await harness.run("notifications")
        let before = Self.notificationRows(harness)
        let refused = await harness.run("notifications clear")
        #expect(refused.contains("type notifications clear --yes"), "\(refused)")
        #expect(harness.driver.failures == 1)
        #expect(Self.notificationRows(harness) == before)
        let dismissed = await harness.run("dismiss 1")
        #expect(dismissed.contains("Dismissed row 1's notification"), "\(dismissed)")
        #expect(Self.notificationRows(harness) == before - 1)
    }
}
