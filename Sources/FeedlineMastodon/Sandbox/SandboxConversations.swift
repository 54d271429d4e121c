import Feedline
import Foundation

/// The user's direct conversations on the sandbox: each a set of statuses (its thread), its last
/// status, whether it is unread and whether the user removed it. Seeded from the scenario's
/// `conversations` (``SandboxScenario/ConversationSeed``): a seed's statuses are its last status
/// and every status it replies to, up the chain.
struct SandboxConversations: Sendable {
    struct Record: Sendable, Hashable {
        var id: String
        var statuses: Set<String>
        var last: String
        var unread: Bool
        var removed = false
    }

    /// In the scenario's order (the list is served ordered by last status).
    private(set) var records: [Record] = []

    /// The conversations of `seeds`, each with the chain its last status replies to (in `store`).
    init(_ seeds: [SandboxScenario.ConversationSeed], store: SandboxStore) {
        for seed in seeds {
            var statuses: Set<String> = []
            var next: String? = seed.lastStatus
            while let id = next, statuses.insert(id).inserted {
                next = store.rendered(id)?.inReplyToID
            }
            records.append(Record(id: seed.id, statuses: statuses, last: seed.lastStatus, unread: seed.unread))
        }
    }

    /// The conversations not removed.
    var shown: [Record] { records.filter { !$0.removed } }

    func record(_ id: String) -> Record? { records.first { $0.id == id && !$0.removed } }

    /// Marks `id` read; `false` when there is no such conversation.
    mutating func markRead(_ id: String) -> Bool {
        guard let index = records.firstIndex(where: { $0.id == id && !$0.removed }) else { return false }
        records[index].unread = false
        return true
    }

    /// Removes `id` from the list (its statuses stay); `false` when there is no such conversation.
    mutating func remove(_ id: String) -> Bool {
        guard let index = records.firstIndex(where: { $0.id == id && !$0.removed }) else { return false }
        records[index].removed = true
        return true
    }

    /// The user posted `status` in reply to `parent`: when `parent` is in a conversation, the
    /// status becomes its last (read: the user wrote it), and a removed conversation is back, as
    /// Mastodon brings one back with a new post. Returns the conversation's id.
    mutating func replied(_ status: String, to parent: String) -> String? {
        guard let index = records.firstIndex(where: { $0.statuses.contains(parent) }) else { return nil }
        records[index].statuses.insert(status)
        records[index].last = status
        records[index].unread = false
        records[index].removed = false
        return records[index].id
    }
}
