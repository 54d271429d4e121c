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
        let before = try await run.service.post(run.subjects.post)
        var outcomes: [String] = []
        for step in law.steps { outcomes.append(await run.perform(step)) }
        for read in law.reads { outcomes.append(try await run.read(read, before: before)) }
        #expect(outcomes == law.expected, "\(target): \(law.name)")
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
                case .publish, .edit, .delete: covered.insert("writing")
                }
            }
        }
        #expect(covered == ["interactions", "relationships", "domain blocks", "tags", "lists", "conversations", "writing"])
    }
}

/// One law's run on one server: the service, its subjects, and what the law's calls made.
struct ContractRun {
    static let now = Date(timeIntervalSince1970: 1_795_284_000)

    let service: any FeedService
    let subjects: ContractSubjects
    private var created: String?
    private var mine: PostID?

    init(_ target: ServerContractTests.Target) async throws {
        switch target {
        case .model:
            let server = GatedServer(Self.model(), answering: Set(GatedCall.Kind.allCases))
            service = server
            subjects = ContractSubjects(
                post: "p1", stranger: "fern-id", locked: "ines-id", followed: "mira-id", list: "1", unread: "41", read: "42"
            )
        case .sandbox:
            let sandbox = try SandboxService(
                fixture: try FixtureLoader.load(from: PackagePaths.fixtures("timeline")), clock: VirtualClock(), wallClock: .fixed(Self.now)
            )
            service = sandbox
            subjects = try await Self.subjects(of: sandbox)
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

    /// Makes `step`'s call: `ok`, or `refused` when the server throws.
    mutating func perform(_ step: ContractLaw.Step) async -> String {
        do {
            switch step {
            case .interaction(let kind, let value):
                _ = try await service.set(kind, to: value, postID: subjects.post)
            case .relationship(let kind, let value, let account):
                _ = try await service.setRelationship(kind, to: value, of: subjects.id(account), mute: MuteOptions())
            case .domainBlock(let domain, let value):
                try await service.setDomainBlock(domain, to: value)
            case .tagFollow(let name, let value):
                _ = try await service.setTagFollow(name, to: value)
            case .createList(let title):
                created = try await service.createList(title: title).id
            case .renameList(let list, let title):
                _ = try await service.renameList(try id(list), to: title)
            case .deleteList(let list):
                try await service.deleteList(try id(list))
            case .listMembership(let list, let account, let value):
                try await service.setListMembership(list: try id(list), account: subjects.id(account), to: value)
            case .markRead(let conversation):
                _ = try await service.markConversationRead(subjects.id(conversation))
            case .removeConversation(let conversation):
                try await service.removeConversation(subjects.id(conversation))
            case .publish(let text):
                mine = try await service.publish(Draft(id: DraftID(UUID().uuidString), text: text, createdAt: Self.now), idempotencyKey: UUID().uuidString).id
            case .edit(let text):
                let editing = try #require(mine)
                _ = try await service.publish(Draft(id: DraftID(UUID().uuidString), text: text, editing: editing, createdAt: Self.now), idempotencyKey: UUID().uuidString)
            case .delete(let post):
                _ = try await service.delete(try id(post))
            }
            return "ok"
        } catch {
            return "refused"
        }
    }

    /// Reads `read` and renders it as the law table writes it; `before` is someone's post as it
    /// was before the calls.
    func read(_ read: ContractLaw.Read, before: Post) async throws -> String {
        switch read {
        case .interactions:
            let post = try await service.post(subjects.post)
            let favourites = post.favouritesCount - before.favouritesCount, reblogs = post.reblogsCount - before.reblogsCount
            return "favourited \(post.favourited) +\(favourites), reblogged \(post.reblogged) +\(reblogs), bookmarked \(post.bookmarked)"
        case .relationship(let account):
            let relationship = try #require(try await service.relationships(of: [subjects.id(account)]).first)
            let flags = [
                ("following", relationship.following), ("requested", relationship.requested), ("muting", relationship.muting),
                ("blocking", relationship.blocking), ("notifying", relationship.notifying),
            ]
            return flags.map { "\($0.0) \($0.1)" }.joined(separator: ", ")
        case .domain(let domain):
            let listed = try await all { try await service.domainBlocks(after: $0) }.filter { $0 == domain.lowercased() }.count
            return "\(domain) \(listed > 0 ? "blocked" : "not blocked"), listed \(listed)"
        case .tag(let name):
            let tag = try await service.tag(named: name)
            let listed = try await all { try await service.followedTags(after: $0) }.filter { $0.key == name.lowercased() }.count
            return "#\(name) following \(tag.following ?? false), listed \(listed)"
        case .list(let list):
            let id = try id(list)
            return try await service.lists().first { $0.id == id }?.title ?? "gone"
        case .member(let list, let account):
            let id = try id(list)
            let members = try await all { try await service.accounts(in: .members(id), after: $0) }
            return members.contains { $0.author.id == subjects.id(account).rawValue } ? "member" : "not a member"
        case .conversation(let conversation):
            let id = subjects.id(conversation)
            let found = try await all { try await service.conversations(after: $0) }.first { $0.id == id }
            return found.map { $0.unread ? "unread" : "read" } ?? "gone"
        case .post(let post):
            let id = try id(post)
            let onHome = try await all(pages: 40) { try await service.page(of: .home, after: $0) }.contains { $0.id == id } ? "on home" : "not on home"
            guard let found = try? await service.post(id) else { return "gone, \(onHome)" }
            let versions = try await service.history(of: id).count
            return "\(found.text), \(versions) versions, \(onHome)"
        }
    }

    private func id(_ list: ContractSubjects.List) throws -> String {
        switch list {
        case .existing: subjects.list
        case .created: try #require(created, "the law reads a list it did not create")
        }
    }

    private func id(_ post: ContractSubjects.Post) throws -> PostID {
        switch post {
        case .someones: subjects.post
        case .mine: try #require(mine, "the law reads a post it did not publish")
        }
    }

    /// Every item of up to `pages` pages, following the cursors.
    private func all<Item>(pages: Int = 20, _ page: (PageCursor?) async throws -> Page<Item>) async throws -> [Item] {
        var items: [Item] = []
        var cursor: PageCursor?
        for _ in 0..<pages {
            let next = try await page(cursor)
            items += next.items
            guard let after = next.next else { break }
            cursor = after
        }
        return items
    }
}
