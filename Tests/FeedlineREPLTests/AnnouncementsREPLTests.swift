@_spi(FeedService) import Feedline
import FeedlineREPL
import Foundation
import Testing

/// Your server's announcements in the REPL: the start says how many are unread (once, after the
/// first page), `announcements` shows them with `●` on the unread ones, and `announcements read`
/// marks one (or all) read on every announcements screen at once.
@MainActor
@Suite("REPL: announcements", .timeLimit(.minutes(10)))
struct AnnouncementsREPLTests {
    /// A started driver on the announcements fixture, asking for the count at the start when
    /// `announcing`.
    static func start(announcing: Bool) async throws -> (FeedSession, REPLDriver, OutputBuffer) {
        let session = try SessionFactory.session("announcements")
        let output = OutputBuffer()
        var options = REPLDriver.Options(pageSize: 10, width: 80)
        options.announcesUnread = announcing
        let driver = REPLDriver(session: session, options: options) { output.write($0) }
        driver.start()
        await session.settle()
        driver.flush()
        return (session, driver, output)
    }

    static func run(_ line: String, _ session: FeedSession, _ driver: REPLDriver, _ output: OutputBuffer) async -> String {
        driver.handle(line)
        await session.settle()
        driver.flush()
        return output.take()
    }

    @Test("the start says how many are unread, after the first page, once; not asked, it says nothing")
    func start() async throws {
        let (session, driver, output) = try await Self.start(announcing: true)
        let greeting = output.take()
        let line = "Your server has 3 unread announcements: type announcements to read them."
        #expect(greeting.contains(line), "\(greeting)")
        let firstRow = try #require(greeting.range(of: "\n   1 "))
        let said = try #require(greeting.range(of: line))
        #expect(firstRow.lowerBound < said.lowerBound, "the first page comes first")
        #expect(!(await Self.run("refresh", session, driver, output)).contains("unread announcement"))
        let (_, _, quiet) = try await Self.start(announcing: false)
        #expect(!quiet.take().contains("announcement"))
    }

    @Test("the screen marks the unread ones; read N marks one read; read --all the rest; read again says so")
    func read() async throws {
        let (session, driver, output) = try await Self.start(announcing: false)
        _ = output.take()
        let screen = await Self.run("announcements", session, driver, output)
        #expect(screen.contains("● Maintenance tonight"), "\(screen)")
        #expect(screen.contains("Welcome to fieldnotes.science!"), "\(screen)")
        #expect(!screen.contains("● Welcome"), "\(screen)")
        let one = await Self.run("announcements read 1", session, driver, output)
        #expect(one.contains("Marked row 1's announcement (\"Maintenance tonight: the server is down…\") read."), "\(one)")
        #expect(session.announcements.unread == ["11", "9"])
        let again = await Self.run("announcements read 1", session, driver, output)
        #expect(again.contains("is read already."), "\(again)")
        #expect(driver.failures == 1)
        let bad = await Self.run("announcements read 9", session, driver, output)
        #expect(bad.contains("There is no row 9"), "\(bad)")
    }
}
