/// How a session's live updates arrive, as a front shows it. The transport (outside the core)
/// sets it with ``FeedSession/streamStateChanged(_:)``.
public enum StreamState: Hashable, Sendable {
    /// No live updates (turned off, or nothing to stream).
    case off
    /// Connecting for the first time.
    case connecting
    /// Connected: updates arrive as they happen.
    case live
    /// The connection dropped; the next attempt (number `attempt`, from 1) is `after` away.
    /// Once reconnected, what came meanwhile is caught up (``FeedSession/catchUp(where:)``).
    case reconnecting(after: Duration, attempt: Int)
    /// No stream is available (the server offers none, or not without signing in): newer
    /// items are asked for every `every` instead.
    case polling(every: Duration)
    /// The server refused the access token: no live updates, and nothing more is asked with
    /// that token (no reconnecting, no polling). `message` says so and how to sign in again.
    case refused(message: String)
}
