@_spi(FeedService) import Feedline
import FeedlineREPL
import Foundation
import Testing

/// The REPL's viewport of a list, as a value: fed snapshots made by the real list machine, it
/// says which rows to draw, with which numbers and marks — no rendering involved.
@Suite("List viewport")
struct ListViewportTests {
    static func post(_ id: String, favourited: Bool = false) -> Post {
        Post(id: PostID(id), author: Author(id: "1", displayName: "A", handle: "a"), text: id, createdAt: Date(timeIntervalSince1970: 0),
             favourited: favourited)
    }

    /// A machine and a viewport fed every snapshot of it.
    struct Harness {
        var state = ListState()
        var viewport = ListViewport()

        init(owed: Int, refreshStyle: ListState.RefreshStyle = .newer) {
            state = ListState(refreshStyle: refreshStyle)
            viewport.owed = owed
            viewport.receive(FeedListViewModel.Snapshot(state: state, changes: Changeset(oldCount: 0, newCount: 0)))
        }

        mutating func send(_ event: ListEvent) {
            let before = state.rows
            let changes = state.reduce(event)
            let removed = before.filter { !state.rows.contains($0.id) }
            viewport.receive(FeedListViewModel.Snapshot(state: state, changes: changes, removed: removed))
        }

        mutating func load(_ ids: [String], next: String?) {
            send(.loadMoreRequested)
            send(.pageLoaded(token: state.inFlight?.token ?? 0, page: Page(items: ids.map { .post(PostRow(post: post($0))) }, next: next.map { PageCursor($0) })))
        }

        mutating func plan() -> ListViewport.Plan { viewport.plan(rows: state.rows) }
    }

    static func numbers(_ plan: ListViewport.Plan) -> [String] {
        plan.items.map { item in
            let mark = switch item.kind {
            case .new(let inserted): inserted ? "+" : " "
            case .touched: "~"
            case .renumbered: "#"
            }
            return "\(mark)\(item.number):\(item.row.id)"
        }
    }

    @Test("the first page shows the rows owed, plain and numbered; the rest wait for more")
    func firstPage() {
        var harness = Harness(owed: 3)
        harness.load(["a", "b", "c", "d", "e"], next: "e")
        #expect(harness.viewport.shown == 3 && harness.viewport.total == 5 && harness.viewport.owed == 0)
        #expect(Self.numbers(harness.plan()) == [" 1:post:a", " 2:post:b", " 3:post:c"])
        #expect(harness.viewport.takeDisplayed() == [.post("a"), .post("b"), .post("c")])
        #expect(harness.viewport.takeDisplayed().isEmpty)
        #expect(harness.viewport.reveal(3, rows: harness.state.rows) == 2)
        #expect(Self.numbers(harness.plan()) == [" 4:post:d", " 5:post:e"])
        #expect(harness.viewport.row(5, in: harness.state.rows)?.id == .post("e"))
        #expect(harness.viewport.row(6, in: harness.state.rows) == nil)
        #expect(harness.plan().items.isEmpty)
    }

    @Test("rows owed before they load are shown when they arrive")
    func owedRows() {
        var harness = Harness(owed: 2)
        harness.load(["a", "b"], next: "b")
        _ = harness.plan()
        harness.viewport.owed = 2
        harness.load(["c", "d", "e"], next: nil)
        #expect(harness.viewport.shown == 4)
        #expect(Self.numbers(harness.plan()) == [" 3:post:c", " 4:post:d"])
    }

    @Test("a refresh inserts above: new rows marked +, rows seen before renumbered; one note when nothing was new")
    func refresh() {
        var harness = Harness(owed: 3)
        harness.load(["a", "b", "c"], next: nil)
        _ = harness.plan()
        harness.send(.refreshRequested)
        harness.send(.newerLoaded(token: harness.state.inFlight?.token ?? 0, page: NewerPage(items: [.post(PostRow(post: Self.post("n")))], hasMore: false)))
        #expect(harness.viewport.shown == 4)
        #expect(Self.numbers(harness.plan()) == ["+1:post:n", "#2:post:a", "#3:post:b", "#4:post:c"])
        harness.send(.refreshRequested)
        harness.send(.newerLoaded(token: harness.state.inFlight?.token ?? 0, page: NewerPage(items: [], hasMore: false)))
        let plan = harness.plan()
        #expect(plan.items.isEmpty && plan.notes == [.nothingNewer])
        #expect(harness.plan().notes.isEmpty)
    }

    @Test("one's reply under the last post of a thread seen to its end comes into view marked +, as a row that comes in above is")
    func replyAtTheEnd() {
        var harness = Harness(owed: 5, refreshStyle: .reload)
        harness.load(["a", "b", "c"], next: nil)
        _ = harness.plan()
        let reply = ListRow.post(PostRow(post: Self.post(PostID.sending(DraftID("d1")).rawValue)))
        harness.send(.ownSending(reply, parent: "c"))
        #expect(Self.numbers(harness.plan()) == ["+4:\(reply.id)"])
        // Rows a `more` brings are not marked: they were asked for.
        var paged = Harness(owed: 2)
        paged.load(["a", "b", "c"], next: nil)
        _ = paged.plan()
        paged.viewport.reveal(1, rows: paged.state.rows)
        #expect(Self.numbers(paged.plan()) == [" 3:post:c"])
    }

    @Test("a changed row in view is touched (its previous number kept); one out of view is not drawn")
    func touched() {
        var harness = Harness(owed: 2)
        harness.load(["a", "b", "c"], next: nil)
        _ = harness.plan()
        let faved = Self.post("b", favourited: true)
        let change = PostChange(originalID: "b", post: faved, interaction: PostInteraction(serverCopy: faved))
        harness.send(.postChanged(change, rows: [.post("b")]))
        #expect(Self.numbers(harness.plan()) == ["~2:post:b"])
        let other = Self.post("c", favourited: true)
        harness.send(.postChanged(PostChange(originalID: "c", post: other, interaction: PostInteraction(serverCopy: other)), rows: [.post("c")]))
        #expect(harness.plan().items.isEmpty)
    }

    @Test("a drawn row that goes is reported removed with the number it had")
    func removed() {
        var harness = Harness(owed: 5)
        harness.load(["a"], next: nil)
        harness.send(.refreshRequested)
        let newer = (1...3).map { ListRow.post(PostRow(post: Self.post("n\($0)"))) }
        harness.send(.newerLoaded(token: harness.state.inFlight?.token ?? 0, page: NewerPage(items: newer, hasMore: true)))
        _ = harness.plan()
        let gap = try? #require(harness.state.rows.first { $0.gap != nil })
        #expect(harness.viewport.shown == 5)
        harness.send(.gapOpened(gap?.id ?? .gap(below: "a")))
        harness.send(.newerLoaded(token: harness.state.inFlight?.token ?? 0, page: NewerPage(items: [], hasMore: false)))
        let plan = harness.plan()
        #expect(plan.removed.map(\.number) == [4])
        #expect(plan.removed.first?.row.gap != nil)
        #expect(Self.numbers(plan) == ["#4:post:a"])
    }

    @Test("the last row in view removed: the view ends above it, no row comes in from below to take a number still on screen")
    func lastShownRemoved() {
        var harness = Harness(owed: 4)
        harness.load(["a", "b", "c", "d", "e", "f"], next: nil)
        #expect(Self.numbers(harness.plan()) == [" 1:post:a", " 2:post:b", " 3:post:c", " 4:post:d"])
        // b goes: c and d move up a place and keep the numbers they were printed with.
        harness.send(.rowsRemoved([.post("b")]))
        _ = harness.plan()
        #expect(harness.viewport.shown == 3)
        // d, the last row in view, goes too: e stays below (more shows it), so 3 still names c.
        harness.send(.rowsRemoved([.post("d")]))
        let plan = harness.plan()
        #expect(harness.viewport.shown == 2)
        #expect(plan.removed.map(\.number) == [4])
        #expect(!plan.items.contains { $0.row.id == .post("e") })
        #expect(harness.viewport.row(3, in: harness.state.rows)?.id == .post("c"))
        if case .removed(let gone) = harness.viewport.lookup(4, in: harness.state.rows) {
            #expect(gone.id == .post("d"))
        } else {
            Issue.record("4 should answer that d was removed")
        }
    }

    @Test("the last row in view taken by a removal the server refuses comes back into view where it was, printed and numbered again")
    func lastShownPutBack() {
        for planned in [false, true] {
            var harness = Harness(owed: 3)
            harness.load(["a", "b", "c", "d", "e"], next: nil)
            _ = harness.plan()
            harness.send(.rowsTaken([.post("c")], by: .delete("c")))
            // With a prompt between the removal and the refusal, the removal was printed first.
            if planned { #expect(harness.plan().removed.map(\.number) == [3]) }
            #expect(harness.viewport.shown == 2)
            harness.send(.removalRefused(.delete("c"), current: [], stillHidden: []))
            #expect(harness.viewport.shown == 3, "planned: \(planned)")
            // Before it is printed again, 3 names it already: it is back.
            #expect(harness.viewport.row(3, in: harness.state.rows)?.id == .post("c"), "planned: \(planned)")
            #expect(Self.numbers(harness.plan()).contains { $0.hasSuffix("3:post:c") }, "planned: \(planned)")
            #expect(harness.viewport.row(4, in: harness.state.rows) == nil)
        }
    }
}
