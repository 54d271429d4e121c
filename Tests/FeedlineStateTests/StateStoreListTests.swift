@_spi(FeedService) import Feedline
import FeedlineState
import FeedlineTestSupport
import Foundation
import Testing

@Suite("Saved lists: round trips, incremental saves, cost")
struct StateStoreListTests {
    @Test("a list with boosts, media, polls, filters, edits, gaps, a cursor and a position reads back equal")
    func roundTrip() throws {
        try withTemporaryDirectory { directory in
            let store = try openStore(directory)
            #expect(try store.loadList("home") == nil)
            try store.saveList(Samples.mixed, as: "home")
            expectEqual(try store.loadList("home"), Samples.mixed)
            // From the file, not from the store's memory.
            expectEqual(try openStore(directory).loadList("home"), Samples.mixed)
            // Another key is another list.
            #expect(try store.loadList("local") == nil)
        }
    }

    @Test("an empty list, and a list without cursor or position, read back equal")
    func emptyAndBare() throws {
        try withTemporaryDirectory { directory in
            let store = try openStore(directory)
            let empty = SavedList(entries: [], older: nil)
            try store.saveList(empty, as: "home")
            expectEqual(try openStore(directory).loadList("home"), empty)
            let bare = SavedList(entries: Samples.posts(0..<3), older: nil)
            try store.saveList(bare, as: "home")
            expectEqual(try openStore(directory).loadList("home"), bare)
        }
    }

    @Test("incremental saves: append 40, prepend 20, remove 3, edit 5, fill a gap; each reload equals the value saved")
    func incremental() throws {
        try withTemporaryDirectory { directory in
            let store = try openStore(directory)
            var list = SavedList(entries: Samples.posts(100..<140) + [.gap(below: "p200", above: "p139")] + Samples.posts(200..<220), older: PageCursor("c1"))
            func saveAndCheck(_ step: String) throws {
                try store.saveList(list, as: "home")
                expectEqual(try store.loadList("home"), list)
                expectEqual(try openStore(directory).loadList("home"), list)
            }
            try saveAndCheck("first")

            list.entries += Samples.posts(220..<260)
            list.older = PageCursor("c2")
            try saveAndCheck("append a page of 40")

            list.entries.insert(contentsOf: Samples.posts(80..<100), at: 0)
            list.position = ReadingPosition(id: "p85", createdAt: Samples.now)
            try saveAndCheck("prepend 20")

            list.entries.remove(at: 50)
            list.entries.remove(at: 10)
            list.entries.remove(at: 0)
            try saveAndCheck("remove 3")

            for index in [1, 7, 30, 61, 90] {
                guard case .post(var post) = list.entries[index] else { continue }
                post.text += " (edited)"
                post.editedAt = Samples.now
                list.entries[index] = .post(post)
            }
            try saveAndCheck("edit 5")

            let gap = try #require(list.entries.firstIndex { if case .gap = $0 { true } else { false } })
            list.entries.insert(contentsOf: Samples.posts(140..<160) + [.gap(below: "p200", above: "p159")], at: gap)
            list.entries.remove(at: gap + 21)
            try saveAndCheck("fill the gap, a smaller gap below")

            list.entries.removeAll { if case .gap = $0 { true } else { false } }
            list.entries.insert(contentsOf: Samples.posts(160..<200), at: gap + 20)
            list.position = nil
            list.older = nil
            try saveAndCheck("close the gap, the list reached its end")
        }
    }

    @Test("after a 1,000-entry list, a save writes only what changed")
    func writesProportionalToChanges() throws {
        try withTemporaryDirectory { directory in
            let store = try openStore(directory)
            var list = SavedList(entries: Samples.posts(0..<960), older: PageCursor("c1"))
            try store.saveList(list, as: "home")
            #expect(store.lastSaveChanges == 960 * 2 + 1)

            // One page appended: 40 entries and 40 posts, and the list row.
            list.entries += Samples.posts(960..<1_000)
            list.older = PageCursor("c2")
            try store.saveList(list, as: "home")
            #expect(store.lastSaveChanges == 40 * 2 + 1)

            // Unchanged: the list row only.
            try store.saveList(list, as: "home")
            #expect(store.lastSaveChanges == 1)

            // Refreshed at the top of a full list: 40 in, the 40 oldest out (entries and posts).
            list.entries = Array((Samples.posts(-40..<0) + list.entries).prefix(SavedList.limit))
            try store.saveList(list, as: "home")
            #expect(store.lastSaveChanges == 40 * 4 + 1)

            // Five posts edited.
            for index in [0, 100, 500, 700, 999] {
                guard case .post(var post) = list.entries[index] else { continue }
                post.favouritesCount += 1
                list.entries[index] = .post(post)
            }
            try store.saveList(list, as: "home")
            #expect(store.lastSaveChanges == 5 + 1)

            // The same holds for a store that only loaded the list.
            let second = try openStore(directory)
            expectEqual(try second.loadList("home"), list)
            list.entries.removeLast(40)
            list.entries.insert(contentsOf: Samples.posts(-80..<(-40)), at: 0)
            try second.saveList(list, as: "home")
            #expect(second.lastSaveChanges == 40 * 4 + 1)
            expectEqual(try openStore(directory).loadList("home"), list)
        }
    }

    @Test("more than the limit, or an id twice: the first limit entries are kept, each id once")
    func trimsAndDedups() throws {
        try withTemporaryDirectory { directory in
            let store = try openStore(directory)
            let long = SavedList(entries: Samples.posts(0..<1_050), older: PageCursor("c"))
            try store.saveList(long, as: "home")
            var expected = long
            expected.entries = Array(long.entries.prefix(SavedList.limit))
            expectEqual(try openStore(directory).loadList("home"), expected)

            let twice = SavedList(entries: Samples.posts(0..<3) + [.post(Samples.post(1, text: "again"))] + Samples.posts(3..<5), older: nil)
            try store.saveList(twice, as: "home")
            expectEqual(try openStore(directory).loadList("home"), SavedList(entries: Samples.posts(0..<5), older: nil))
        }
    }

    @Test("pages inserted again and again at one place (renumbering the list) and moved entries read back equal")
    func nestedInsertsAndMoves() throws {
        try withTemporaryDirectory { directory in
            let store = try openStore(directory)
            var list = SavedList(entries: Samples.posts(0..<10), older: nil)
            try store.saveList(list, as: "home")
            var next = 1_000
            var renumbered = 0
            // 30 pages of 20 between the first entry and the page inserted before: more than
            // the spacing of ranks allows without renumbering.
            for _ in 0..<30 {
                list.entries.insert(contentsOf: Samples.posts(next..<(next + 20)), at: 1)
                next += 20
                try store.saveList(list, as: "home")
                if store.lastSaveChanges > 20 * 2 + 1 { renumbered += 1 }
                expectEqual(try openStore(directory).loadList("home"), list)
            }
            #expect(renumbered > 0, "the ranks never ran out: the renumbering went untested")
            // Moves: the last entry to the top, the top one near the bottom.
            list.entries.insert(list.entries.removeLast(), at: 0)
            list.entries.insert(list.entries.remove(at: 1), at: list.entries.count - 3)
            try store.saveList(list, as: "home")
            #expect(store.lastSaveChanges == 2 + 1)
            expectEqual(try openStore(directory).loadList("home"), list)
        }
    }

    @Test("random edits, seeded: every save reads back equal from the file")
    func randomEdits() throws {
        let seed = testSeed(0x5354_4154)
        var random = SeededGenerator(seed: seed)
        try withTemporaryDirectory { directory in
            let store = try openStore(directory)
            var list = SavedList(entries: Samples.posts(0..<200), older: PageCursor("c0"))
            var next = 10_000
            for step in 0..<60 {
                var entries = list.entries
                for _ in 0..<(1 + random.next(below: 4)) {
                    switch random.next(below: 6) {
                    case 0, 1:
                        let count = 1 + random.next(below: 40)
                        entries.insert(contentsOf: Samples.posts(next..<(next + count)), at: random.next(below: entries.count + 1))
                        next += count
                    case 2 where !entries.isEmpty:
                        let start = random.next(below: entries.count)
                        entries.removeSubrange(start..<min(entries.count, start + 1 + random.next(below: 30)))
                    case 3 where !entries.isEmpty:
                        let index = random.next(below: entries.count)
                        if case .post(var post) = entries[index] {
                            post.text += " edit \(step)"
                            entries[index] = .post(post)
                        }
                    case 4 where entries.count > 1:
                        let entry = entries.remove(at: random.next(below: entries.count))
                        entries.insert(entry, at: random.next(below: entries.count + 1))
                    default:
                        let index = random.next(below: entries.count + 1)
                        entries.insert(.gap(below: ItemID("g\(next)"), above: ItemID("a\(next)")), at: index)
                        next += 1
                    }
                }
                list.entries = Array(entries.prefix(SavedList.limit))
                list.older = PageCursor("c\(step)")
                try store.saveList(list, as: "home")
                let loaded = try openStore(directory).loadList("home")
                #expect(loaded == list, "seed \(seed), step \(step)")
                if loaded != list { return }
            }
        }
    }

    @Test("lists share posts: a post leaves the file with the last list that shows it")
    func sharedPosts() throws {
        try withTemporaryDirectory { directory in
            let store = try openStore(directory)
            let home = SavedList(entries: Samples.posts(0..<10), older: nil)
            let local = SavedList(entries: Samples.posts(5..<15), older: nil)
            try store.saveList(home, as: "home")
            try store.saveList(local, as: "local")
            #expect(store.lastSaveChanges == 10 + 10 + 1, "posts 5-9 are written again (an upsert each)")

            // home drops 0..<10 entirely: 0-4 go, 5-9 stay for local.
            try store.saveList(SavedList(entries: [], older: nil), as: "home")
            #expect(store.lastSaveChanges == 10 + 5 + 1)
            expectEqual(try openStore(directory).loadList("local"), local)
        }
    }
}
