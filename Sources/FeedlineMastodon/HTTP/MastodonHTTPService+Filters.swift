@_spi(FeedService) import Feedline
import Foundation

/// The signed-in user's server filters (Mastodon ≥ 4.0, v2):
///
/// - `GET /api/v2/filters`: every filter, with its `keywords` (unpaged, as Mastodon answers).
/// - `POST /api/v2/filters` with `title`, `context[]`, `filter_action`, `expires_in` (seconds)
///   and `keywords_attributes[][keyword]` / `[whole_word]`: answers the filter made.
/// - `PUT /api/v2/filters/:id` with the same fields, each kept keyword named by
///   `keywords_attributes[][id]` and each dropped one by `[_destroy]=true` (every element starts
///   with its `keyword`, as Rails reads `[]` arrays of hashes): answers the filter.
/// - `DELETE /api/v2/filters/:id`: answers `{}`.
///
/// A sign-in without `read:filters` / `write:filters` (a 403) says to run `feedline login`;
/// Mastodon's 422 ("Validation failed: …") is shown with its sentence; a 404 names the filter.
extension MastodonHTTPService {
    static let filtersPath = "/api/v2/filters"

    /// Every filter of the signed-in user, in the server's order.
    @_spi(FeedService) public func filters() async throws -> [PostFilter] {
        let what = "your filters"
        let response = try await ownList { try await send(APIRequest(method: "GET", url: server.url(path: Self.filtersPath), what: what)) }
        return try decode([Mastodon.Filter].self, from: response, what: what).map(PostFilter.init)
    }

    /// Makes `filter`; a blank title or keyword is refused before anything is sent.
    @_spi(FeedService) public func createFilter(_ filter: PostFilter, expiresIn: Int?) async throws -> PostFilter {
        let what = "the new filter \(filter.title)"
        try Self.checkFilter(filter)
        let fields = Self.filterFields(filter, replacing: nil, expiresIn: expiresIn)
        return try await filterAnswer(APIRequest(method: "POST", url: server.url(path: Self.filtersPath), what: what, form: FormBody.encode(fields)), what: what, id: nil)
    }

    /// Changes the filter `filter.id`: keywords of `old` that `filter` lacks are destroyed.
    @_spi(FeedService) public func updateFilter(_ filter: PostFilter, replacing old: PostFilter, expiresIn: Int?) async throws -> PostFilter {
        let what = "the change of the filter \(old.title)"
        try Self.checkFilter(filter)
        let fields = Self.filterFields(filter, replacing: old, expiresIn: expiresIn)
        return try await filterAnswer(APIRequest(method: "PUT", url: filterURL(filter.id), what: what, form: FormBody.encode(fields)), what: what, id: filter.id)
    }

    /// Deletes the filter `id`.
    public func deleteFilter(_ id: String) async throws {
        let what = "the delete of filter \(id)"
        let response = try await filterWrite(APIRequest(method: "DELETE", url: filterURL(id), what: what), id: id)
        if let body = Self.nonJSONDescription(response) {
            throw MastodonHTTPError.notMastodon(server: server.description, what: what, status: response.status, body: body)
        }
    }

    // MARK: - Helpers

    /// The form of a filter: its title, contexts (in Mastodon's order), action, expiry and
    /// keywords — for an update, each kept keyword by id and each of `old`'s dropped ones destroyed.
    static func filterFields(_ filter: PostFilter, replacing old: PostFilter?, expiresIn: Int?) -> [(String, String)] {
        var fields: [(String, String)] = [("title", filter.title.trimmingCharacters(in: .whitespacesAndNewlines))]
        for context in FilterContext.allCases where filter.contexts.contains(context) { fields.append(("context[]", context.rawValue)) }
        fields.append(("filter_action", filter.action.rawValue))
        if let expiresIn { fields.append(("expires_in", String(expiresIn))) }
        // Rails starts the next element of `keywords_attributes[]` at a field the current one has
        // already: every element starts with `keyword`, so none runs into the next.
        for keyword in filter.keywords {
            fields.append(("keywords_attributes[][keyword]", keyword.keyword))
            fields.append(("keywords_attributes[][whole_word]", keyword.wholeWord ? "true" : "false"))
            if !keyword.id.isEmpty { fields.append(("keywords_attributes[][id]", keyword.id)) }
        }
        let kept = Set(filter.keywords.map(\.id))
        for keyword in old?.keywords ?? [] where !keyword.id.isEmpty && !kept.contains(keyword.id) {
            fields.append(("keywords_attributes[][keyword]", keyword.keyword))
            fields.append(("keywords_attributes[][id]", keyword.id))
            fields.append(("keywords_attributes[][_destroy]", "true"))
        }
        return fields
    }

    private static func checkFilter(_ filter: PostFilter) throws {
        if filter.title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            throw MastodonHTTPError.unprocessable(serverMessage: "a filter needs a title")
        }
        if filter.keywords.contains(where: { $0.keyword.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }) {
            throw MastodonHTTPError.unprocessable(serverMessage: "a filter's keyword cannot be blank")
        }
    }

    private func filterURL(_ id: String) -> URL {
        server.url(path: Self.filtersPath + "/" + URLPath.encode(id))
    }

    private func filterAnswer(_ request: APIRequest, what: String, id: String?) async throws -> PostFilter {
        let response = try await filterWrite(request, id: id)
        return PostFilter(try decode(Mastodon.Filter.self, from: response, what: what))
    }

    /// Runs a write of a filter: a 403 says to sign in again (``writing(_:)``), a 404 names the filter.
    private func filterWrite(_ request: APIRequest, id: String?) async throws -> APIResponse {
        do {
            return try await writing { try await send(request) }
        } catch MastodonHTTPError.notFound {
            throw MastodonHTTPError.notFound(
                serverMessage: id.map { "There is no filter \($0) of yours (asked \(server)): it was deleted. Reload your filters" }
                    ?? "The server has no such filter (asked \(server))"
            )
        }
    }
}
