@_spi(FeedService) import Feedline
@_spi(FeedService) import FeedlineMastodon
import FeedlineREPL
import FeedlineTestSupport
import Foundation
import Testing

/// What `quit` says of changes the server has not confirmed: each store's, in one sentence with
/// where to see where they stand next time (they are not kept between sessions).
@MainActor
@Suite("REPL: unconfirmed changes at quit", .timeLimit(.minutes(10)))
struct UnconfirmedAtQuitTests {
    @Test("a filter made while the server cannot be reached is named at quit, with the screen that shows where it stands")
    func filterNamed() async throws {
        var fixture = try FixtureLoader.load(from: PackagePaths.fixtures("timeline"))
        fixture.scenario.defaultLatency = .none
        fixture.scenario.faults.append(SandboxScenario.Fault(SandboxScenario.Match(.filterChange, occurrence: 1, times: 10), failure: .unavailable))
        let clock = WallClock.fixed(SessionFactory.now)
        let service = try SandboxService(fixture: fixture, clock: VirtualClock(), wallClock: clock)
        let session = FeedSession(service: service, clock: clock, retryClock: ManualClock())
        let harness = await DriverHarness.start(on: session, width: 200, showing: false)
        _ = await harness.run("filters new Herons --keyword heron --hide --context home")
        #expect(session.hasFailures, "the filter waits for a connection")
        await harness.driver.close()
        let said = harness.output.take()
        #expect(
            said.contains("Not confirmed by the server: create the filter Herons. Filter changes are not kept between sessions: filters shows where they stand next time."),
            "\(said)"
        )
    }
}
