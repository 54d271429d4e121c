import Feedline
import Testing

/// Applies `transition` (one ``WaitingRows`` transition, described by `name`) to `state` and
/// checks that the result equals `expected(state)` — the old state mutated into the expected
/// one — and that it reports `change`. On failure every field that differs is listed. Then
/// checks the invariants and that the change accounts for the rows: the old rows, less those
/// that stopped waiting, plus those that started, are the new rows.
@discardableResult
func assertWaiting(
    from state: WaitingRows,
    _ name: String,
    _ transition: (inout WaitingRows) -> WaitingRows.Change,
    expect mutate: (inout WaitingRows) -> Void,
    change expectedChange: WaitingRows.Change = WaitingRows.Change(),
    sourceLocation: SourceLocation = #_sourceLocation
) -> WaitingRows {
    var actual = state
    let change = transition(&actual)
    var expected = state
    mutate(&expected)
    if actual != expected {
        Issue.record("\(name) from \(describe(state)):\n\(fieldDiff(expected, actual))", sourceLocation: sourceLocation)
    }
    if change != expectedChange {
        Issue.record("\(name) from \(describe(state)): change\n\(fieldDiff(expectedChange, change))", sourceLocation: sourceLocation)
    }
    let broken = actual.checkInvariants()
    if !broken.isEmpty { Issue.record("invariants after \(name): \(broken)", sourceLocation: sourceLocation) }
    let accounted = Set(state.rows.map(\.id)).subtracting(change.stopped.map(\.id)).union(change.started.map(\.id))
    if accounted != Set(actual.rows.map(\.id)) {
        Issue.record("the change of \(name) does not account for the rows that wait", sourceLocation: sourceLocation)
    }
    return actual
}

func describe(_ state: WaitingRows) -> String {
    "waiting \(state.rows.map(\.id)), \(state.arrivals) arrivals"
}
