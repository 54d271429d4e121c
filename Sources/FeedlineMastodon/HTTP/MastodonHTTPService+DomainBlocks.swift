@_spi(FeedService) import Feedline
import Foundation

/// The signed-in user's domain blocks:
///
/// - `GET /api/v1/domain_blocks`: a JSON array of domain names, paged as the account lists are
///   (``pageURL(path:fixedQuery:after:)`` and ``nextCursor(_:after:path:fixedQuery:)``): a
///   cursor is the `rel="next"` link, which on Mastodon names a block *record* by `max_id` —
///   the names carry no id, so only the link can go on.
/// - `POST /api/v1/domain_blocks` with the form field `domain` blocks, `DELETE
///   /api/v1/domain_blocks?domain=…` unblocks (Mastodon reads `domain` from the query or the
///   body; a `DELETE` body is not sent by every transport, the query always is). Both answer `{}`.
///
/// Both need a user: a 401 (no token, or one the server no longer takes) and a 403 (a sign-in
/// without `read:blocks` / `write:blocks`, which Feedline's `read` and `write:blocks` cover)
/// say to run `feedline login`.
extension MastodonHTTPService {
    /// The path of the domain-block endpoints.
    static let domainBlocksPath = "/api/v1/domain_blocks"

    /// A page of the domains the user blocks, in the server's order (Mastodon: the newest block
    /// first): ``pageSize`` of them for a `nil` cursor, otherwise the page the cursor (a
    /// `rel="next"` link) names. The next cursor is the answer's `rel="next"` link; none, or an
    /// empty page, ends the list (Mastodon sends `next` after every full page, so a list whose
    /// size is a multiple of the page ends on an empty one). A read rate limited just before its
    /// reset waits for it and is retried once, as every read.
    @_spi(FeedService) public func domainBlocks(after cursor: PageCursor?) async throws -> Page<String> {
        try await ownPage(String.self, path: Self.domainBlocksPath, after: cursor, what: "your blocked domains") { $0 }
    }

    /// Blocks (`true`: `POST`, form field `domain`) or unblocks (`false`: `DELETE`, `domain` in
    /// the query) `domain`, sent trimmed, without a leading `@` and lower-cased. Blocking a
    /// domain already blocked, or unblocking one that is not, changes nothing and succeeds.
    ///
    /// - Throws: ``MastodonHTTPError/unprocessable(serverMessage:)`` before anything is sent for
    ///   an empty name, and for the server's 422 (a name it does not take as a domain, its own
    ///   domain) with the server's `error` text, or a sentence naming the domain when it gave
    ///   none; ``MastodonHTTPError/unauthorized(serverMessage:sentToken:server:)`` (401) and
    ///   ``MastodonHTTPError/writeRefused(serverMessage:server:)`` (403), which name
    ///   `feedline login`; a rate limit as ``MastodonHTTPError/rateLimited(reset:secondsToReset:)``,
    ///   never waited out (a write is not retried here: the core re-sends it after
    ///   ``MastodonHTTPError/retryAfter``).
    public func setDomainBlock(_ domain: String, to value: Bool) async throws {
        let name = Self.domainName(domain)
        let action = value ? "block" : "unblock"
        guard !name.isEmpty else {
            throw MastodonHTTPError.unprocessable(serverMessage: "there is no domain to \(action)")
        }
        let what = "the \(action) of the domain \(name)"
        let field = [URLQueryItem(name: "domain", value: name)]
        let request: APIRequest
        if value {
            var form = URLComponents()
            form.queryItems = field
            request = APIRequest(
                method: "POST", url: server.url(path: Self.domainBlocksPath), what: what, form: Data((form.percentEncodedQuery ?? "").utf8)
            )
        } else {
            request = APIRequest(method: "DELETE", url: server.url(path: Self.domainBlocksPath, query: field), what: what)
        }
        let response: APIResponse
        do {
            response = try await writing { try await send(request) }
        } catch MastodonHTTPError.unprocessable(let message) {
            throw MastodonHTTPError.unprocessable(serverMessage: message ?? "\(name) is not a domain it lets you \(action)")
        }
        // Mastodon answers `{}`; an answer that is not JSON at all comes from something else.
        if let body = Self.nonJSONDescription(response) {
            throw MastodonHTTPError.notMastodon(server: server.description, what: what, status: response.status, body: body)
        }
    }

    /// `domain` as it is sent: trimmed, without leading `@`, lower-cased (Mastodon keeps domain
    /// blocks lower-cased too, so the names read back are the names sent).
    static func domainName(_ domain: String) -> String {
        var name = Substring(domain.trimmingCharacters(in: .whitespacesAndNewlines))
        while name.hasPrefix("@") { name = name.dropFirst() }
        return name.lowercased()
    }
}
