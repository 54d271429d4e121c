/// The numbers live updates run by: how long to wait before each reconnection, how often to poll
/// where there is no stream, and when a connection counts as dead or as having been good.
///
/// The backoff is deterministic (no jitter): attempt 1 waits ``firstBackoff``, each next one twice
/// as long, never more than ``maximumBackoff`` — 1, 2, 4, 8, 16, 32, 60, 60 … seconds by default.
package struct StreamPolicy: Hashable, Sendable {
    /// The wait before the first reconnection attempt (1 s).
    package var firstBackoff: Duration = .seconds(1)
    /// The longest wait between attempts (60 s).
    package var maximumBackoff: Duration = .seconds(60)
    /// How often newer items are asked for when there is no stream (60 s).
    package var pollInterval: Duration = .seconds(60)
    /// A connection that stayed up this long starts the backoff over when it drops (60 s); one
    /// that drops sooner keeps climbing, so a server that accepts and hangs up at once is not
    /// hammered every second.
    package var stableAfter: Duration = .seconds(60)
    /// A connection that sends nothing, not even a heartbeat, for this long is dropped (real time;
    /// Mastodon sends `:thump` every 15 s) (60 s).
    package var idleTimeout: Duration = .seconds(60)

    package init() {}

    /// The wait before reconnection attempt `attempt` (from 1).
    package func backoff(attempt: Int) -> Duration {
        var wait = firstBackoff
        var step = 1
        while step < attempt, wait < maximumBackoff {
            wait *= 2
            step += 1
        }
        return min(wait, maximumBackoff)
    }
}
