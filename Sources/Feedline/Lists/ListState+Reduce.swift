extension ListState {
    /// Applies one event in place and returns how the rows changed.
    ///
    /// Pure: the result depends on the state and the event only. Effects are chosen afterwards
    /// by reading ``requests``. Responses whose token is not the request in flight are dropped.
    ///
    /// - Appearing loads the first page when there are no rows and nothing failed.
    /// - A row within ``prefetchDistance`` of the end asks for the next page — unless the last
    ///   older page failed: then only load-more or retry asks again, with the same cursor.
    /// - One request at a time; what is asked for meanwhile is queued and runs when it settles.
    /// - Pages append their rows; rows already present are updated in place, never repeated.
    /// - Refresh inserts newer rows at the top, with a gap row below them when the server says
    ///   more may be missing; opening a gap loads the newest missing rows into it and removes it
    ///   once nothing is missing. A list with ``RefreshStyle/reload`` loads its first page again
    ///   instead and replaces its rows.
    /// - Retry runs every failed request again, the last failure first.
    /// - A post change updates the rows that show the post, in place.
    /// - Streamed rows wait above the rows (``waiting``) — nothing moves under the reader —
    ///   until shown; a catch-up asks for what is newer than everything known and keeps it
    ///   waiting too. Showing them inserts them on top as a refresh would, with a gap row below
    ///   when items may be missing. A refresh or catch-up drops the waiting rows it covered.
    ///   Before the first page has come, showing them loads it instead (it may hold newer posts).
    /// - Removed rows (deleted posts) leave the rows and the waiting rows; a gap left at the top
    ///   is dropped (a refresh covers it; rows shown from above it leave a gap below them), two
    ///   gaps that meet become one, and a gap left at the bottom becomes where older pages start.
    /// - Reset clears everything, drops what is in flight and loads the first page.
    ///
    /// - Complexity: O(k) for a page of k rows appended or inserted at the top (plus the array
    ///   shift of an insertion at the top); O(r) for a post change shown by r rows; O(n) for gap
    ///   fills, reloads and reset.
    @discardableResult
    package mutating func reduce(_ event: ListEvent) -> Changeset<ListRow> {
        var edit = RowEdit(oldCount: rows.count)
        reduce(event, into: &edit)
        return edit.changeset(in: self)
    }

    /// Applies one event, recording what it did to the rows in `edit`, so that a view model can
    /// apply a response and the post changes it caused as one changeset. A reload must be the
    /// first event of an edit.
    ///
    /// Only dispatches: each concern's transitions live in their own file — paging
    /// (`+Paging`), newer items and gaps (`+Newer`), the rows that wait above (`+Arrivals`, over
    /// `WaitingRows`), restored rows and the reading position (`+Restore`), removed rows
    /// (`+Removal`), rows a pending removal took (`+Taken`), and the one request at a time (`+Queue`).
    mutating func reduce(_ event: ListEvent, into edit: inout RowEdit) {
        switch event {
        case .appeared:
            appeared(&edit)

        case .gapOpened(let id):
            guard let gap = rows[id: id]?.gap, gap.status != .loading else { break }
            startOrQueue(.fillGap(id), &edit)

        case .loadMoreRequested:
            if older != .end { startOrQueue(.loadOlder, &edit) }

        case .newerLoaded(let token, let page):
            guard let request = inFlight, request.token == token else { break }
            newerLoaded(page, for: request, &edit)

        case .pageFailed(let token, let failure):
            guard let request = inFlight, request.token == token else { break }
            fail(request, failure, &edit)

        case .pageLoaded(let token, let page):
            guard let request = inFlight, request.token == token else { break }
            pageLoaded(page, for: request, &edit)

        case .postChanged(let change, let ids):
            postChanged(change, rows: ids, &edit)

        case .quoteChanged(let change, let ids):
            rowsChanged(ids, &edit) { $0.applyingQuote(change) }

        case .quoteDeleted(let id, let ids):
            rowsChanged(ids, &edit) { $0.quoteDeleted(id) }

        case .refreshRequested:
            startOrQueue(.refresh, &edit)

        case .reloadRequested:
            startOrQueue(refreshStyle == .reload ? .refresh : .reload, &edit)

        case .reset:
            resetAll(&edit)

        case .retryRequested:
            for intent in failedIntents { startOrQueue(intent, &edit) }

        case .rowWillDisplay(let id):
            advancePosition(to: id)
            confirmWhenDisplayed(id, &edit)
            prefetch(near: id, &edit)

        case .streamed(let arrived):
            receiveStreamed(arrived, &edit)

        case .waitingShown(let current):
            waitingShown(current, &edit)

        case .catchUpRequested:
            catchUpRequested(&edit)

        case .streamInterrupted:
            streamInterrupted(&edit)

        case .rowsRemoved(let ids):
            removeRows(ids, &edit)

        case .accountChanged(let account, let display):
            accountChanged(account, display, &edit)

        case .tagChanged(let key, let following):
            guard let index = rows.index(of: .tag(key)), case .tag(var tag) = rows[index], tag.following != following else { break }
            tag.following = following
            replace(at: index, with: .tag(tag), &edit)

        case .conversationChanged(let row, let toTop):
            conversationChanged(row, toTop: toTop, &edit)
        case .userListsChanged(let lists), .filtersChanged(let lists), .scheduledChanged(let lists),
            .notificationRequestsChanged(let lists):
            // Before the first answer, the answer brings the store's lists itself.
            guard older == .end, rows.array != lists else { break }
            edit.replacedAll(old: rows.array)
            rows = RowList(lists)

        case .accountReported(let account, let display):
            guard let index = rows.index(of: .account(account)), case .account(var row) = rows[index], row.reported != display else { break }
            row.reported = display
            replace(at: index, with: .account(row), &edit)

        case .domainChanged(let domain, let display):
            guard let index = rows.index(of: .domain(domain)), case .domain(let name, let block) = rows[index], block != display else { break }
            replace(at: index, with: .domain(name, block: display), &edit)

        case .announcementRead(let id, let display):
            guard let index = rows.index(of: .announcement(id)), case .announcement(let announcement, let read) = rows[index], read != display else { break }
            replace(at: index, with: .announcement(announcement, read: display), &edit)

        case .ownPosted(let row):
            ownPosted(row, &edit)

        case .rowsReinserted(let rows):
            reinsert(rows, &edit)

        case .rowsTaken(let ids, let cause):
            rowsTaken(ids, by: cause, &edit)

        case .removalConfirmed(let cause):
            removalConfirmed(cause, &edit)

        case .removalRefused(let cause, let current, let stillHidden):
            removalRefused(cause, current: current, stillHidden: stillHidden, &edit)

        case .rowsPutBack(let cause, let current):
            rowsPutBack(cause, current: current, &edit)

        case .ownSending(let row, let parent):
            ownSending(row, parent: parent, &edit)

        case .ownConfirmed(let local, let row):
            ownConfirmed(local, row, &edit)

        case .ownWithdrawn(let local):
            ownWithdrawn(local, &edit)

        case .restored(let saved, let newer, let cursor, let confirmed):
            restored(saved, waiting: newer, older: cursor, confirmed: confirmed, &edit)

        case .positionRestored(let saved):
            positionRestored(saved)
        }
        switch event {
        case .rowsTaken, .rowsRemoved:
            // They only take rows away: no held row is a row again (O(held) saved per removal).
            break
        default:
            settleHeld(&edit)
        }
    }

    /// A newer page answered `request` (the one in flight): rows it brings are confirmed, then
    /// it lands where its request asked — above the top, in a gap, among the waiting rows, or
    /// in place for confirmed rows. For a page request it is a failure.
    private mutating func newerLoaded(_ page: NewerPage<ListRow>, for request: ListRequest, _ edit: inout RowEdit) {
        var page = page
        skipped += page.skipped
        confirm(page.items)
        // A full answer that reaches rows already shown (a catch-up asked above a row below
        // the first screen) is contiguous with them: nothing is missing below it.
        // A gap's page reaches only the rows below the gap: a row of it shown above the gap
        // (one's own post placed there) tells nothing of what is missing in it.
        let below: Int? = if case .gap(let gap) = request.kind { rows.index(of: gap.id) } else { nil }
        if page.hasMore, reachesRows(page, below: below) { page.hasMore = false }
        switch request.kind {
        case .refresh(let above, _): refreshAnswered(page, for: request, above: above, &edit)
        case .gap(let gap): gapAnswered(page, for: gap, &edit)
        case .catchUp(let above, _): catchUpAnswered(page, for: request, above: above, &edit)
        case .confirm: confirmAnswered(page, &edit)
        case .page, .reload: fail(request, FeedFailure(message: Self.unexpectedResponse, isTransient: true), &edit)
        }
    }

    /// An older page, the first page or a reload answered `request` (the one in flight): rows it
    /// brings are confirmed. For a request of newer items it is a failure.
    private mutating func pageLoaded(_ page: Page<ListRow>, for request: ListRequest, _ edit: inout RowEdit) {
        skipped += page.skipped
        confirm(page.items)
        switch request.kind {
        case .page(let cursor): pageAnswered(page, after: cursor, for: request, &edit)
        case .reload: reloadAnswered(page, &edit)
        case .refresh, .gap, .catchUp, .confirm: fail(request, FeedFailure(message: Self.unexpectedResponse, isTransient: true), &edit)
        }
    }

    /// The failure recorded when a response does not fit its request.
    package static let unexpectedResponse = "The server sent an unexpected response."
}
