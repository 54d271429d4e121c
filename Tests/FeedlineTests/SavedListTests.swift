@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

/// What a list saves for the next run and how it comes back: the reading position (only ever
/// forward), the saved rows shown before any answer with the reader's post first and the newer
/// ones waiting above, the answer that confirms them, and a save cut to its limit.
@MainActor
@Suite("Saved lists and the reading position", .timeLimit(.minutes(10)))
struct SavedListTests {
    private func makeSession(_ service: any FeedService) -> FeedSession {
        FeedSession(service: service, clock: .fixed(testNow), prefetchDistance: 0)
    }

    private func ids(_ rows: some Sequence<ListRow>) -> [String] { ListStateStreamTests.ids(rows) }

    @Test("the position is the newest post row displayed; scrolling down, back, a refresh or a gap never moves it back")
    func positionOnlyForward() async {
        let service = GatedServer(posts: makePosts(30), pageSize: 10, answering: [.page, .newer, .post, .context])
        let session = makeSession(service)
        let home = session.root
        home.appeared()
        await session.settle()
        #expect(home.state.position == nil, "nothing displayed yet")
        for id in ["p3", "p2", "p1"] { home.rowWillDisplay(.post(PostID(id))) }
        #expect(home.state.position?.id == "p1")
        // Scrolling down (older rows displayed) leaves it.
        for id in ["p5", "p9"] { home.rowWillDisplay(.post(PostID(id))) }
        #expect(home.state.position?.id == "p1")
        // A refresh brings newer rows; the position moves only once one of them is displayed.
        service.arrive(makePosts(2, prefix: "n"))
        home.refresh()
        await session.settle()
        #expect(home.state.position?.id == "p1")
        home.rowWillDisplay(.post("n2"))
        #expect(home.state.position?.id == "n2")
        home.rowWillDisplay(.post("p1"))
        #expect(home.state.position?.id == "n2")
        // Opening a thread and coming back does not touch the list's state.
        session.navigator.push(.list(.thread("p4")))
        await session.settle()
        session.navigator.pop()
        #expect(home.state.position?.id == "n2")
    }

    @Test("a saved list comes back with the reader's post first, the newer ones waiting above, and one request that confirms the first screen")
    func restoreAtPosition() async throws {
        // The server: three posts newer than the save, then the saved ones.
        let saved = makePosts(30)
        let service = GatedServer(posts: makePosts(3, prefix: "n") + saved, pageSize: 40, answering: [.page, .newer])
        let session = makeSession(service)
        let home = session.root
        var list = SavedList(entries: saved.map { .post($0) }, older: PageCursor("p30"), position: ReadingPosition(id: "p5", createdAt: saved[4].createdAt))
        list.entries.insert(.gap(below: "p10", above: "p9"), at: 9)
        home.restore(list)
        // Before any answer: p5 first, p1–p4 waiting above, every row a saved copy.
        #expect(ids(home.rows.prefix(5)) == ["p5", "p6", "p7", "p8", "p9"])
        #expect(ids(home.rows.dropFirst(5).prefix(1)) == ["gap(p10…p9)"])
        #expect(ids(home.state.waiting) == ["p1", "p2", "p3", "p4"])
        #expect(home.status.waiting == 4)
        #expect(home.state.unconfirmed.count == 30)
        #expect(home.state.position?.id == "p5")
        #expect(service.asked.isEmpty, "nothing asked before the restore's own request starts")
        await session.settle()
        // One request, above the 21st row's post: it confirms the rows it covers; n1–n3 wait too.
        #expect(service.asked == ["newer(home, than: p24, olderThan: nil)"])
        #expect(ids(home.rows.prefix(2)) == ["p5", "p6"])
        #expect(ids(home.state.waiting) == ["n1", "n2", "n3", "p1", "p2", "p3", "p4"])
        #expect(!home.state.unconfirmed.contains(.post("p5")))
        #expect(home.state.unconfirmed.contains(.post("p26")))
        #expect(home.state.checkInvariants().isEmpty)
        // Showing what waits puts it above without moving the reader's rows' order.
        home.showWaiting()
        #expect(ids(home.rows.prefix(8)) == ["n1", "n2", "n3", "p1", "p2", "p3", "p4", "p5"])
        // Older pages continue from the row above the last saved one, so the first brings that
        // row again (it confirms it).
        home.loadMore()
        await session.settle()
        #expect(service.asked.last == "page(home, after: p29)")
        #expect(!home.state.unconfirmed.contains(.post("p30")))
    }

    @Test("posts that came between runs wait above with no gap when the confirming answer, though full, overlaps the saved rows")
    func restoreAnswerOverlappingTheRowsLeavesNoGap() async throws {
        // The save: 30 posts, read from the top. Two posts came since. The confirming request asks
        // above the 21st row with a page of 21: the newest 21 of the 22 newer posts, full (more
        // below), but the 19 saved rows in it show that nothing is missing.
        let saved = makePosts(30)
        let service = GatedServer(posts: makePosts(2, prefix: "n") + saved, pageSize: 21, answering: [.page, .newer])
        let session = makeSession(service)
        let home = session.root
        home.restore(SavedList(entries: saved.map { .post($0) }, older: PageCursor("p30"), position: ReadingPosition(saved[0])))
        await session.settle()
        #expect(service.asked == ["newer(home, than: p21, olderThan: nil)"])
        #expect(ids(home.state.waiting) == ["n1", "n2"])
        home.showWaiting()
        #expect(ids(home.rows.prefix(4)) == ["n1", "n2", "p1", "p2"], "no gap row between what came and the saved rows")
        #expect(home.rows.allSatisfy { $0.gap == nil })
        #expect(home.saved().entries.allSatisfy { if case .post = $0 { true } else { false } }, "no gap saved either")
        #expect(home.state.checkInvariants().isEmpty)
    }

    @Test("restored rows below the first screen are confirmed as they come into view, each stretch asked for once, and none stays marked for ever")
    func restoredRowsConfirmedAsDisplayed() async throws {
        let saved = makePosts(60)
        let service = GatedServer(posts: saved, pageSize: 40, answering: [.page, .newer])
        let session = makeSession(service)
        let home = session.root
        home.restore(SavedList(entries: saved.map { .post($0) }, older: nil, position: ReadingPosition(saved[0])))
        await session.settle()
        // The first catch-up confirms the first screen (above p21).
        #expect(service.asked == ["newer(home, than: p21, olderThan: nil)"])
        #expect(home.state.unconfirmed.contains(.post("p21")) && !home.state.unconfirmed.contains(.post("p20")))
        // p21 comes into view: the stretch from it down is asked for, above the 21st row below it.
        home.rowWillDisplay(.post("p21"))
        await session.settle()
        #expect(service.asked.last == "newer(home, than: p41, olderThan: p20)")
        #expect(!home.state.unconfirmed.contains(.post("p21")) && !home.state.unconfirmed.contains(.post("p40")))
        #expect(home.state.unconfirmed.contains(.post("p41")))
        // Nothing was inserted, nothing moved, and the list status never showed it loading.
        #expect(ids(home.rows) == (1...60).map { "p\($0)" })
        // Displaying a confirmed row, or one asked for already, asks nothing.
        let asked = service.asked.count
        home.rowWillDisplay(.post("p30"))
        await session.settle()
        #expect(service.asked.count == asked)
        // The last stretch: above the last row, which the first older page brings.
        home.rowWillDisplay(.post("p41"))
        await session.settle()
        #expect(service.asked.last == "newer(home, than: p60, olderThan: p40)")
        home.loadMore()
        await session.settle()
        #expect(service.asked.last == "page(home, after: p59)")
        #expect(home.state.unconfirmed.isEmpty, "\(home.state.unconfirmed)")
        #expect(home.state.checkInvariants().isEmpty)
    }

    @Test("a confirming request that fails is quiet, and the rows ask again when displayed again")
    func failedConfirmationAsksAgain() async throws {
        let saved = makePosts(30)
        let service = GatedServer(posts: saved, pageSize: 40, answering: [.page, .newer])
        let session = makeSession(service)
        let home = session.root
        home.restore(SavedList(entries: saved.map { .post($0) }, older: nil, position: ReadingPosition(saved[0])))
        await session.settle()
        service.failNext(1, .newer, with: ServerUnreachable())
        home.rowWillDisplay(.post("p21"))
        await session.settle()
        #expect(service.asked.last == "newer(home, than: p30, olderThan: p20)")
        #expect(home.status.failure == nil && home.status.loading == nil)
        #expect(home.state.unconfirmed.contains(.post("p21")))
        home.rowWillDisplay(.post("p21"))
        await session.settle()
        #expect(service.asked.filter { $0 == "newer(home, than: p30, olderThan: p20)" }.count == 2)
        #expect(!home.state.unconfirmed.contains(.post("p21")))
    }

    @Test("a server copy replaces the saved one, and a toggle made on the saved copy converges")
    func restoredCopiesYield() async {
        var old = makePost("p1")
        old.text = "saved text"
        let service = GatedServer(posts: [makePost("p1", text: "server text")], pageSize: 10, answering: [.newer, .interaction])
        let session = makeSession(service)
        let home = session.root
        home.restore(SavedList(entries: [.post(old)], older: nil))
        #expect(home.rows.first?.post?.post.text == "saved text")
        #expect(home.state.unconfirmed == [.post("p1")])
        home.toggle(.favourite, row: .post("p1"))
        await session.settle()
        #expect(home.rows.first?.post?.post.text == "server text")
        #expect(home.rows.first?.post?.interaction.favourited == true)
        #expect(home.state.unconfirmed.isEmpty)
        #expect(service.calls(.interaction).map(\.description) == ["interaction(favourite true p1)"])
    }

    @Test("saving keeps waiting rows, rows, gaps between them, the cursor and the position; cut short, older pages continue below the last entry")
    func savedValue() async {
        let service = GatedServer(posts: makePosts(30), pageSize: 10, answering: [.page, .newer])
        let session = makeSession(service)
        let home = session.root
        home.appeared()
        await session.settle()
        home.rowWillDisplay(.post("p2"))
        var list = home.saved()
        #expect(list.entries.count == 10)
        #expect(list.older == PageCursor("p10"))
        #expect(list.position?.id == "p2")
        list = home.saved(limit: 4)
        #expect(list.entries.map(\.rowID) == ["p1", "p2", "p3", "p4"].map { .post(PostID($0)) })
        #expect(list.older == PageCursor("p4"))
        // The value goes through JSON unchanged (what a database keeps).
        let decoded = try? JSONDecoder().decode(SavedList.self, from: JSONEncoder().encode(home.saved()))
        #expect(decoded == home.saved())
        // And restores to the same rows.
        let again = makeSession(service)
        again.root.restore(home.saved())
        #expect(ids(again.root.rows) == ["p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9", "p10"])
        #expect(ids(again.root.state.waiting) == ["p1"])
    }

    @Test("restoring an empty save loads the first page; a list with rows ignores a restore")
    func restoreEdges() async {
        let service = GatedServer(posts: makePosts(5), pageSize: 10, answering: [.page])
        let session = makeSession(service)
        session.root.restore(SavedList(entries: [], older: nil))
        await session.settle()
        #expect(service.asked == ["page(home, after: nil)"])
        session.root.restore(SavedList(entries: [.post(makePost("x1"))], older: nil))
        #expect(!session.root.rows.contains(.post("x1")))
    }
}
