import Foundation

/// What live updates ask of a server, as a small value passed in: whether there is a token,
/// opening the user stream, and asking where the stream lives. ``live(_:idleTimeout:)`` is the
/// real one over a ``MastodonHTTPService``; tests pass doubles that script each call and fail
/// on calls they did not expect.
package struct UserStreamClient: Sendable {
    /// Whether there is a token to stream with (Mastodon 4.2 and later stream only to signed-in
    /// users).
    package var signedIn: Bool
    /// Opens the user stream at an endpoint and reports what happens on it, in order (see
    /// ``EventStreamSignal``). Ending the iteration, or cancelling the iterating task, closes the
    /// connection.
    package var open: @Sendable (StreamLifecycleState.Endpoint) -> AsyncStream<EventStreamSignal>
    /// Asks the server where its stream lives: a user-stream address other than the server's own,
    /// or `nil` for none usable. Throws a ``MastodonHTTPError`` when the server could not be asked.
    package var discover: @Sendable () async throws -> URL?
    /// What to tell the user when the stream refuses the token (401): the sentence the HTTP
    /// layer uses for a refused token, naming how to sign in again.
    package var unauthorizedMessage: String

    package init(
        signedIn: Bool,
        open: @escaping @Sendable (StreamLifecycleState.Endpoint) -> AsyncStream<EventStreamSignal>,
        discover: @escaping @Sendable () async throws -> URL?,
        unauthorizedMessage: String
    ) {
        self.signedIn = signedIn
        self.open = open
        self.discover = discover
        self.unauthorizedMessage = unauthorizedMessage
    }
}

extension UserStreamClient {
    /// The user stream of `service`'s server with its token; a connection silent for
    /// `idleTimeout` (real time: Mastodon sends a heartbeat every 15 s) counts as dropped.
    /// With `direct`, the `direct` stream (`/api/v1/streaming/direct`: conversations) at the same places.
    package static func live(_ service: MastodonHTTPService, idleTimeout: Duration, direct: Bool = false) -> UserStreamClient {
        UserStreamClient(
            signedIn: service.canStream,
            open: { endpoint in
                let url = direct ? service.directStreamURL(endpoint) : service.userStreamURL(endpoint)
                return service.openUserStream(at: url, idleTimeout: idleTimeout)
            },
            discover: { try await service.announcedStreamURL() },
            unauthorizedMessage: MastodonHTTPError.unauthorized(serverMessage: nil, sentToken: true, server: service.server.loginArgument).description
        )
    }
}
