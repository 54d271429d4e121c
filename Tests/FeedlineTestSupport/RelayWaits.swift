import Feedline

/// Returns `relay`'s first value that satisfies `predicate` — the current one when it does —
/// without polling or sleeping: it wakes on each change. It has no deadline of its own: the
/// suite's time limit cancels a test that waits for ever, and then it returns `nil`.
@discardableResult
package func firstValue<R: ReadableRelay>(
    of relay: R, isolation: isolated (any Actor)? = #isolation, where predicate: (R.Value) -> Bool
) async -> R.Value? {
    for await value in relay.values where predicate(value) {
        return value
    }
    return nil
}
