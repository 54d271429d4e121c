import Feedline

/// A fake server's refusal of something Mastodon refuses too (a 422 or 403 with its sentence):
/// not worth trying again, and the user reads ``message`` as is.
public struct ServerRefusal: FeedServiceError, Hashable {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var isTransient: Bool { false }
    public var errorDescription: String? { message }
}
