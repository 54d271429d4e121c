/// What `feedline-bench` measures of the core's internals, which are `package` and so out of
/// reach of its own package (kept apart so that library users never resolve what it compares
/// against). Nothing a front uses: it is SPI, imported with `@_spi(Benchmarks) import Feedline`,
/// and not part of the documented API.
@_spi(Benchmarks) public enum BenchmarkHooks {}

@_spi(Benchmarks) extension BenchmarkHooks {
    /// The core's writable relay, for measuring a set and its deliveries.
    @_spi(Benchmarks) public struct Relay<Value: Sendable>: Sendable {
        @usableFromInline let base: Feedline.Relay<Value>

        /// A relay holding `value`.
        public init(_ value: Value) { base = Feedline.Relay(value) }

        /// The current value.
        public var value: Value { base.value }

        /// The relay object itself (for measuring its size).
        public var object: AnyObject { base }

        /// Sets the value and delivers it to every subscriber, in order.
        @inlinable public func set(_ value: Value) { base.set(value) }

        /// Subscribes `handler`: the current value at once, then every change.
        public func subscribe(_ handler: @escaping @Sendable (Value) -> Void) -> Subscription { base.subscribe(handler) }
    }

    /// The list machine alone, pages appended the way a list view model appends them.
    @_spi(Benchmarks) public struct ListMachine: Sendable {
        var state = ListState()

        /// An empty list.
        public init() {}

        /// How many rows it holds.
        public var rowCount: Int { state.rows.count }

        /// Its rows, newest first.
        public var rows: RowList { state.rows }

        /// Asks for the next older page and takes `page` as its answer; returns how the rows
        /// changed.
        @discardableResult
        public mutating func appendPage(_ page: Page<ListRow>) -> Changeset<ListRow> {
            state.reduce(.loadMoreRequested)
            return state.reduce(.pageLoaded(token: state.inFlight?.token ?? 0, page: page))
        }
    }

    /// An executor that runs a session's effects on the main queue, as scripts on the sandbox run.
    public static func mainQueueExecutor() -> any TaskExecutor { MainQueueTaskExecutor() }
}
