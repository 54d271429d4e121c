import GRDB
import GRDBSQLite

/// Hooks for this package's tests and benchmarks; not part of the public API.
extension StateStore {
    /// Rows inserted, updated or deleted by the last successful ``saveList(_:as:)`` or
    /// ``saveOutbox(_:)`` of this store (SQLite's `total_changes()` across its transaction).
    package var lastSaveChanges: Int { changes.withLock { $0 } }

    /// Database pages this store has read from its file (or the file's WAL) since it was
    /// opened, the checks at open included: the misses of its connection's page cache
    /// (`SQLITE_DBSTATUS_CACHE_MISS`), which starts empty. What an operation read, counted
    /// rather than timed.
    package var pagesRead: Int {
        queue.inDatabase { db in
            var current: Int32 = 0
            var highwater: Int32 = 0
            sqlite3_db_status(db.sqliteConnection, SQLITE_DBSTATUS_CACHE_MISS, &current, &highwater, 0)
            return Int(current)
        }
    }

    /// The database's size in pages (`PRAGMA page_count`, including what the WAL holds).
    package func pageCount() throws -> Int {
        try queue.read { db in try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0 }
    }

    /// The plans SQLite chooses for the two queries of ``loadList(_:)`` (the list's row, then
    /// its entries with their posts): the detail lines of `EXPLAIN QUERY PLAN`, in order, such
    /// as `SEARCH entry USING INDEX entry_rank (list=?)`.
    package func loadListPlans() throws -> [String] {
        try queue.read { db in
            try [Self.listRowSQL, Self.entriesSQL].flatMap { sql in
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: ["home"]).map { row -> String in row["detail"] }
            }
        }
    }

    /// Simulates a full disk: the file may not grow beyond its current size plus `pages` pages
    /// (`PRAGMA max_page_count`, for this store's connection only), so a save that needs more
    /// fails with SQLITE_FULL.
    package func capFileSize(extraPages pages: Int = 0) throws {
        try queue.writeWithoutTransaction { db in
            let count = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            try db.execute(sql: "PRAGMA max_page_count = \(count + pages)")
        }
    }
}

extension StateStore {
    /// Lifts ``capFileSize(extraPages:)``: the file may grow again (SQLite's largest page count).
    package func uncapFileSize() throws {
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA max_page_count = 4294967294")
        }
    }
}
