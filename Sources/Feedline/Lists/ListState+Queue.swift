extension ListState {
    // MARK: - Transitions: one request at a time

    /// Records the failure of `request` (the one in flight) and runs what was queued. A
    /// confirming request fails quietly, like its loading: its rows stay marked as saved copies
    /// and may ask again when displayed again.
    mutating func fail(_ request: ListRequest, _ failure: FeedFailure, _ edit: inout RowEdit) {
        inFlight = nil
        switch request.kind {
        case .page:
            olderFailure = failure
            lastFailed = .loadOlder
        case .reload where refreshStyle == .newer:
            reloadFailure = failure
            lastFailed = .reload
        case .refresh, .reload:
            refreshFailure = failure
            lastFailed = .refresh
        case .catchUp:
            catchUpFailure = failure
            lastFailed = .catchUp
        case .confirm(let first, _, _):
            if let start = rows.index(of: first) {
                for row in rows[start...] {
                    guard confirmAsked.remove(row.id) != nil else { break }
                }
            }
        case .gap(let gap):
            if let index = rows.index(of: gap.id), var current = rows[index].gap {
                current.status = .failed(failure)
                replace(at: index, with: .gap(current), &edit)
                lastFailed = .fillGap(gap.id)
            }
        }
        runQueue(&edit)
    }

    /// Starts `intent` now when nothing runs; otherwise queues it once (unless it is what runs).
    mutating func startOrQueue(_ intent: Intent, _ edit: inout RowEdit) {
        if let running = inFlight {
            if self.intent(of: running) != intent, !queued.contains(intent) { queued.append(intent) }
        } else {
            begin(intent, &edit)
        }
    }

    /// Starts the request for `intent` if it still makes sense; clears the failure it retries.
    mutating func begin(_ intent: Intent, _ edit: inout RowEdit) {
        switch intent {
        case .loadOlder:
            guard case .from(let cursor) = older else { return }
            clearFailure(of: .loadOlder)
            start(.page(after: cursor))
        case .refresh:
            clearFailure(of: .refresh)
            if refreshStyle == .reload, !rows.isEmpty || older == .end {
                lastRefresh = nil
                start(.reload)
            } else if refreshStyle == .newer, let bound = topRow?.newerBound {
                lastRefresh = nil
                start(.refresh(above: bound))
            } else {
                // Nothing to refresh above: load the first page instead.
                older = .from(nil)
                begin(.loadOlder, &edit)
            }
        case .reload:
            clearFailure(of: .reload)
            lastRefresh = nil
            start(.reload)
        case .fillGap(let id):
            guard let index = rows.index(of: id), var gap = rows[index].gap else { return }
            if lastFailed == intent { lastFailed = nil }
            gap.status = .loading
            replace(at: index, with: .gap(gap), &edit)
            start(.gap(gap))
        case .confirm(let id):
            beginConfirming(from: id)
        case .catchUp:
            clearFailure(of: .catchUp)
            guard refreshStyle == .newer else { return }
            // Above the newest waiting row (after a drop, the newest that waited before it),
            // else above the top row.
            if let bound = (waitingRows.catchUpAnchor ?? topRow)?.newerBound {
                start(.catchUp(above: bound))
            } else {
                // Nothing known to ask above (an empty feed, or every row deleted): everything
                // is newer, so the first page is loaded; no row is there to be moved.
                older = .from(nil)
                begin(.loadOlder, &edit)
            }
        }
    }

    /// Forgets the failure of `intent` (it is being retried, or something answered for it).
    mutating func clearFailure(of intent: Intent) {
        switch intent {
        case .loadOlder: olderFailure = nil
        case .refresh: refreshFailure = nil
        case .reload: reloadFailure = nil
        case .catchUp: catchUpFailure = nil
        case .fillGap, .confirm: break
        }
        if lastFailed == intent { lastFailed = nil }
    }

    /// Makes `kind` the request in flight, with the next token; the waiting rows note its start.
    mutating func start(_ kind: ListRequest.Kind) {
        inFlight = ListRequest(token: nextToken, kind: kind)
        nextToken += 1
        waitingRows.requestStarted()
    }

    /// The rest of `request` (which just answered): as far as arrivals and drops are concerned
    /// it is the same request, started when `request` did — its token and mark stay, so rows
    /// that arrived meanwhile (newer than what it now asks for) are not taken as covered.
    mutating func proceed(_ request: ListRequest, as kind: ListRequest.Kind) {
        inFlight = ListRequest(token: request.token, kind: kind)
    }

    /// Runs what was queued, in order, until something is in flight.
    mutating func runQueue(_ edit: inout RowEdit) {
        while inFlight == nil, !queued.isEmpty {
            begin(queued.removeFirst(), &edit)
        }
    }

    private func intent(of request: ListRequest) -> Intent {
        switch request.kind {
        case .page: .loadOlder
        case .reload where refreshStyle == .newer: .reload
        case .refresh, .reload: .refresh
        case .gap(let gap): .fillGap(gap.id)
        case .catchUp: .catchUp
        case .confirm(let first, _, _): .confirm(first)
        }
    }
}
