/// The version of Feedline, sent in the HTTP service's `User-Agent` (`Feedline/0.1.0`).
public enum FeedlineVersion {
    /// The current version, `MAJOR.MINOR.PATCH`.
    public static let current = "0.1.0"

    /// The `User-Agent` the HTTP service sends by default: `Feedline/0.1.0`.
    public static var userAgent: String { "Feedline/\(current)" }
}
