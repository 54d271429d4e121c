@_spi(FeedService) import Feedline

/// A fake server's refusal of something Mastodon refuses too (a 422 or 403 with its sentence):
/// not worth trying again, and the user reads ``message`` as is.
package struct ServerRefusal: FeedServiceError, Hashable {
    package var message: String

    package init(_ message: String) { self.message = message }

    package var isTransient: Bool { false }
    package var errorDescription: String? { message }
}

/// A fake server that could not be reached (the connection failed before any answer): worth
/// trying again, and nothing changed on the server.
package struct ServerUnreachable: FeedServiceError, Hashable {
    package init() {}

    package var isTransient: Bool { true }
    package var errorDescription: String? { "The server could not be reached." }
}
