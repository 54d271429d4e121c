import Foundation

/// Which timeline the HTTP service pages through, as named on the command line:
/// `home`, `public`, `local` or `tag:NAME`.
public enum TimelineSource: Hashable, Sendable, CustomStringConvertible {
    /// The signed-in user's home timeline (`/api/v1/timelines/home`): needs an access token.
    case home
    /// Every public post the server knows (`/api/v1/timelines/public`).
    case `public`
    /// Public posts from the server's own users (`/api/v1/timelines/public?local=true`).
    case local
    /// Public posts with a hashtag (`/api/v1/timelines/tag/NAME`); the name without `#`.
    case tag(String)

    /// Reads `home`, `public`, `local` or `tag:NAME` (`tag:#NAME` too); case-insensitive except
    /// for the tag's name, surrounding spaces ignored.
    ///
    /// - Throws: ``MastodonSetupError/invalidTimeline(_:reason:)`` naming what was expected.
    public init(parsing text: String) throws(MastodonSetupError) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        switch trimmed.lowercased() {
        case "home": self = .home
        case "public": self = .public
        case "local": self = .local
        default:
            guard trimmed.lowercased().hasPrefix("tag:") else {
                throw .invalidTimeline(text, reason: "expected home, public, local or tag:NAME")
            }
            var name = Substring(trimmed.dropFirst(4)).trimmingCharacters(in: .whitespaces)
            if name.hasPrefix("#") { name.removeFirst() }
            guard !name.isEmpty else { throw .invalidTimeline(text, reason: "the tag has no name; write tag:NAME, e.g. tag:swift") }
            guard name.unicodeScalars.allSatisfy(Self.isTagScalar) else {
                throw .invalidTimeline(text, reason: "a tag name has only letters, digits and underscores")
            }
            self = .tag(name)
        }
    }

    /// `home`, `public`, `local` or `tag:NAME`: the text ``init(parsing:)`` reads back.
    public var description: String {
        switch self {
        case .home: "home"
        case .public: "public"
        case .local: "local"
        case .tag(let name): "tag:\(name)"
        }
    }

    /// Whether the server requires an access token for this timeline.
    public var needsToken: Bool { self == .home }

    /// How messages name it: "the home timeline", "the #swift timeline".
    public var displayName: String {
        switch self {
        case .home: "the home timeline"
        case .public: "the public timeline"
        case .local: "the local timeline"
        case .tag(let name): "the #\(name) timeline"
        }
    }

    /// The API path, percent-encoded.
    var path: String {
        switch self {
        case .home: "/api/v1/timelines/home"
        case .public, .local: "/api/v1/timelines/public"
        case .tag(let name): "/api/v1/timelines/tag/" + URLPath.encode(name)
        }
    }

    /// The query items every request for it carries.
    var fixedQuery: [URLQueryItem] {
        self == .local ? [URLQueryItem(name: "local", value: "true")] : []
    }

    private static func isTagScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || scalar == "\u{B7}" || scalar == "\u{200C}" || CharacterSet.alphanumerics.contains(scalar)
    }
}

/// Percent-encoding of one path segment.
enum URLPath {
    private static let segment: CharacterSet = {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/;?#%")
        return allowed
    }()

    /// `segment` with everything but unreserved path characters percent-encoded (`/` included).
    static func encode(_ segment: String) -> String {
        segment.addingPercentEncoding(withAllowedCharacters: Self.segment) ?? segment
    }
}
