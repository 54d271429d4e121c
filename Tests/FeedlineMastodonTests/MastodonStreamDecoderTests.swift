@_spi(FeedService) import Feedline
@_spi(FeedService) @testable import FeedlineMastodon
import Foundation
import Testing

/// The user stream's events, as Mastodon sends them, turned into the core's stream events; any
/// payload that does not decode is skipped with a reason, never a crash.
@Suite("Mastodon stream events")
struct MastodonStreamDecoderTests {
    private static func json(_ value: some Encodable) throws -> String {
        String(decoding: try Mastodon.makeEncoder().encode(value), as: UTF8.self)
    }

    private static func notification(
        _ id: String, type: String, minute: Double, status: Mastodon.Status? = nil, groupKey: String? = nil, by name: String = "bo"
    ) -> Mastodon.Notification {
        Mastodon.Notification(
            id: id, type: type, createdAt: Build.epoch.addingTimeInterval(minute * 60), account: Build.account(name), status: status,
            groupKey: groupKey
        )
    }

    @Test("update is a new post in the home timeline; status.update an edit")
    func statuses() throws {
        var decoder = MastodonStreamDecoder()
        let status = Build.status(7)
        #expect(decoder.decode(ServerSentEvent(type: "update", data: try Self.json(status))) == .event(.posted(Post(status), in: .home)))
        var edited = status
        edited.content = "<p>post 7, edited</p>"
        edited.editedAt = Build.epoch.addingTimeInterval(3600)
        #expect(decoder.decode(ServerSentEvent(type: "status.update", data: try Self.json(edited))) == .event(.edited(Post(edited))))
        let boost = Build.status(8, author: "bo", reblog: Build.status(3))
        guard case .event(.posted(let post, in: .home)) = decoder.decode(ServerSentEvent(type: "update", data: try Self.json(boost))) else {
            Issue.record("a boost is a post")
            return
        }
        #expect(post.id == "8" && post.originalID == "3")
    }

    @Test("delete carries the id as plain text (a JSON string is accepted too)")
    func deletes() {
        var decoder = MastodonStreamDecoder()
        #expect(decoder.decode(ServerSentEvent(type: "delete", data: "109876543210")) == .event(.deleted("109876543210")))
        #expect(decoder.decode(ServerSentEvent(type: "delete", data: " 01HQ7ZK9XJ \n")) == .event(.deleted("01HQ7ZK9XJ")))
        #expect(decoder.decode(ServerSentEvent(type: "delete", data: #""42""#)) == .event(.deleted("42")))
        for bad in ["", "  ", "12 34", "\"unterminated", "a\u{0007}b", String(repeating: "9", count: 300)] {
            guard case .malformed(type: "delete", _) = decoder.decode(ServerSentEvent(type: "delete", data: bad)) else {
                Issue.record("\(bad.debugDescription) is not a status id")
                continue
            }
        }
    }

    @Test("a notification is a group of one, keyed by its group_key when it has one")
    func notificationWithKey() throws {
        var decoder = MastodonStreamDecoder()
        let status = Build.status(5)
        let notification = Self.notification("n1", type: "favourite", minute: 10, status: status, groupKey: "favourite-5-497")
        guard case .event(.notified(let group)) = decoder.decode(ServerSentEvent(type: "notification", data: try Self.json(notification))) else {
            Issue.record("expected a notification")
            return
        }
        #expect(group.id == "favourite-5-497")
        #expect(group.kind == .favourite && group.count == 1 && group.accounts.map(\.handle) == ["bo@example.social"])
        #expect(group.post == Post(status) && group.newestID == "n1" && group.oldestID == "n1")
        #expect(group.latestAt == notification.createdAt)
    }

    @Test("without group_key, the client-side rule keys it, remembering buckets across the stream")
    func notificationWithoutKey() throws {
        var decoder = MastodonStreamDecoder()
        let status = Build.status(5)
        func key(_ notification: Mastodon.Notification) throws -> String? {
            guard case .event(.notified(let group)) = decoder.decode(ServerSentEvent(type: "notification", data: try Self.json(notification))) else {
                return nil
            }
            return group.id
        }
        // Hour buckets since 1970: the epoch's minute 0 is in hour 498_611.
        let hour = Int((Build.epoch.timeIntervalSince1970 / 3600).rounded(.down))
        let first = try key(Self.notification("n1", type: "favourite", minute: 0, status: status))
        #expect(first == "favourite-5-\(hour)")
        // Three hours later: the group's bucket holds (Mastodon groups within 12 hours).
        #expect(try key(Self.notification("n2", type: "favourite", minute: 180, status: status, by: "cy")) == first)
        #expect(try key(Self.notification("n3", type: "reblog", minute: 181, status: status)) == "reblog-5-\(hour + 3)")
        #expect(try key(Self.notification("n4", type: "mention", minute: 182, status: status)) == "ungrouped-n4")
        #expect(try key(Self.notification("n5", type: "follow", minute: 183)) == "follow-\(hour + 3)")
        // A fresh decoder (a new connection) starts its buckets over.
        decoder = MastodonStreamDecoder()
        #expect(try key(Self.notification("n6", type: "favourite", minute: 190, status: status)) == "favourite-5-\(hour + 3)")
    }

    @Test("a conversation (the direct stream's event) is a conversation with its participants, unread and last post; one without an id is malformed")
    func conversation() {
        var decoder = MastodonStreamDecoder()
        let payload = #"{"id": 41, "unread": true, "accounts": [{"id": "7", "username": "kemi", "acct": "kemi@fieldnotes.science"}], "last_status": {"id": "900", "created_at": "2026-11-21T16:45:00.000Z", "visibility": "direct", "content": "<p>hi</p>", "account": {"id": "7", "acct": "kemi@fieldnotes.science"}}}"#
        guard case .event(.conversation(let conversation)) = decoder.decode(ServerSentEvent(type: "conversation", data: payload)) else {
            Issue.record("expected a conversation")
            return
        }
        #expect(conversation.id == "41")
        #expect(conversation.unread)
        #expect(conversation.participants.map(\.handle) == ["kemi@fieldnotes.science"])
        #expect(conversation.lastPost?.id == "900")
        #expect(conversation.lastPost?.visibility == .direct)
        guard case .malformed(type: "conversation", _) = decoder.decode(ServerSentEvent(type: "conversation", data: "{}")) else {
            Issue.record("expected a malformed conversation")
            return
        }
    }

    @Test("other events are ignored")
    func ignored() {
        var decoder = MastodonStreamDecoder()
        for type in ["filters_changed", "announcement", "announcement.reaction", "encrypted_message", "message", "notifications_merged"] {
            #expect(decoder.decode(ServerSentEvent(type: type, data: "{}")) == .ignored(type: type))
        }
    }

    @Test("a payload that does not decode is skipped with a reason, for every kind")
    func malformed() throws {
        var decoder = MastodonStreamDecoder()
        let cases: [(type: String, data: String, reason: String)] = [
            ("update", "", "not valid JSON"),
            ("update", "{\"id\":", "not valid JSON"),
            ("update", "[]", "expected an object"),
            ("update", #"{"id":"1","account":{"id":"2","acct":"a"}}"#, "created_at: missing"),
            ("status.update", "null", "null where a value is required"),
            ("status.update", #"{"id":true}"#, "id"),
            ("notification", #"{"id":"1","type":"mention"}"#, "missing"),
            ("notification", "nonsense", "not valid JSON"),
        ]
        for (type, data, reason) in cases {
            guard case .malformed(type: type, let given) = decoder.decode(ServerSentEvent(type: type, data: data)) else {
                Issue.record("\(type) \(data.debugDescription) must be skipped")
                continue
            }
            #expect(given.contains(reason), "\(type) \(data.debugDescription): \(given)")
        }
        // The decoder goes on after them.
        #expect(decoder.decode(ServerSentEvent(type: "delete", data: "1")) == .event(.deleted("1")))
    }
}
