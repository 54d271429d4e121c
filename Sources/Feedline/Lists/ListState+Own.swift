extension ListState {
    // MARK: - Transitions: one's own post

    /// Whether `row` is one's own post out of the server's order: on its way
    /// (``PostRow/isSending``), or confirmed and not placed by a page yet (``ownUnplaced``).
    func isOwnUnplaced(_ row: ListRow) -> Bool {
        row.post?.isSending == true || ownUnplaced[row.id] != nil
    }

    /// The first row that is not one's own post out of the server's order (on its way, or not
    /// placed by a page yet): the one newer pages are asked above. O(own posts on top).
    var topRow: ListRow? { rows.first { !isOwnUnplaced($0) } }

    /// Where ``topRow`` is (the count of one's own posts on top above it).
    var topRowIndex: Int { rows.firstIndex { !isOwnUnplaced($0) } ?? rows.count }

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
    /// the server's post (the same identity, its content updated), and its stream copy waits
    /// above no more. In a list that asks for newer items it stays where it is, out of the
    /// server's order (``ownUnplaced``), with nothing loaded and no gap: newer pages are still
    /// asked above the row below it, so what others posted meanwhile waits where it waited and
    /// is not skipped. When a page brought the post already (its answer was lost, a retry
    /// confirmed it), that row shows it and the one shown while it was sent goes. A list that
    /// showed no row for it shows the post as ``ownPosted(_:_:)`` does.
    mutating func ownConfirmed(_ local: PostID, _ row: ListRow, _ edit: inout RowEdit) {
        guard let index = rows.index(of: .post(local)), case .post(var confirmed) = row else {
            ownPosted(row, &edit)
            return
        }
        if let shown = rows.index(of: row.id), shown != index {
            removeRows([.post(local)], &edit)
            if let shown = rows.index(of: row.id), rows[shown] != row { replace(at: shown, with: row, &edit) }
            waitingLeft(waitingRows.pageBrought([row]), &edit)
            return
        }
        if case .post(let shown) = rows[index] { confirmed.thread = shown.thread }
        confirmed.key = local
        rows.replace(at: index, with: .post(confirmed))
        edit.touched(.post(local))
        if refreshStyle == .newer { ownUnplaced[.post(local)] = ownMark(of: row) }
        waitingLeft(waitingRows.pageBrought([row]), &edit)
    }

    /// One's own post shown as `local` will not be posted (refused): its row goes.
    mutating func ownWithdrawn(_ local: PostID, _ edit: inout RowEdit) {
        removeRows([.post(local)], &edit)
    }

    /// Shows the user's own post, just confirmed, at once:
    /// - a row of it already there (a stream's copy or a page came first) is brought up to date;
    /// - a list that refreshes by reloading (a thread) reloads, and shows it where the server puts it;
    /// - a list that asks for newer items shows it on top, out of the server's order
    ///   (``ownUnplaced``), with nothing loaded and no gap: what others posted meanwhile keeps
    ///   waiting, and the next refresh still asks above the row below it;
    /// - a list with nothing loaded yet leaves it to its first page.
    ///
    /// A copy of it waiting above the rows (the stream's copy) stops waiting.
    mutating func ownPosted(_ row: ListRow, _ edit: inout RowEdit) {
        if let index = rows.index(of: row.id) {
            if rows[index] != row { replace(at: index, with: row, &edit) }
            waitingLeft(waitingRows.pageBrought([row]), &edit)
            return
        }
        switch refreshStyle {
        case .reload:
            if !rows.isEmpty { startOrQueue(.refresh, &edit) }
        case .newer:
            guard !rows.isEmpty else { return }
            let mark = ownMark(of: row)
            waitingLeft(waitingRows.pageBrought([row]), &edit)
            edit.insertedBlock(at: 0, count: 1)
            rows.insert([row], at: 0)
            ownUnplaced[row.id] = mark
        }
    }

    /// Where one's own post `row` (the server's copy) stands among the stream's arrivals: its
    /// stream copy's arrival when that waits (the rows that arrived after it are newer), else
    /// every arrival so far (they came before the server confirmed it).
    private func ownMark(of row: ListRow) -> Int {
        waitingRows.arrivedAt[row.id] ?? waitingRows.arrivals
    }

    /// The stream brought a copy of one's own post not placed yet (`index`): the rows waiting
    /// now arrived before it, and the ones that arrive later are newer.
    mutating func ownStreamed(at index: Int) {
        let id = rows[index].id
        if ownUnplaced[id] != nil { ownUnplaced[id] = waitingRows.arrivals }
    }

    /// One's own posts out of the server's order that newer rows about to go in place
    /// (`fresh`, newest first) put among them: each is returned with how many of `fresh` go
    /// above it, and leaves the rows (recorded in `edit`) — unless the rows go right below the
    /// top (`atTop`) and it stands right above them with none of them above it: then it stays.
    ///
    /// - A page (`arrivals` `nil`) places every one it brings, wherever it stands, as the server
    ///   has it: it is placed from then on (it leaves ``ownUnplaced``).
    /// - Rows that waited (`arrivals`: when each arrived) place the ones on top by the stream's
    ///   order (what arrived by the time one was made goes below it) — a guess: they stay
    ///   unplaced, for a page to place.
    ///
    /// - Complexity: O(own posts not placed + page).
    mutating func takeOwnPlaced(by items: [ListRow], fresh: [ListRow], arrivals: [RowID: Int]?, atTop: Bool, _ edit: inout RowEdit)
        -> [(row: ListRow, above: Int)]
    {
        guard !ownUnplaced.isEmpty else { return [] }
        var placed: [(index: Int, row: ListRow, above: Int)] = []
        if let arrivals {
            for index in 0..<topRowIndex {
                let row = rows[index]
                guard let mark = ownUnplaced[row.id] else { continue }
                placed.append((index, row, fresh.prefix { (arrivals[$0.id] ?? 0) > mark }.count))
            }
        } else {
            var order: [RowID: Int] = [:]
            for (offset, item) in items.enumerated() where order[item.id] == nil { order[item.id] = offset }
            for id in ownUnplaced.keys {
                guard let index = rows.index(of: id), let place = order[rows[index].alias ?? id] else { continue }
                placed.append((index, rows[index], fresh.prefix { (order[$0.id] ?? .max) < place }.count))
                ownUnplaced[id] = nil
            }
            placed.sort { $0.index < $1.index }
        }
        // Right above where the rows go, with none of them above it: it stays where it is.
        var bottom = topRowIndex
        while atTop, let last = placed.last, last.index == bottom - 1, last.above == 0 {
            placed.removeLast()
            bottom -= 1
        }
        for item in placed.reversed() {
            edit.deleted(current: item.index, row: item.row)
            rows.remove(at: [item.index])
        }
        return placed.map { ($0.row, $0.above) }
    }

    /// A page that covered everything newer than the top row brought nothing new: one's own
    /// posts among what it brought are in their place already.
    mutating func ownPlaced(by items: [ListRow]) {
        guard !ownUnplaced.isEmpty else { return }
        for item in items {
            guard let index = rows.index(of: item.id) else { continue }
            ownUnplaced[rows[index].id] = nil
        }
    }

    /// `fresh` (newest first) with each of `placed` put where it belongs (see
    /// ``takeOwnPlaced(by:fresh:arrivals:atTop:_:)``), in the order they stood when two belong at one place.
    static func merging(_ fresh: [ListRow], _ placed: [(row: ListRow, above: Int)]) -> [ListRow] {
        guard !placed.isEmpty else { return fresh }
        var merged: [ListRow] = []
        merged.reserveCapacity(fresh.count + placed.count)
        var next = 0
        let sorted = placed.enumerated().sorted { ($0.element.above, $0.offset) < ($1.element.above, $1.offset) }.map(\.element)
        for (offset, row) in fresh.enumerated() {
            while next < sorted.count, sorted[next].above <= offset {
                merged.append(sorted[next].row)
                next += 1
            }
            merged.append(row)
        }
        merged += sorted[next...].map(\.row)
        return merged
    }

    /// Puts back rows a pending delete took away, each at the index it had (or at the end when
    /// the list is shorter now), in ascending order of those indices; a row that is back already
    /// stays where it is.
    ///
    /// - Complexity: O(k log k + k · h) for k rows, where each goes back into the hole its
    ///   removal left (h holes, at most 1,024); O(k · min(index, rows − index)) for rows whose
    ///   holes were compacted away meanwhile. Never a diff of the whole list.
    mutating func reinsert(_ reinserted: [ReinsertedRow], _ edit: inout RowEdit) {
        for item in reinserted.sorted(by: { $0.index < $1.index }) where rows.index(of: item.row.id) == nil {
            rows.insert([item.row], at: min(max(0, item.index), rows.count))
            edit.inserted(item.row.id)
        }
    }
}
