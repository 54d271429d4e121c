extension ListState {
    /// A conversation changed: its row shows `row` in place; with `toTop` (a new post in it) it
    /// leaves its place for the top — or, not shown yet, goes on top of a list that has rows (a
    /// list with nothing loaded leaves it to its first page). Its own edit (a move is a deletion
    /// and one insertion). O(rows) for a move (the array shift), O(1) in place.
    mutating func conversationChanged(_ row: ConversationRow, toTop: Bool, _ edit: inout RowEdit) {
        let id = RowID.conversation(row.id)
        if let index = rows.index(of: id) {
            let movesUp = toTop && index > 0
            // A new last post is a new row for the store's bookkeeping: deleted and inserted.
            let newPost = rows[index].shownPost?.originalID != row.lastPost?.originalID
            if movesUp || newPost {
                edit.deleted(current: index, row: rows[index])
                rows.remove(at: [index])
                let place = movesUp ? 0 : index
                rows.insert([.conversation(row)], at: place)
                edit.insertedBlock(at: place, count: 1)
            } else if rows[index] != .conversation(row) {
                replace(at: index, with: .conversation(row), &edit)
            }
        } else if toTop, !rows.isEmpty {
            rows.insert([.conversation(row)], at: 0)
            edit.insertedBlock(at: 0, count: 1)
        }
    }
}
