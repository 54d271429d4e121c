import Feedline
import Foundation
import GRDB

extension StateStore {
    /// The drafts and submissions on their way as last saved (``saveDrafts(_:)``), by draft id.
    ///
    /// - Complexity: O(n), one read transaction.
    /// - Throws: `.corrupt` for a draft this build cannot read; `.io`.
    public func loadDrafts() throws(StateStoreError) -> [Submission] {
        do {
            return try queue.read { db in
                try Row.fetchAll(db, sql: "SELECT id, json FROM draft ORDER BY id").map { row in
                    let data: Data = try row.decode(atIndex: 1)
                    do {
                        return try JSONDecoder().decode(Submission.self, from: data)
                    } catch {
                        throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: "draft \(try row.decode(String.self, atIndex: 0)) cannot be read")
                    }
                }
            }
        } catch {
            throw StateStoreError(error, file: file)
        }
    }

    /// Replaces every saved draft with `submissions`, in one transaction (after a failure the
    /// previous drafts are intact): what ``Feedline/Drafts/observe(_:)`` gives, saved before the
    /// session shows a submission as sending.
    ///
    /// - Complexity: O(old + new) rows written; drafts are few.
    /// - Throws: `.full`, `.readOnly`, `.io`.
    public func saveDrafts(_ submissions: [Submission]) throws(StateStoreError) {
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            let rows = try submissions.map { (id: $0.id.rawValue, json: try encoder.encode($0)) }
            try queue.writeWithoutTransaction { db in
                let before = db.totalChangesCount
                try db.inTransaction(.immediate) {
                    try db.execute(sql: "DELETE FROM draft")
                    let insert = try db.cachedStatement(sql: "INSERT OR REPLACE INTO draft (id, json) VALUES (?, ?)")
                    for row in rows { try insert.execute(arguments: [row.id, row.json]) }
                    return .commit
                }
                changes.withLock { $0 = db.totalChangesCount - before }
            }
        } catch let error as StateStoreError {
            throw error
        } catch {
            throw StateStoreError(error, file: file)
        }
    }
}
