import GRDB

extension StateStore {
    /// Replaces every row of `table` with `rows`, each written by `insert`, in one transaction
    /// (after a failure the previous rows are intact): how the drafts and the outbox, saved
    /// whole each time, are written.
    ///
    /// - Complexity: O(old + new) rows written.
    /// - Throws: `.full`, `.readOnly`, `.io`.
    func replaceRows(of table: String, insert: String, _ rows: [StatementArguments]) throws(StateStoreError) {
        do {
            try queue.writeWithoutTransaction { db in
                let before = db.totalChangesCount
                try db.inTransaction(.immediate) {
                    try db.execute(sql: "DELETE FROM \(table)")
                    let statement = try db.cachedStatement(sql: insert)
                    for row in rows { try statement.execute(arguments: row) }
                    return .commit
                }
                changes.withLock { $0 = db.totalChangesCount - before }
            }
        } catch {
            throw StateStoreError(error, file: file)
        }
    }
}
