@_spi(FeedService) import Feedline
@_spi(FeedService) import FeedlineMastodon
import FeedlineREPL
import FeedlineTestSupport
import Foundation

/// Sessions on a fixture directory, served by the sandbox on a virtual clock, as scripts run them.
@MainActor
enum SessionFactory {
    /// 2026-11-21T18:00:00Z, the "now" of the golden sessions.
    nonisolated static let now = Date(timeIntervalSince1970: 1_795_284_000)

    /// `executor` runs the session's effects; scripted runs of the binary use a
    /// ``MainQueueTaskExecutor``, so answers due at the same virtual instant arrive in the order
    /// they were asked for (on the shared pool two of them race). Interactions queued for lack
    /// of a connection wait on a clock nothing advances: only `retry` sends them again, so no
    /// transcript depends on how fast the machine runs.
    static func session(_ fixtures: URL, now: Date = now, executor: (any TaskExecutor)? = nil) throws -> FeedSession {
        let clock = WallClock.fixed(now)
        let service = try SandboxService(fixture: try FixtureLoader.load(from: fixtures), clock: VirtualClock(), wallClock: clock)
        return FeedSession(service: service, clock: clock, executor: executor, retryClock: ManualClock())
    }

    static func session(_ name: String) throws -> FeedSession {
        try session(PackagePaths.fixtures(name))
    }
}

/// Collects a driver's output.
@MainActor
final class OutputBuffer {
    var text = ""
    func write(_ chunk: TerminalText) { text += chunk.text }

    /// What was written since the last call.
    func take() -> String {
        defer { text = "" }
        return text
    }
}
