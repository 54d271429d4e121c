import Feedline
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
