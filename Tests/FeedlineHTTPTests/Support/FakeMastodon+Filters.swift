@_spi(FeedService) import Feedline
import FeedlineMastodon
import FeedlineTestSupport
import FlyingFox
import Foundation

/// The user's server filters (v2), with Mastodon's rules and payloads:
///
/// - `GET /api/v2/filters`: every filter (`Filter` entities with `keywords` and `statuses`).
/// - `POST /api/v2/filters` with `title`, `context[]`, `filter_action`, `expires_in` and
///   `keywords_attributes[][keyword]` / `[whole_word]`: answers the filter made.
/// - `PUT /api/v2/filters/:id` with the same, kept keywords by `keywords_attributes[][id]`,
///   dropped ones with `[_destroy]`: answers the filter.
/// - `DELETE /api/v2/filters/:id`: answers `{}`.
///
/// All need a user (401); a filter not there is 404; what the model refuses is 422 with its
/// sentence. Which filters there are is the model's (``ServerModel/filters``).
extension FakeMastodon {
    // MARK: - Test controls

    /// The filters now, oldest first.
    var serverFilters: [PostFilter] {
        state.withLock { $0.server.filters.filters }
    }

    /// Makes `filter` on the server, as if another app had.
    @discardableResult
    func addFilter(_ filter: PostFilter) throws -> PostFilter {
        try state.withLock { state in try state.server.filters.create(filter) }
    }

    // MARK: - Serving

    /// The answer for a request of these endpoints, `nil` for any other.
    func filtersRoute(_ request: Recorded) -> HTTPResponse? {
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 4, parts[0].isEmpty, parts[1...3] == ["api", "v2", "filters"] else { return nil }
        guard request.authorization != nil else { return Self.error(401, "This API requires an authenticated user") }
        let now = state.withLock { $0.server.now }
        switch (request.method, parts.count) {
        case ("GET", 4):
            return Self.json(state.withLock { $0.server.filters.filters.map(Self.filterAnswer) })
        case ("POST", 4), ("PUT", 5):
            let fields = Self.formPairs(request.bodyText)
            return state.withLock { state in
                do {
                    let old = parts.count == 5 ? state.server.filters.filters.first { $0.id == parts[4] } : nil
                    if parts.count == 5, old == nil { return Self.error(404, "Record not found") }
                    let filter = Self.filter(from: fields, old: old, now: now)
                    let saved = try old == nil ? state.server.filters.create(filter) : state.server.filters.update(filter)
                    return Self.json(Self.filterAnswer(saved))
                } catch {
                    return Self.error(422, (error as? ServerRefusal)?.message ?? "\(error)")
                }
            }
        case ("DELETE", 5):
            return state.withLock { state in
                do {
                    try state.server.filters.delete(parts[4])
                    return Self.json([String: String]())
                } catch {
                    return Self.error(404, "Record not found")
                }
            }
        default:
            return unexpected(request)
        }
    }

    /// A filter as Mastodon sends it (`Filter`, with `keywords` and `statuses`).
    static func filterAnswer(_ filter: PostFilter) -> FilterPayload {
        FilterPayload(
            id: filter.id, title: filter.title, context: FilterContext.allCases.filter(filter.contexts.contains).map(\.rawValue),
            filter_action: filter.action.rawValue, expires_at: filter.expiresAt.map { ISO8601DateFormatter().string(from: $0) },
            keywords: filter.keywords.map { FilterPayload.Keyword(id: $0.id, keyword: $0.keyword, whole_word: $0.wholeWord) }, statuses: []
        )
    }

    /// Mastodon's `Filter` entity, as JSON.
    struct FilterPayload: Encodable {
        struct Keyword: Encodable {
            var id: String
            var keyword: String
            var whole_word: Bool
        }

        var id: String
        var title: String
        var context: [String]
        var filter_action: String
        var expires_at: String?
        var keywords: [Keyword]
        var statuses: [String]
    }

    /// The filter a form asks for, as Rails reads `keywords_attributes[][…]`: a field already
    /// given in the current keyword starts the next one. Keywords of `old` named by id are kept
    /// (changed as given), those with `_destroy` dropped, the rest of `old`'s kept as they are.
    static func filter(from fields: [(String, String)], old: PostFilter?, now: Date) -> PostFilter {
        var title = old?.title ?? ""
        var contexts: [FilterContext] = []
        var action = old?.action ?? .warn
        var expiresAt = old?.expiresAt
        var attributes: [[String: String]] = []
        for (name, value) in fields {
            switch name {
            case "title": title = value
            case "context[]": if let context = FilterContext(rawValue: value) { contexts.append(context) }
            case "filter_action": action = PostFilter.Action(rawValue: value) ?? .warn
            case "expires_in": expiresAt = Int(value).map { now.addingTimeInterval(TimeInterval($0)) }
            default:
                guard name.hasPrefix("keywords_attributes[]["), name.hasSuffix("]") else { continue }
                let key = String(name.dropFirst("keywords_attributes[][".count).dropLast())
                if attributes.isEmpty || attributes[attributes.count - 1][key] != nil { attributes.append([:]) }
                attributes[attributes.count - 1][key] = value
            }
        }
        var keywords = old?.keywords ?? []
        for attribute in attributes {
            if let id = attribute["id"], let index = keywords.firstIndex(where: { $0.id == id }) {
                if attribute["_destroy"] == "true" || attribute["_destroy"] == "1" {
                    keywords.remove(at: index)
                } else {
                    if let keyword = attribute["keyword"] { keywords[index].keyword = keyword }
                    if let whole = attribute["whole_word"] { keywords[index].wholeWord = whole == "true" }
                }
            } else if attribute["id"] == nil {
                keywords.append(PostFilter.Keyword(keyword: attribute["keyword"] ?? "", wholeWord: attribute["whole_word"] == "true"))
            }
        }
        return PostFilter(
            id: old?.id ?? "", title: title, contexts: contexts.isEmpty ? (old?.contexts ?? []) : Set(contexts), action: action, keywords: keywords,
            expiresAt: expiresAt
        )
    }

    /// The fields of a form body, in order, names repeated as sent.
    static func formPairs(_ body: String) -> [(String, String)] {
        body.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decoded(_ text: Substring?) -> String { (text.map(String.init) ?? "").replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "" }
            return (decoded(parts.first), decoded(parts.count > 1 ? parts[1] : nil))
        }
    }
}
