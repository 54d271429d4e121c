@_spi(FeedService) import Feedline
import FeedlineState
import FeedlineTestSupport
import Foundation
import GRDB
import Testing

@Suite("Opening and failing: damaged, foreign, newer, read-only, full")
struct StateStoreErrorTests {
    /// The sandbox's file in `directory`.
    func file(_ directory: URL) -> URL { directory.appendingPathComponent("sandbox.sqlite") }

    @Test("random bytes or a text file: .corrupt, and the file is left as it was")
    func notADatabase() throws {
        var random = SeededGenerator(seed: testSeed(0xC0_441D))
        let noise = Data((0..<8_192).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        let text = Data("notes: this is not a database\n".utf8)
        for contents in [noise, text] {
            try withTemporaryDirectory { directory in
                try contents.write(to: file(directory))
                #expect(errorKind { try openStore(directory) } == .corrupt)
                #expect(try Data(contentsOf: file(directory)) == contents)
            }
        }
    }

    @Test("a Feedline file damaged inside: .corrupt on open, file untouched")
    func damagedInside() throws {
        try withTemporaryDirectory { directory in
            do {
                let store = try openStore(directory)
                try store.saveList(SavedList(entries: Samples.posts(0..<300), older: nil), as: "home")
            }
            // The last connection closed: the WAL was checkpointed into the file.
            var bytes = try Data(contentsOf: file(directory))
            let pageSize = 4_096
            #expect(bytes.count > 4 * pageSize)
            for offset in (2 * pageSize)..<(2 * pageSize + 200) { bytes[offset] = 0xA5 }
            try bytes.write(to: file(directory))
            #expect(errorKind { try openStore(directory) } == .corrupt)
            #expect(try Data(contentsOf: file(directory)) == bytes)
        }
    }

    /// Saves `list` (and an outbox entry) in a new file in `directory`, closes it, and fills the
    /// first 200 bytes of the root page of `object` (a table or index) with 0xA5; returns the
    /// file's bytes after the damage.
    func saveAndDamage(_ list: SavedList, rootOf object: String, in directory: URL) throws -> Data {
        do {
            let store = try openStore(directory)
            try store.saveList(list, as: "home")
            try store.saveOutbox([OutboxEntry(postID: "p1", kind: .favourite, value: true)])
        }
        let page: Int
        do {
            let raw = try DatabaseQueue(path: file(directory).path)
            page = try #require(try raw.read { db in try Int.fetchOne(db, sql: "SELECT rootpage FROM sqlite_master WHERE name = ?", arguments: [object]) })
        }
        var bytes = try Data(contentsOf: file(directory))
        let pageSize = 4_096
        #expect(bytes.count >= page * pageSize)
        for offset in ((page - 1) * pageSize)..<((page - 1) * pageSize + 200) { bytes[offset] = 0xA5 }
        try bytes.write(to: file(directory))
        return bytes
    }

    @Test("the lists or the outbox table damaged: .corrupt on open, file untouched", arguments: ["list", "outbox"])
    func damagedSmallTable(_ table: String) throws {
        try withTemporaryDirectory { directory in
            let bytes = try saveAndDamage(Samples.mixed, rootOf: table, in: directory)
            #expect(errorKind { try openStore(directory) } == .corrupt)
            #expect(try Data(contentsOf: file(directory)) == bytes)
        }
    }

    @Test("a list's posts damaged: the file opens, loading or saving the list is .corrupt, the file untouched")
    func damagedPosts() throws {
        try withTemporaryDirectory { directory in
            let list = SavedList(entries: Samples.posts(0..<300), older: nil)
            let bytes = try saveAndDamage(list, rootOf: "post", in: directory)
            do {
                let store = try openStore(directory)
                #expect(errorKind { try store.loadList("home") } == .corrupt)
                var shorter = list
                shorter.entries.removeLast(10)
                #expect(errorKind { try store.saveList(shorter, as: "home") } == .corrupt)
                #expect(try store.loadOutbox() == [OutboxEntry(postID: "p1", kind: .favourite, value: true)])
            }
            #expect(try Data(contentsOf: file(directory)) == bytes)
        }
    }

    @Test("another program's SQLite database: .foreign, file untouched")
    func foreign() throws {
        try withTemporaryDirectory { directory in
            do {
                let other = try DatabaseQueue(path: file(directory).path)
                try other.write { db in
                    try db.execute(sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT); INSERT INTO notes (text) VALUES ('hi')")
                }
            }
            let before = try Data(contentsOf: file(directory))
            let error = try #require(throws: StateStoreError.self) { try openStore(directory) }
            #expect(error.kind == .foreign)
            #expect(error.description.contains(file(directory).path))
            #expect(try Data(contentsOf: file(directory)) == before)
        }
    }

    @Test("a database with another application_id, even without tables: .foreign")
    func otherApplicationID() throws {
        try withTemporaryDirectory { directory in
            do {
                let other = try DatabaseQueue(path: file(directory).path)
                try other.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA application_id = 1234") }
            }
            #expect(errorKind { try openStore(directory) } == .foreign)
        }
    }

    @Test("an empty file is a new database")
    func emptyFile() throws {
        try withTemporaryDirectory { directory in
            try Data().write(to: file(directory))
            let store = try openStore(directory)
            try store.saveList(Samples.mixed, as: "home")
            expectEqual(try openStore(directory).loadList("home"), Samples.mixed)
        }
    }

    @Test("migrated by a newer Feedline: .newerSchema, with the sentence to show")
    func newerSchema() throws {
        try withTemporaryDirectory { directory in
            do {
                let store = try openStore(directory)
                try store.saveList(Samples.mixed, as: "home")
                let raw = try DatabaseQueue(path: store.file.path)
                try raw.write { db in try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99-from-the-future')") }
            }
            let error = try #require(throws: StateStoreError.self) { try openStore(directory) }
            #expect(error.kind == .newerSchema)
            #expect(
                error.description
                    == "The state file \(file(directory).path) was written by a newer Feedline; update feedline, or use --state DIR for another place."
            )
        }
    }

    // Root ignores file permissions (a chmod 0500 directory is still writable for it), so the
    // check is skipped when the tests run as root.
    @Test("a read-only directory: .readOnly for a new file, and for an existing one", .enabled(if: !runningAsRoot, "root ignores permissions"))
    func readOnlyDirectory() throws {
        try withTemporaryDirectory { directory in
            let fresh = directory.appendingPathComponent("fresh")
            try FileManager.default.createDirectory(at: fresh, withIntermediateDirectories: false)
            chmod(fresh.path, 0o500)
            #expect(errorKind { try openStore(fresh) } == .readOnly)

            let existing = directory.appendingPathComponent("existing")
            do {
                let store = try StateStore.open(directory: existing, server: "sandbox", account: nil)
                try store.saveList(Samples.mixed, as: "home")
            }
            chmod(existing.path, 0o500)
            #expect(errorKind { try StateStore.open(directory: existing, server: "sandbox", account: nil) } == .readOnly)
        }
    }

    @Test("a read-only file: .readOnly on open", .enabled(if: !runningAsRoot, "root ignores permissions"))
    func readOnlyFile() throws {
        try withTemporaryDirectory { directory in
            do {
                try openStore(directory).saveList(Samples.mixed, as: "home")
            }
            chmod(file(directory).path, 0o400)
            #expect(errorKind { try openStore(directory) } == .readOnly)
        }
    }

    @Test("a disk that fills up: .full on save, nothing half-written, reads still work")
    func diskFull() throws {
        try withTemporaryDirectory { directory in
            let store = try openStore(directory)
            try store.saveList(Samples.mixed, as: "home")
            try store.saveOutbox([OutboxEntry(postID: "p1", kind: .favourite, value: true)])
            try store.capFileSize()

            let big = SavedList(entries: Samples.posts(1_000..<2_000), older: nil)
            let error = try #require(throws: StateStoreError.self) { try store.saveList(big, as: "home") }
            #expect(error.kind == .full)
            #expect(error.description.contains("is full"))
            #expect(errorKind { try store.saveList(big, as: "local") } == .full)

            expectEqual(try store.loadList("home"), Samples.mixed)
            #expect(try store.loadList("local") == nil)
            #expect(try store.loadOutbox() == [OutboxEntry(postID: "p1", kind: .favourite, value: true)])
            // A save that needs no new page still goes through, and the store's memory of the
            // list is right after the failure.
            var smaller = Samples.mixed
            smaller.entries.removeLast(3)
            try store.saveList(smaller, as: "home")
            expectEqual(try openStore(directory).loadList("home"), smaller)
        }
    }

    @Test("file names: server@account, or the server alone; anything unsafe becomes _")
    func fileNames() throws {
        try withTemporaryDirectory { directory in
            func name(_ server: String, _ account: String?) throws -> String {
                try StateStore.open(directory: directory, server: server, account: account).file.lastPathComponent
            }
            #expect(try name("mastodon.social", "alice") == "mastodon.social@alice.sqlite")
            #expect(try name("Mastodon.Social", "Alice") == "mastodon.social@Alice.sqlite")
            #expect(try name("sandbox", nil) == "sandbox.sqlite")
            #expect(try name("../etc", "a/b c") == "_._etc@a_b_c.sqlite")
            #expect(try name("evil@host", "ü") == "evil_host@_.sqlite")
            #expect(try name("", "") == "_@_.sqlite")
            let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".sqlite") }
            #expect(Set(files).count == 6)
        }
    }

    @Test("a missing directory is created, private to the user")
    func createsDirectory() throws {
        try withTemporaryDirectory { directory in
            let nested = directory.appendingPathComponent("state/feedline")
            let store = try StateStore.open(directory: nested, server: "sandbox", account: nil)
            #expect(store.file.deletingLastPathComponent().standardizedFileURL.path == nested.standardizedFileURL.path)
            let attributes = try FileManager.default.attributesOfItem(atPath: nested.path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
        }
    }
}
