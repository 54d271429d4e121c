@_spi(FeedService) import Feedline
import Foundation

/// The signed-in user's lists:
///
/// - `GET /api/v1/lists` (all of them, unpaged, as Mastodon answers), `POST /api/v1/lists`
///   with `title`, `PUT /api/v1/lists/:id` with `title`, `DELETE /api/v1/lists/:id`.
/// - A list's accounts: `GET /api/v1/lists/:id/accounts`, paged by `Link` like the other
///   account lists (``accounts(in:after:)`` of ``Feedline/AccountList/members(_:)``).
/// - `POST` / `DELETE /api/v1/lists/:id/accounts` with `account_ids[]`.
///
/// A sign-in without the scope to read or write lists (a 403) says to run `feedline login`
/// again; Mastodon's 422 for adding an account you do not follow is shown with its sentence;
/// a 404 names the list.
extension MastodonHTTPService {
    static let listsPath = "/api/v1/lists"

    /// Every list of the signed-in user, in the server's order.
    @_spi(FeedService) public func lists() async throws -> [UserList] {
        let what = "your lists"
        let response = try await ownList { try await send(APIRequest(method: "GET", url: server.url(path: Self.listsPath), what: what)) }
        return try decode([Mastodon.List].self, from: response, what: what).map { UserList(id: $0.id, title: $0.title) }
    }

    /// Makes a list titled `title` (trimmed; a blank title is refused before anything is sent).
    @_spi(FeedService) public func createList(title: String) async throws -> UserList {
        let title = try Self.listTitle(title, action: "make")
        let what = "the new list \(title)"
        let request = APIRequest(method: "POST", url: server.url(path: Self.listsPath), what: what, form: Self.form([("title", title)]))
        return try await listAnswer(request, what: what, id: nil)
    }

    /// Renames the list `id` (trimmed; a blank title is refused before anything is sent).
    @_spi(FeedService) public func renameList(_ id: String, to title: String) async throws -> UserList {
        let title = try Self.listTitle(title, action: "rename")
        let what = "the rename of list \(id) to \(title)"
        let request = APIRequest(method: "PUT", url: listURL(id), what: what, form: Self.form([("title", title)]))
        return try await listAnswer(request, what: what, id: id)
    }

    /// Deletes the list `id`.
    public func deleteList(_ id: String) async throws {
        let what = "the delete of list \(id)"
        let response = try await listWrite(APIRequest(method: "DELETE", url: listURL(id), what: what), id: id)
        if let body = Self.nonJSONDescription(response) {
            throw MastodonHTTPError.notMastodon(server: server.description, what: what, status: response.status, body: body)
        }
    }

    /// Adds (`true`, `POST`) or removes (`DELETE`) `account` to or from the list `list`, as
    /// `account_ids[]` (an account named by handle is looked up first).
    public func setListMembership(list: String, account: AccountID, to value: Bool) async throws {
        let id = try await located(account)
        let what = value ? "adding \(Self.label(account)) to list \(list)" : "removing \(Self.label(account)) from list \(list)"
        let fields = [("account_ids[]", id.rawValue)]
        let path = Self.listsPath + "/" + URLPath.encode(list) + "/accounts"
        let request =
            value
            ? APIRequest(method: "POST", url: server.url(path: path), what: what, form: Self.form(fields))
            : APIRequest(method: "DELETE", url: server.url(path: path, query: fields.map { URLQueryItem(name: $0.0, value: $0.1) }), what: what)
        let response = try await listWrite(request, id: list)
        if let body = Self.nonJSONDescription(response) {
            throw MastodonHTTPError.notMastodon(server: server.description, what: what, status: response.status, body: body)
        }
    }

    // MARK: - Helpers

    private func listURL(_ id: String) -> URL {
        server.url(path: Self.listsPath + "/" + URLPath.encode(id))
    }

    private func listAnswer(_ request: APIRequest, what: String, id: String?) async throws -> UserList {
        let response = try await listWrite(request, id: id)
        let list = try decode(Mastodon.List.self, from: response, what: what)
        return UserList(id: list.id, title: list.title)
    }

    /// Runs a write of a list: a 403 says to sign in again (``writing(_:)``), a 404 names the list.
    private func listWrite(_ request: APIRequest, id: String?) async throws -> APIResponse {
        do {
            return try await writing { try await send(request) }
        } catch MastodonHTTPError.notFound {
            throw MastodonHTTPError.notFound(
                serverMessage: id.map { "There is no list \($0) of yours (asked \(server)): it was deleted. Reload your lists" }
                    ?? "The server has no such list or account (asked \(server))"
            )
        }
    }

    private static func listTitle(_ title: String, action: String) throws -> String {
        let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw MastodonHTTPError.unprocessable(serverMessage: "a list needs a title to \(action) it") }
        return trimmed
    }

    private static func form(_ fields: [(String, String)]) -> Data {
        FormBody.encode(fields)
    }
}
