extension ListState {
    // MARK: - Transitions: one's own post

    /// The first row that is not one's own post on its way: the one newer pages are asked above.
    var topRow: ListRow? { rows.first { $0.post?.isSending != true } }

    /// Where ``topRow`` is (the count of sending rows above it).
    var topRowIndex: Int { rows.firstIndex { $0.post?.isSending != true } ?? rows.count }

    /// Shows one's own post while it is on its way (``PostRow/isSending``), at once: on top of
    /// a list that asks for newer items, right under `parent` in a thread that shows it
    /// (indented one deeper). It bounds no page and takes no interaction; ``ownConfirmed(_:_:_:)``
    /// turns the same row into the server's post. A list with nothing loaded, or a thread
    /// without the parent, shows nothing.
    mutating func ownSending(_ row: ListRow, parent: PostID?, _ edit: inout RowEdit) {
        guard !rows.isEmpty, rows.index(of: row.id) == nil else { return }
        var index = 0
        var row = row
        if let parent {
            guard let place = rows.index(of: .post(parent)), case .post(let parentRow) = rows[place] else {
                if refreshStyle == .reload { return }
                edit.insertedBlock(at: 0, count: 1)
                rows.insert([row], at: 0)
                return
            }
            if refreshStyle == .reload {
                index = place + 1
                if case .post(var sending) = row, let depth = parentRow.thread?.depth {
                    sending.thread = ThreadPlace(depth: depth + 1, isFocus: false)
                    row = .post(sending)
                }
            }
        } else if refreshStyle == .reload {
            return
        }
        edit.insertedBlock(at: index, count: 1)
        rows.insert([row], at: index)
    }

    /// The server confirmed one's own post shown as `local` while it was sent: that row becomes
    /// the server's post (the same identity, its content updated). On top of a list that asks
    /// for newer items, a gap below it loads at once (posts others made meanwhile are not
    /// skipped by the next refresh, which asks above it); it closes when nothing came between.
    /// A list that showed no row for it shows the post as ``ownPosted(_:_:)`` does.
    mutating func ownConfirmed(_ local: PostID, _ row: ListRow, _ edit: inout RowEdit) {
        guard let index = rows.index(of: .post(local)), case .post(var confirmed) = row else {
            ownPosted(row, &edit)
            return
        }
        if case .post(let shown) = rows[index] { confirmed.thread = shown.thread }
        confirmed.key = local
        // Whether it sat right above the row newer pages were asked above: it takes that place.
        let becomesTop = index + 1 == topRowIndex
        rows.replace(at: index, with: .post(confirmed))
        edit.touched(.post(local))
        // The top post now bounds newer pages: what others posted between the row below and it loads now.
        guard refreshStyle == .newer, becomesTop, index + 1 < rows.count, let below = rows[index + 1].newerBound,
            let above = rows[index].olderBound
        else { return }
        let gap = Gap(below: below, above: above)
        edit.insertedBlock(at: index + 1, count: 1)
        rows.insert([.gap(gap)], at: index + 1)
        startOrQueue(.fillGap(gap.id), &edit)
    }

    /// One's own post shown as `local` will not be posted (refused): its row goes.
    mutating func ownWithdrawn(_ local: PostID, _ edit: inout RowEdit) {
        removeRows([.post(local)], &edit)
    }

    /// Shows the user's own post, just confirmed, at once:
    /// - a row of it already there (a stream's echo came first) is brought up to date;
    /// - a list that refreshes by reloading (a thread) reloads, and shows it where the server puts it;
    /// - a list that asks for newer items shows it on top, with a gap below it that loads at once:
    ///   posts made by others between the old top and it are not skipped by the next refresh
    ///   (which asks from the new top), and the gap closes when nothing came between;
    /// - a list with nothing loaded yet leaves it to its first page.
    ///
    /// A copy of it waiting above the rows (the stream's echo) stops waiting.
    mutating func ownPosted(_ row: ListRow, _ edit: inout RowEdit) {
        if let index = rows.index(of: row.id) {
            if rows[index] != row { replace(at: index, with: row, &edit) }
            return
        }
        switch refreshStyle {
        case .reload:
            if !rows.isEmpty { startOrQueue(.refresh, &edit) }
        case .newer:
            guard !rows.isEmpty else { return }
            edit.record(waitingRows.pageBrought([row]))
            let outcome = lastRefresh
            insertNewer(NewerPage(items: [row], hasMore: true), above: topRow?.newerBound, &edit)
            lastRefresh = outcome
            if rows.count > 1, let gap = rows[1].gap { startOrQueue(.fillGap(gap.id), &edit) }
        }
    }

    /// Puts back rows a pending delete took away, each at the index it had (or at the end when
    /// the list is shorter now), in ascending order of those indices; a row that is back already
    /// stays where it is.
    /// (Its own edit: the changeset is the difference of the rows before and after.)
    mutating func reinsert(_ reinserted: [ReinsertedRow], _ edit: inout RowEdit) {
        let missing = reinserted.sorted { $0.index < $1.index }.filter { rows.index(of: $0.row.id) == nil }
        guard !missing.isEmpty else { return }
        edit.replacedAll(old: rows.array)
        for item in missing where rows.index(of: item.row.id) == nil {
            rows.insert([item.row], at: min(max(0, item.index), rows.count))
        }
    }
}
