@_spi(FeedService) import Feedline
@_spi(FeedService) import FeedlineMastodon
import FeedlineTestSupport
import Foundation
import Testing

/// The contract suite: one law table (``ContractLaw/table``) run against the tests' server
/// model (through ``GatedServer``, every call answered from the model) and against the shipped
/// sandbox built from the bundled `timeline` fixture, so the sandbox cannot drift from what the
/// tests assume of a server. Each row starts on a fresh server.
@Suite("Server contract: the test model and the sandbox obey one law table", .timeLimit(.minutes(10)))
struct ServerContractTests {
    enum Target: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case model, sandbox
        var testDescription: String { rawValue }
    }

    @Test("every law holds", arguments: Target.allCases, ContractLaw.table)
    func law(_ target: Target, _ law: ContractLaw) async throws {
        var run = try await ContractRun(target)
        #expect(try await run.outcomes(of: law) == law.expected, "\(target): \(law.name)")
    }

    @Test("the table covers every service slice that changes state")
    func coverage() {
        var covered = Set<String>()
        for law in ContractLaw.table {
            for step in law.steps {
                switch step {
                case .interaction: covered.insert("interactions")
                case .relationship: covered.insert("relationships")
                case .domainBlock: covered.insert("domain blocks")
                case .tagFollow: covered.insert("tags")
                case .createList, .renameList, .deleteList, .listMembership: covered.insert("lists")
                case .markRead, .removeConversation: covered.insert("conversations")
                case .publish, .edit, .delete, .resend, .keyExpires: covered.insert("writing")
                }
            }
        }
        #expect(covered == ["interactions", "relationships", "domain blocks", "tags", "lists", "conversations", "writing"])
    }
}

extension ContractRun {
    /// A run on the test model (every call answered) or on the sandbox of the `timeline` fixture.
    init(_ target: ServerContractTests.Target) async throws {
        switch target {
        case .model:
            let server = GatedServer(Self.model(), answering: Set(GatedCall.Kind.allCases))
            self.init(
                service: server,
                subjects: ContractSubjects(
                    post: "p1", stranger: "fern-id", locked: "ines-id", followed: "mira-id", list: "1", unread: "41", read: "42"
                ),
                advanceClock: { seconds in server.update { $0.now += seconds } }
            )
        case .sandbox:
            // The sandbox's wall clock starts at the run's now (2026-11-21T18:00:00Z) and moves only when a law says.
            let wall = SandboxAccountsTests.MovableWallClock()
            let sandbox = try SandboxService(
                fixture: try FixtureLoader.load(from: PackagePaths.fixtures("timeline")), clock: VirtualClock(), wallClock: wall.clock
            )
            self.init(service: sandbox, subjects: try await Self.subjects(of: sandbox), advanceClock: { seconds in wall.advance(by: seconds) })
        }
    }

    /// A model holding what the laws need: someone's post on home, three accounts, a list and
    /// two conversations.
    static func model() -> ServerModel<Post> {
        let alice = Author(id: "alice-id", displayName: "Alice", handle: "alice@elsewhere.example")
        let post = Post(id: "p1", author: alice, text: "Herons today", createdAt: now, reblogsCount: 1, favouritesCount: 3)
        var model = ServerModel([post])
        model.timelines.feeds[.home] = [post.id]
        for (id, handle) in [("fern-id", "fern@lichen.garden"), ("ines-id", "ines@tidemark.pt"), ("mira-id", "mira")] {
            model.relationships.profiles[AccountID(id)] = Profile(author: Author(id: id, displayName: handle, handle: handle))
        }
        model.relationships.locked = ["ines-id"]
        model.relationships.byAccount["mira-id"] = Relationship(accountID: "mira-id", following: true)
        model.lists = ServerLists([UserList(id: "1", title: "Birders")], members: ["1": ["mira-id"]])
        model.conversations = ServerConversations([
            Conversation(id: "41", participants: [alice], unread: true, lastPost: post),
            Conversation(id: "42", participants: [alice], unread: false, lastPost: nil),
        ])
        return model
    }

    /// The sandbox's subjects, found by reading it as a client does.
    static func subjects(of sandbox: SandboxService) async throws -> ContractSubjects {
        let me = try await sandbox.composeSettings().account.id
        let home = try await sandbox.page(of: .home, after: nil).posts
        let post = try #require(home.first { $0.reblog == nil && $0.author.id != me && !$0.favourited && !$0.reblogged && !$0.bookmarked })
        let authors = Array(Set(home.map(\.author.id)).subtracting([me])).sorted().map { AccountID($0) }
        let followed = try #require(try await sandbox.relationships(of: authors).first { $0.following && !$0.blocking && !$0.muting })
        let lists = try await sandbox.lists()
        let list = try #require(lists.first)
        let conversations = try await sandbox.conversations(after: nil).items
        let unread = try #require(conversations.first { $0.unread })
        let read = try #require(conversations.first { !$0.unread })
        // From the fixture's directory: Fern (neither followed nor blocked) and Inês (locked).
        return ContractSubjects(
            post: post.id, stranger: "112845530021907715", locked: "113102998877001234", followed: followed.accountID, list: list.id,
            unread: unread.id, read: read.id
        )
    }
}
