@_spi(FeedService) import Feedline
@_spi(FeedService) @testable import FeedlineMastodon
import FeedlineTestSupport
import Foundation
import Testing

/// The contract suite over loopback HTTP: the law table the test model and the sandbox obey
/// (``ContractLaw/table``), run against `MastodonHTTPService` talking to the fake Mastodon over
/// the shipped `timeline` fixture, so the HTTP client and the fake cannot drift from what the
/// other tests assume of a server. Each row starts on a fresh server.
@Suite("Server contract over HTTP: the client and the fake Mastodon obey the law table", .timeLimit(.minutes(10)))
struct HTTPContractTests {
    @Test("every law holds", arguments: ContractLaw.table)
    func law(_ law: ContractLaw) async throws {
        try await withFixtureServer { fake, server in
            var run = ContractRun(
                service: try makeService(server), subjects: try Self.subjects(on: fake),
                advanceClock: { seconds in fake.state.withLock { $0.server.now += seconds } }
            )
            #expect(try await run.outcomes(of: law) == law.expected, "HTTP: \(law.name)")
        }
    }

    /// The subjects on the fixture's server: its newest original by someone with no flags set,
    /// a stranger and a followed account among home's authors, a locked account the server
    /// knows, a list holding the followed account, and two conversations (unread, read).
    static func subjects(on fake: FakeMastodon) throws -> ContractSubjects {
        let home = try FixtureStatuses.timeline()
        let post = try #require(home.first { $0.reblog == nil && $0.favourited != true && $0.reblogged != true && $0.bookmarked != true })
        var authors: [String] = []
        for status in home where status.reblog == nil && !authors.contains(status.account.id) { authors.append(status.account.id) }
        let followed = try #require(authors.first { $0 != post.account.id })
        let stranger = try #require(authors.first { $0 != post.account.id && $0 != followed })
        fake.setRelationship(Mastodon.Relationship(id: followed, following: true))
        let locked = Mastodon.Account(id: "2002", username: "ash", acct: "ash@elsewhere.example", displayName: "Ash", locked: true)
        fake.state.withLock { $0.lists.accounts.append(locked) }
        let list = fake.makeList("Birders", accounts: [followed])
        let read = try #require(home.first { $0.reblog == nil && $0.id != post.id })
        fake.startConversations(lastStatuses: [post.id, read.id], unread: [post.id])
        return ContractSubjects(
            post: PostID(post.id), stranger: AccountID(stranger), locked: AccountID(locked.id), followed: AccountID(followed), list: list,
            unread: "c\(post.id)", read: "c\(read.id)"
        )
    }
}
