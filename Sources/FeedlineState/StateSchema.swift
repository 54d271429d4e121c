import GRDB

/// The database's schema, one migration per version. Migrations are never edited once released:
/// a v2 registers `"v2"` after `"v1"` (for example `ALTER TABLE …` or a new table), and a
/// database that a newer build migrated further is refused by ``StateStore/open(directory:server:account:)``
/// (`newerSchema`) instead of being written with a schema this build does not know.
///
/// ```
/// list    (key PK, older, positionID, positionCreatedAt, generation)
/// entry   (list, kind 'post'|'gap', id, rank, above; PK (list, kind, id); index (list, rank))
///         a post entry's id is its post's id; a gap's id is its lower bound, `above` its upper
/// post    (id PK, json)   one row per post, shared by every list that shows it
/// outbox  (postID, kind, value; PK (postID, kind))
/// draft   (id PK, json)   v2: one row per draft or submission on its way (a `Submission`)
/// ```
enum StateSchema {
    /// `PRAGMA application_id` of every Feedline state file: "Feed" in ASCII. A database with
    /// another id, or with id 0 and tables, belongs to another program.
    static let applicationID: Int32 = 0x4665_6564

    /// Tables an empty or half-created Feedline file may hold before v1 ran.
    static let bookkeeping: Set<String> = ["grdb_migrations"]

    /// The tables checked whole (`PRAGMA quick_check(table)`, with their indexes) at every open:
    /// those whose size does not grow with the saved posts — a row per list, per unconfirmed
    /// tap, per migration. `entry` and `post` grow with everything saved; their pages are checked
    /// as they are read, so that opening one list costs the same whatever else the file holds.
    static let checkedAtOpen = ["grdb_migrations", "list", "outbox", "draft"]

    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    PRAGMA application_id = \(applicationID);
                    CREATE TABLE list (
                        key TEXT PRIMARY KEY NOT NULL,
                        older TEXT,
                        positionID TEXT,
                        positionCreatedAt REAL,
                        generation INTEGER NOT NULL
                    );
                    CREATE TABLE post (
                        id TEXT PRIMARY KEY NOT NULL,
                        json BLOB NOT NULL
                    );
                    CREATE TABLE entry (
                        list TEXT NOT NULL REFERENCES list(key) ON DELETE CASCADE,
                        kind TEXT NOT NULL CHECK (kind IN ('post', 'gap')),
                        id TEXT NOT NULL,
                        rank INTEGER NOT NULL,
                        above TEXT,
                        PRIMARY KEY (list, kind, id)
                    ) WITHOUT ROWID;
                    CREATE INDEX entry_rank ON entry(list, rank);
                    CREATE INDEX entry_post ON entry(id) WHERE kind = 'post';
                    CREATE TABLE outbox (
                        postID TEXT NOT NULL,
                        kind TEXT NOT NULL,
                        value INTEGER NOT NULL,
                        PRIMARY KEY (postID, kind)
                    );
                    """
            )
        }
        migrator.registerMigration("v2") { db in
            try db.execute(sql: "CREATE TABLE draft (id TEXT PRIMARY KEY NOT NULL, json BLOB NOT NULL)")
        }
        return migrator
    }()
}
