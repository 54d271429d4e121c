import Feedline
import Foundation

extension Feed {
    /// Reads a feed as a command line names it: `home`, `public`, `local`, `tag:NAME` (`tag:#NAME`
    /// too), `bookmarks`, `favourites`, `list:ID`, `account:ID`, `trending`; case-insensitive
    /// except for names and ids, surrounding spaces ignored.
    ///
    /// - Throws: ``MastodonSetupError/invalidTimeline(_:reason:)`` naming what was expected.
    public init(parsing text: String) throws(MastodonSetupError) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        switch trimmed.lowercased() {
        case "home": self = .home
        case "public": self = .public
        case "local": self = .local
        case "bookmarks": self = .bookmarks
        case "favourites", "favorites": self = .favourites
        case "trending": self = .trending
        default:
            let lowered = trimmed.lowercased()
            if lowered.hasPrefix("list:") || lowered.hasPrefix("account:") {
                let isList = lowered.hasPrefix("list:")
                let id = String(trimmed.dropFirst(isList ? 5 : 8)).trimmingCharacters(in: .whitespaces)
                guard !id.isEmpty, id.unicodeScalars.allSatisfy({ CharacterSet.alphanumerics.contains($0) || $0 == "_" || $0 == "-" }) else {
                    throw .invalidTimeline(text, reason: "write \(isList ? "list" : "account"):ID with the server's id")
                }
                self = isList ? .list(id) : .account(AccountID(id))
                return
            }
            guard lowered.hasPrefix("tag:") else {
                throw .invalidTimeline(text, reason: "expected home, public, local, tag:NAME, bookmarks, favourites or list:ID")
            }
            var name = Substring(trimmed.dropFirst(4)).trimmingCharacters(in: .whitespaces)
            if name.hasPrefix("#") { name.removeFirst() }
            guard !name.isEmpty else { throw .invalidTimeline(text, reason: "the tag has no name; write tag:NAME, e.g. tag:swift") }
            guard Self.isTagName(name) else {
                throw .invalidTimeline(text, reason: "a tag name has only letters, digits and underscores")
            }
            self = .tag(name)
        }
    }

    /// Whether `name` (without `#`) can be a hashtag: letters, digits, underscores.
    public static func isTagName(_ name: String) -> Bool {
        !name.isEmpty && name.unicodeScalars.allSatisfy(isTagScalar)
    }

    /// The API path, percent-encoded. The trending posts are paged by `offset`, not by ids
    /// (``isPagedByOffset``).
    var path: String {
        switch self {
        case .home: "/api/v1/timelines/home"
        case .public, .local: "/api/v1/timelines/public"
        case .tag(let name): "/api/v1/timelines/tag/" + URLPath.encode(name)
        case .account(let id): "/api/v1/accounts/" + URLPath.encode(id.rawValue) + "/statuses"
        case .bookmarks: "/api/v1/bookmarks"
        case .favourites: "/api/v1/favourites"
        case .list(let id): "/api/v1/timelines/list/" + URLPath.encode(id)
        case .trending: MastodonHTTPService.trendingPostsPath
        }
    }

    /// Whether Mastodon pages it by `offset` (its trends) rather than by post ids (`max_id`,
    /// `since_id`, the `Link` header's ids): such a feed has no "newer than" either.
    var isPagedByOffset: Bool {
        switch self {
        case .trending: true
        case .home, .local, .public, .tag, .account, .bookmarks, .favourites, .list: false
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
