@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation

/// A server of lists whose writes (create, rename, delete, add, remove) wait until the test
/// answers or fails them, each applied to the server's lists when answered. Reads answer at once.
final class ListServer: EmptyReads, Sendable {
    enum Write: Hashable, Sendable, CustomStringConvertible {
        case create(String)
        case rename(String, String)
        case delete(String)
        case member(String, AccountID, Bool)
        /// A read of the lists (held only when ``holdReads``), answered with the lists as they
        /// were when it was asked.
        case read([UserList])

        var description: String {
            switch self {
            case .create(let title): "create \(title)"
            case .rename(let id, let title): "rename \(id) \(title)"
            case .delete(let id): "delete \(id)"
            case .member(let list, let account, let value): "\(value ? "add" : "remove") \(account) \(list)"
            case .read: "read lists"
            }
        }
    }

    private struct State {
        var lists: [UserList] = []
        var members: [String: [AccountID]] = [:]
        var nextID = 1
    }

    /// Whether reads of the lists wait in the queue too, to be answered by the test.
    let holdReads: Bool
    let profiles: [AccountID: Profile]
    /// Accounts the signed-in user does not follow: adding them is refused, as Mastodon does.
    let notFollowed: Set<AccountID>
    private let state = Locked(State())
    private let held = HeldCalls<Write, UserList?>()

    init(lists: [UserList] = [], members: [String: [AccountID]] = [:], accounts: [String] = ["kemi", "ada", "lin"], notFollowed: Set<AccountID> = [], holdReads: Bool = false) {
        self.holdReads = holdReads
        var profiles: [AccountID: Profile] = [:]
        for name in accounts {
            profiles[AccountID(name)] = Profile(author: Author(id: name, displayName: name.capitalized, handle: name))
        }
        self.profiles = profiles
        self.notFollowed = notFollowed
        state.withLock { state in
            state.lists = lists
            state.members = members
            state.nextID = lists.count + 1
        }
    }

    var lists: [UserList] { state.withLock { $0.lists } }
    func members(_ list: String) -> [AccountID] { state.withLock { $0.members[list] ?? [] } }
    var sent: [Write] { held.heldSoFar }
    var waiting: [Write] { held.calls }

    func waitForWrites(_ count: Int) async {
        await held.waitFor(count)
    }

    /// Applies the write waiting at `index` to the server's lists and answers it (a write the
    /// server cannot apply — a list gone, an account not followed — is refused as Mastodon would).
    func answer(at index: Int) {
        guard let call = held.take(at: index) else { return }
        switch state.withLock({ state in Self.apply(call.call, to: &state, notFollowed: notFollowed) }) {
        case .success(let list): call.answer(list)
        case .failure(let failure): call.fail(failure)
        }
    }

    /// Refuses the write waiting at `index` without applying it.
    func fail(at index: Int) {
        held.take(at: index)?.fail(TestFailure(message: "Forbidden."))
    }

    /// Fails the write waiting at `index` for lack of a connection, without applying it.
    func lose(at index: Int) {
        held.take(at: index)?.fail(LostConnection())
    }

    struct TestFailure: FeedServiceError {
        var message: String
        var isTransient: Bool { false }
        var errorDescription: String? { message }
    }

    struct LostConnection: FeedServiceError {
        var isTransient: Bool { true }
        var errorDescription: String? { "The server could not be reached." }
    }

    private static func apply(_ write: Write, to state: inout State, notFollowed: Set<AccountID>) -> Result<UserList?, TestFailure> {
        switch write {
        case .read: return .success(nil)
        case .create(let title):
            let list = UserList(id: "L\(state.nextID)", title: title)
            state.nextID += 1
            state.lists.append(list)
            return .success(list)
        case .rename(let id, let title):
            guard let index = state.lists.firstIndex(where: { $0.id == id }) else { return .failure(TestFailure(message: "Record not found")) }
            state.lists[index].title = title
            return .success(state.lists[index])
        case .delete(let id):
            guard let index = state.lists.firstIndex(where: { $0.id == id }) else { return .failure(TestFailure(message: "Record not found")) }
            state.lists.remove(at: index)
            state.members[id] = nil
            return .success(nil)
        case .member(let list, let account, let value):
            guard state.lists.contains(where: { $0.id == list }) else { return .failure(TestFailure(message: "Record not found")) }
            if value {
                guard !notFollowed.contains(account) else { return .failure(TestFailure(message: "You must follow this account to add it to a list")) }
                if !(state.members[list] ?? []).contains(account) { state.members[list, default: []].append(account) }
            } else {
                state.members[list]?.removeAll { $0 == account }
            }
            return .success(nil)
        }
    }

    /// Holds `write` until answered; a cancelled request leaves the server's queue unanswered
    /// (as a cancelled HTTP request does), so the queue is what the client still waits for.
    private func hold(_ write: Write) async throws -> UserList? {
        try await held.hold(write, cancellable: true)
    }

    func lists() async throws -> [UserList] {
        let asked = lists
        guard holdReads else { return asked }
        _ = try await hold(.read(asked))
        return asked
    }

    func accounts(in list: AccountList, after cursor: PageCursor?) async throws -> Page<Profile> {
        guard case .members(let id) = list, cursor == nil else { return Page(items: [], next: nil) }
        return Page(items: members(id).compactMap { profiles[$0] }, next: nil)
    }

    func relationships(of accounts: [AccountID]) async throws -> [Relationship] { [] }

    func createList(title: String) async throws -> UserList {
        guard let list = try await hold(.create(title)) else { throw TestFailure(message: "No list.") }
        return list
    }

    func renameList(_ id: String, to title: String) async throws -> UserList {
        guard let list = try await hold(.rename(id, title)) else { throw TestFailure(message: "No list.") }
        return list
    }

    func deleteList(_ id: String) async throws { _ = try await hold(.delete(id)) }

    func setListMembership(list: String, account: AccountID, to value: Bool) async throws {
        _ = try await hold(.member(list, account, value))
    }
}
