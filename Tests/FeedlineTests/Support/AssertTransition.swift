@_spi(FeedService) import Feedline
import Testing

/// Sends `event` to `state` and checks that the result equals `expected(state)`: the old state
/// mutated into the expected one. On failure every field that differs is listed
/// (``fieldDiff(_:_:)``: all of the state's fields, the waiting rows' too).
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
        Issue.record("\(event) from \(describe(state)):\n\(fieldDiff(expected, actual))", sourceLocation: sourceLocation)
    }
    let broken = actual.checkInvariants()
    if !broken.isEmpty { Issue.record("invariants after \(event): \(broken)", sourceLocation: sourceLocation) }
    let applied = changes.apply(to: state.rows)
    if applied != Array(actual.rows) {
        Issue.record("changeset of \(event) does not turn the old rows into the new ones", sourceLocation: sourceLocation)
    }
    return (actual, changes)
}

func describe(_ state: ListState) -> String {
    "\(state.rows.count) rows, older \(state.older), inFlight \(state.inFlight.map { "\($0)" } ?? "nil"), queued \(state.queued)"
}
