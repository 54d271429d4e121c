/// The pagination machine's state: the rows in order, where the next older page starts, what is
/// loading, what failed. A value; change it only through ``reduce(_:)``.
///
/// Rows are unique by id. Post rows are in the server's order, newest first; a gap row stands
/// between two posts where posts may be missing.
public struct TimelineState: Sendable {
    /// Where older pages continue.
    public enum Older: Hashable, Sendable {
        /// The next page starts after this cursor (`nil`: the first page).
        case from(PageCursor?)
        /// The server said there is nothing older.
        case end
    }

    /// Something the user (or prefetching) asked for that needs a request.
    public enum Intent: Hashable, Sendable {
        case fillGap(RowID)
        case loadOlder
        case refresh
    }

    /// The rows, newest first. Setting it (tests, restoring state) reindexes in O(n).
    public var rows: [TimelineEntry] {
        get { storage }
        set {
            storage = newValue
            reindex(from: 0)
        }
    }
    /// How close to the end a displayed row must be to load the next page.
    public var prefetchDistance: Int
    public var older: Older = .from(nil)
    /// Why the last older page failed; while set, only an explicit load-more or retry asks again.
    public var olderFailure: String?
    /// Why the last refresh failed.
    public var refreshFailure: String?
    /// The request that should be running (RxFeedback's query: see ``request``).
    public var inFlight: TimelineRequest?
    /// Requests asked for while another was running, run in order when it settles.
    public var queued: [Intent] = []
    /// What ``TimelineEvent/retryRequested`` runs: the last request that failed.
    public var lastFailed: Intent?
    /// The token the next request gets.
    public var nextToken = 1

    private var storage: [TimelineEntry] = []
    /// Row positions as `stored + shift`, so inserting at the top never rewrites the table.
    private var positions: [RowID: Int] = [:]
    private var shift = 0

    /// An empty timeline that has not loaded anything yet.
    public init(prefetchDistance: Int = 5) {
        self.prefetchDistance = max(0, prefetchDistance)
    }

    /// The position of the row with `id`, if present. O(1).
    public func index(of id: RowID) -> Int? {
        positions[id].map { $0 + shift }
    }

    /// The request that should be running now; a feedback loop starts it, keeps it while this
    /// returns the same value, and cancels it when this changes.
    public var request: TimelineRequest? { inFlight }

    /// Whether the machine is waiting for a response.
    public var isLoading: Bool { inFlight != nil }

    /// Whether the server said there is nothing older.
    public var reachedEnd: Bool { older == .end }

    /// The message of what ``TimelineEvent/retryRequested`` would retry, if anything.
    public var lastFailure: String? {
        switch lastFailed {
        case .loadOlder: olderFailure
        case .refresh: refreshFailure
        case .fillGap(let id):
            index(of: id).flatMap { storage[$0].gap }.flatMap { gap in
                if case .failed(let message) = gap.status { return message }
                return nil
            }
        case nil: nil
        }
    }

    // MARK: - Row storage (used by reduce)

    mutating func insertRows(_ rows: [TimelineEntry], at index: Int) {
        guard !rows.isEmpty else { return }
        if index == storage.count {
            storage.append(contentsOf: rows)
            for offset in rows.indices { positions[rows[offset].id] = index + offset - shift }
        } else if index == 0 {
            storage.insert(contentsOf: rows, at: 0)
            shift += rows.count
            for offset in rows.indices { positions[rows[offset].id] = offset - shift }
        } else {
            storage.insert(contentsOf: rows, at: index)
            reindex(from: index)
        }
    }

    mutating func removeRow(at index: Int) {
        positions[storage[index].id] = nil
        storage.remove(at: index)
        reindex(from: index)
    }

    mutating func removeAllRows() {
        storage.removeAll()
        positions.removeAll()
        shift = 0
    }

    mutating func replaceRow(at index: Int, with row: TimelineEntry) {
        storage[index] = row
    }

    private mutating func reindex(from start: Int) {
        if start == 0 {
            positions.removeAll(keepingCapacity: true)
            shift = 0
        }
        for index in start..<storage.count { positions[storage[index].id] = index - shift }
    }

    /// Checks the invariants; returns a description of each one broken (empty when sound):
    /// unique ids, an index for every row, gaps only between two posts and never adjacent,
    /// a loading gap exactly when its request is in flight.
    public func checkInvariants() -> [String] {
        var broken: [String] = []
        if positions.count != storage.count { broken.append("index has \(positions.count) entries for \(storage.count) rows") }
        for (offset, row) in storage.enumerated() {
            if index(of: row.id) != offset { broken.append("row \(offset) (\(row.id)) indexed at \(index(of: row.id).map(String.init) ?? "nil")") }
            if let gap = row.gap {
                if offset == 0 || offset == storage.count - 1 { broken.append("gap \(gap.id) at the edge (row \(offset))") }
                if offset > 0, storage[offset - 1].gap != nil { broken.append("adjacent gaps at rows \(offset - 1) and \(offset)") }
                let loading = gap.status == .loading
                let inFlightGap: Bool
                if case .gap(let requested)? = inFlight?.kind { inFlightGap = requested.id == gap.id } else { inFlightGap = false }
                if loading != inFlightGap { broken.append("gap \(gap.id) loading=\(loading) but in flight=\(inFlightGap)") }
            }
        }
        return broken
    }
}

extension TimelineState: Equatable {
    /// Compares everything observable; the private index is derived from `rows`.
    public static func == (lhs: TimelineState, rhs: TimelineState) -> Bool {
        lhs.storage == rhs.storage && lhs.prefetchDistance == rhs.prefetchDistance && lhs.older == rhs.older
            && lhs.olderFailure == rhs.olderFailure && lhs.refreshFailure == rhs.refreshFailure
            && lhs.inFlight == rhs.inFlight && lhs.queued == rhs.queued && lhs.lastFailed == rhs.lastFailed
            && lhs.nextToken == rhs.nextToken
    }
}
