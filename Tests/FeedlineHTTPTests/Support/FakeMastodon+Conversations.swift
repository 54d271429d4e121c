@_spi(FeedService) import Feedline
@testable import FeedlineMastodon
import FeedlineTestSupport
import FlyingFox
import Foundation

/// Direct conversations, with Mastodon's rules, kept by the model (``ServerModel/conversations``,
/// whose laws they follow: marked read reads read, removed is gone, a new post brings one back
/// on top, unread):
///
/// - `GET /api/v1/conversations`: the user's conversations, the most recent last status first,
///   paged by the id of that last status (`max_id`, `since_id`, `min_id`); `Link` has `next`
///   when the page is full and `prev` when it is not empty. `limit` is 20 by default, at most 40.
///   Needs a user (401).
/// - `POST /api/v1/conversations/:id/read`: unread no more; answers the conversation. An unknown
///   id is 404 `Record not found`.
/// - `DELETE /api/v1/conversations/:id`: the conversation leaves the list (its statuses stay);
///   answers `{}`. An unknown id is 404.
/// - `GET /api/v1/streaming/direct`: the `direct` stream, an event stream like the user stream
///   (served when the user stream is, ``serveStream()``); ``streamConversation(_:)`` sends
///   `conversation` events to it only.
extension FakeMastodon {
    static let directStreamPath = "/api/v1/streaming/direct"

    /// One conversation as the server serves it, from the model's.
    struct ConversationRecord: Sendable, Hashable {
        var id: String
        var accounts: [Mastodon.Account]
        var lastStatusID: String
        var unread: Bool
    }

    // MARK: - Test controls

    /// Makes each status of `ids` the last status of a conversation of its own (ids `c` + the
    /// status id) with its author, unread for those in `unread`.
    func startConversations(lastStatuses ids: [String], unread: Set<String> = []) {
        state.withLock { state in
            var conversations = state.server.conversations.conversations
            for id in ids {
                guard let status = state.server.entry(id) else { continue }
                conversations.append(Conversation(id: "c\(id)", participants: [Author(status.account)], unread: unread.contains(id), lastPost: Post(status)))
            }
            state.server.conversations = ServerConversations(conversations)
        }
    }

    /// The conversations as the server orders them, with `*` for unread: `c101*`.
    var conversationSummary: [String] {
        state.withLock { state in Self.ordered(state.conversationRecords).map { $0.id + ($0.unread ? "*" : "") } }
    }

    /// Sends a `conversation` event on every open `direct` stream: `id` with its last status now `status`
    /// (added to the server), unread.
    func streamConversation(_ id: String, lastStatus status: Mastodon.Status) {
        let (conversation, connections) = state.withLock { state -> (Mastodon.Conversation, [AsyncThrowingStream<[UInt8], any Error>.Continuation]) in
            state.add([status])
            let conversation = state.server.conversations.receive(Post(status), in: id, from: Author(status.account))
            let open = state.streaming.open.filter { state.directStreams.contains($0.key) }.sorted { $0.key < $1.key }.map(\.value)
            return (Self.entity(state.record(conversation), in: state), open)
        }
        let json = String(decoding: (try? Mastodon.makeEncoder().encode(conversation)) ?? Data(), as: UTF8.self)
        for connection in connections { connection.yield(Array("event: conversation\ndata: \(json)\n\n".utf8)) }
    }

    // MARK: - Serving

    func conversationsRoute(_ request: Recorded) -> HTTPResponse? {
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 4, parts[0].isEmpty, parts[1...3] == ["api", "v1", "conversations"] || parts[1...3] == ["api", "v1", "streaming"] else {
            return nil
        }
        if parts[3] == "streaming" {
            guard request.method == "GET", request.path == Self.directStreamPath else { return nil }
            guard request.authorization != nil else { return Self.error(401, "This API requires an authenticated user") }
            let response = userStream()
            state.withLock { state in _ = state.directStreams.insert(state.streaming.opened - 1) }
            return response
        }
        guard request.authorization != nil else { return Self.error(401, "This API requires an authenticated user") }
        switch (request.method, parts.count) {
        case ("GET", 4):
            let limit = Self.limit(request, default: 20, maximum: 40)
            let (page, shown) = state.withLock { state in
                let page = Self.window(Self.ordered(state.conversationRecords), id: { UInt64($0.lastStatusID) ?? 0 }, request, limit: limit)
                return (page, page.map { Self.entity($0, in: state) })
            }
            let links = link(request, next: page.count == limit ? page.last?.lastStatusID : nil, previous: page.first?.lastStatusID)
            return Self.json(shown, headers: links)
        case ("POST", 6) where parts[5] == "read":
            return state.withLock { state in
                guard let read = try? state.server.conversations.markRead(parts[4]) else { return Self.error(404, "Record not found") }
                return Self.json(Self.entity(state.record(read), in: state))
            }
        case ("DELETE", 5):
            return state.withLock { state in
                guard (try? state.server.conversations.remove(parts[4])) != nil else { return Self.error(404, "Record not found") }
                return Self.response(200, ["Content-Type": "application/json"], Data("{}".utf8))
            }
        default:
            return unexpected(request)
        }
    }

    /// Most recent last status first (ids are numbers).
    private static func ordered(_ records: [ConversationRecord]) -> [ConversationRecord] {
        records.sorted { (UInt64($0.lastStatusID) ?? 0) > (UInt64($1.lastStatusID) ?? 0) }
    }

    private static func entity(_ record: ConversationRecord, in state: State) -> Mastodon.Conversation {
        Mastodon.Conversation(
            id: record.id, unread: record.unread, accounts: record.accounts, lastStatus: state.server.entry(record.lastStatusID).map { state.rendered($0) }
        )
    }
}

extension FakeMastodon.State {
    /// The model's conversations as the server serves them.
    var conversationRecords: [FakeMastodon.ConversationRecord] {
        server.conversations.conversations.map(record)
    }

    /// `conversation` as the server serves it: its participants' accounts as the server knows
    /// them, its last status by id.
    func record(_ conversation: Conversation) -> FakeMastodon.ConversationRecord {
        let accounts = conversation.participants.map { participant in
            known.lazy.flatMap { [$0.account, $0.original.account] }.first { $0.id == participant.id }
                ?? Mastodon.Account(id: participant.id, username: participant.handle, acct: participant.handle, displayName: participant.displayName)
        }
        return FakeMastodon.ConversationRecord(
            id: conversation.id, accounts: accounts, lastStatusID: conversation.lastPost?.id.rawValue ?? "", unread: conversation.unread
        )
    }
}
