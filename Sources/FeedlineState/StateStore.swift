import Feedline
import Foundation
import GRDB
import GRDBSQLite
#if canImport(Glibc)
import Glibc
#endif

/// The local database of one account on one server: saved lists (a list's newest entries, its
/// older-page cursor and reading position) and the outbox, in one SQLite file.
///
/// **Threads.** A store is safe to use from any thread or task: one SQLite connection behind a
/// serial queue (GRDB's `DatabaseQueue`), so calls run one at a time, each in its own
/// transaction, and every call blocks its caller until done (call it off the main actor when a
/// save may be large).
///
/// **Durability.** The file is in WAL mode with `synchronous = NORMAL`: a save that returned is
/// on disk and survives the process being killed at any moment; a power loss or OS crash may
/// lose the last saves (never the file's consistency).
///
/// **Two processes.** Two feedline processes (or two stores) on the same file both read and
/// write safely: WAL lets readers and one writer proceed together, a writer waits up to
/// ``busyTimeout`` for the other's transaction, and each save of a list checks that the list is
/// still what this store last wrote before writing only the difference — if another process
/// saved it since, the store re-reads it first. Per list, the last writer wins.
///
/// **Posts** are stored once, shared by every list that shows them (a post no list shows any
/// more is deleted with its last entry). Loading a list returns what was saved, except that a
/// post saved later through another list comes back as that later copy.
public final class StateStore: Sendable {
    /// The database file, `directory/<name>.sqlite` (see ``open(directory:server:account:)``).
    public let file: URL
    /// How long a write waits for another connection's transaction before failing with `.io`.
    public static let busyTimeout: TimeInterval = 2

    let queue: DatabaseQueue
    /// Per list key: what this store last saved or loaded (see ``ListMirror``). `Locked` rather
    /// than `Mutex`, so that ThreadSanitizer sees the lock.
    let mirrors = Locked<[String: ListMirror]>([:])
    /// Rows changed by the last save (a test hook, see ``lastSaveChanges``).
    let changes = Locked(0)
    /// What opening made private that was not (one sentence), or `nil`: a directory others could
    /// read or enter, now 0700; a file others could read, now 0600. For the front to say.
    public let madePrivate: String?

    init(file: URL, queue: DatabaseQueue, madePrivate: String? = nil) {
        self.file = file
        self.queue = queue
        self.madePrivate = madePrivate
    }

    /// Opens the database of `account` on `server` in `directory`, creating the directory (mode
    /// 0700) and the file as needed and bringing its schema up to date.
    ///
    /// **Private.** The file is created with mode 0600 before SQLite opens it, so its `-wal` and
    /// `-shm` files (which SQLite gives the database file's mode) are 0600 too; an existing file
    /// or companion that others may read is made 0600. A directory of the caller's that others
    /// may read or enter is made 0700 (not a shared one: sticky, like `/tmp`, or another user's);
    /// ``madePrivate`` says what was changed.
    ///
    /// The file is named `server@account.sqlite`, or `server.sqlite` without an account
    /// (`sandbox.sqlite`); characters other than `[A-Za-z0-9._@-]` become `_` (the server is
    /// also lowercased and loses `@`), so the name is always a plain file name.
    ///
    /// Before writing anything, the file is checked: an existing file must be a Feedline state
    /// database (`application_id`) that no newer Feedline migrated further, and its small tables
    /// (the lists' rows, the outbox, the migrations; see ``StateSchema/checkedAtOpen``) must pass
    /// SQLite's `quick_check`. A file that fails is left untouched. A file or directory this
    /// process may not write is refused here too (`.readOnly`), not at the first save.
    ///
    /// The entries and posts of the lists are not checked here: SQLite checks each page as it
    /// reads it (with `cell_size_check` on, each cell too), so damage there is `.corrupt` from the
    /// ``loadList(_:)`` or ``saveList(_:as:)`` that reaches it, the file left as it was (a load
    /// writes nothing; a save rolls back). So opening costs the same whatever else is saved.
    ///
    /// - Complexity: O(saved lists + outbox entries), independent of the saved posts.
    ///
    /// - Throws: `.corrupt`, `.foreign`, `.newerSchema`, `.readOnly`, `.full` or `.io`; see
    ///   ``StateStoreError/Kind``.
    public static func open(directory: URL, server: String, account: String?) throws(StateStoreError) -> StateStore {
        try open(directory: directory, server: server, account: account, busyTimeout: busyTimeout)
    }

    /// ``open(directory:server:account:)`` with writes waiting up to `busyTimeout` for another
    /// connection: a test that makes two stores contend on purpose waits as long as it takes (how
    /// long the other holds the file depends on the machine's speed), with a generous limit.
    package static func open(directory: URL, server: String, account: String?, busyTimeout: TimeInterval) throws(StateStoreError) -> StateStore {
        let file = directory.appendingPathComponent(StateFileName.make(server: server, account: account))
        try makeDirectory(directory, for: file)
        let madePrivate = makePrivate(directory: directory, file: file)
        do {
            var configuration = Configuration()
            configuration.busyMode = .timeout(busyTimeout)
            configuration.label = "FeedlineState"
            configuration.prepareDatabase { db in
                // Damage in a page is found when the page is first read, before its cells are
                // used, rather than by a check of the whole file at open.
                try db.execute(sql: "PRAGMA cell_size_check = ON")
            }
            // Two processes opening one file at once (two terminals started together) each switch
            // it to WAL and run its migrations: SQLite answers one of them "database is locked"
            // at once, without the busy wait, when both hold the file and want to write. The
            // opening steps take turns on a lock file beside it (held for milliseconds; the
            // system wakes the waiter, nothing polls).
            let turn = OpeningTurn(file)
            defer { turn.end() }
            let queue = try DatabaseQueue(path: file.path, configuration: configuration)
            if let refusal = try queue.read(refusal) { throw StateStoreError(refusal, file: file) }
            try queue.writeWithoutTransaction { db in
                // SQLite opens a file it may not write read-only without a word: report it now,
                // not at the first save.
                if let connection = db.sqliteConnection, sqlite3_db_readonly(connection, "main") == 1 {
                    throw StateStoreError(.readOnly, file: file)
                }
                guard try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") == "wal" else {
                    throw StateStoreError(.io, file: file, reason: "could not switch to WAL mode")
                }
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
            }
            try migrate(queue)
            return StateStore(file: file, queue: queue, madePrivate: madePrivate)
        } catch {
            throw StateStoreError(error, file: file)
        }
    }

    /// An exclusive `flock` on `FILE.open-lock` (mode 0600), taken for the opening steps only. A
    /// lock file that cannot be made (a read-only directory) takes no turn: SQLite reports the
    /// directory itself.
    private struct OpeningTurn {
        let descriptor: Int32

        init(_ file: URL) {
            descriptor = Glibc.open(file.path + ".open-lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            if descriptor >= 0 {
                while flock(descriptor, LOCK_EX) != 0, errno == EINTR {}
            }
        }

        func end() {
            guard descriptor >= 0 else { return }
            flock(descriptor, LOCK_UN)
            close(descriptor)
        }
    }

    /// Why an existing file must not be opened, if it must not.
    ///
    /// - Complexity: O(saved lists + outbox entries), not O(file size): a `quick_check` of the
    ///   whole file reads every page (it made opening and loading a 1,000-post list 4.5× slower
    ///   in a file that also held 99 such lists).
    private static func refusal(_ db: Database) throws -> StateStoreError.Kind? {
        let id = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        let tables = try String.fetchSet(
            db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )
        if id != StateSchema.applicationID {
            guard id == 0 else { return .foreign }
            guard tables.isSubset(of: StateSchema.bookkeeping) else { return .foreign }
        }
        if try StateSchema.migrator.hasBeenSuperseded(db) { return .newerSchema }
        for table in StateSchema.checkedAtOpen where tables.contains(table) {
            guard try String.fetchAll(db, sql: "PRAGMA quick_check(\(table))") == ["ok"] else { return .corrupt }
        }
        return nil
    }

    /// Runs the migrations this file lacks. Two processes creating a new file at the same moment
    /// may both try, each migration in its own transaction: the loser of one fails on what the
    /// winner just made ("table list already exists") while the winner goes on to the next. So a
    /// failure is tried again, from the migrations the file has now — each failure means the
    /// other process completed at least one, so one more attempt than there are migrations ends
    /// it — and is no failure once they are all there.
    private static func migrate(_ queue: DatabaseQueue) throws {
        let attempts = StateSchema.migrator.migrations.count + 1
        for attempt in 1...attempts {
            do {
                try StateSchema.migrator.migrate(queue)
                return
            } catch {
                let completed = try? queue.read { db in try StateSchema.migrator.hasCompletedMigrations(db) }
                if completed == true { return }
                if attempt == attempts { throw error }
            }
        }
    }

    /// Creates `file` with mode 0600 when it is missing, and takes group and other permissions
    /// from it, its `-wal` and `-shm` files and `directory` (when the directory is the caller's
    /// and not a shared sticky one). Returns the sentence saying what it changed, if anything.
    private static func makePrivate(directory: URL, file: URL) -> String? {
        // A file that cannot be made here (a read-only directory) is SQLite's to report.
        let created = Glibc.open(file.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if created >= 0 { close(created) }
        var changed: [String] = []
        var info = stat()
        if stat(directory.path, &info) == 0 {
            let mode = info.st_mode & 0o7777
            let shared = mode & S_ISVTX != 0 || info.st_uid != geteuid()
            if mode & 0o077 != 0, !shared, chmod(directory.path, mode & 0o7700) == 0 {
                changed.append("the state directory \(directory.path) (mode \(String(mode & 0o777, radix: 8)), now \(String(mode & 0o700, radix: 8)))")
            }
        }
        for path in [file.path, file.path + "-wal", file.path + "-shm"] {
            guard stat(path, &info) == 0, info.st_uid == geteuid() else { continue }
            let mode = info.st_mode & 0o7777
            guard mode & 0o077 != 0, chmod(path, mode & 0o7700) == 0 else { continue }
            changed.append("\(path) (mode \(String(mode & 0o777, radix: 8)), now \(String(mode & 0o700, radix: 8)))")
        }
        guard !changed.isEmpty else { return nil }
        return "Made " + changed.joined(separator: " and ") + " private: others could read your drafts and timeline there."
    }

    private static func makeDirectory(_ directory: URL, for file: URL) throws(StateStoreError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw StateStoreError(.io, file: file, reason: "\(directory.path) is not a directory")
            }
            return
        }
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700]
            )
        } catch {
            throw StateStoreError(error, file: file)
        }
    }
}
