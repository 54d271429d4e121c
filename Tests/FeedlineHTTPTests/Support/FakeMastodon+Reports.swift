@_spi(FeedService) import Feedline
@testable import FeedlineMastodon
import FlyingFox
import Foundation

/// Reports and rules, as Mastodon 4 serves them: `POST /api/v1/reports` (a form: `account_id`,
/// `status_ids[]`, `comment`, `forward`, `category`, `rule_ids[]`) answers the `Report` filed
/// (`id`, `action_taken`, `category`, `comment`, `forwarded`, `status_ids`, `rule_ids`,
/// `target_account`); a rule the instance has not is a 422 ("Validation failed: Rule ids …"),
/// an account it has not a 404. `GET /api/v1/instance/rules` answers `[Rule]` (`id`, `text`,
/// `hint`), or 404 on a server before 3.4 (``ReportsState/rules`` `nil`).
extension FakeMastodon {
    struct ReportsState {
        /// Each report's form fields, in order, names repeated as sent.
        var filed: [[(String, String)]] = []
        /// The instance's rules; `nil`: no rules endpoint (404).
        var rules: [Mastodon.Rule]?
        /// The rules its v2 description lists (`nil`: the description is the streaming one's).
        var describedRules: [Mastodon.Rule]?
        /// Accounts the server has not (a report of one is a 404).
        var unknownAccounts: Set<String> = []
    }

    /// The reports filed so far, each as its form's fields in order.
    var reportsFiled: [[(String, String)]] { state.withLock { $0.reports.filed } }

    /// The instance's rules (`nil`: the endpoint is missing).
    func setRules(_ rules: [Mastodon.Rule]?) {
        state.withLock { $0.reports.rules = rules }
    }

    /// Makes `GET /api/v2/instance` answer a description whose `rules` are `rules`.
    func describeRules(_ rules: [Mastodon.Rule]) {
        state.withLock { $0.reports.describedRules = rules }
    }

    /// Makes `account` one the server has not.
    func forgetAccount(_ account: String) {
        state.withLock { _ = $0.reports.unknownAccounts.insert(account) }
    }

    func reportsRoute(_ request: Recorded) -> HTTPResponse? {
        if request.method == "GET", request.path == "/api/v2/instance", let rules = state.withLock({ $0.reports.describedRules }) {
            return Self.json(["rules": rules])
        }
        if request.method == "GET", request.path == "/api/v1/instance/rules" {
            guard let rules = state.withLock({ $0.reports.rules }) else { return Self.error(404, "Record not found") }
            return Self.json(rules)
        }
        guard request.method == "POST", request.path == "/api/v1/reports" else { return nil }
        guard request.authorization != nil else { return Self.error(401, "This API requires an authenticated user") }
        let fields = Self.formPairs(request.bodyText)
        let account = fields.first { $0.0 == "account_id" }?.1 ?? ""
        let rules = fields.filter { $0.0 == "rule_ids[]" }.map(\.1)
        return state.withLock { state in
            if account.isEmpty || state.reports.unknownAccounts.contains(account) { return Self.error(404, "Record not found") }
            let known = Set((state.reports.rules ?? []).map(\.id))
            if let unknown = rules.first(where: { !known.contains($0) }) { return Self.error(422, "Validation failed: Rule ids \(unknown) is invalid") }
            state.reports.filed.append(fields)
            let value: [String: Any] = [
                "id": String(state.reports.filed.count), "action_taken": false, "action_taken_at": NSNull(),
                "category": fields.first { $0.0 == "category" }?.1 ?? "other", "comment": fields.first { $0.0 == "comment" }?.1 ?? "",
                "forwarded": fields.first { $0.0 == "forward" }?.1 == "true", "created_at": "2026-11-23T12:00:00.000Z",
                "status_ids": fields.filter { $0.0 == "status_ids[]" }.map(\.1), "rule_ids": rules,
                "target_account": ["id": account, "username": "someone", "acct": "someone"],
            ]
            return Self.object(value)
        }
    }
}
