@_spi(FeedService) import Feedline
@_spi(FeedService) import FeedlineMastodon
import Foundation
import Testing

/// Issue 36's reports over HTTP: `POST /api/v1/reports` as a form with Mastodon's field names
/// (`status_ids[]` and `rule_ids[]` repeated, `forward` and `category` spelled out), the
/// server's refusal sentence kept; `GET /api/v1/instance/rules` read as `[Rule]`, and a server
/// without it asked for its v2 description's `rules`.
@Suite("HTTP reports and rules")
struct HTTPReportTests {
    static let rules = [
        Mastodon.Rule(id: "3", text: "No spam.", hint: "Advertising included."), Mastodon.Rule(id: "7", text: "Be kind."),
    ]

    @Test("a report is a form POST with every field Mastodon reads, rule ids only for a violation")
    func form() async throws {
        let statuses = try FixtureStatuses.timeline()
        let post = try #require(statuses.first { $0.reblog == nil })
        try await withFakeServer(statuses: statuses) { fake, server in
            fake.setRules(Self.rules)
            let service = try makeService(server)
            try await service.report(AccountReport(
                account: AccountID(post.account.id), posts: [PostID(post.id)], comment: "Ads & more = spam", forward: true, category: .violation, rules: ["3"]
            ))
            try await service.report(AccountReport(account: AccountID(post.account.id), comment: "", category: .spam))
            let filed = fake.reportsFiled.map { $0.map { "\($0.0)=\($0.1)" } }
            #expect(filed == [
                ["account_id=\(post.account.id)", "status_ids[]=\(post.id)", "comment=Ads & more = spam", "forward=true", "category=violation", "rule_ids[]=3"],
                ["account_id=\(post.account.id)", "comment=", "forward=false", "category=spam"],
            ])
            #expect(fake.requests.filter { $0.path == "/api/v1/reports" }.allSatisfy { $0.method == "POST" && $0.authorization == "Bearer \(secretToken)" })
        }
    }

    @Test("the server's refusal keeps its sentence; an unknown account names it")
    func refused() async throws {
        try await withFakeServer { fake, server in
            fake.setRules(Self.rules)
            fake.forgetAccount("404404")
            let service = try makeService(server)
            do {
                try await service.report(AccountReport(account: "1", category: .violation, rules: ["99"]))
                Issue.record("a rule the server has not was taken")
            } catch {
                let failure = FeedFailure(error)
                #expect(failure.message.contains("Validation failed: Rule ids 99 is invalid"), "\(failure.message)")
                #expect(!failure.isTransient)
            }
            do {
                try await service.report(AccountReport(account: "404404"))
                Issue.record("an unknown account was reported")
            } catch {
                #expect(FeedFailure(error).message.contains("There is no account 404404"), "\(FeedFailure(error).message)")
            }
        }
    }

    @Test("the rules come from /api/v1/instance/rules, or from the v2 description when a server has no such path")
    func rules() async throws {
        try await withFakeServer { fake, server in
            fake.setRules(Self.rules)
            let service = try makeService(server)
            #expect(try await service.instanceRules() == [InstanceRule(id: "3", text: "No spam.", hint: "Advertising included."), InstanceRule(id: "7", text: "Be kind.")])
            fake.setRules(nil)
            fake.describeRules([Mastodon.Rule(id: "1", text: "Old rule.")])
            #expect(try await service.instanceRules() == [InstanceRule(id: "1", text: "Old rule.")])
            #expect(
                fake.requests.map { "\($0.method) \($0.path)" }
                    == ["GET /api/v1/instance/rules", "GET /api/v1/instance/rules", "GET /api/v2/instance"]
            )
        }
    }

    @Test("a session marks the report at once and files it on the server")
    @MainActor
    func session() async throws {
        let statuses = try FixtureStatuses.timeline()
        let post = try #require(statuses.first { $0.reblog == nil })
        try await withFakeServer(statuses: statuses) { fake, server in
            let session = FeedSession(service: try makeService(server), clock: .fixed(Date(timeIntervalSince1970: 1_795_348_800)))
            session.root.appeared()
            await session.settle()
            #expect(session.report(AccountReport(account: AccountID(post.account.id), posts: [PostID(post.id)], category: .spam), handle: post.account.acct) == nil)
            #expect(session.reportMark(of: AccountID(post.account.id))?.pending == true)
            #expect(session.store.interaction(PostID(post.id))?.reported?.isOn == true)
            await session.settle()
            #expect(session.reportMark(of: AccountID(post.account.id)) == ToggleDisplay(isOn: true))
            #expect(fake.reportsFiled.count == 1)
        }
    }
}
