/// A list the server keeps in its own order — your filters, your lists — as one configuration of
/// the convergence engine: each item a `PendingChange` of itself (`nil`: none), keyed by the
/// server's id, or by a local key (`isLocal`) while the server makes it.
///
/// - ``order`` is what the screens show: the server's order, then the items made since. An item
///   made here shows at once at the end and takes the server's id where it stands; one deleted,
///   or whose making was refused, leaves it. A fetch (``ingest(_:fetchedAt:)``) does not undo what
///   was learnt after it began.
/// - What is the owner's own stays the owner's: how a change is sent, how an answer is said
///   (`outcome`), and what follows once an answer changed an item (`answered`, told with the
///   value the server made in place of a local key).
/// - Changes the owner makes itself (``want(_:for:orMake:)``, ``create(_:as:)``,
///   ``ingest(_:fetchedAt:)``) are not told back to it: it tells its observers once, after.
///
/// Main actor only; answers are told synchronously, in the order they arrive.
@MainActor
package final class OrderedServerList<Value: Hashable & Sendable> {
    package typealias Change = PendingChange<Value?>

    /// What an answer did to one item, as the owner hears it.
    package struct Answer {
        /// The item's key (a local key when the answer is the server's making of it).
        package var key: String
        /// Its machine before and after the answer (`nil`: absent).
        package var before: Change?
        package var after: Change?
        /// The server made the item shown under the local ``key``: its value, now under the
        /// server's id — in the local key's place (`tookPlace`), or where a fetch put it first.
        package var made: (value: Value, tookPlace: Bool)?
    }

    /// The engine of the items (set at the end of `init`, so its handlers can hold this weakly).
    package private(set) var engine: Convergence<String, Change>!
    /// The keys in the order shown.
    package private(set) var order: [String] = []
    private var answer: ChangeOutcome<Value?>?
    /// Set while the owner changes items itself: the engine's `changed` is not told back.
    private var quiet = false
    private let isLocal: @MainActor (String) -> Bool
    private let id: @MainActor (Value) -> String
    private let answered: @MainActor (Answer) -> Void

    /// A list whose changes `send` sends (an answer is the server's item, `nil` for a delete),
    /// counted in `activity`, sent again after a lost connection on `retryClock`, and said in
    /// `outcomes` as `outcome` says them; `id` is a server item's id, `isLocal` whether a key is
    /// one given here to an item the server has not made yet.
    package init(
        activity: Activity, retryClock: any Clock<Duration>,
        isLocal: @escaping @MainActor (String) -> Bool, id: @escaping @MainActor (Value) -> String,
        send: @escaping @Sendable (String, Change.Request) async throws -> Value?,
        outcomes: Outcomes?, outcome: @escaping @MainActor (String, ChangeOutcome<Value?>, Change?) -> Outcome?,
        answered: @escaping @MainActor (Answer) -> Void
    ) {
        self.isLocal = isLocal
        self.id = id
        self.answered = answered
        engine = Convergence(
            activity: activity, retryClock: retryClock, send: send,
            changed: { [weak self] key, before, after in self?.changed(key, before: before, after: after) },
            report: { [weak self] _, outcome in
                guard let self, !self.quiet else { return }
                self.answer = outcome
            },
            outcomes: outcomes, outcome: outcome
        )
    }

    // MARK: - Reading

    /// The machine of `key`, or `nil`.
    package subscript(key: String) -> Change? { engine[key] }

    /// The item shown under `key`, or `nil` (unknown, or deleted).
    package func value(_ key: String) -> Value? { engine[key]?.wanted ?? nil }

    // MARK: - The owner's changes

    /// Takes in every item a fetch begun at `fetchedAt` brought, in the server's order
    /// (``Convergence/ingestList(_:shownIn:fetchedAt:)``).
    ///
    /// - Complexity: O(fetched + order).
    package func ingest(_ fetched: [(key: String, value: Value)], fetchedAt: StoreEpoch) {
        quiet = true
        defer { quiet = false }
        order = engine.ingestList(fetched, shownIn: order, fetchedAt: fetchedAt)
    }

    /// Shows `value` at once at the end under the local key `key`, for the server to make.
    package func create(_ value: Value, as key: String) {
        order.append(key)
        want(value, for: key, orMake: { PendingChange(confirmed: nil) })
    }

    /// Wants `value` (`nil`: none) for `key` — its machine made by `make` when new: shown at
    /// once, sent as the engine decides.
    package func want(_ value: Value?, for key: String, orMake make: () -> Change? = { nil }) {
        quiet = true
        defer { quiet = false }
        engine.want(value, for: key, orMake: make)
    }

    // MARK: - Answers

    /// An answer changed `key`'s machine: the order follows it (``Convergence/ordering(_:answered:isLocal:in:)``),
    /// a value the server made takes its local key's place, and the owner hears it.
    private func changed(_ key: String, before: Change?, after: Change?) {
        guard !quiet else { return }
        let answer = self.answer
        self.answer = nil
        let answered = engine.ordering(key, answered: answer, isLocal: isLocal(key), in: order)
        order = answered.order
        var made: (value: Value, tookPlace: Bool)?
        if let value = answered.made {
            quiet = true
            let placed = engine.madeByServer(value, as: id(value), shownAs: key, in: order)
            quiet = false
            order = placed.order
            made = (value, placed.tookPlace)
        }
        self.answered(Answer(key: key, before: before, after: after, made: made))
    }
}
