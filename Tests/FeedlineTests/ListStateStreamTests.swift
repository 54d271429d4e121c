@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Testing

/// The list machine's stream events — streamed rows, showing what waits, catch-up, removed
/// rows — in every phase of the pagination machine, and the rules that tie them to refreshes.
@Suite("List machine: streams")
struct ListStateStreamTests {
    typealias Phase = ListStateTests.Phase

    static func rows(_ ids: [String]) -> [ListRow] { ids.map { .post(makePost($0)) } }
    static let news = rows(["s3", "s2", "s1"])

    /// The state of `phase` with `news` streamed in.
    static func withWaiting(_ phase: Phase) -> ListState {
        var state = ListStateTests.state(phase)
        state.reduce(.streamed(news))
        return state
    }

    // MARK: - streamed

    @Test("streamed rows wait above in every phase: the rows and the request do not change", arguments: Phase.allCases)
    func streamed(_ phase: Phase) {
        let before = ListStateTests.state(phase)
        var state = before
        let changes = state.reduce(.streamed(Self.news))
        #expect(changes.isEmpty)
        #expect(state.rows == before.rows)
        #expect(state.inFlight == before.inFlight)
        #expect(state.waiting.map(\.id) == Self.news.map(\.id))
        #expect(ListStatus(state).waiting == 3)
        #expect(state.checkInvariants().isEmpty)
        // More arrive: newest first on top of the waiting ones; a repeat is not doubled.
        state.reduce(.streamed(Self.rows(["s5", "s4", "s3"])))
        #expect(state.waiting.map(\.id) == Self.rows(["s5", "s4", "s3", "s2", "s1"]).map(\.id))
    }

    @Test("a streamed post that is already shown is updated in place, not made to wait")
    func streamedShown() {
        var state = ListStateTests.state(.loaded)
        let edited = ListRow.post(makePost("p3", text: "edited"))
        let changes = state.reduce(.streamed([edited]))
        #expect(state.waiting.isEmpty)
        #expect(state.rows[2] == edited)
        #expect(changes.updates.map(\.newIndex) == [2])
    }

    // MARK: - waitingShown

    @Test("showing what waits puts it on top, as a refresh would, in every phase with rows", arguments: Phase.allCases)
    func shown(_ phase: Phase) {
        let before = Self.withWaiting(phase)
        var state = before
        let changes = state.reduce(.waitingShown(current: []))
        guard !before.rows.isEmpty else {
            // No rows to put them above: the first page may hold newer posts, so it is asked
            // for (unless it is loading) and what waits keeps waiting.
            #expect(changes.isEmpty)
            #expect(state.waiting == before.waiting)
            #expect(state.inFlight?.kind == .page(after: nil))
            if case .page(nil)? = before.inFlight?.kind { #expect(state.inFlight == before.inFlight) }
            #expect(state.checkInvariants().isEmpty)
            return
        }
        #expect(state.waiting.isEmpty)
        #expect(Array(state.rows.prefix(3)).map(\.id) == Self.news.map(\.id))
        #expect(Array(state.rows.dropFirst(3)) == Array(before.rows))
        #expect(changes.apply(to: before.rows) == Array(state.rows))
        #expect(state.lastRefresh == .newRows(3))
        if case .refresh? = before.inFlight?.kind {
            // A refresh in flight asks again, above the new top.
            #expect(state.inFlight == ListRequest(token: before.nextToken, kind: .refresh(above: "s3")))
        } else {
            #expect(state.inFlight == before.inFlight)
        }
        #expect(state.checkInvariants().isEmpty)
    }

    @Test("showing takes the latest copies given; with nothing waiting it does nothing")
    func shownLatest() {
        var state = Self.withWaiting(.loaded)
        let latest = ListRow.post(makePost("s2", favourited: true, favourites: 1))
        state.reduce(.waitingShown(current: [latest]))
        #expect(state.rows[1] == latest)
        let settled = state
        #expect(state.reduce(.waitingShown(current: [])).isEmpty)
        #expect(state == settled)
    }

    // MARK: - catchUpRequested

    @Test("a catch-up asks for what is newer than everything known, in every phase", arguments: Phase.allCases)
    func catchUp(_ phase: Phase) {
        let before = Self.withWaiting(phase)
        var state = before
        state.reduce(.catchUpRequested)
        #expect(state.rows == before.rows)
        if before.inFlight == nil {
            // Above the newest waiting row, not the top row.
            #expect(state.inFlight?.kind == .catchUp(above: "s3"))
        } else {
            #expect(state.inFlight == before.inFlight)
            #expect(state.queued == before.queued + [.catchUp])
        }
        #expect(state.checkInvariants().isEmpty)
    }

    @Test("a later success of the same kind clears a failure: a catch-up clears a failed refresh, a refresh a failed catch-up")
    func successOfTheSameKindClearsAFailure() {
        // The refresh failed while the server was down; the stream came back and caught up.
        var state = ListStateTests.state(.refreshFailed)
        #expect(ListStatus(state).failure?.intent == .refresh)
        state.reduce(.catchUpRequested)
        var token = state.inFlight?.token ?? 0
        state.reduce(.newerLoaded(token: token, page: NewerPage(posts: [makePost("c1")], hasMore: false)))
        #expect(state.refreshFailure == nil)
        #expect(state.lastFailed == nil)
        #expect(ListStatus(state).failure == nil)
        #expect(state.failedIntents.isEmpty)
        #expect(state.checkInvariants().isEmpty)
        // The other way round.
        state.reduce(.catchUpRequested)
        token = state.inFlight?.token ?? 0
        state.reduce(.pageFailed(token: token, failure: "Down."))
        #expect(ListStatus(state).failure?.intent == .catchUp)
        state.reduce(.refreshRequested)
        token = state.inFlight?.token ?? 0
        state.reduce(.newerLoaded(token: token, page: NewerPage(posts: [], hasMore: false)))
        #expect(state.catchUpFailure == nil)
        #expect(ListStatus(state).failure == nil)
        #expect(state.failedIntents.isEmpty)
    }

    @Test("a catch-up keeps what it brings waiting; a full page drops the rows it covers and marks that posts may be missing")
    func caughtUp() {
        var state = Self.withWaiting(.loaded)
        state.reduce(.catchUpRequested)
        let token = state.inFlight?.token ?? 0
        // A stream arrival while the catch-up runs.
        state.reduce(.streamed(Self.rows(["s9"])))
        var partial = state
        partial.reduce(.newerLoaded(token: token, page: NewerPage(posts: [makePost("c2"), makePost("c1")], hasMore: false)))
        #expect(partial.waiting.map(\.id) == Self.rows(["s9", "c2", "c1", "s3", "s2", "s1"]).map(\.id))
        #expect(!partial.waitingMayMiss)
        var full = state
        full.reduce(.newerLoaded(token: token, page: NewerPage(posts: [makePost("c2"), makePost("c1")], hasMore: true)))
        #expect(full.waiting.map(\.id) == Self.rows(["s9", "c2", "c1"]).map(\.id))
        #expect(full.waitingMayMiss)
        // Shown, a gap stands between them and the rows: it covers what may be missing.
        let before = full
        full.reduce(.waitingShown(current: []))
        #expect(Array(full.rows.prefix(4)).map(\.id) == Self.rows(["s9", "c2", "c1"]).map(\.id) + [.gap(below: "p1")])
        #expect(full.rows[3].gap == Gap(below: "p1", above: "c1"))
        #expect(full.rows.count == before.rows.count + 4)
        #expect(full.checkInvariants().isEmpty)
    }

    @Test("a failed catch-up is a failure retry runs again")
    func catchUpFailed() {
        var state = Self.withWaiting(.loaded)
        state.reduce(.catchUpRequested)
        state.reduce(.pageFailed(token: state.inFlight?.token ?? 0, message: "Down."))
        #expect(state.catchUpFailure == "Down.")
        #expect(state.lastFailed == .catchUp)
        #expect(ListStatus(state).failure?.intent == .catchUp)
        state.reduce(.retryRequested)
        #expect(state.inFlight?.kind == .catchUp(above: "s3"))
        #expect(state.catchUpFailure == nil)
    }

    @Test("a refresh covers the rows that waited before it started, keeps those that came after")
    func refreshCoversWaiting() {
        var state = Self.withWaiting(.loaded)
        state.reduce(.refreshRequested)
        let token = state.inFlight?.token ?? 0
        state.reduce(.streamed(Self.rows(["s9"])))
        state.reduce(.newerLoaded(token: token, page: NewerPage(posts: [makePost("s3"), makePost("s2"), makePost("s1")], hasMore: false)))
        #expect(state.waiting.map(\.id) == [.post("s9")])
        #expect(Array(state.rows.prefix(3)).map(\.id) == Self.news.map(\.id))
        #expect(state.checkInvariants().isEmpty)
    }

    // MARK: - streamInterrupted

    @Test("a stream drop changes neither the rows, nor what waits, nor the request, in every phase", arguments: Phase.allCases)
    func interrupted(_ phase: Phase) {
        let before = Self.withWaiting(phase)
        var state = before
        let changes = state.reduce(.streamInterrupted)
        #expect(changes.isEmpty)
        #expect(state.rows == before.rows && state.waiting == before.waiting && state.inFlight == before.inFlight)
        #expect(state.waitingRows.missedSince?.arrivals == before.waitingRows.arrivals && state.waitingRows.missedSince?.token == nil)
        #expect(state.checkInvariants().isEmpty)
    }

    // MARK: - rowsRemoved

    @Test("removed rows leave the rows and the waiting rows, in every phase", arguments: Phase.allCases)
    func removed(_ phase: Phase) {
        let before = Self.withWaiting(phase)
        var state = before
        let gone: [RowID] = [.post("p2"), .post("s2"), .post("n5"), .post("nowhere")]
        let changes = state.reduce(.rowsRemoved(gone))
        #expect(state.rows.allSatisfy { !gone.contains($0.id) })
        #expect(state.waiting.map(\.id) == [.post("s3"), .post("s1")])
        #expect(state.rows.count == before.rows.count - before.rows.filter { gone.contains($0.id) }.count)
        #expect(changes.apply(to: before.rows) == Array(state.rows))
        #expect(state.checkInvariants().isEmpty, "\(state.checkInvariants())")
    }

    @Test("a gap left at the top is dropped; one left at the bottom becomes where older pages start")
    func gapsMended() {
        let withGap = ListStateTests.state(.withGap)
        let above = withGap.rows.prefix(20).map(\.id)
        let below = withGap.rows.dropFirst(21).map(\.id)
        var top = withGap
        let topChanges = top.reduce(.rowsRemoved(above))
        #expect(top.rows.allSatisfy { $0.gap == nil })
        #expect(top.rows.count == 20)
        #expect(topChanges.apply(to: withGap.rows) == Array(top.rows))
        var bottom = withGap
        bottom.reduce(.rowsRemoved(below))
        #expect(bottom.rows.allSatisfy { $0.gap == nil })
        #expect(bottom.rows.count == 20)
        #expect(bottom.older == .from(PageCursor("n20")))
        #expect(bottom.checkInvariants().isEmpty)
    }

    @Test("two gaps that meet become one, with both ranges")
    func gapsMerge() {
        var state = ListStateTests.state(.withGap)
        state.reduce(.refreshRequested)
        state.reduce(.newerLoaded(token: state.inFlight?.token ?? 0, page: NewerPage(posts: makePosts(3, prefix: "m"), hasMore: true)))
        // m1 m2 m3 | gap(n1, m3) | n1 … n20 | gap(p1, n20) | p1 … p20
        let middle = (1...20).map { RowID.post(PostID("n\($0)")) }
        let before = state
        let changes = state.reduce(.rowsRemoved(middle))
        #expect(state.rows.filter { $0.gap != nil }.map(\.gap) == [Gap(below: "p1", above: "m3")])
        #expect(changes.apply(to: before.rows) == Array(state.rows))
        #expect(state.checkInvariants().isEmpty)
    }

    // MARK: - Found by the stream model check (StreamModelCheckTests)

    static func page(_ ids: [String], next: String? = "cursor") -> Page<Post> {
        Page(posts: ids.map { makePost($0) }, next: next.map { PageCursor($0) })
    }

    static func newer(_ ids: [String], hasMore: Bool = false) -> NewerPage<Post> {
        NewerPage(posts: ids.map { makePost($0) }, hasMore: hasMore)
    }

    static func ids(_ rows: some Sequence<ListRow>) -> [String] {
        rows.map { row in row.gap.map { "gap(\($0.below)…\($0.above))" } ?? "\(row.id)".replacingOccurrences(of: "post:", with: "") }
    }

    @Test("the first page covers what waited up to the last arrival it brought; later arrivals keep waiting")
    func firstPageCoversWaiting() {
        var state = ListState()
        state.reduce(.appeared)
        for id in ["s1", "s2", "s3", "s4"] { state.reduce(.streamed(Self.rows([id]))) }
        // Served after s3 was written and before s4: s1 and s2 are older than its last post.
        state.reduce(.pageLoaded(token: 1, page: Self.page(["s3", "p9", "p8"])))
        #expect(Self.ids(state.waiting) == ["s4"])
        #expect(Self.ids(state.rows) == ["s3", "p9", "p8"])
        #expect(state.checkInvariants().isEmpty)
    }

    @Test("a catch-up's page keeps its order for the rows that arrived while it ran")
    func catchUpKeepsServerOrder() {
        var state = ListStateTests.state(.loaded)
        state.reduce(.catchUpRequested)
        let token = state.inFlight?.token ?? 0
        state.reduce(.streamed(Self.rows(["s1"])))
        state.reduce(.newerLoaded(token: token, page: Self.newer(["c2", "s1", "c1"])))
        #expect(Self.ids(state.waiting) == ["c2", "s1", "c1"])
        #expect(!state.waitingMayMiss)
        // The stream repeating a post that waits keeps it in its place.
        state.reduce(.streamed([.post(makePost("c1", text: "again"))]))
        #expect(Self.ids(state.waiting) == ["c2", "s1", "c1"])
        #expect(state.waiting[id: .post("c1")]?.post?.text == "again")
    }

    @Test("a catch-up with nothing to ask above loads the first page")
    func catchUpWithNothingKnown() {
        var state = ListState()
        state.reduce(.appeared)
        state.reduce(.pageLoaded(token: 1, page: Self.page([], next: nil)))
        #expect(state.reachedEnd && state.rows.isEmpty)
        state.reduce(.catchUpRequested)
        #expect(state.inFlight?.kind == .page(after: nil))
    }

    @Test("after a drop the catch-up asks above what waited before it, even when it starts later")
    func catchUpAfterDropAsksAboveOldRows() {
        var state = ListStateTests.state(.loaded)
        state.reduce(.streamed(Self.rows(["s1"])))
        state.reduce(.loadMoreRequested)
        state.reduce(.streamInterrupted)
        state.reduce(.catchUpRequested)
        #expect(state.queued == [.catchUp])
        state.reduce(.streamed(Self.rows(["s2"])))
        state.reduce(.pageLoaded(token: state.inFlight?.token ?? 0, page: Self.page(["q1"])))
        // Not above s2: what the stream missed is older than s2.
        #expect(state.inFlight?.kind == .catchUp(above: "s1"))
    }

    @Test("a catch-up asked for while one runs runs again after it (the running one started too early)")
    func catchUpAgain() {
        var state = ListStateTests.state(.loaded)
        state.reduce(.catchUpRequested)
        let first = state.inFlight
        state.reduce(.streamInterrupted)
        state.reduce(.catchUpRequested)
        #expect(state.inFlight == first)
        #expect(state.queued == [.catchUp])
    }

    @Test("after a reconnect, before its catch-up: what arrived since goes on top above a gap; what waited before goes into it")
    func showAfterReconnect() {
        var state = ListStateTests.state(.loaded)
        state.reduce(.streamed(Self.rows(["s1"])))
        state.reduce(.streamInterrupted)
        state.reduce(.catchUpRequested)
        #expect(state.inFlight?.kind == .catchUp(above: "s1"))
        state.reduce(.streamed(Self.rows(["s2"])))
        let before = state
        let changes = state.reduce(.waitingShown(current: []))
        #expect(Self.ids(state.rows.prefix(3)) == ["s2", "gap(p1…s2)", "p1"])
        #expect(state.waiting.isEmpty)
        #expect(changes.apply(to: before.rows) == Array(state.rows))
        // The catch-up asks again, above the new top.
        #expect(state.inFlight?.kind == .catchUp(above: "s2"))
        #expect(state.checkInvariants().isEmpty)
    }

    @Test("after a reconnect with nothing arrived since, what waits goes on top: what was missed is newer")
    func showAfterReconnectNothingNew() {
        var state = ListStateTests.state(.loaded)
        state.reduce(.streamed(Self.rows(["s1"])))
        state.reduce(.streamInterrupted)
        state.reduce(.catchUpRequested)
        state.reduce(.waitingShown(current: []))
        #expect(Self.ids(state.rows.prefix(2)) == ["s1", "p1"])
        #expect(state.inFlight?.kind == .catchUp(above: "s1"))
    }

    @Test("an answer that comes while the stream is down may hold posts it missed: what waited and is not in it stops waiting")
    func answerDuringDrop() {
        var state = ListState()
        state.reduce(.appeared)
        state.reduce(.streamed(Self.rows(["s1"])))
        state.reduce(.streamInterrupted)
        // m1…m3 were written while the stream was down, after s1.
        state.reduce(.pageLoaded(token: 1, page: Self.page(["m3", "m2", "m1"])))
        #expect(state.waiting.isEmpty, "s1 is older than m1: older pages bring it")
        #expect(Self.ids(state.rows) == ["m3", "m2", "m1"])
        #expect(state.waitingMayMiss)
        state.reduce(.catchUpRequested)
        #expect(state.inFlight?.kind == .catchUp(above: "m3"))
    }

    @Test("a refresh answered after every row was deleted: older pages continue below what it brought")
    func refreshAfterEveryRowDeleted() {
        var state = ListStateTests.state(.end)
        state.reduce(.refreshRequested)
        let token = state.inFlight?.token ?? 0
        state.reduce(.rowsRemoved(state.rows.map(\.id)))
        state.reduce(.newerLoaded(token: token, page: Self.newer(["n3", "n2", "n1"], hasMore: true)))
        #expect(Self.ids(state.rows) == ["n3", "n2", "n1"])
        #expect(state.older == .from(PageCursor("n1")))
    }

    @Test("shown on a list whose every row was deleted while an older page loads, posts may be missing below: the page is asked for from them")
    func showAfterEveryRowDeleted() {
        var state = ListStateTests.state(.loadingOlder)
        state.reduce(.streamInterrupted)
        state.reduce(.catchUpRequested)
        state.reduce(.rowsRemoved(state.rows.map(\.id)))
        state.reduce(.streamed(Self.rows(["s1"])))
        state.reduce(.waitingShown(current: []))
        #expect(Self.ids(state.rows) == ["s1"])
        #expect(state.older == .from(PageCursor("s1")))
        #expect(state.inFlight?.kind == .page(after: PageCursor("s1")))
    }

    @Test("a gap dropped from the top while loading: its answer does not fill a later gap of the same name")
    func gapDroppedWhileLoading() {
        var state = ListStateTests.state(.fillingGap)
        let token = state.inFlight?.token ?? 0
        state.reduce(.rowsRemoved(state.rows.prefix(20).map(\.id)))
        #expect(state.inFlight?.kind == .catchUp(above: "p1"), "the gap's request is dropped; a catch-up asks above the top")
        state.reduce(.streamed(Self.rows(["s1"])))
        state.reduce(.waitingShown(current: []))
        #expect(Self.ids(state.rows.prefix(3)) == ["s1", "gap(p1…s1)", "p1"])
        // The old answer (for the range up to n20) comes: dropped, the new gap stays.
        state.reduce(.newerLoaded(token: token, page: Self.newer(["m1"])))
        #expect(Self.ids(state.rows.prefix(3)) == ["s1", "gap(p1…s1)", "p1"])
        #expect(state.checkInvariants().isEmpty)
    }

    @Test("a gap fill that brings nothing but posts deleted meanwhile keeps the gap")
    func gapFillOfDeletedPosts() {
        var state = ListStateTests.state(.fillingGap)
        let gap = state.rows[20].gap
        state.reduce(.newerLoaded(token: state.inFlight?.token ?? 0, page: Self.newer([], hasMore: true)))
        #expect(state.rows[20].gap == gap.map { Gap(below: $0.below, above: $0.above) })
        #expect(state.checkInvariants().isEmpty)
    }

    // MARK: - restored

    @Test("saved rows are restored only into an empty list with nothing asked; then a catch-up above the first screen", arguments: Phase.allCases)
    func restored(_ phase: Phase) {
        let before = ListStateTests.state(phase)
        var state = before
        let saved = Self.rows(["r1", "r2"]) + [.gap(Gap(below: "r3", above: "r2"))] + Self.rows(["r3"])
        let changes = state.reduce(.restored(rows: saved, waiting: Self.rows(["w1"]), older: PageCursor("r3")))
        guard before.rows.isEmpty, before.inFlight == nil else {
            #expect(changes.isEmpty)
            #expect(state == before)
            return
        }
        #expect(Self.ids(state.rows) == ["r1", "r2", "gap(r3…r2)", "r3"])
        #expect(changes.apply(to: before.rows) == Array(state.rows))
        #expect(state.waiting.map(\.id) == [.post("w1")])
        #expect(state.older == .from(PageCursor("r3")))
        #expect(state.unconfirmed == Set(["r1", "r2", "r3", "w1"].map { RowID.post(PostID($0)) }))
        #expect(state.position?.id == "r1")
        #expect(state.inFlight?.kind == .catchUp(above: "r3"))
        #expect(state.checkInvariants().isEmpty)
        // The answer confirms what it brings; the rest stays marked.
        state.reduce(.newerLoaded(token: state.inFlight?.token ?? 0, page: NewerPage(items: Self.rows(["n1", "w1", "r1"]), hasMore: false)))
        #expect(state.unconfirmed == [.post("r2"), .post("r3")])
        #expect(state.waiting.map(\.id) == [.post("n1"), .post("w1")])
    }

    @Test("restored rows drop a gap at either end or a second gap in a row; nothing saved loads nothing by itself")
    func restoredShapes() {
        var state = ListState()
        let gap = { (below: ItemID, above: ItemID) in ListRow.gap(Gap(below: below, above: above)) }
        state.reduce(.restored(rows: [gap("a", "b")] + Self.rows(["r1"]) + [gap("c", "d"), gap("e", "f")] + Self.rows(["r2"]) + [gap("g", "h")], waiting: [], older: nil))
        #expect(Self.ids(state.rows) == ["r1", "gap(c…d)", "r2"])
        #expect(state.older == .end)
        #expect(state.checkInvariants().isEmpty)
    }

    // MARK: - Pages that show nothing (filtered or deleted) but say more is missing

    /// A full page of which the list shows nothing: its oldest post was `oldest`.
    static func nothingShown(oldest: ItemID) -> NewerPage<ListRow> {
        var page = NewerPage<ListRow>(items: [], hasMore: true)
        page.oldestBound = oldest
        return page
    }

    @Test("a refresh whose page shows nothing goes on below that page as the same request; what waits stays until it ends")
    func refreshGoesOn() {
        var state = Self.withWaiting(.loaded)
        state.reduce(.refreshRequested)
        let token = state.inFlight?.token ?? 0
        state.reduce(.streamed(Self.rows(["s9"])))
        let before = state
        let changes = state.reduce(.newerLoaded(token: token, page: Self.nothingShown(oldest: "h1")))
        #expect(changes.isEmpty)
        #expect(state.rows == before.rows)
        #expect(state.inFlight == ListRequest(token: token, kind: .refresh(above: "p1", olderThan: "h1")))
        #expect(state.waiting == before.waiting)
        #expect(state.checkInvariants().isEmpty)
        // The rest: the rows that waited before it started are covered, s9 (later) still waits.
        state.reduce(.newerLoaded(token: token, page: NewerPage(items: Self.news, hasMore: false)))
        #expect(Self.ids(state.rows.prefix(4)) == ["s3", "s2", "s1", "p1"])
        #expect(state.waiting.map(\.id) == [.post("s9")])
        #expect(state.inFlight == nil)
        #expect(state.lastRefresh == .newRows(3))
        #expect(state.checkInvariants().isEmpty)
        // Nothing shown and nothing more: the refresh ends, with no gap on top.
        var empty = NewerPage<ListRow>(items: [], hasMore: false)
        empty.oldestBound = "h2"
        state.reduce(.refreshRequested)
        state.reduce(.newerLoaded(token: state.inFlight?.token ?? 0, page: empty))
        #expect(state.inFlight == nil)
        #expect(state.rows.first?.id == .post("s3"))
        #expect(state.lastRefresh == .nothingNew)
    }

    @Test("a catch-up whose page shows nothing goes on below that page; what waits is kept")
    func catchUpGoesOn() {
        var state = Self.withWaiting(.loaded)
        state.reduce(.catchUpRequested)
        let token = state.inFlight?.token ?? 0
        let before = state
        state.reduce(.newerLoaded(token: token, page: Self.nothingShown(oldest: "h1")))
        #expect(state.inFlight == ListRequest(token: token, kind: .catchUp(above: "s3", olderThan: "h1")))
        #expect(state.waiting == before.waiting)
        state.reduce(.newerLoaded(token: token, page: NewerPage(items: Self.rows(["c1"]), hasMore: false)))
        #expect(state.waiting.map(\.id) == Self.rows(["c1", "s3", "s2", "s1"]).map(\.id))
        #expect(!state.waitingMayMiss)
        #expect(state.inFlight == nil)
        #expect(state.checkInvariants().isEmpty)
    }

    @Test("a gap fill whose page shows nothing asks for the rest of the gap at once, below that page")
    func gapFillGoesOn() {
        var state = ListStateTests.state(.fillingGap)
        let token = state.inFlight?.token ?? 0
        state.reduce(.newerLoaded(token: token, page: Self.nothingShown(oldest: "n15")))
        let rest = Gap(below: "p1", above: "n15", status: .loading)
        #expect(state.rows[20].gap == rest)
        #expect(state.inFlight?.kind == .gap(rest))
        #expect(state.inFlight?.token != token)
        #expect(state.checkInvariants().isEmpty)
    }

    @Test("when the last rows waiting above a possible gap are deleted, a catch-up asks above the top")
    func lastWaitingDeleted() {
        var state = ListStateTests.state(.loaded)
        state.reduce(.catchUpRequested)
        state.reduce(.newerLoaded(token: state.inFlight?.token ?? 0, page: NewerPage(items: Self.rows(["c2", "c1"]), hasMore: true)))
        #expect(state.waitingMayMiss)
        #expect(state.inFlight == nil)
        state.reduce(.rowsRemoved([.post("c1")]))
        #expect(state.inFlight == nil, "c2 still waits above the gap")
        state.reduce(.rowsRemoved([.post("c2")]))
        #expect(state.inFlight?.kind == .catchUp(above: "p1"))
        #expect(state.checkInvariants().isEmpty)
    }

    @Test("a delete that drops a gap from the top: a catch-up asks above the top, or what waits is shown above a gap")
    func deleteDropsTopGap() {
        var state = ListStateTests.state(.withGap)
        let above = state.rows.prefix(20).map(\.id)
        state.reduce(.rowsRemoved(above))
        #expect(state.waitingMayMiss)
        #expect(state.inFlight?.kind == .catchUp(above: "p1"))

        var waiting = ListStateTests.state(.withGap)
        waiting.reduce(.streamed(Self.rows(["s1"])))
        waiting.reduce(.rowsRemoved(above))
        #expect(waiting.inFlight == nil)
        waiting.reduce(.waitingShown(current: []))
        #expect(Self.ids(waiting.rows.prefix(3)) == ["s1", "gap(p1…s1)", "p1"])
    }

    @Test("a refresh that started before a delete dropped the top gap leaves a gap below what it brings")
    func refreshAfterTopGapDropped() {
        var state = ListStateTests.state(.withGap)
        state.reduce(.refreshRequested)
        let token = state.inFlight?.token ?? 0
        state.reduce(.rowsRemoved(state.rows.prefix(20).map(\.id)))
        state.reduce(.newerLoaded(token: token, page: Self.newer(["r1"])))
        #expect(Self.ids(state.rows.prefix(3)) == ["r1", "gap(p1…r1)", "p1"])
        #expect(!state.waitingMayMiss)
        #expect(state.checkInvariants().isEmpty)
    }

    @Test("a gap that grows while loading (a delete merged it with the gap above) asks again for all of it")
    func gapGrowsWhileLoading() {
        var state = ListStateTests.state(.withGap)
        state.reduce(.refreshRequested)
        state.reduce(.newerLoaded(token: state.inFlight?.token ?? 0, page: NewerPage(posts: makePosts(3, prefix: "m"), hasMore: true)))
        // m1 m2 m3 | gap(n1, m3) | n1 … n20 | gap(p1, n20) | p1 … p20
        state.reduce(.gapOpened(.gap(below: "p1")))
        let loading = state.inFlight
        state.reduce(.rowsRemoved((1...20).map { RowID.post(PostID("n\($0)")) }))
        #expect(state.inFlight?.kind == .gap(Gap(below: "p1", above: "m3", status: .loading)))
        #expect(state.inFlight?.token != loading?.token, "the answer for the smaller range is dropped")
        #expect(state.checkInvariants().isEmpty)
    }

    @Test("a delete that leaves a gap at the bottom while an older page loads asks for that page from above the gap")
    func bottomGapWhileLoadingOlder() {
        var state = ListStateTests.state(.withGap)
        state.reduce(.loadMoreRequested)
        #expect(state.inFlight?.kind == .page(after: PageCursor("p20")))
        state.reduce(.rowsRemoved((1...20).map { RowID.post(PostID("p\($0)")) }))
        #expect(state.older == .from(PageCursor("n20")))
        #expect(state.inFlight?.kind == .page(after: PageCursor("n20")))
        #expect(state.checkInvariants().isEmpty)
    }

    @Test("rows removed one by one past the index's hole limit, between rows shown on top and pages below, keep every position right")
    func manyRemovals() {
        var state = ListState()
        state.reduce(.appeared)
        state.reduce(.pageLoaded(token: 1, page: Page(posts: makePosts(1_500), next: PageCursor("p1500"))))
        var random = SeededGenerator(seed: 0x484F_4C45)
        var next = 0
        for round in 1...1_100 {
            let removed = state.rows[random.next(below: state.rows.count)].id
            if round.isMultiple(of: 50) {
                let before = state
                let changes = state.reduce(.rowsRemoved([removed]))
                #expect(changes.apply(to: before.rows) == Array(state.rows))
            } else {
                state.reduce(.rowsRemoved([removed]))
            }
            guard round.isMultiple(of: 100) else { continue }
            next += 1
            state.reduce(.streamed(Self.rows(["t\(next)"])))
            state.reduce(.waitingShown(current: []))
            state.reduce(.loadMoreRequested)
            state.reduce(.pageLoaded(token: state.inFlight?.token ?? 0, page: Page(posts: makePosts(5, prefix: "o\(next)-"), next: PageCursor("o\(next)"))))
            #expect(state.checkInvariants().isEmpty, "round \(round): \(state.checkInvariants().prefix(3))")
        }
        #expect(state.rows.count == 1_500 - 1_100 + 11 * 6)
        for (offset, row) in state.rows.enumerated() where offset.isMultiple(of: 97) {
            #expect(state.index(of: row.id) == offset)
        }
    }

    @Test("random streams, catch-ups, removals and pages keep the invariants and every changeset exact")
    func randomSequences() {
        let seed = testSeed(0x57EA)
        var random = SeededGenerator(seed: seed)
        var next = 0
        func fresh(_ count: Int) -> [Post] {
            (0..<count).map { _ in
                next += 1
                return makePost("r\(next)")
            }
        }
        for run in 0..<300 {
            var state = ListState(prefetchDistance: random.next(below: 6))
            for step in 0..<80 {
                let token = state.inFlight?.token ?? 0
                let known = Array(state.rows) + Array(state.waiting)
                let event: ListEvent
                switch random.next(below: 12) {
                case 0: event = .appeared
                case 1:
                    // Streams may repeat a post that is shown or waits.
                    var posts = fresh(random.next(below: 3))
                    if let known = known.randomElement(using: &random)?.post?.post, random.next(below: 3) == 0 { posts.append(known) }
                    event = .streamed(posts.map(ListRow.post))
                case 2: event = .waitingShown(current: [])
                case 3: event = random.next(below: 3) == 0 ? .streamInterrupted : .catchUpRequested
                case 4: event = .rowsRemoved((0..<random.next(below: 4)).compactMap { _ in known.randomElement(using: &random)?.id })
                case 5:
                    // Pages may bring posts that already wait above (streamed before the page came).
                    var posts = fresh(random.next(below: 5))
                    if let waiting = state.waiting.randomElement(using: &random)?.post?.post, random.next(below: 2) == 0 { posts.insert(waiting, at: 0) }
                    event = .pageLoaded(token: token, page: Page(posts: posts, next: random.next(below: 3) == 0 ? nil : PageCursor("c\(step)")))
                case 6, 7: event = .newerLoaded(token: token, page: NewerPage(posts: fresh(random.next(below: 4)), hasMore: random.next(below: 2) == 0))
                case 8: event = .refreshRequested
                case 9: event = .pageFailed(token: token, message: "Down.")
                case 10: event = .gapOpened(state.rows.filter { $0.gap != nil }.randomElement(using: &random)?.id ?? .gap(below: "x"))
                default: event = .retryRequested
                }
                let before = state
                let changes = state.reduce(event)
                let broken = state.checkInvariants()
                if !broken.isEmpty || changes.apply(to: before.rows) != Array(state.rows) {
                    Issue.record("run \(run) step \(step) (seed \(seed)): \(event) broke \(broken); before: \(before.rows.map(\.id)) in flight \(String(describing: before.inFlight)) queued \(before.queued); after: \(state.rows.map(\.id))")
                    return
                }
            }
        }
    }
}
