@_spi(FeedService) import Feedline
import Foundation

/// Reports and the instance's rules:
///
/// - `POST /api/v1/reports` with the form fields `account_id`, `status_ids[]` (each post),
///   `comment`, `forward` (`true`/`false`), `category` (`spam`, `legal`, `violation` or
///   `other`) and `rule_ids[]` (only for `violation`): answers the `Report` filed. Needs
///   `write:reports`: a 403 says to run `feedline login`; Mastodon's 422 (a rule or post it
///   does not take) is shown with its sentence; a 404 names the account.
/// - `GET /api/v1/instance/rules` (Mastodon 3.4 and later): a JSON array of `Rule` (`id`,
///   `text`, `hint`), no sign-in needed. A server without it (404) is asked for its v2
///   description's `rules`.
extension MastodonHTTPService {
    static let reportsPath = "/api/v1/reports"

    /// Files `report` (its account located by handle first when it is named so).
    @_spi(FeedService) public func report(_ report: AccountReport) async throws {
        if let refusal = report.refusal { throw MastodonHTTPError.unprocessable(serverMessage: refusal) }
        let account = try await located(report.account)
        let what = "the report of \(Self.label(report.account))"
        let fields = Self.reportFields(report, account: account)
        let request = APIRequest(method: "POST", url: server.url(path: Self.reportsPath), what: what, form: FormBody.encode(fields))
        let response = try await existing(report.account) { try await writing { try await send(request) } }
        if let body = Self.nonJSONDescription(response) {
            throw MastodonHTTPError.notMastodon(server: server.description, what: what, status: response.status, body: body)
        }
    }

    /// The form of a report, in the order Mastodon documents its fields.
    static func reportFields(_ report: AccountReport, account: AccountID) -> [(String, String)] {
        var fields: [(String, String)] = [("account_id", account.rawValue)]
        fields += report.posts.map { ("status_ids[]", $0.rawValue) }
        fields.append(("comment", report.comment))
        fields.append(("forward", report.forward ? "true" : "false"))
        fields.append(("category", report.category.rawValue))
        if report.category == .violation { fields += report.rules.map { ("rule_ids[]", $0) } }
        return fields
    }

    /// The instance's rules, in the server's order.
    @_spi(FeedService) public func instanceRules() async throws -> [InstanceRule] {
        let what = "the server's rules"
        do {
            let response = try await send(APIRequest(method: "GET", url: server.url(path: "/api/v1/instance/rules"), what: what))
            return try decode([Mastodon.Rule].self, from: response, what: what).map(InstanceRule.init)
        } catch MastodonHTTPError.notFound {
            let response = try await send(APIRequest(method: "GET", url: server.url(path: "/api/v2/instance"), what: what))
            return (try decode(DescribedRules.self, from: response, what: what).rules ?? []).map(InstanceRule.init)
        }
    }

    /// The `rules` of a server's description, read on their own (the rest of it is not needed,
    /// and a description the streaming setup reads is not made to fail by them).
    struct DescribedRules: Decodable {
        var rules: [Mastodon.Rule]?
    }
}
