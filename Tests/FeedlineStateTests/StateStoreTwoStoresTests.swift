@_spi(FeedService) import Feedline
import FeedlineState
import Foundation
import Testing

/// Two stores on one file stand for two feedline processes: each has its own SQLite connection
/// and its own memory of what it saved.
@Suite("Two stores on one file")
struct StateStoreTwoStoresTests {
    @Test("writing alternately, with reads in between: each reads the other's writes; per list, the last writer wins")
    func alternateWrites() throws {
        try withTemporaryDirectory { directory in
            let first = try openStore(directory)
            let second = try openStore(directory)
            #expect(first.file == second.file)

            var mine = SavedList(entries: Samples.posts(0..<100), older: PageCursor("c1"))
            try first.saveList(mine, as: "home")
            expectEqual(try second.loadList("home"), mine)

            // The second refreshes the list; the first, which never saw that, appends a page to
            // what it saved: its save must leave exactly its own value (not a merge).
            var theirs = mine
            theirs.entries.insert(contentsOf: Samples.posts(-20..<0), at: 0)
            theirs.entries.removeLast(10)
            try second.saveList(theirs, as: "home")
            expectEqual(try first.loadList("home"), theirs)

            mine.entries += Samples.posts(100..<140)
            try first.saveList(mine, as: "home")
            expectEqual(try second.loadList("home"), mine)
            expectEqual(try openStore(directory).loadList("home"), mine)

            // Without a read in between, both ways.
            theirs.entries = Samples.posts(500..<520) + mine.entries
            try second.saveList(theirs, as: "home")
            mine.entries.removeFirst(5)
            try first.saveList(mine, as: "home")
            theirs.entries.removeFirst(2)
            try second.saveList(theirs, as: "home")
            expectEqual(try first.loadList("home"), theirs)

            // Different lists and the outbox interleave freely.
            for round in 0..<20 {
                let writer = round.isMultiple(of: 2) ? first : second
                let reader = round.isMultiple(of: 2) ? second : first
                let list = SavedList(entries: Samples.posts((round * 10)..<(round * 10 + 50)), older: nil)
                try writer.saveList(list, as: "list\(round % 3)")
                try writer.saveOutbox([OutboxEntry(postID: PostID("p\(round)"), kind: .bookmark, value: round.isMultiple(of: 3))])
                expectEqual(try reader.loadList("list\(round % 3)"), list)
                #expect(try reader.loadOutbox() == [OutboxEntry(postID: PostID("p\(round)"), kind: .bookmark, value: round.isMultiple(of: 3))])
            }
        }
    }

    @Test("both writing at once from two threads: every save succeeds and the file ends with one of the values")
    func concurrentWrites() async throws {
        try await withTemporaryDirectoryAsync { directory in
            let stores = [try openPatientStore(directory), try openPatientStore(directory)]
            let values = (0..<2).map { index in
                (0..<25).map { round in
                    SavedList(entries: Samples.posts((index * 1_000 + round)..<(index * 1_000 + round + 60)), older: PageCursor("\(index)-\(round)"))
                }
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<2 {
                    let store = stores[index]
                    let lists = values[index]
                    group.addTask {
                        for list in lists {
                            try store.saveList(list, as: "home")
                            _ = try store.loadList("home")
                        }
                    }
                }
                try await group.waitForAll()
            }
            let final = try openStore(directory).loadList("home")
            #expect(final == values[0].last || final == values[1].last)
        }
    }
}

/// ``withTemporaryDirectory(_:)`` for an async body.
func withTemporaryDirectoryAsync<T>(_ body: (URL) async throws -> T) async throws -> T {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("feedline-state-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    do {
        let result = try await body(directory)
        try? FileManager.default.removeItem(at: directory)
        return result
    } catch {
        try? FileManager.default.removeItem(at: directory)
        throw error
    }
}

extension StateStoreTwoStoresTests {
    /// How many fresh files two stores open at once: `FEEDLINE_OPEN_RACES` when set, else 200.
    static let openRaces = ProcessInfo.processInfo.environment["FEEDLINE_OPEN_RACES"].flatMap(Int.init) ?? 200

    /// Two feedline processes started together on a state directory with no file yet (two
    /// terminals opened at once) both create it. Each migration runs in its own transaction, so
    /// the one that lost a migration failed on what the other just made ("table list already
    /// exists") while the other was still on the next one — and that session ran without saved
    /// state. It is tried again from what the file has now. (A race: each round may or may not
    /// interleave so; on the code before, some of the rounds failed.)
    @Test("two stores opening one new file at once both open it, round after round")
    func openingOneNewFileAtOnce() async throws {
        for round in 0..<Self.openRaces {
            try await withTemporaryDirectoryAsync { directory in
                async let first = Task.detached { Result { () throws(StateStoreError) in try openPatientStore(directory) } }.value
                async let second = Task.detached { Result { () throws(StateStoreError) in try openPatientStore(directory) } }.value
                for opened in await [first, second] {
                    if case .failure(let error) = opened { Issue.record("round \(round): \(error)") }
                }
            }
        }
    }
}
