import Feedline
import FeedlineREPL
import Foundation

/// A driver on a sandbox session with a virtual clock, run line by line as a script runs it.
@MainActor
struct DriverHarness {
    let session: FeedSession
    let driver: REPLDriver
    let output: OutputBuffer

    /// A started driver on the fixture directory `fixtures` whose first screen is shown (and
    /// left in ``output`` unless not `showing`).
    static func start(
        _ fixtures: String = "timeline", pageSize: Int = 10, width: Int = 80, live: Bool = false, showing: Bool = true
    ) async throws -> DriverHarness {
        try await start(on: SessionFactory.session(fixtures), pageSize: pageSize, width: width, live: live, showing: showing)
    }

    /// A started driver on `session` whose first screen is shown (and left in ``output``
    /// unless not `showing`).
    static func start(
        on session: FeedSession, pageSize: Int = 10, width: Int = 80, live: Bool = false, showing: Bool = true
    ) async -> DriverHarness {
        let output = OutputBuffer()
        let driver = REPLDriver(session: session, options: .init(pageSize: pageSize, width: width, live: live)) { output.write($0) }
        driver.start()
        await session.settle()
        driver.flush()
        if !showing { _ = output.take() }
        return DriverHarness(session: session, driver: driver, output: output)
    }

    /// Runs `line` like a script does (the command, then settle, then flush) and returns its output.
    func run(_ line: String) async -> String {
        driver.handle(line)
        await session.settle()
        driver.flush()
        return output.take()
    }
}
