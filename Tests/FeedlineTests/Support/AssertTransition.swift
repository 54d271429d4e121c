import Feedline
import Testing

/// Sends `event` to `state` and checks that the result equals `expected(state)`: the old state
/// mutated into the expected one. On failure the fields that differ are listed.
@discardableResult
func assertTransition(
    from state: ListState,
    on event: ListEvent,
    expect mutate: (inout ListState) -> Void,
    sourceLocation: SourceLocation = #_sourceLocation
) -> (ListState, Changeset<ListRow>) {
    var actual = state
    let changes = actual.reduce(event)
    var expected = state
    mutate(&expected)
    if actual != expected {
        Issue.record("\(event) from \(describe(state)):\n\(diff(expected, actual))", sourceLocation: sourceLocation)
    }
    let broken = actual.checkInvariants()
    if !broken.isEmpty { Issue.record("invariants after \(event): \(broken)", sourceLocation: sourceLocation) }
    let applied = changes.apply(to: state.rows)
    if applied != Array(actual.rows) {
        Issue.record("changeset of \(event) does not turn the old rows into the new ones", sourceLocation: sourceLocation)
    }
    return (actual, changes)
}

/// The fields of two states that differ, one per line.
func diff(_ expected: ListState, _ actual: ListState) -> String {
    var lines: [String] = []
    func field<T: Equatable>(_ name: String, _ path: KeyPath<ListState, T>) {
        if expected[keyPath: path] != actual[keyPath: path] {
            lines.append("  \(name): expected \(expected[keyPath: path]), got \(actual[keyPath: path])")
        }
    }
    if expected.rows != actual.rows {
        lines.append("  rows: expected \(expected.rows.map(\.id)), got \(actual.rows.map(\.id))")
        for (index, pair) in zip(expected.rows, actual.rows).enumerated() where pair.0 != pair.1 {
            lines.append("    row \(index): expected \(pair.0), got \(pair.1)")
        }
    }
    field("prefetchDistance", \.prefetchDistance)
    field("older", \.older)
    field("olderFailure", \.olderFailure)
    field("refreshFailure", \.refreshFailure)
    field("inFlight", \.inFlight)
    field("queued", \.queued)
    field("lastFailed", \.lastFailed)
    field("lastRefresh", \.lastRefresh)
    field("nextToken", \.nextToken)
    return lines.joined(separator: "\n")
}

func describe(_ state: ListState) -> String {
    "\(state.rows.count) rows, older \(state.older), inFlight \(state.inFlight.map { "\($0)" } ?? "nil"), queued \(state.queued)"
}
