@_spi(FeedService) import Feedline
import Foundation

/// Profiles and relationships: `GET /api/v1/accounts/:id`, `GET /api/v1/accounts/relationships`
/// and the follow, mute and block writes under `POST /api/v1/accounts/:id/…`.
///
/// An ``Feedline/AccountID`` made from a handle is found first, once per handle (the ids are
/// kept in ``accountIDs``, which account timelines share): by `GET /api/v1/accounts/lookup`,
/// and, when that answers 404 for a remote handle (`user@host`, a port allowed), by a search
/// that asks the server to resolve it (`GET /api/v2/search?resolve=true`), which is how a
/// server learns of a remote account it has not seen. The search needs a signed-in user, so a
/// service without a token keeps the lookup's "There is no account …" sentence.
extension MastodonHTTPService {
    /// Who `account` is: `GET /api/v1/accounts/:id`. For a handle not found before, the
    /// account the lookup (or the resolving search) answered with is the profile: the same
    /// entity, so no second request is made. A 404 is "There is no account … (asked server)".
    public func profile(of account: AccountID) async throws -> Profile {
        if let handle = account.handle, knownAccountID(handle) == nil {
            let found = try await find(handle)
            remember(AccountID(found.id), for: handle)
            return Profile(found)
        }
        let id = try await located(account)
        let what = "the profile of \(Self.label(account))"
        let response = try await existing(account) {
            try await send(APIRequest(method: "GET", url: accountURL(id), what: what))
        }
        return Profile(try decode(Mastodon.Account.self, from: response, what: what))
    }

    /// How the signed-in user relates to each of `accounts`: one
    /// `GET /api/v1/accounts/relationships?id[]=…&id[]=…` for all of them, each id once, in the
    /// order given, after finding the ones named by handle. A handle that names no account is
    /// left out, as the server leaves out an id it does not know; no account left (or none
    /// given) is `[]` without a request. Each relationship carries the server's id of its account.
    @_spi(FeedService) public func relationships(of accounts: [AccountID]) async throws -> [Relationship] {
        var ids: [AccountID] = []
        var seen: Set<AccountID> = []
        var labels: [String] = []
        for account in accounts {
            let id: AccountID
            do {
                id = try await located(account)
            } catch MastodonHTTPError.notFound {
                continue
            }
            if seen.insert(id).inserted {
                ids.append(id)
                labels.append(Self.label(account))
            }
        }
        guard let first = labels.first else { return [] }
        let what = labels.count == 1 ? "your relationship with \(first)" : "your relationships with \(labels.count) accounts"
        let url = server.url(path: "/api/v1/accounts/relationships", query: ids.map { URLQueryItem(name: "id[]", value: $0.rawValue) })
        let response = try await send(APIRequest(method: "GET", url: url, what: what))
        return try decode([Mastodon.Relationship].self, from: response, what: what).map(Relationship.init)
    }

    /// Sets `kind` of the relationship with `account` to `value` and returns the server's
    /// relationship afterwards, by one `POST /api/v1/accounts/:id/…` with a JSON body:
    ///
    /// | kind | on | off |
    /// |---|---|---|
    /// | follow | `follow` `{}` (keeps the follow's options) | `unfollow` |
    /// | mute | `mute` `{"notifications", "duration"}` | `unmute` |
    /// | block | `block` | `unblock` |
    /// | notify | `follow` `{"notify": true}` | `follow` `{"notify": false}` |
    /// | boosts | `follow` `{"reblogs": true}` | `follow` `{"reblogs": false}` |
    ///
    /// `duration` is `mute`'s in whole seconds (rounded up), left out for a mute without end.
    /// Notify and boosts ride on `follow`, which would follow an account not followed: so they
    /// are asked only while following (or requested), as the sandbox asks — one
    /// `GET …/relationships` first; an account not followed is refused (`unprocessable`, naming
    /// the follow to make first) with nothing sent, unless it already has `value` (then that
    /// relationship is the answer). A follow of a locked account answers `requested`, not
    /// `following`.
    /// A 403 names `feedline login` (``MastodonHTTPError/writeRefused(serverMessage:server:)``:
    /// a sign-in made before Feedline asked for `write:follows`, `write:mutes`, `write:blocks`).
    @_spi(FeedService) public func setRelationship(_ kind: RelationshipKind, to value: Bool, of account: AccountID, mute: MuteOptions) async throws -> Relationship {
        let id = try await located(account)
        if kind == .notify || kind == .boosts, let unchanged = try await withoutFollow(kind, to: value, of: id, named: account) { return unchanged }
        let change = Self.relationshipChange(kind, to: value, mute: mute)
        let what = "\(change.phrase) \(Self.label(account))"
        let request = APIRequest(method: "POST", url: accountURL(id, change.action), what: what, json: change.body)
        let response = try await existing(account) { try await writing { try await send(request) } }
        var relationship = Relationship(try decode(Mastodon.Relationship.self, from: response, what: what))
        // Mastodon's `Relationship` has no end of a mute: a mute made with a duration ends
        // then, as the server counts it from now.
        if kind == .mute, value, relationship.muting, relationship.mutingUntil == nil, let seconds = mute.duration.flatMap(Self.wholeSeconds) {
            relationship.mutingUntil = wallClock.now().addingTimeInterval(Double(seconds))
        }
        return relationship
    }

    /// For notify and boosts, which ride on `follow`: `nil` when the account is followed (or
    /// requested), so the change is sent; the relationship as it is when it is not followed and
    /// already has `value`.
    ///
    /// - Throws: `MastodonHTTPError.unprocessable` when it is not followed and the change would
    ///   follow it, in the sandbox's words.
    private func withoutFollow(_ kind: RelationshipKind, to value: Bool, of id: AccountID, named account: AccountID) async throws -> Relationship? {
        guard let current = try await relationships(of: [id]).first, !current.following, !current.requested else { return nil }
        if current.isOn(kind) == value { return current }
        let handle = Self.label(account)
        throw MastodonHTTPError.unprocessable(
            serverMessage: kind == .notify
                ? "You can only be notified of the posts of accounts you follow; follow \(handle) first"
                : "You can only choose whether to see the boosts of accounts you follow; follow \(handle) first"
        )
    }

    // MARK: - Finding accounts

    /// `account` as the server's id: as is, or for a handle the id kept from before, else the
    /// id of the account ``find(_:)`` finds, kept for next time.
    func located(_ account: AccountID) async throws -> AccountID {
        guard let handle = account.handle else { return account }
        if let known = knownAccountID(handle) { return known }
        let found = AccountID(try await find(handle).id)
        remember(found, for: handle)
        return found
    }

    /// The account `handle` names: the lookup's, or when it answers 404 for a remote handle,
    /// the resolving search's; when that finds nothing either, the lookup's error.
    func find(_ handle: String) async throws -> Mastodon.Account {
        do {
            return try await lookUp(handle)
        } catch MastodonHTTPError.notFound(let message) {
            let acct = self.acct(handle)
            guard acct.contains("@"), token != nil, let found = try await resolvingSearch(acct) else {
                throw MastodonHTTPError.notFound(serverMessage: message)
            }
            return found
        }
    }

    /// `GET /api/v2/search?q=@user@host&type=accounts&resolve=true&limit=1`: the account the
    /// server found (fetching it from its server if need be), when its user name is `acct`'s
    /// (its domain may differ: a handle's domain can be an alias); `nil` when it found none, or
    /// when it has no such search (404) or would not resolve (422).
    private func resolvingSearch(_ acct: String) async throws -> Mastodon.Account? {
        let what = "the search for @\(acct)"
        let url = server.url(
            path: "/api/v2/search",
            query: [
                URLQueryItem(name: "q", value: "@" + acct), URLQueryItem(name: "type", value: "accounts"),
                URLQueryItem(name: "resolve", value: "true"), URLQueryItem(name: "limit", value: "1"),
            ]
        )
        let response: APIResponse
        do {
            response = try await send(APIRequest(method: "GET", url: url, what: what))
        } catch MastodonHTTPError.notFound {
            return nil
        } catch MastodonHTTPError.unprocessable {
            return nil
        }
        let user = acct.prefix { $0 != "@" }.lowercased()
        return try decode(AccountSearchResults.self, from: response, what: what).accounts.first { $0.username.lowercased() == user }
    }

    /// Runs a request about `account`; a 404 becomes `notFound`, by default "There is no
    /// account … (asked server)".
    func existing(_ account: AccountID, notFound: String? = nil, _ body: () async throws -> APIResponse) async throws -> APIResponse {
        do {
            return try await body()
        } catch MastodonHTTPError.notFound {
            throw MastodonHTTPError.notFound(serverMessage: notFound ?? "There is no \(Self.label(account, bare: true)) (asked \(server))")
        }
    }

    // MARK: - Requests

    /// The endpoint (under `/api/v1/accounts/:id/`), JSON body and what-phrase of setting
    /// `kind` to `value` (see ``setRelationship(_:to:of:mute:)``).
    static func relationshipChange(_ kind: RelationshipKind, to value: Bool, mute: MuteOptions) -> (action: String, body: Data?, phrase: String) {
        switch (kind, value) {
        case (.follow, true): ("follow", json([:]), "the follow of")
        case (.follow, false): ("unfollow", nil, "the unfollow of")
        case (.mute, true):
            ("mute", json(["notifications": mute.notifications, "duration": mute.duration.flatMap(wholeSeconds)]), "the mute of")
        case (.mute, false): ("unmute", nil, "the unmute of")
        case (.block, true): ("block", nil, "the block of")
        case (.block, false): ("unblock", nil, "the unblock of")
        case (.notify, _): ("follow", json(["notify": value]), value ? "turning on post notifications for" : "turning off post notifications for")
        case (.boosts, _): ("follow", json(["reblogs": value]), value ? "showing the boosts of" : "hiding the boosts of")
        }
    }

    /// A JSON object of the fields that have a value (`nil` ones are left out), keys sorted.
    private static func json(_ fields: [String: (any Sendable)?]) -> Data {
        let present = fields.compactMapValues { $0 }
        return (try? JSONSerialization.data(withJSONObject: present, options: [.sortedKeys])) ?? Data("{}".utf8)
    }

    /// `duration` in whole seconds, rounded up; `nil` for zero or less (which Mastodon reads as
    /// a mute without end anyway).
    private static func wholeSeconds(_ duration: Duration) -> Int? {
        let (seconds, attoseconds) = duration.components
        guard seconds > 0 || (seconds == 0 && attoseconds > 0) else { return nil }
        let whole = Int(clamping: seconds)
        return attoseconds > 0 && whole < Int.max ? whole + 1 : whole
    }

    /// "@kemi@example.social" for an id made from a handle, "account 109…" for a server id
    /// (with `bare`, "account @kemi@example.social" for a handle too).
    static func label(_ account: AccountID, bare: Bool = false) -> String {
        guard let handle = account.handle else { return "account \(account.rawValue)" }
        return bare ? "account @\(handle)" : "@\(handle)"
    }

    func accountURL(_ id: AccountID, _ action: String? = nil) -> URL {
        server.url(path: "/api/v1/accounts/" + URLPath.encode(id.rawValue) + (action.map { "/" + $0 } ?? ""))
    }
}

/// The part of `GET /api/v2/search`'s answer a search for an account reads: its `accounts`
/// (absent or `null` reads as none).
private struct AccountSearchResults: Decodable {
    var accounts: [Mastodon.Account]

    enum CodingKeys: String, CodingKey { case accounts }

    init(from decoder: any Decoder) throws {
        accounts = try decoder.container(keyedBy: CodingKeys.self).value(.accounts, or: [])
    }
}
