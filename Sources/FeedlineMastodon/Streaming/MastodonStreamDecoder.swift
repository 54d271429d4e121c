@_spi(FeedService) import Feedline
import Foundation

/// Turns the events of Mastodon's user stream (`GET /api/v1/streaming/user`) into the core's
/// ``Feedline/StreamEvent``s:
///
/// | event | payload | becomes |
/// |---|---|---|
/// | `update` | a Status | ``Feedline/StreamEvent/posted(_:in:)`` in the home timeline |
/// | `delete` | a status id, as plain text | ``Feedline/StreamEvent/deleted(_:)`` |
/// | `status.update` | a Status (an edit) | ``Feedline/StreamEvent/edited(_:)`` |
/// | `notification` | a Notification | ``Feedline/StreamEvent/notified(_:)``, a group of one |
/// | `conversation` | a Conversation (the `direct` stream only) | ``Feedline/StreamEvent/conversation(_:)`` |
///
/// Every other event (`announcement`, `filters_changed`, …) is ignored, and a
/// payload that does not decode is skipped with the reason: never a crash, never a stop.
///
/// A notification's group is keyed by its `group_key` (Mastodon 4.3 and later), else by the rule
/// the client-side grouping uses (``Feedline/NotificationGroup/GroupBuckets``), with one memory of
/// buckets for the whole stream — events come oldest first, as that rule wants them — so
/// favourites of one post within hours of each other join one group.
package struct MastodonStreamDecoder: Sendable {
    /// What one event came to.
    package enum Outcome: Hashable, Sendable, CustomStringConvertible {
        /// Something for the session to apply.
        case event(StreamEvent)
        /// An event of a kind Feedline does not use.
        case ignored(type: String)
        /// An event of a kind Feedline uses whose payload did not decode; skipped.
        case malformed(type: String, reason: String)

        package var description: String {
            switch self {
            case .event(let event): "event(\(event))"
            case .ignored(let type): "ignored(\(type))"
            case .malformed(let type, let reason): "malformed(\(type): \(reason))"
            }
        }
    }

    /// The longest status id accepted in a `delete` (ids are snowflakes, ULIDs or flake ids).
    static let maximumIDLength = 256

    private var buckets = NotificationGroup.GroupBuckets()

    package init() {}

    /// What `event` means; see the type's table.
    package mutating func decode(_ event: ServerSentEvent) -> Outcome {
        let payload = Data(event.data.utf8)
        do throws(Mastodon.DecodingFailure) {
            switch event.type {
            case "update":
                return .event(.posted(Post(try Mastodon.decode(Mastodon.Status.self, from: payload)), in: .home))
            case "status.update":
                return .event(.edited(Post(try Mastodon.decode(Mastodon.Status.self, from: payload))))
            case "delete":
                guard let id = Self.statusID(event.data) else {
                    return .malformed(type: event.type, reason: "not a status id")
                }
                return .event(.deleted(PostID(id)))
            case "notification":
                var notification = try Mastodon.decode(Mastodon.Notification.self, from: payload)
                notification.groupKey = buckets.key(for: notification)
                guard let group = NotificationGroup.grouping([notification]).first else {
                    return .malformed(type: event.type, reason: "no group")
                }
                return .event(.notified(group))
            case "conversation":
                return .event(.conversation(Conversation(try Mastodon.decode(Mastodon.Conversation.self, from: payload))))
            default:
                return .ignored(type: event.type)
            }
        } catch {
            return .malformed(type: event.type, reason: error.description)
        }
    }

    /// The id in a `delete` payload: the text itself (Mastodon sends it bare; a JSON string is
    /// accepted too), one token of printable characters.
    static func statusID(_ payload: String) -> String? {
        var text = payload.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.hasPrefix("\""), let decoded = try? JSONDecoder().decode(String.self, from: Data(text.utf8)) {
            text = decoded
        }
        let printable = text.unicodeScalars.allSatisfy { scalar in
            !scalar.properties.isWhitespace && scalar.properties.generalCategory != .control && scalar != "\""
        }
        guard !text.isEmpty, text.count <= maximumIDLength, printable else { return nil }
        return text
    }
}
