@_spi(FeedService) import Feedline
import Foundation
import GRDB

extension StateStore {
    /// The list saved as `key` (e.g. `"home"`), or `nil` if none was.
    ///
    /// Equal to the value last saved under `key` (after the trimming ``saveList(_:as:)``
    /// describes), except for posts saved later through another list (see ``StateStore``).
    /// Also remembers the list so that the next save of `key` writes only the difference.
    ///
    /// - Complexity: O(n) for n entries, one read transaction.
    /// - Throws: `.corrupt` when a saved value no longer decodes; `.io`.
    public func loadList(_ key: String) throws(StateStoreError) -> SavedList? {
        do {
            let loaded = try queue.read { db in try Self.readList(key, db) }
            mirrors.withLock { $0[key] = loaded?.mirror }
            return loaded?.list
        } catch {
            throw StateStoreError(error, file: file)
        }
    }

    /// Saves `list` under `key`, replacing what was saved there, in one transaction: after a
    /// failure the previous value is intact.
    ///
    /// The list kept is its first ``SavedList/limit`` entries (the newest), each id once (a
    /// later entry with the id of an earlier one is left out).
    ///
    /// Writes are proportional to the change, not to the list: the store diffs `list` against
    /// what it last saved or loaded for `key` and inserts, deletes and updates only the entries
    /// and posts that differ (new entries take ranks between their neighbours'; rarely, when
    /// many pages were inserted at one place, the list's ranks are renumbered at once), plus one
    /// row for the cursor and position. If another store or process saved `key` since, the
    /// list is re-read first (O(n) reads) and the same holds.
    ///
    /// - Complexity: O(n log n) in memory for n entries; O(changes) rows written.
    /// - Throws: `.full` (disk full; nothing was written), `.readOnly`, `.corrupt`, `.io`.
    public func saveList(_ list: SavedList, as key: String) throws(StateStoreError) {
        let entries = Self.kept(list.entries)
        do {
            try queue.writeWithoutTransaction { db in
                let before = db.totalChangesCount
                var saved: ListMirror?
                do {
                    try db.inTransaction(.immediate) {
                        saved = try write(entries, older: list.older, position: list.position, as: key, db)
                        return .commit
                    }
                } catch {
                    // The transaction rolled back: forget the mirror rather than trust it.
                    mirrors.withLock { $0[key] = nil }
                    throw error
                }
                mirrors.withLock { $0[key] = saved }
                changes.withLock { $0 = db.totalChangesCount - before }
            }
        } catch {
            throw StateStoreError(error, file: file)
        }
    }

    /// The entries a saved list keeps: the first of each id, at most ``SavedList/limit``.
    static func kept(_ entries: [SavedList.Entry]) -> [SavedList.Entry] {
        var seen = Set<RowID>()
        var kept: [SavedList.Entry] = []
        kept.reserveCapacity(min(entries.count, SavedList.limit))
        for entry in entries where kept.count < SavedList.limit {
            if seen.insert(entry.rowID).inserted { kept.append(entry) }
        }
        return kept
    }

    /// Inside a write transaction: the writes from the list as saved to `entries`; returns the
    /// new mirror.
    private func write(
        _ entries: [SavedList.Entry], older: PageCursor?, position: ReadingPosition?, as key: String, _ db: Database
    ) throws -> ListMirror {
        let generation = try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT generation FROM list WHERE key = ?"), arguments: [key]
        )
        let old: ListMirror
        if let generation {
            if let mirror = mirrors.withLock({ $0[key] }), mirror.generation == generation {
                old = mirror
            } else {
                old = try Self.readList(key, db)?.mirror ?? .empty
            }
        } else {
            old = .empty
        }
        var plan = old.plan(to: entries)
        plan.mirror.generation = (generation ?? 0) + 1
        plan.mirror.checkInvariants()

        try db.cachedStatement(sql: """
            INSERT INTO list (key, older, positionID, positionCreatedAt, generation) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (key) DO UPDATE SET older = excluded.older, positionID = excluded.positionID,
                positionCreatedAt = excluded.positionCreatedAt, generation = excluded.generation
            """).execute(arguments: [
                key, older?.rawValue, position?.id.rawValue, position?.createdAt.timeIntervalSinceReferenceDate,
                plan.mirror.generation,
            ])

        let encoder = JSONEncoder()
        let savePost = try db.cachedStatement(
            sql: "INSERT INTO post (id, json) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET json = excluded.json"
        )
        func save(_ post: Post) throws {
            try savePost.execute(arguments: [post.id.rawValue, encoder.encode(post)])
        }

        let delete = try db.cachedStatement(sql: "DELETE FROM entry WHERE list = ? AND kind = ? AND id = ?")
        for entry in plan.removed {
            try delete.execute(arguments: [key, entry.kindColumn, entry.idColumn])
        }
        let insert = try db.cachedStatement(sql: "INSERT INTO entry (list, kind, id, rank, above) VALUES (?, ?, ?, ?, ?)")
        for (entry, rank) in plan.inserted {
            var above: String?
            switch entry {
            case .post(let post): try save(post)
            case .gap(_, let upper): above = upper.rawValue
            }
            try insert.execute(arguments: [key, entry.kindColumn, entry.idColumn, rank, above])
        }
        let rerank = try db.cachedStatement(sql: "UPDATE entry SET rank = ? WHERE list = ? AND kind = ? AND id = ?")
        for (entry, rank) in plan.reranked {
            try rerank.execute(arguments: [rank, key, entry.kindColumn, entry.idColumn])
        }
        let reboundGap = try db.cachedStatement(sql: "UPDATE entry SET above = ? WHERE list = ? AND kind = 'gap' AND id = ?")
        for entry in plan.changed {
            switch entry {
            case .post(let post): try save(post)
            case .gap(let below, let above): try reboundGap.execute(arguments: [above.rawValue, key, below.rawValue])
            }
        }
        // Posts no list shows any more.
        let orphan = try db.cachedStatement(
            sql: "DELETE FROM post WHERE id = ?1 AND NOT EXISTS (SELECT 1 FROM entry WHERE kind = 'post' AND id = ?1)"
        )
        for case .post(let post) in plan.removed {
            try orphan.execute(arguments: [post.id.rawValue])
        }
        return plan.mirror
    }

    /// The list row of the key given as the argument: cursor, position, generation.
    static let listRowSQL = "SELECT older, positionID, positionCreatedAt, generation FROM list WHERE key = ?"

    /// The entries of the list whose key is the argument, in order, with their posts' JSON: a
    /// range of the `entry_rank` index, each entry then found by its key and its post by the
    /// post's key, so O(n log N) for n entries among N saved rows; no other list's entries are
    /// visited.
    static let entriesSQL = """
        SELECT entry.kind, entry.id, entry.rank, entry.above, post.json FROM entry
        LEFT JOIN post ON entry.kind = 'post' AND post.id = entry.id
        WHERE entry.list = ? ORDER BY entry.rank
        """

    /// The list saved as `key` and its mirror, read in `db`'s current transaction.
    static func readList(_ key: String, _ db: Database) throws -> (list: SavedList, mirror: ListMirror)? {
        guard
            let row = try Row.fetchOne(db.cachedStatement(sql: listRowSQL), arguments: [key])
        else { return nil }
        let older: String? = try row.decode(atIndex: 0)
        let positionID: String? = try row.decode(atIndex: 1)
        let positionCreatedAt: Double? = try row.decode(atIndex: 2)
        let generation: Int64 = try row.decode(atIndex: 3)
        let position: ReadingPosition?
        switch (positionID, positionCreatedAt) {
        case (let id?, let createdAt?):
            position = ReadingPosition(id: ItemID(id), createdAt: Date(timeIntervalSinceReferenceDate: createdAt))
        case (nil, nil):
            position = nil
        default:
            throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: "a reading position without its date")
        }

        let decoder = JSONDecoder()
        var entries: [SavedList.Entry] = []
        var ranks: [Int64] = []
        let rows = try Row.fetchCursor(db.cachedStatement(sql: entriesSQL), arguments: [key])
        while let row = try rows.next() {
            let kind: String = try row.decode(atIndex: 0)
            let id: String = try row.decode(atIndex: 1)
            let rank: Int64 = try row.decode(atIndex: 2)
            switch kind {
            case "post":
                guard let json: Data = try row.decode(atIndex: 4) else {
                    throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: "post \(id) is missing")
                }
                let post = try decoder.decode(Post.self, from: json)
                guard post.id.rawValue == id else {
                    throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: "post \(id) holds another post")
                }
                entries.append(.post(post))
            case "gap":
                guard let above: String = try row.decode(atIndex: 3) else {
                    throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: "gap \(id) without its upper bound")
                }
                entries.append(.gap(below: ItemID(id), above: ItemID(above)))
            default:
                throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: "an entry of kind \(kind)")
            }
            if let last = ranks.last, last >= rank {
                throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: "two entries of rank \(rank)")
            }
            ranks.append(rank)
        }
        return (
            SavedList(entries: entries, older: older.map(PageCursor.init(rawValue:)), position: position),
            ListMirror(generation: generation, entries: entries, ranks: ranks)
        )
    }
}
