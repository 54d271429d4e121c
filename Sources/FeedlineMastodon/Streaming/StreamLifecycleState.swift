import Feedline
import Foundation

/// Where live updates stand, as a value: the phase, where the stream is looked for, and the
/// numbers. ``reduce(_:)`` (pure) moves it on ``StreamLifecycleEvent``s; ``requests`` says what
/// should be running; ``streamState`` is what the session shows.
///
/// ```
/// off ─started(signed in)→ connecting(0) ─connected→ live(0) ─dropped→ waiting(1) ─backoffElapsed→ connecting(1) …
///     ─started(signed out)→ polling         ├─failed→ waiting(n+1)
///                                            ├─movedElsewhere→ discovering(n) ─announced(url)→ connecting(n) on url
///                                            ├─refused→ polling              ├─announced(nil), refused→ polling
///                                            │                               ├─failed→ waiting(n+1)
///                                            └─unauthorized→ unauthorized ←──┘ unauthorized
/// any ─stopped→ off
/// ```
package struct StreamLifecycleState: Hashable, Sendable {
    /// What live updates are doing.
    package enum Phase: Hashable, Sendable {
        /// Not running.
        case off
        /// Opening the stream; `attempt` 0 is the first connection, n the n-th reconnection.
        case connecting(attempt: Int)
        /// Asking the server where its stream lives, during `attempt`.
        case discovering(attempt: Int)
        /// Events flow on the connection made by `attempt`.
        case live(attempt: Int)
        /// Waiting (on the clock) before reconnection attempt `attempt` (from 1).
        case waiting(attempt: Int)
        /// No stream: asking for newer items every ``StreamPolicy/pollInterval``.
        case polling
        /// The server refused the access token: nothing is asked with it again (no stream, no
        /// poll) until stopped; `message` says so.
        case unauthorized(message: String)
    }

    /// Where the stream is asked for.
    package enum Endpoint: Hashable, Sendable {
        /// `/api/v1/streaming/user` on the server itself.
        case sameHost
        /// The streaming address the server's description names (a host of its own).
        case announced(URL)
    }

    package var phase: Phase = .off
    package var endpoint: Endpoint = .sameHost
    package var policy: StreamPolicy

    package init(policy: StreamPolicy = StreamPolicy(), phase: Phase = .off, endpoint: Endpoint = .sameHost) {
        self.policy = policy
        self.phase = phase
        self.endpoint = endpoint
    }

    /// The session's view of it: ``Feedline/StreamState/connecting`` for the first connection,
    /// ``Feedline/StreamState/reconnecting(after:attempt:)`` from a drop until a reconnection is
    /// live (the wait shown is the one that attempt began with), ``Feedline/StreamState/live``,
    /// ``Feedline/StreamState/polling(every:)``, ``Feedline/StreamState/refused(message:)`` once
    /// the token was refused, ``Feedline/StreamState/off``.
    package var streamState: StreamState {
        switch phase {
        case .off: .off
        case .connecting(0), .discovering(0): .connecting
        case .connecting(let attempt), .discovering(let attempt), .waiting(let attempt):
            .reconnecting(after: policy.backoff(attempt: attempt), attempt: attempt)
        case .live: .live
        case .polling: .polling(every: policy.pollInterval)
        case .unauthorized(let message): .refused(message: message)
        }
    }
}
