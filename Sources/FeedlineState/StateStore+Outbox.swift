import Feedline
import GRDB

extension StateStore {
    /// The outbox as last saved, in the order given to ``saveOutbox(_:)``.
    ///
    /// - Complexity: O(n), one read transaction.
    /// - Throws: `.corrupt` for an entry this build cannot read; `.io`.
    public func loadOutbox() throws(StateStoreError) -> [OutboxEntry] {
        do {
            return try queue.read { db in
                try Row.fetchAll(db, sql: "SELECT postID, kind, value FROM outbox ORDER BY rowid").map { row in
                    let kind: String = try row.decode(atIndex: 1)
                    guard let kind = InteractionKind(rawValue: kind) else {
                        throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: "an outbox entry of kind \(kind)")
                    }
                    return OutboxEntry(postID: PostID(try row.decode(String.self, atIndex: 0)), kind: kind, value: try row.decode(atIndex: 2))
                }
            }
        } catch {
            throw StateStoreError(error, file: file)
        }
    }

    /// Replaces the whole outbox with `entries`, in one transaction (after a failure the previous
    /// outbox is intact). Entries are keyed by post and kind: of two with the same key, the
    /// later one is kept, in its place.
    ///
    /// - Complexity: O(old + new) rows written; the outbox is small (pending interactions).
    /// - Throws: `.full`, `.readOnly`, `.io`.
    public func saveOutbox(_ entries: [OutboxEntry]) throws(StateStoreError) {
        try replaceRows(
            of: "outbox", insert: "INSERT OR REPLACE INTO outbox (postID, kind, value) VALUES (?, ?, ?)",
            entries.map { [$0.postID.rawValue, $0.kind.rawValue, $0.value] }
        )
    }
}
