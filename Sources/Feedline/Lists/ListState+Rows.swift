extension ListState {
    // MARK: - Transitions: rows changed in place

    /// The shared state of a post changed; `ids` are the rows of this list that show it. Each
    /// row present takes the change in place; a saved row that a newer copy of its post reaches
    /// (a reply, an edit, another list's page) is confirmed.
    ///
    /// - Complexity: O(r) for r rows named.
    mutating func postChanged(_ change: PostChange, rows ids: [RowID], _ edit: inout RowEdit) {
        for id in ids {
            guard let index = rows.index(of: id) else { continue }
            let row = rows[index]
            // A newer copy of a saved post (a reply, an edit, another list's page).
            if !unconfirmed.isEmpty, row.shownPost?.content != change.post { unconfirmed.remove(id) }
            let changed = row.applying(change)
            if changed != row { replace(at: index, with: changed, &edit) }
        }
    }

    /// The rows `ids` present, each changed by `change` in place (the waiting rows take the
    /// store's latest copies when shown). O(r) for r rows named.
    mutating func rowsChanged(_ ids: [RowID], _ edit: inout RowEdit, _ change: (ListRow) -> ListRow) {
        for id in ids {
            guard let index = rows.index(of: id) else { continue }
            let row = rows[index]
            let changed = change(row)
            if changed != row { replace(at: index, with: changed, &edit) }
        }
    }

    /// The account row of `account`, when shown, shows `display`. O(1).
    mutating func accountChanged(_ account: AccountID, _ display: RelationshipDisplay, _ edit: inout RowEdit) {
        guard let index = rows.index(of: .account(account)), case .account(var row) = rows[index], row.relationship != display else { return }
        row.relationship = display
        replace(at: index, with: .account(row), &edit)
    }

    // MARK: - Helpers shared by the concerns

    /// The rows not yet present, in order; rows already present are updated in place — except
    /// notification groups, which continue across pages: an older page only lowers a known
    /// group's oldest notification (the newer page's count already covers it), and a newer page
    /// brings the group's new total, so the group leaves its place and joins the new rows.
    mutating func newRows(from items: [ListRow], newer: Bool, _ edit: inout RowEdit) -> [ListRow] {
        var fresh: [ListRow] = []
        fresh.reserveCapacity(items.count)
        var seen = Set<RowID>(minimumCapacity: items.count)
        var moved: [Int] = []
        for row in items where row.gap == nil && seen.insert(row.id).inserted {
            guard let index = rows.index(of: row.id) else {
                fresh.append(row)
                continue
            }
            if case .notification(let known) = rows[index], case .notification(let arrived) = row {
                if newer {
                    var group = arrived
                    group.group.oldestID = known.group.oldestID
                    moved.append(index)
                    fresh.append(.notification(group))
                } else {
                    var group = known
                    group.group.oldestID = arrived.group.oldestID
                    if rows[index] != .notification(group) { replace(at: index, with: .notification(group), &edit) }
                }
                continue
            }
            if rows[index] != row { replace(at: index, with: row, &edit) }
        }
        if !moved.isEmpty {
            moved.sort()
            for index in moved { edit.deleted(current: index, row: rows[index]) }
            rows.remove(at: moved)
        }
        return fresh
    }

    /// Replaces the row at `index` with `row` (same id) and records it as changed in place.
    mutating func replace(at index: Int, with row: ListRow, _ edit: inout RowEdit) {
        var row = row
        // A copy of one's own post confirmed in this row keeps the row's identity.
        if case .post(let old) = rows[index], let key = old.key, case .post(var new) = row, new.key == nil, new.post.id == old.post.id {
            new.key = key
            row = .post(new)
        }
        rows.replace(at: index, with: row)
        edit.touched(row.id)
    }
}
