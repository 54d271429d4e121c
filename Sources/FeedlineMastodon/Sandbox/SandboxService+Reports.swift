@_spi(FeedService) import Feedline

/// Reports and the instance's rules on the sandbox, as Mastodon answers `POST /api/v1/reports`
/// and `GET /api/v1/instance/rules`: the rules are the scenario's (``SandboxScenario/rules``);
/// a report of an account the sandbox knows is filed (kept, so a test can read it) and one that
/// names rules is refused as Mastodon refuses it when the rules are not the instance's. Each is
/// a request of its own kind (``SandboxScenario/Request/report``,
/// ``SandboxScenario/Request/rules``) with latency and faults like the others.
extension SandboxService {
    /// Files `report`.
    ///
    /// - Throws: ``SandboxError/unknownAccount(_:)``; ``SandboxError/refused(_:)`` for a rule
    ///   the instance has not, a post not by the account, or a scheduled fault.
    @_spi(FeedService) public func report(_ report: AccountReport) async throws {
        try await performOnAccounts(.report) { state, _ throws(SandboxError) in
            let id = try state.accountID(report.account)
            let known = Set(state.scenario.rules.map(\.id))
            if let unknown = report.rules.first(where: { !known.contains($0) }) { throw .refused("Rule ids \(unknown) is invalid") }
            for post in report.posts {
                guard let original = try? state.store.original(of: post.rawValue), original.account.id == id else {
                    throw .refused("Status ids \(post.rawValue) is invalid: the post is not by the account reported")
                }
            }
            state.reports.append(report)
        }
    }

    /// The scenario's rules, in order.
    @_spi(FeedService) public func instanceRules() async throws -> [InstanceRule] {
        try await performOnAccounts(.rules) { state, _ throws(SandboxError) in state.scenario.rules.map(InstanceRule.init) }
    }

    /// The reports filed so far, in order. For tests.
    package var reportsFiled: [AccountReport] { withState { $0.reports } }
}
