@_spi(FeedService) import Feedline
import FeedlineState
import Testing

@Suite("The outbox")
struct StateStoreOutboxTests {
    @Test("round trip, in order; a save replaces the whole outbox")
    func roundTripAndReplace() throws {
        try withTemporaryDirectory { directory in
            let store = try openStore(directory)
            #expect(try store.loadOutbox() == [])
            let first = [
                OutboxEntry(postID: "p2", kind: .favourite, value: true),
                OutboxEntry(postID: "p1", kind: .reblog, value: false),
                OutboxEntry(postID: "p1", kind: .bookmark, value: true),
            ]
            try store.saveOutbox(first)
            #expect(try openStore(directory).loadOutbox() == first)

            let second = [OutboxEntry(postID: "p9", kind: .bookmark, value: false), first[1]]
            try store.saveOutbox(second)
            #expect(try openStore(directory).loadOutbox() == second)

            try store.saveOutbox([])
            #expect(try openStore(directory).loadOutbox() == [])
        }
    }

    @Test("two entries for one post and kind: the later one is kept, in its place")
    func sameKeyTwice() throws {
        try withTemporaryDirectory { directory in
            let store = try openStore(directory)
            try store.saveOutbox([
                OutboxEntry(postID: "p1", kind: .favourite, value: true),
                OutboxEntry(postID: "p2", kind: .favourite, value: true),
                OutboxEntry(postID: "p1", kind: .favourite, value: false),
            ])
            #expect(
                try store.loadOutbox() == [
                    OutboxEntry(postID: "p2", kind: .favourite, value: true),
                    OutboxEntry(postID: "p1", kind: .favourite, value: false),
                ]
            )
        }
    }

    @Test("the outbox and the lists do not touch each other")
    func apartFromLists() throws {
        try withTemporaryDirectory { directory in
            let store = try openStore(directory)
            try store.saveList(Samples.mixed, as: "home")
            try store.saveOutbox([OutboxEntry(postID: "b1", kind: .reblog, value: true)])
            try store.saveList(SavedList(entries: [], older: nil), as: "home")
            #expect(try store.loadOutbox() == [OutboxEntry(postID: "b1", kind: .reblog, value: true)])
        }
    }
}
