@_spi(FeedService) import Feedline
import Foundation
import Testing

/// The failure diff of the machine tests (`Support/FieldDiff.swift`): every field of the list
/// state and of its waiting rows shows, by name, and a failure never shows an empty diff.
@Suite("Field diff")
struct FieldDiffTests {
    /// One change per field of ``ListState``, by the name the diff gives it.
    static let listFields: [(name: String, change: @Sendable (inout ListState) -> Void)] = [
        ("rows", { $0.rows = RowList([.post(makePost("p1"))]) }),
        ("refreshStyle", { $0.refreshStyle = .reload }),
        ("prefetchDistance", { $0.prefetchDistance = 9 }),
        ("older", { $0.older = .end }),
        ("olderFailure", { $0.olderFailure = "Down." }),
        ("refreshFailure", { $0.refreshFailure = "Down." }),
        ("reloadFailure", { $0.reloadFailure = "Down." }),
        ("inFlight", { $0.inFlight = ListRequest(token: 1, kind: .reload) }),
        ("queued", { $0.queued = [.refresh] }),
        ("lastFailed", { $0.lastFailed = .refresh }),
        ("lastRefresh", { $0.lastRefresh = .nothingNew }),
        ("skipped", { $0.skipped = 2 }),
        ("nextToken", { $0.nextToken = 7 }),
        ("waitingRows.requestMark", { $0.waitingRows.requestMark = 2 }),
        ("catchUpFailure", { $0.catchUpFailure = "Down." }),
        ("position", { $0.position = ReadingPosition(id: "p1", createdAt: testNow) }),
        ("unconfirmed", { $0.unconfirmed = [.post("p1")] }),
        ("confirmAsked", { $0.confirmAsked = [.post("p1")] }),
        ("ownUnplaced", { $0.ownUnplaced = [.post("p1"): 2] }),
        ("taken.byCause", { $0.taken = TakenRows([.delete("p1"): [ReinsertedRow(index: 0, row: .post(makePost("p1")))]]) }),
    ]

    /// One change per field of ``WaitingRows``.
    static let waitingFields: [(name: String, change: @Sendable (inout WaitingRows) -> Void)] = [
        ("rows", { $0.rows = RowList([.post(makePost("s1"))]) }),
        ("mayMiss", { $0.mayMiss = true }),
        ("mayMissSince", { $0.mayMissSince = 3 }),
        ("missedSince", { $0.missedSince = .init(arrivals: 1, token: nil) }),
        ("arrivals", { $0.arrivals = 1 }),
        ("arrivedAt", { $0.arrivedAt = [.post("s1"): 1] }),
        ("requestMark", { $0.requestMark = 1 }),
        ("letGo", { $0.letGo = 1 }),
    ]

    @Test("the tables name every stored field (a field added later must join them)")
    func tablesAreComplete() {
        let listLabels = Set(Mirror(reflecting: ListState()).children.compactMap(\.label))
        #expect(Set(Self.listFields.map { String($0.name.prefix { $0 != "." }) }) == listLabels)
        let waitingLabels = Set(Mirror(reflecting: WaitingRows()).children.compactMap(\.label))
        #expect(Set(Self.waitingFields.map(\.name)) == waitingLabels)
    }

    @Test("a change to any one field of the list state shows, by name, and only it")
    func everyListField() {
        let state = ListState()
        for field in Self.listFields {
            var changed = state
            field.change(&changed)
            let diff = fieldDiff(state, changed)
            #expect(!diff.isEmpty, "\(field.name)")
            #expect(diff.hasPrefix("  \(field.name): "), "\(field.name): \(diff)")
            #expect(diff.split(separator: "\n").count == 1, "\(field.name): \(diff)")
        }
    }

    @Test("a change to any one field of the waiting rows shows, by name, inside a list state too")
    func everyWaitingField() {
        for field in Self.waitingFields {
            var waiting = WaitingRows()
            field.change(&waiting)
            #expect(fieldDiff(WaitingRows(), waiting).hasPrefix("  \(field.name): "), "\(field.name)")
            var state = ListState()
            state.waitingRows = waiting
            #expect(fieldDiff(ListState(), state).hasPrefix("  waitingRows.\(field.name): "), "\(field.name)")
        }
    }

    @Test("states that differ only in a field the old diff left out (a catch-up failure, the reading position) show a diff")
    func fieldsTheOldDiffMissed() {
        var failed = ListState()
        failed.catchUpFailure = "Down."
        #expect(fieldDiff(ListState(), failed) == "  catchUpFailure: expected nil, got Optional(Down.)")
        var read = ListState()
        read.position = ReadingPosition(id: "p1", createdAt: testNow)
        #expect(fieldDiff(ListState(), read).hasPrefix("  position: expected nil, got "))
    }

    @Test("rows are told apart by id, then row by row, field by field")
    func rows() {
        var state = ListState()
        state.rows = RowList([.post(makePost("p1")), .post(makePost("p2"))])
        var edited = state
        edited.rows = RowList([.post(makePost("p1")), .post(makePost("p2", text: "edited"))])
        let diff = fieldDiff(state, edited)
        #expect(diff.contains("rows[1]"), "\(diff)")
        #expect(diff.contains("text: expected post p2, got edited"), "\(diff)")
        #expect(!diff.contains("rows: "), "the ids are the same: \(diff)")
        var shorter = state
        shorter.rows = RowList([.post(makePost("p1"))])
        #expect(fieldDiff(state, shorter).hasPrefix("  rows: expected [\"post:p1\", \"post:p2\"], got [\"post:p1\"]"))
    }

    @Test("equal values have no diff; unequal values always have one, even when no field differs")
    func neverEmpty() {
        #expect(fieldDiff(ListState(), ListState()).isEmpty)
        #expect(fieldDiff(WaitingRows(), WaitingRows()).isEmpty)
        #expect(!fieldDiff(NeverEqual(), NeverEqual()).isEmpty)
        let unset: Int? = nil
        #expect(fieldDiff(unset, unset).isEmpty)
        #expect(fieldDiff(unset, 1) == "  (whole value): expected nil, got Optional(1)")
    }

    /// A value whose `==` says no whatever its fields: no field shows why.
    struct NeverEqual: Equatable {
        var field = 1
        static func == (lhs: Self, rhs: Self) -> Bool { false }
    }
}
