extension TimelineState {
    /// Applies one event in place and returns how the rows changed.
    ///
    /// Pure: the result depends on the state and the event only. Effects are chosen afterwards
    /// by reading ``request``. Responses whose token is not the request in flight are dropped.
    ///
    /// - Appearing loads the first page when there are no rows and nothing failed.
    /// - A row within ``prefetchDistance`` of the end asks for the next page — unless the last
    ///   older page failed: then only load-more or retry asks again, with the same cursor.
    /// - One request at a time; what is asked for meanwhile is queued and runs when it settles.
    /// - Pages append their posts; posts already present are updated in place, never repeated.
    /// - Refresh inserts newer posts at the top, with a gap row below them when the server says
    ///   more may be missing; opening a gap loads the newest missing posts into it and removes it
    ///   once nothing is missing.
    /// - Reset clears everything, drops what is in flight and loads the first page.
    ///
    /// - Complexity: O(k) for a page of k posts appended or inserted at the top (plus the
    ///   array shift of an insertion at the top); O(n) for gap fills and reset.
    @discardableResult
    public mutating func reduce(_ event: TimelineEvent) -> Changeset<TimelineEntry> {
        var edit = RowEdit(oldCount: rows.count)
        switch event {
        case .appeared:
            if rows.isEmpty, inFlight == nil, olderFailure == nil, older != .end {
                startOrQueue(.loadOlder, &edit)
            }

        case .gapOpened(let id):
            guard let index = index(of: id), let gap = rows[index].gap, gap.status != .loading else { break }
            startOrQueue(.fillGap(id), &edit)

        case .loadMoreRequested:
            if older != .end { startOrQueue(.loadOlder, &edit) }

        case .newerLoaded(let token, let page):
            guard let request = inFlight, request.token == token else { break }
            switch request.kind {
            case .refresh(let above):
                inFlight = nil
                insertNewer(page, above: above, &edit)
                runQueue(&edit)
            case .gap(let gap):
                inFlight = nil
                fillGap(gap.id, with: page, &edit)
                runQueue(&edit)
            case .page:
                fail(request, message: Self.unexpectedResponse, &edit)
            }

        case .pageFailed(let token, let message):
            guard let request = inFlight, request.token == token else { break }
            fail(request, message: message, &edit)

        case .pageLoaded(let token, let page):
            guard let request = inFlight, request.token == token else { break }
            guard case .page = request.kind else {
                fail(request, message: Self.unexpectedResponse, &edit)
                break
            }
            inFlight = nil
            let fresh = newRows(from: page.posts, &edit)
            insertRows(fresh, at: rows.count)
            edit.insertedBlock(at: rows.count - fresh.count, count: fresh.count)
            older = page.next.map { .from($0) } ?? .end
            olderFailure = nil
            runQueue(&edit)

        case .refreshRequested:
            startOrQueue(.refresh, &edit)

        case .reset:
            edit.removedAll = !rows.isEmpty
            removeAllRows()
            older = .from(nil)
            olderFailure = nil
            refreshFailure = nil
            inFlight = nil
            queued = []
            lastFailed = nil
            begin(.loadOlder, &edit)

        case .retryRequested:
            if let intent = lastFailed { startOrQueue(intent, &edit) }

        case .rowWillDisplay(let id):
            guard let index = index(of: id), index >= rows.count - prefetchDistance,
                case .from = older, olderFailure == nil
            else { break }
            startOrQueue(.loadOlder, &edit)
        }
        return edit.changeset(in: self)
    }

    /// The failure recorded when a response does not fit its request.
    public static let unexpectedResponse = "The server sent an unexpected response."

    /// Records the failure of the request in flight and runs what was queued.
    private mutating func fail(_ request: TimelineRequest, message: String, _ edit: inout RowEdit) {
        inFlight = nil
        switch request.kind {
        case .page:
            olderFailure = message
            lastFailed = .loadOlder
        case .refresh:
            refreshFailure = message
            lastFailed = .refresh
        case .gap(let gap):
            if let index = index(of: gap.id), var current = rows[index].gap {
                current.status = .failed(message)
                replace(at: index, with: .gap(current), &edit)
            }
            lastFailed = .fillGap(gap.id)
        }
        runQueue(&edit)
    }

    // MARK: - Transitions

    /// Starts `intent` now when nothing runs; otherwise queues it once (unless it is what runs).
    private mutating func startOrQueue(_ intent: Intent, _ edit: inout RowEdit) {
        if let running = inFlight {
            if Self.intent(of: running) != intent, !queued.contains(intent) { queued.append(intent) }
        } else {
            begin(intent, &edit)
        }
    }

    /// Starts the request for `intent` if it still makes sense; clears the failure it retries.
    private mutating func begin(_ intent: Intent, _ edit: inout RowEdit) {
        switch intent {
        case .loadOlder:
            guard case .from(let cursor) = older else { return }
            olderFailure = nil
            start(.page(after: cursor))
        case .refresh:
            guard let top = rows.first?.post else {
                // Nothing to refresh above: load the first page instead.
                older = .from(nil)
                begin(.loadOlder, &edit)
                return
            }
            refreshFailure = nil
            start(.refresh(above: top.id))
        case .fillGap(let id):
            guard let index = index(of: id), var gap = rows[index].gap else { return }
            gap.status = .loading
            replace(at: index, with: .gap(gap), &edit)
            start(.gap(gap))
        }
        if lastFailed == intent { lastFailed = nil }
    }

    private mutating func start(_ kind: TimelineRequest.Kind) {
        inFlight = TimelineRequest(token: nextToken, kind: kind)
        nextToken += 1
    }

    private mutating func runQueue(_ edit: inout RowEdit) {
        while inFlight == nil, !queued.isEmpty {
            begin(queued.removeFirst(), &edit)
        }
    }

    private static func intent(of request: TimelineRequest) -> Intent {
        switch request.kind {
        case .page: .loadOlder
        case .refresh: .refresh
        case .gap(let gap): .fillGap(gap.id)
        }
    }

    /// The posts not yet present, as rows, in order; posts already present are updated in place.
    private mutating func newRows(from posts: [Post], _ edit: inout RowEdit) -> [TimelineEntry] {
        var fresh: [TimelineEntry] = []
        fresh.reserveCapacity(posts.count)
        var seen: Set<PostID> = []
        for post in posts where seen.insert(post.id).inserted {
            if let index = index(of: .post(post.id)) {
                if rows[index] != .post(post) { replace(at: index, with: .post(post), &edit) }
            } else {
                fresh.append(.post(post))
            }
        }
        return fresh
    }

    private mutating func insertNewer(_ page: NewerPage, above top: PostID, _ edit: inout RowEdit) {
        refreshFailure = nil
        var fresh = newRows(from: page.posts, &edit)
        guard let oldest = fresh.last?.post, let topIndex = index(of: .post(top)) else {
            if !fresh.isEmpty {
                insertRows(fresh, at: 0)
                edit.insertedBlock(at: 0, count: fresh.count)
            }
            return
        }
        if page.hasMore { fresh.append(.gap(Gap(below: top, above: oldest.id))) }
        insertRows(fresh, at: topIndex)
        edit.insertedBlock(at: topIndex, count: fresh.count)
    }

    private mutating func fillGap(_ id: RowID, with page: NewerPage, _ edit: inout RowEdit) {
        guard let gapIndex = index(of: id), var gap = rows[gapIndex].gap else { return }
        let fresh = newRows(from: page.posts, &edit)
        if page.hasMore, let oldest = fresh.last?.post {
            gap.above = oldest.id
            gap.status = .idle
            replace(at: gapIndex, with: .gap(gap), &edit)
        } else {
            removeRow(at: gapIndex)
            edit.deleted(gapIndex)
        }
        insertRows(fresh, at: gapIndex)
        edit.insertedBlock(at: gapIndex, count: fresh.count)
    }

    private mutating func replace(at index: Int, with row: TimelineEntry, _ edit: inout RowEdit) {
        replaceRow(at: index, with: row)
        edit.touched(row.id)
    }
}

/// What one reduce did to the rows, in the few shapes reduce produces: at most one deletion and
/// one contiguous insertion at the same place (gap fill), or everything removed (reset), plus
/// rows changed in place. Turned into a ``Changeset`` against the final rows.
struct RowEdit {
    let oldCount: Int
    var removedAll = false
    private var deletedIndex: Int?
    private var block: (at: Int, count: Int)?
    private var touchedIDs: [RowID] = []

    init(oldCount: Int) { self.oldCount = oldCount }

    mutating func deleted(_ index: Int) { deletedIndex = index }

    mutating func insertedBlock(at index: Int, count: Int) {
        if count > 0 { block = (index, count) }
    }

    mutating func touched(_ id: RowID) { touchedIDs.append(id) }

    /// The changeset from the rows before the event to `state.rows`.
    func changeset(in state: TimelineState) -> Changeset<TimelineEntry> {
        let rows = state.rows
        var changes = Changeset<TimelineEntry>(oldCount: oldCount, newCount: rows.count)
        if removedAll {
            changes.deletions = Array(0..<oldCount)
            changes.insertions = rows.enumerated().map { .init(index: $0.offset, element: $0.element) }
            return changes
        }
        if let deletedIndex { changes.deletions = [deletedIndex] }
        let inserted = block.map { $0.at..<($0.at + $0.count) } ?? 0..<0
        changes.insertions = inserted.map { .init(index: $0, element: rows[$0]) }
        var seen: Set<Int> = []
        for id in touchedIDs {
            guard let newIndex = state.index(of: id), !inserted.contains(newIndex), seen.insert(newIndex).inserted else { continue }
            var oldIndex = newIndex >= inserted.upperBound ? newIndex - inserted.count : newIndex
            if let deletedIndex, newIndex >= inserted.upperBound, oldIndex >= deletedIndex { oldIndex += 1 }
            changes.updates.append(.init(oldIndex: oldIndex, newIndex: newIndex, element: rows[newIndex]))
        }
        changes.updates.sort { $0.newIndex < $1.newIndex }
        return changes
    }
}
