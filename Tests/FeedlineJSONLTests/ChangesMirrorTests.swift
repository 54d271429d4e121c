@_spi(FeedService) import Feedline
import Foundation
import Testing

/// The client procedure Docs/JSONL.md gives for `changes` (and ``ChangesMirror`` follows) agrees
/// with the core's `Changeset.apply`, moves included, which the binary sessions rarely produce.
@Suite("Applying changes messages")
struct ChangesMirrorTests {
    struct Row: Identifiable, Equatable {
        var id: Int
        var text: String
    }

    /// A `changes` message carrying `changes`, with the field names of JSONLMessage.changes.
    static func message(_ changes: Changeset<Row>) -> Message {
        func row(_ row: Row) -> Message { ["id": String(row.id), "text": row.text] }
        return [
            "type": "changes",
            "screen": 0,
            "count": changes.newCount,
            "deleted": changes.deletions,
            "inserted": changes.insertions.map { ["index": $0.index, "row": row($0.element)] as Message },
            "moved": changes.moves.map { ["from": $0.from, "to": $0.to] },
            "updated": changes.updates.map { ["from": $0.oldIndex, "index": $0.newIndex, "row": row($0.element)] as Message },
        ]
    }

    @Test("applying the message to the old rows yields the new rows, for random edits with moves")
    func law() {
        var generator = SystemRandomNumberGenerator()
        var sawMoves = false
        for _ in 0..<300 {
            let old = (0..<Int.random(in: 0...12, using: &generator)).map { Row(id: $0, text: "a") }
            var new = old.filter { _ in Int.random(in: 0..<4, using: &generator) != 0 }.shuffled(using: &generator)
            new = new.map { Int.random(in: 0..<3, using: &generator) == 0 ? Row(id: $0.id, text: "b") : $0 }
            for id in 100..<(100 + Int.random(in: 0...3, using: &generator)) {
                new.insert(Row(id: id, text: "n"), at: Int.random(in: 0...new.count, using: &generator))
            }
            let changes = Changeset(from: old, to: new)
            sawMoves = sawMoves || !changes.moves.isEmpty
            var mirror = ChangesMirror()
            mirror.consume(["type": "timeline", "screen": 0, "rows": old.map { ["id": String($0.id), "text": $0.text] }])
            mirror.consume(Self.message(changes))
            #expect(mirror.problems.isEmpty, "\(mirror.problems)")
            let rebuilt = mirror.rows.map { Row(id: Int($0["id"] as? String ?? "") ?? -1, text: $0["text"] as? String ?? "") }
            #expect(rebuilt == new, "old \(old.map(\.id)) new \(new.map(\.id))")
            #expect(changes.apply(to: old) == new)
        }
        #expect(sawMoves)
    }
}
