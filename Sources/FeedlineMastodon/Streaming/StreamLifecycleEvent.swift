import Foundation

/// What happened to live updates: the input of ``StreamLifecycleState/reduce(_:)``. Cases are
/// named for what happened, alphabetically.
package enum StreamLifecycleEvent: Hashable, Sendable {
    /// The server's description (`GET /api/v2/instance`, else `/api/v1/instance`) named where
    /// streaming lives: a usable address other than the one tried, or `nil` for nowhere usable.
    case announced(URL?)
    /// The wait before a reconnection attempt is over.
    case backoffElapsed
    /// The stream answered 200 with `text/event-stream`: events flow.
    case connected
    /// A connection that was live ended (the server closed it, the network broke, it went
    /// silent), after being live for `livedFor` on the clock.
    case dropped(livedFor: Duration)
    /// Connecting, or asking where the stream lives, failed in a way worth trying again (no
    /// connection, a timeout, 408, 429, 5xx).
    case failed
    /// The stream is not where it was asked for: 404, or a redirect to another host.
    case movedElsewhere
    /// Time to ask for newer items again (polling).
    case pollDue
    /// There is no stream to be had: 403, 405, 501, another 4xx, or an answer that is not an
    /// event stream (servers that stream over WebSocket only).
    case refused
    /// A front started live updates; `signedIn` says whether there is a token to stream with.
    case started(signedIn: Bool)
    /// A front stopped live updates.
    case stopped
    /// The server refused the access token (401 to the stream, or to asking where it lives);
    /// `message` is the sentence to show (naming how to sign in again).
    case unauthorized(message: String)
}
