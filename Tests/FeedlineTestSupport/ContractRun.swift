@_spi(FeedService) import Feedline
import Foundation
import Testing

/// One law's run on one server: the service, its subjects, and what the law's calls made. Each
/// test target makes its servers (the model, the sandbox, the HTTP client over a fake Mastodon)
/// and runs ``ContractLaw/table`` through this.
package struct ContractRun {
    package static let now = Date(timeIntervalSince1970: 1_795_284_000)

    package let service: any FeedService
    package let subjects: ContractSubjects
    /// Moves the server's clock on by so many seconds (what ``ContractLaw/Step/keyExpires`` does).
    package let advanceClock: @Sendable (TimeInterval) -> Void
    private var created: String?
    private var mine: PostID?
    /// The last post published, and its key (what ``ContractLaw/Step/resend`` sends again).
    private var lastSent: (draft: Draft, key: String)?

    package init(service: any FeedService, subjects: ContractSubjects, advanceClock: @escaping @Sendable (TimeInterval) -> Void) {
        self.service = service
        self.subjects = subjects
        self.advanceClock = advanceClock
    }

    /// Runs `law` from a fresh server: its calls, then its reads; the outcomes to compare with
    /// `law.expected`.
    package mutating func outcomes(of law: ContractLaw) async throws -> [String] {
        let before = try await service.post(subjects.post)
        var outcomes: [String] = []
        for step in law.steps { outcomes.append(await perform(step)) }
        for read in law.reads { outcomes.append(try await self.read(read, before: before)) }
        return outcomes
    }

    /// Makes `step`'s call: `ok`, or `refused` when the server throws.
    package mutating func perform(_ step: ContractLaw.Step) async -> String {
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
                let sent = (draft: Draft(id: DraftID(UUID().uuidString), text: text, createdAt: Self.now), key: UUID().uuidString)
                lastSent = sent
                mine = try await service.publish(sent.draft, idempotencyKey: sent.key).id
            case .resend:
                let sent = try #require(lastSent, "the law resends a post it did not publish")
                mine = try await service.publish(sent.draft, idempotencyKey: sent.key).id
            case .keyExpires:
                advanceClock(ServerWriting<PostID>.keyLifetime + 1)
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
    package func read(_ read: ContractLaw.Read, before: Post) async throws -> String {
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
