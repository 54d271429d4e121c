@_spi(FeedService) import Feedline
import FeedlineState
import Foundation
import Testing

/// The start from the cache (`open` + `loadList`) must not depend on what else the file holds.
/// Its cost is counted in pages read (the connection's page-cache misses) and checked in query
/// plans, never timed.
@Suite("Opening and loading: what is read")
struct StateStoreLoadCostTests {
    /// The list every test loads: 200 posts, a gap, a cursor and a position.
    static let home = SavedList(
        entries: Samples.posts(0..<100) + [.gap(below: "p150", above: "p99")] + Samples.posts(150..<250),
        older: PageCursor("max_id=p249"),
        position: ReadingPosition(id: "p3", createdAt: Samples.now)
    )

    /// Another list's `count` posts, with ids of their own (`o<list>-<index>`) that sort apart
    /// from the home list's (`p<index>`), as a timeline's posts do from another time's.
    static func other(_ list: Int, count: Int) -> SavedList {
        let posts = (0..<count).map { index in
            Post(
                id: PostID("o\(list)-\(index)"), author: Samples.bob, text: "post \(index) of list \(list), a line of text",
                createdAt: Samples.now.addingTimeInterval(-Double(index) * 30)
            )
        }
        return SavedList(entries: posts.map(SavedList.Entry.post), older: nil)
    }

    /// Pages read by a new store's `open` and `loadList("home")` in `directory`.
    func pagesReadToLoadHome(_ directory: URL) throws -> Int {
        let store = try openStore(directory)
        expectEqual(try store.loadList("home"), Self.home)
        return store.pagesRead
    }

    @Test("open + load reads as many pages with 30 other lists (9,000 posts) in the file as with the list alone")
    func pagesReadDoNotGrowWithOtherLists() throws {
        try withTemporaryDirectory { root in
            let alone = root.appendingPathComponent("alone")
            let crowded = root.appendingPathComponent("crowded")
            try openStore(alone).saveList(Self.home, as: "home")
            let crowdedPages: Int
            do {
                let store = try openStore(crowded)
                try store.saveList(Self.other(0, count: 300), as: "list0")
                try store.saveList(Self.home, as: "home")
                for list in 1..<30 { try store.saveList(Self.other(list, count: 300), as: "list\(list)") }
                crowdedPages = try store.pageCount()
            }

            let readAlone = try pagesReadToLoadHome(alone)
            let readCrowded = try pagesReadToLoadHome(crowded)
            // The crowded file's b-trees (entries, posts and their keys) are a level or two
            // deeper, so its load passes a few more interior pages: at most 2 per tree.
            #expect(readCrowded <= readAlone + 10, "read \(readCrowded) pages of \(crowdedPages), alone \(readAlone)")
            // And nowhere near the whole file (the check at open once read every page).
            #expect(readCrowded * 4 < crowdedPages, "read \(readCrowded) pages of \(crowdedPages)")
        }
    }

    @Test("the load's queries search indexes: no table scan, no sort")
    func loadSearchesIndexes() throws {
        try withTemporaryDirectory { directory in
            let store = try openStore(directory)
            try store.saveList(Self.home, as: "home")
            let plans = try store.loadListPlans()
            #expect(plans.count == 3, "\(plans)")
            #expect(plans.allSatisfy { $0.hasPrefix("SEARCH") }, "\(plans)")
            #expect(!plans.contains { $0.contains("TEMP B-TREE") }, "\(plans)")
            #expect(plans.contains { $0.contains("entry") && $0.contains("entry_rank") }, "\(plans)")
        }
    }
}
