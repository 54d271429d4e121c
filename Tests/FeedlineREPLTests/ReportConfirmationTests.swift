@_spi(FeedService) import Feedline
import FeedlineREPL
import FeedlineTestSupport
import Foundation
import Testing

/// `report` asks before it sends: `[y/N]` in a terminal (only `y` or `yes` sends), `--yes` in a
/// script, which cannot answer (a sentence says so, and nothing is sent or marked).
@MainActor
@Suite("report confirmation")
struct ReportConfirmationTests {
    @Test("a script without --yes is told to add it; nothing is marked")
    func scriptNeedsYes() async throws {
        let harness = try await DriverHarness.start(showing: false)
        let said = await harness.run("report 6 --category spam Spam links").replacingOccurrences(of: "\n", with: " ")
        #expect(said == "report asks before it sends, and a script cannot answer: add --yes to send it (report 6 --category spam --yes Spam links). ", "\(said)")
        #expect(harness.session.navigator.top.list?.rows.compactMap { $0.post?.interaction.reported }.isEmpty == true)
    }

    @Test("in a terminal it asks; anything but y drops it, y sends it and every row of the post is marked")
    func terminalAsks() async throws {
        let harness = try await DriverHarness.start(live: true, showing: false)
        let asked = await harness.run("report 6 Spam links").replacingOccurrences(of: "\n", with: " ")
        #expect(asked.hasPrefix("Report @"), "\(asked)")
        #expect(asked.hasSuffix("(1 post, other) to the moderators of your server? [y/N] "), "\(asked)")
        #expect(harness.driver.prompt == "[y/N]> ")
        #expect(await harness.run("").hasPrefix("Not reported.\n"))
        let author = try #require(harness.session.navigator.top.list?.rows.compactMap(\.post).dropFirst(5).first?.author.id)
        #expect(harness.session.reportMark(of: AccountID(author)) == nil, "nothing was sent")
        _ = await harness.run("report 6 Spam links")
        let sent = await harness.run("YES")
        #expect(sent.contains("Reporting @"), "\(sent)")
        #expect(sent.contains("Done: reported @"), "\(sent)")
        let row = try #require(harness.session.navigator.top.list?.rows.compactMap(\.post).first { $0.interaction.reported != nil })
        #expect(row.interaction.reported == ToggleDisplay(isOn: true))
        // Another command in place of an answer drops the report and runs.
        _ = await harness.run("report 5 Off-topic")
        let other = await harness.run("where")
        #expect(other.hasPrefix("Not reported.\n"), "\(other)")
        #expect(other.count > "Not reported.\n".count)
    }
}
