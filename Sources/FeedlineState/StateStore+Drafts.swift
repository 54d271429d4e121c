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
        let rows: [StatementArguments]
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            rows = try submissions.map { [$0.id.rawValue, try encoder.encode($0)] }
        } catch {
            throw StateStoreError(error, file: file)
        }
        try replaceRows(of: "draft", insert: "INSERT OR REPLACE INTO draft (id, json) VALUES (?, ?)", rows)
    }
}
