import Feedline
import FeedlineREPL
import Foundation
import Testing

/// `filters delete N` asks first in a terminal (the one y/N every question uses) and needs
/// `--yes` in a script, which cannot answer.
@MainActor
@Suite("REPL: deleting a filter asks first", .timeLimit(.minutes(10)))
struct FilterDeleteConfirmationTests {
    static func filterRows(_ harness: DriverHarness) -> Int {
        harness.session.navigator.top.list?.rows.count ?? -1
    }

    @Test("in a terminal: [y/N]; n keeps the filter, y deletes it")
    func asks() async throws {
        let harness = try await DriverHarness.start(live: true, showing: false)
        _ = await harness.run("filters")
        let before = Self.filterRows(harness)
        #expect(before == 2)
        let asked = await harness.run("filters delete 1")
        #expect(asked.contains("Delete the filter Gig promotion?") && asked.contains("[y/N]"), "\(asked)")
        #expect(harness.driver.prompt == "[y/N]> ")
        #expect(await harness.run("n") == "Not deleted: the filter Gig promotion stays.\n")
        #expect(harness.driver.prompt == "filters> ")
        #expect(Self.filterRows(harness) == before)
        _ = await harness.run("filters delete 1")
        let deleted = await harness.run("yes")
        #expect(deleted.contains("Deleting the filter Gig promotion…"), "\(deleted)")
        await harness.session.settle()
        #expect(Self.filterRows(harness) == before - 1)
    }

    @Test("in a script: refused with the --yes to type, counted as failed, nothing deleted")
    func script() async throws {
        let harness = try await DriverHarness.start(showing: false)
        _ = await harness.run("filters")
        let refused = await harness.run("filters delete 1").replacingOccurrences(of: "\n", with: " ")
        #expect(refused.contains("type filters delete 1 --yes"), "\(refused)")
        #expect(harness.driver.failures == 1)
        #expect(Self.filterRows(harness) == 2)
    }
}
