import Feedline
import Foundation

/// One command of the JSON-lines protocol: `{"cmd": "favourite", "post": "123", "id": "7"}`.
///
/// Commands mirror the view models' inputs and address rows and posts by id, never by position.
public struct JSONLCommand: Sendable, Equatable {
    /// What to do.
    public enum Action: Sendable, Equatable {
        /// Reply with a full timeline snapshot.
        case timeline
        /// These rows became visible (drives prefetching).
        case display([RowID])
        case loadMore
        case refresh
        /// Retry the open post's failed loads when the post on top has failed, else the timeline's
        /// last failure.
        case retry
        case openGap(RowID)
        /// Push the detail route of a post.
        case open(PostID)
        case back
        case favourite(PostID)
        case reblog(PostID)
        /// Reply `{"type":"idle"}` once no request is running.
        case wait
        case quit
    }

    /// The client's id for this command, echoed by the replies.
    public var id: JSONLValue?
    public var action: Action

    public init(id: JSONLValue? = nil, action: Action) {
        self.id = id
        self.action = action
    }

    /// Every command name, for help and errors.
    public static let names = [
        "back", "display", "favourite", "loadMore", "open", "openGap", "quit", "reblog", "refresh", "retry",
        "timeline", "wait",
    ]

    /// Why a line is not a command: one sentence, plus the id when the line had one.
    public struct ParseError: Error, Equatable, Sendable {
        public var message: String
        public var id: JSONLValue?
    }

    /// Parses one input line.
    public static func parse(_ line: String) -> Result<JSONLCommand, ParseError> {
        guard let data = line.data(using: .utf8), let value = try? JSONDecoder().decode(JSONLValue.self, from: data) else {
            return .failure(ParseError(message: "The line is not valid JSON.", id: nil))
        }
        guard case .object = value else {
            return .failure(ParseError(message: "A command is a JSON object such as {\"cmd\":\"timeline\"}.", id: nil))
        }
        let id = value["id"]
        func fail(_ message: String) -> Result<JSONLCommand, ParseError> { .failure(ParseError(message: message, id: id)) }
        guard let name = value["cmd"]?.string else { return fail("The command has no \"cmd\" string.") }
        func string(_ key: String) -> String? {
            guard let text = value[key]?.string, !text.isEmpty else { return nil }
            return text
        }
        let action: Action
        switch name {
        case "timeline": action = .timeline
        case "display":
            guard case .array(let list)? = value["rows"] else {
                return fail("display needs \"rows\": a list of row ids such as \"post:123\".")
            }
            var rows: [RowID] = []
            for item in list {
                guard let text = item.string, let row = RowID(text) else {
                    return fail("display: \(item.json) is not a row id (\"post:ID\" or \"gap:ID\").")
                }
                rows.append(row)
            }
            action = .display(rows)
        case "loadMore": action = .loadMore
        case "refresh": action = .refresh
        case "retry": action = .retry
        case "openGap":
            guard let text = string("row"), let row = RowID(text), case .gap = row else {
                return fail("openGap needs \"row\": a gap row id such as \"gap:123\".")
            }
            action = .openGap(row)
        case "open", "favourite", "reblog":
            guard let post = string("post") else { return fail("\(name) needs \"post\": a post id string.") }
            let postID = PostID(post)
            action = name == "open" ? .open(postID) : name == "favourite" ? .favourite(postID) : .reblog(postID)
        case "back": action = .back
        case "wait": action = .wait
        case "quit": action = .quit
        default:
            let lowered = name.lowercased()
            // Suggest only for word-sized names: the distance is O(length × name length).
            let nearest = lowered.count > 32 ? nil : names.min { EditDistance.between($0.lowercased(), lowered) < EditDistance.between($1.lowercased(), lowered) }
            let hint = nearest.flatMap { EditDistance.between($0.lowercased(), lowered) <= 2 ? " Did you mean \"\($0)\"?" : nil } ?? ""
            return fail("Unknown command \"\(name)\".\(hint) Commands: \(names.joined(separator: ", ")).")
        }
        return .success(JSONLCommand(id: id, action: action))
    }
}
