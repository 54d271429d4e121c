@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation

/// A server of posts by several accounts and of relationships with them, whose relationship
/// changes wait until the test answers them (in any order, or fails them); pages, profiles
/// and relationship fetches answer at once from its truth.
final class RelationshipServer: EmptyReads, Sendable {
    /// A relationship change waiting for the test.
    struct Change: Sendable, CustomStringConvertible {
        let number: Int
        let kind: RelationshipKind
        let value: Bool
        let account: AccountID
        let mute: MuteOptions
        var description: String { "#\(number) \(kind.verb(value)) \(account)" }
    }

    private struct State {
        var relationships: [AccountID: Relationship] = [:]
        var next = 0
        var sent: [Change] = []
        /// Every change is answered as it comes (``answerEverything()``).
        var answersAtOnce = false
        /// Accounts asking to follow the user, oldest first.
        var requesters: [AccountID] = []
        /// Follow request answers are refused (``refuseAnswers``).
        var refusesAnswers = false
        /// Follow request answers received, as (account, accept).
        var answers: [(AccountID, Bool)] = []
    }

    let posts: [Post]
    let locked: Set<AccountID>
    /// The signed-in account, when the server says who it is (``composeSettings()``).
    let me: Author?
    /// The user's notifications, newest first.
    let notificationGroups: [NotificationGroup]
    private let state = Locked(State())
    private let held = HeldCalls<Change, Relationship>()

    /// Posts (newest first: home, and every profile and public feed filtered from them), and
    /// the relationships the server starts with; `locked` accounts answer a follow with a request.
    init(posts: [Post], relationships: [Relationship] = [], locked: Set<AccountID> = [], notifications: [NotificationGroup] = [], me: Author? = nil) {
        self.posts = posts
        self.locked = locked
        self.me = me
        notificationGroups = notifications
        state.withLock { state in
            for relationship in relationships { state.relationships[relationship.accountID] = relationship }
        }
    }

    /// Accounts asking to follow the user (``answerFollowRequest(from:accept:)`` answers them).
    func setRequesters(_ accounts: [AccountID]) {
        state.withLock { state in
            state.requesters = accounts
            for id in accounts { state.relationships[id, default: Relationship(accountID: id)].requestedBy = true }
        }
    }

    /// Whether follow request answers are refused from now on.
    func refuseAnswers(_ refuse: Bool) {
        state.withLock { $0.refusesAnswers = refuse }
    }

    /// The follow request answers received, in order.
    var answers: [(AccountID, Bool)] { state.withLock { $0.answers } }

    /// The server's truth for an account.
    func truth(_ account: AccountID) -> Relationship {
        state.withLock { $0.relationships[account] ?? Relationship(accountID: account) }
    }

    /// Every change sent so far, in order.
    var sent: [Change] { state.withLock { $0.sent } }

    /// The changes waiting for an answer, oldest first.
    var waiting: [Change] { held.calls }

    /// Returns once at least `count` changes wait.
    func waitForChanges(_ count: Int) async {
        await held.waitFor(count)
    }

    /// Applies the waiting change at `index` to the server's truth and answers with it.
    func answer(at index: Int) {
        guard let call = held.take(at: index) else { return }
        let change = call.call
        let relationship = state.withLock { state in
            var r = state.relationships[change.account] ?? Relationship(accountID: change.account)
            Self.apply(change, to: &r, locked: locked.contains(change.account))
            state.relationships[change.account] = r
            return r
        }
        call.answer(relationship)
    }

    /// Answers every waiting change, and from now on every change as it comes.
    func answerEverything() {
        state.withLock { $0.answersAtOnce = true }
        while !waiting.isEmpty { answer(at: 0) }
    }

    /// Fails the waiting change at `index`: refused, or for lack of a connection.
    func fail(at index: Int, transient: Bool) {
        held.take(at: index)?.fail(TestFailure(message: transient ? "The server is unavailable." : "Forbidden.", isTransient: transient))
    }

    struct TestFailure: FeedServiceError {
        var message: String
        var isTransient: Bool
        var errorDescription: String? { message }
    }

    static func apply(_ change: Change, to r: inout Relationship, locked: Bool) {
        switch change.kind {
        case .follow:
            if change.value {
                if !r.following { if locked { r.requested = true } else { r.following = true } }
            } else {
                r.following = false
                r.requested = false
                r.notifying = false
            }
        case .mute:
            r.muting = change.value
            r.mutingNotifications = change.value && change.mute.notifications
        case .block:
            r.blocking = change.value
            if change.value {
                r.following = false
                r.requested = false
            }
        case .notify: if r.following { r.notifying = change.value }
        case .boosts: if r.following { r.showingBoosts = change.value }
        }
    }

    // MARK: - FeedService

    func composeSettings() async throws -> ComposeSettings {
        guard let me else { throw WritingUnsupported() }
        return ComposeSettings(account: me)
    }

    func page(of feed: Feed, after cursor: PageCursor?) async throws -> Page<Post> {
        guard cursor == nil else { return Page(posts: [], next: nil) }
        switch feed {
        case .account(let id): return Page(posts: posts.filter { $0.author.id == id.rawValue }, next: nil)
        default: return Page(posts: posts, next: nil)
        }
    }

    func notifications(after cursor: PageCursor?) async throws -> Page<NotificationGroup> {
        Page(items: cursor == nil ? notificationGroups : [], next: nil)
    }

    func profile(of account: AccountID) async throws -> Profile {
        guard let author = posts.lazy.flatMap({ [$0.author, $0.content.author] }).first(where: { $0.id == account.rawValue }) else {
            throw NothingHere()
        }
        return Profile(author: author, bio: "Bio of \(author.name).", locked: locked.contains(account))
    }

    /// Every author of a post (boosters and boosted), in order of first appearance.
    var authors: [Author] {
        var seen = Set<String>()
        return posts.flatMap { [$0.author, $0.content.author] }.filter { seen.insert($0.id).inserted }
    }

    /// Two accounts a page: followers of anyone are every other author; following, the same;
    /// mutes, blocks and requests from the truth.
    func accounts(in list: AccountList, after cursor: PageCursor?) async throws -> Page<Profile> {
        let all: [Author]
        switch list {
        case .followers(let id), .following(let id): all = authors.filter { $0.id != id.rawValue }
        case .mutes: all = authors.filter { truth(AccountID($0.id)).muting }
        case .blocks: all = authors.filter { truth(AccountID($0.id)).blocking }
        case .requests:
            let requesters = state.withLock { $0.requesters }
            all = requesters.compactMap { id in authors.first { $0.id == id.rawValue } }
        case .members: throw AccountsUnsupported()
        }
        let start = cursor.flatMap { Int($0.rawValue) } ?? 0
        let page = Array(all.dropFirst(start).prefix(2))
        let next = start + 2 < all.count ? PageCursor(String(start + 2)) : nil
        return Page(items: page.map { Profile(author: $0, bio: "Bio of \($0.name).", locked: locked.contains(AccountID($0.id))) }, next: next)
    }

    /// Accounts whose handle or name holds the query, a tag of that name, posts whose text holds it.
    func search(_ query: String, after cursor: PageCursor?) async throws -> Page<SearchResult> {
        guard cursor == nil else { return Page(items: [], next: nil) }
        let needle = query.lowercased()
        let accounts = authors.filter { $0.handle.lowercased().contains(needle) || $0.displayName.lowercased().contains(needle) }
        let found = posts.filter { $0.content.text.lowercased().contains(needle) }.map(\.content)
        return Page(
            items: accounts.map { .account(Profile(author: $0)) } + [.hashtag(Hashtag(name: query, weeklyUses: found.count))] + found.map { .post($0) },
            next: nil
        )
    }

    func answerFollowRequest(from account: AccountID, accept: Bool) async throws -> Relationship {
        try state.withLock { state in
            state.answers.append((account, accept))
            if state.refusesAnswers { throw TestFailure(message: "Forbidden.", isTransient: false) }
            guard let index = state.requesters.firstIndex(of: account) else { throw TestFailure(message: "Record not found.", isTransient: false) }
            state.requesters.remove(at: index)
            var r = state.relationships[account] ?? Relationship(accountID: account)
            r.requestedBy = false
            if accept { r.followedBy = true }
            state.relationships[account] = r
            return r
        }
    }

    /// A post by id, the original of any entry.
    func post(_ id: PostID) async throws -> Post {
        guard let post = posts.lazy.map(\.content).first(where: { $0.id == id }) else { throw NothingHere() }
        return post
    }

    /// Every other original as a reply of the post: a thread with posts by every author.
    func context(of id: PostID) async throws -> PostContext {
        PostContext(descendants: posts.map(\.content).filter { $0.id != id })
    }

    func relationships(of accounts: [AccountID]) async throws -> [Relationship] {
        accounts.map(truth)
    }

    func setRelationship(_ kind: RelationshipKind, to value: Bool, of account: AccountID, mute: MuteOptions) async throws -> Relationship {
        let atOnce = state.withLock { state -> Relationship? in
            guard state.answersAtOnce else { return nil }
            state.next += 1
            let change = Change(number: state.next, kind: kind, value: value, account: account, mute: mute)
            state.sent.append(change)
            var r = state.relationships[account] ?? Relationship(accountID: account)
            Self.apply(change, to: &r, locked: locked.contains(account))
            state.relationships[account] = r
            return r
        }
        if let atOnce { return atOnce }
        let change = state.withLock { state in
            state.next += 1
            let change = Change(number: state.next, kind: kind, value: value, account: account, mute: mute)
            state.sent.append(change)
            return change
        }
        return try await held.hold(change)
    }
}
