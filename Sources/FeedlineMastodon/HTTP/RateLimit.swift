import Foundation

/// What a response's `X-RateLimit-*` headers say (Mastodon sends them on every API response):
/// how many requests a window allows, how many are left, and when the window resets.
public struct RateLimit: Hashable, Sendable {
    /// `X-RateLimit-Limit`: requests per window.
    public var limit: Int?
    /// `X-RateLimit-Remaining`: requests left in this window.
    public var remaining: Int?
    /// When the window resets: `now` plus a `Retry-After` given in seconds — relative, so a
    /// client clock that differs from the server's does not move it — else `X-RateLimit-Reset`
    /// (an ISO 8601 time).
    public var reset: Date?

    /// A rate limit with these values.
    public init(limit: Int? = nil, remaining: Int? = nil, reset: Date? = nil) {
        self.limit = limit
        self.remaining = remaining
        self.reset = reset
    }

    /// Reads the headers through `header` (a case-insensitive lookup); values that do not parse
    /// are ignored.
    public init(header: (String) -> String?, now: Date) {
        limit = header("X-RateLimit-Limit").flatMap(Self.integer)
        remaining = header("X-RateLimit-Remaining").flatMap(Self.integer)
        if let seconds = header("Retry-After").flatMap(Self.integer), seconds >= 0 {
            reset = now.addingTimeInterval(TimeInterval(seconds))
        } else if let text = header("X-RateLimit-Reset")?.trimmingCharacters(in: .whitespaces), let date = Mastodon.DateFormat.date(from: text) {
            reset = date
        }
    }

    private static func integer(_ text: String) -> Int? {
        Int(text.trimmingCharacters(in: .whitespaces))
    }
}
