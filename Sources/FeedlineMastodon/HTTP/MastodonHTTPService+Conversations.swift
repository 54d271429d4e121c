@_spi(FeedService) import Feedline
import Foundation

/// Direct conversations:
///
/// - `GET /api/v1/conversations`, paged as the account lists are
///   (``pageURL(path:fixedQuery:after:)`` and ``nextCursor(_:after:path:fixedQuery:)``): the
///   cursor is the `rel="next"` link (followed as given; Mastodon's `max_id` there is the last
///   conversation's `last_status_id`).
/// - `POST /api/v1/conversations/:id/read`, answered with the conversation afterwards.
/// - `DELETE /api/v1/conversations/:id`: the conversation leaves the user's list (its posts stay).
///
/// All need a user: a 401 (no token, or one the server no longer takes) and a 403 (a sign-in
/// without `read:statuses` / `write:conversations`) say to run `feedline login` again; a 404
/// on a change names the conversation. New posts in conversations come on the `direct` stream
/// (``MastodonLiveUpdates``).
extension MastodonHTTPService {
    /// The path of the user's conversations.
    static let conversationsPath = "/api/v1/conversations"

    /// A page of the user's conversations, most recently active first: ``pageSize`` of them for a
    /// `nil` cursor, otherwise the page the cursor (a `rel="next"` link) names. The next cursor is
    /// the answer's `rel="next"` link; none, or an empty page, ends the list.
    @_spi(FeedService) public func conversations(after cursor: PageCursor?) async throws -> Page<Conversation> {
        try await ownPage(Mastodon.Conversation.self, path: Self.conversationsPath, after: cursor, what: "your conversations", Conversation.init)
    }

    /// Marks the conversation `id` read and returns it as the server has it afterwards.
    ///
    /// - Throws: ``MastodonHTTPError/notFound(serverMessage:)`` naming the conversation when the
    ///   server has none of that id (removed elsewhere); ``MastodonHTTPError/writeRefused(serverMessage:server:)``
    ///   (403) and ``MastodonHTTPError/unauthorized(serverMessage:sentToken:server:)`` (401),
    ///   which name `feedline login`; a rate limit, never waited out (the core sends it again).
    @_spi(FeedService) public func markConversationRead(_ id: String) async throws -> Conversation {
        let what = "marking the conversation \(id) read"
        let response = try await changeConversation(id, method: "POST", action: "read", what: what)
        return Conversation(try decode(Mastodon.Conversation.self, from: response, what: what))
    }

    /// Removes the conversation `id` from the user's conversations (`DELETE`); its posts stay.
    ///
    /// - Throws: as ``markConversationRead(_:)``.
    public func removeConversation(_ id: String) async throws {
        _ = try await changeConversation(id, method: "DELETE", action: nil, what: "removing the conversation \(id)")
    }

    private func changeConversation(_ id: String, method: String, action: String?, what: String) async throws -> APIResponse {
        guard !id.isEmpty else { throw MastodonHTTPError.unprocessable(serverMessage: "there is no conversation to change") }
        let url = server.url(path: Self.conversationsPath + "/" + URLPath.encode(id) + (action.map { "/" + $0 } ?? ""))
        do {
            return try await writing { try await send(APIRequest(method: method, url: url, what: what)) }
        } catch MastodonHTTPError.notFound {
            throw MastodonHTTPError.notFound(serverMessage: "There is no conversation \(id) (asked \(server)): it may have been removed elsewhere")
        }
    }
}
