import FeedlineTestSupport
import Foundation
import Testing

/// A JSON message as a client in any language sees it.
typealias Message = [String: Any]

extension Dictionary where Key == String, Value == Any {
    var type: String? { self["type"] as? String }
    /// The echoed command id when it is a string.
    var id: String? { self["id"] as? String }
}

/// A protocol client that knows nothing of Feedline's types, following one list screen's chain:
/// it keeps the rows as JSON objects, takes the first (unasked) `timeline` snapshot, and from then
/// on changes the rows only by applying `changes` messages (feed it only those of its screen; a
/// ``StackMirror`` sorts them), in the order Docs/JSONL.md gives: remove the rows at the deleted
/// and moved-from old indices (descending), insert the inserted rows and the moved rows at their
/// new indices (ascending), then replace the updated rows at their new indices, then drop
/// `unconfirmed` from the rows `confirmed` names. Anything that
/// does not fit (an index out of range, an update naming another row, a wrong count) is a problem.
struct ChangesMirror {
    private(set) var rows: [Message] = []
    private(set) var problems: [String] = []
    private(set) var changesApplied = 0
    private var started = false

    mutating func consume(_ message: Message) {
        switch message.type {
        case "timeline" where !started:
            started = true
            rows = message["rows"] as? [Message] ?? []
        case "changes":
            if !started { problems.append("changes before the first timeline") }
            apply(message)
        default:
            break
        }
    }

    private mutating func apply(_ message: Message) {
        changesApplied += 1
        let oldIDs = rows.map { $0["id"] as? String ?? "?" }
        let deleted = message["deleted"] as? [Int] ?? []
        let inserted = (message["inserted"] as? [Message] ?? []).map { ($0["index"] as? Int ?? -1, $0["row"] as? Message ?? [:]) }
        let moved = (message["moved"] as? [Message] ?? []).map { ($0["from"] as? Int ?? -1, $0["to"] as? Int ?? -1) }
        let updated = (message["updated"] as? [Message] ?? []).map {
            ($0["from"] as? Int ?? -1, $0["index"] as? Int ?? -1, $0["row"] as? Message ?? [:])
        }
        guard let count = message["count"] as? Int else {
            problems.append("changes without count")
            return
        }
        let removals = deleted + moved.map(\.0)
        guard Set(removals).count == removals.count, removals.allSatisfy(rows.indices.contains) else {
            problems.append("removals \(removals) do not fit \(rows.count) rows")
            return
        }
        let movedRows = Dictionary(uniqueKeysWithValues: moved.map { ($0.0, rows[$0.0]) })
        for index in removals.sorted(by: >) { rows.remove(at: index) }
        let additions = inserted + moved.map { ($0.1, movedRows[$0.0] ?? [:]) }
        for (index, row) in additions.sorted(by: { $0.0 < $1.0 }) {
            guard (0...rows.count).contains(index) else {
                problems.append("insertion at \(index) into \(rows.count) rows")
                return
            }
            rows.insert(row, at: index)
        }
        for (from, index, row) in updated {
            let id = row["id"] as? String
            guard rows.indices.contains(index), oldIDs.indices.contains(from), oldIDs[from] == id, rows[index]["id"] as? String == id else {
                problems.append("update \(from)→\(index) of \(id ?? "?") does not fit")
                return
            }
            rows[index] = row
        }
        let confirmed = Set(message["confirmed"] as? [String] ?? [])
        for index in rows.indices where confirmed.contains(rows[index]["id"] as? String ?? "") {
            rows[index]["unconfirmed"] = nil
        }
        if rows.count != count { problems.append("\(rows.count) rows after changes that say \(count)") }
    }
}

/// One ``ChangesMirror`` per list screen on the stack, as a client that follows every screen
/// keeps them: a `timeline` message without an id (what a pushed list, a new root or the start
/// writes unasked) starts a new chain for its `screen`; a `changes` message goes to the chain of
/// its `screen` (one without a chain is a problem); a `routes` message ends the chains of the
/// screens that left the stack. `timeline` replies (with an id) are left alone, so the mirrors
/// are built only from the changes.
struct StackMirror {
    private(set) var screens: [Int: ChangesMirror] = [:]
    /// How many `timeline` messages started a chain, per screen.
    private(set) var starts: [Int: Int] = [:]
    private var ended: [String] = []

    mutating func consume(_ message: Message) {
        switch message.type {
        case "routes":
            let depth = (message["routes"] as? [Message])?.count ?? 0
            for (index, mirror) in screens where index >= depth { end(index, mirror) }
            screens = screens.filter { $0.key < depth }
        case "timeline" where message["id"] == nil:
            guard let index = message["screen"] as? Int else {
                ended.append("timeline without a screen index")
                return
            }
            if let old = screens[index] { end(index, old) }
            var mirror = ChangesMirror()
            mirror.consume(message)
            screens[index] = mirror
            starts[index, default: 0] += 1
        case "changes":
            guard let index = message["screen"] as? Int, screens[index] != nil else {
                ended.append("changes for screen \(message["screen"] ?? "nil") with no chain")
                return
            }
            screens[index]?.consume(message)
        default:
            break
        }
    }

    private mutating func end(_ index: Int, _ mirror: ChangesMirror) {
        ended += mirror.problems.map { "screen \(index) (ended): \($0)" }
    }

    /// The mirror of screen `index`; an empty one when it has no chain.
    subscript(index: Int) -> ChangesMirror { screens[index] ?? ChangesMirror() }

    /// Every problem, of the chains running and of those that ended.
    var problems: [String] {
        ended + screens.sorted { $0.key < $1.key }.flatMap { index, mirror in mirror.problems.map { "screen \(index): \($0)" } }
    }
}

/// Compares JSON values structurally (key order does not matter).
func sameJSON(_ lhs: Any, _ rhs: Any) -> Bool {
    canonical(lhs) == canonical(rhs)
}

/// JSON text with sorted keys, or `nil` when `value` is not JSON.
func canonical(_ value: Any) -> String? {
    guard let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed]) else { return nil }
    return String(decoding: data, as: UTF8.self)
}

/// Where two row lists first differ, in one line; `nil` when they are equal.
func firstDifference(_ actual: [Message], _ expected: [Message]) -> String? {
    for index in 0..<max(actual.count, expected.count) {
        let left = index < actual.count ? canonical(actual[index]) ?? "?" : "<none>"
        let right = index < expected.count ? canonical(expected[index]) ?? "?" : "<none>"
        if left != right { return "row \(index): mirror \(left) but snapshot \(right)" }
    }
    return nil
}

/// A conversation with `feedline --jsonl`: sends command lines, reads every output line, checks
/// each is one JSON object, and feeds the messages to a ``StackMirror``.
@MainActor
final class Conversation {
    let child: FeedlineProcess
    private(set) var messages: [Message] = []
    /// Output lines that were not a JSON object (there must be none).
    private(set) var strayLines: [String] = []
    private(set) var mirrors = StackMirror()
    private var waits = 0

    /// The mirror of the bottom screen.
    var mirror: ChangesMirror { mirrors[0] }

    init(_ arguments: [String], environment: [String: String] = [:], unset: [String] = []) throws {
        child = try FeedlineProcess(arguments, environment: environment, unset: unset)
    }

    func send(_ line: String) { child.send(line) }

    /// Reads messages until one satisfies `stop` and returns those read, the matching one last.
    /// Output that ends first is a recorded issue.
    @discardableResult
    func read(
        until stop: (Message) -> Bool, sourceLocation: SourceLocation = #_sourceLocation
    ) async -> [Message] {
        var read: [Message] = []
        while let line = await child.nextLine() {
            guard let object = (try? JSONSerialization.jsonObject(with: line)) as? Message else {
                strayLines.append(String(decoding: line, as: UTF8.self))
                continue
            }
            messages.append(object)
            mirrors.consume(object)
            read.append(object)
            if stop(object) { return read }
        }
        Issue.record("output ended before the expected message; read \(read.compactMap(\.type))", sourceLocation: sourceLocation)
        return read
    }

    /// Sends `line` (a command carrying `"id":"<id>"`) and reads through its `ok` or `error`.
    @discardableResult
    func command(_ line: String, id: String, sourceLocation: SourceLocation = #_sourceLocation) async -> [Message] {
        send(line)
        return await read(until: { ($0.type == "ok" || $0.type == "error") && $0.id == id }, sourceLocation: sourceLocation)
    }

    /// Sends `wait` and reads through its `idle` and `ok`: everything running has finished and
    /// its changes have been read. Returns the messages before `idle`.
    @discardableResult
    func settle(sourceLocation: SourceLocation = #_sourceLocation) async -> [Message] {
        waits += 1
        let id = "wait-\(waits)"
        var read = await command(#"{"cmd":"wait","id":"\#(id)"}"#, id: id, sourceLocation: sourceLocation)
        let tail = read.suffix(2).map { "\($0.type ?? "")/\($0.id ?? "")" }
        #expect(tail == ["idle/\(id)", "ok/\(id)"], sourceLocation: sourceLocation)
        read.removeLast(min(2, read.count))
        return read
    }

    /// The row ids the bottom screen's mirror holds.
    var rowIDs: [String] { mirror.rows.compactMap { $0["id"] as? String } }
}
