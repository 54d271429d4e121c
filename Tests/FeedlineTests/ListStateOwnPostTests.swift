@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Testing

/// One's own post in a list that asks for newer items (home): it goes on top where the person
/// is, without pulling in what waits above, and is one row however its copies arrive.
@Suite("List machine: one's own post")
struct ListStateOwnPostTests {
    static let mine = ListRow.post(makePost("m1"))
    static let local = PostID.sending(DraftID("d1"))
    static let sending = ListRow.post(makePost(local.rawValue))

    /// Home loaded (p1…p20) with three streamed posts waiting above.
    static func home() -> ListState {
        var state = ListStateTests.state(.loaded)
        state.reduce(.streamed(ListStateStreamTests.news))
        return state
    }

    static func ids(_ state: ListState) -> [String] { ListStateStreamTests.ids(state.rows) }

    @Test("one's own post goes on top; what waits keeps waiting, no gap row, nothing is loaded")
    func postedOnTop() {
        let before = Self.home()
        var state = before
        state.reduce(.ownPosted(Self.mine))
        #expect(Self.ids(state) == ["m1"] + Self.ids(before))
        #expect(!state.rows.contains { $0.gap != nil })
        #expect(state.waiting == before.waiting)
        #expect(state.inFlight == nil && state.queued.isEmpty)
        #expect(state.checkInvariants().isEmpty)
        // A refresh still asks above the row below it: what others posted meanwhile is not skipped.
        state.reduce(.refreshRequested)
        #expect(state.inFlight?.kind == .refresh(above: "p1"))
    }

    @Test("the row shown while it was sent becomes the post: what waits keeps waiting, no gap row, nothing is loaded")
    func confirmedOnTop() {
        let before = Self.home()
        var state = before
        state.reduce(.ownSending(Self.sending, parent: nil))
        state.reduce(.ownConfirmed(local: Self.local, Self.mine))
        #expect(state.rows.count == before.rows.count + 1)
        #expect(state.rows.first?.post?.post.id == "m1")
        #expect(!state.rows.contains { $0.gap != nil })
        #expect(state.waiting == before.waiting)
        #expect(state.inFlight == nil && state.queued.isEmpty)
        #expect(state.checkInvariants().isEmpty)
    }

    @Test("the stream's copy of one's own post that came before the answer stops waiting: the row shown is that post")
    func streamCopyBeforeTheAnswer() {
        var state = ListStateTests.state(.loaded)
        state.reduce(.ownSending(Self.sending, parent: nil))
        state.reduce(.streamed([Self.mine]))
        state.reduce(.ownConfirmed(local: Self.local, Self.mine))
        #expect(state.waiting.isEmpty, "\(state.waiting.map(\.id))")
        #expect(state.rows.filter { $0.post?.post.id == "m1" }.count == 1)
        // And after it: updated in place, nothing waits.
        state.reduce(.streamed([Self.mine]))
        #expect(state.waiting.isEmpty)
        #expect(state.checkInvariants().isEmpty)
    }

    @Test("a page that brings one's own post before its answer (lost, then retried) leaves one row of it")
    func pageBeforeTheAnswer() {
        var state = ListStateTests.state(.loaded)
        state.reduce(.ownSending(Self.sending, parent: nil))
        // A refresh brings the post the server made while its answer was lost.
        state.reduce(.refreshRequested)
        let token = state.inFlight?.token ?? 0
        state.reduce(.newerLoaded(token: token, page: NewerPage(items: [Self.mine], hasMore: false)))
        #expect(state.rows.contains(.post("m1")))
        // The retry with the same key confirms it.
        state.reduce(.ownConfirmed(local: Self.local, Self.mine))
        #expect(state.rows.filter { $0.post?.post.id == "m1" }.count == 1, "\(Self.ids(state))")
        #expect(!state.rows.contains(.post(Self.local)))
        #expect(state.checkInvariants().isEmpty)
    }
}

extension ListStateOwnPostTests {
    /// A gap's page that brings one's own post, shown on top and not placed yet, places it and
    /// has covered it: the gap moves below the oldest item of the page, not below the oldest
    /// new row. Left below the newest, the next fill's oldest item was the own post, now a row
    /// above the gap, which "reaches the rows shown" and closed the gap with posts still missing
    /// (the stream model check, seed 1398037510 of 6,000 runs: home lacked four posts).
    @Test("a gap's page that places one's own post moves the gap below it, and the next page does not close it early")
    func gapFillPlacesOwnPost() {
        var state = ListStateTests.state(.withGap)
        state.reduce(.ownPosted(Self.mine))
        state.reduce(.gapOpened(ListStateTests.gapID))
        let token = state.inFlight?.token ?? 0
        state.reduce(.newerLoaded(token: token, page: NewerPage(posts: [makePost("x1"), makePost("m1")], hasMore: true)))
        #expect(state.rows.first { $0.gap != nil }?.gap?.above == "m1", "\(Self.ids(state))")
        #expect(Self.ids(state).firstIndex(of: "m1").map { $0 > 0 } == true, "placed where the page has it: \(Self.ids(state))")
        // The next page starts below it and, with more to come, leaves the gap open.
        state.reduce(.gapOpened(ListStateTests.gapID))
        #expect(state.inFlight?.kind == .gap(Gap(below: "p1", above: "m1", status: .loading)))
        let next = state.inFlight?.token ?? 0
        state.reduce(.newerLoaded(token: next, page: NewerPage(posts: [makePost("x2")], hasMore: true)))
        #expect(state.rows.contains { $0.gap != nil }, "\(Self.ids(state))")
        #expect(state.checkInvariants().isEmpty)
    }
}

extension ListStateOwnPostTests {
    /// Every row but one's own post was deleted, so a refresh loads the first page again; an
    /// arrival shown while it came stands on top. The page only appends below the rows: its
    /// posts newer than that row wait above it (as arrivals do) instead of standing under it
    /// for good (the stream model check, seed 1398039909 of 6,000 runs).
    @Test("a first page answered below a row shown meanwhile: its newer posts wait above, older ones go below")
    func firstPageBelowAShownRow() {
        var state = ListState()
        state.reduce(.appeared)
        state.reduce(.pageLoaded(token: 1, page: Page(posts: [makePost("p1")], next: nil)))
        state.reduce(.ownPosted(Self.mine))
        state.reduce(.rowsRemoved([.post("p1")]))
        state.reduce(.refreshRequested)
        #expect(state.inFlight?.kind == .page(after: nil))
        let token = state.inFlight?.token ?? 0
        let shown = ListRow.post(makePost("n1"))
        state.reduce(.streamed([shown]))
        state.reduce(.waitingShown(current: [shown]))
        #expect(Self.ids(state) == ["n1", "m1"])
        state.reduce(.pageLoaded(token: token, page: Page(posts: [makePost("n2"), makePost("n1"), makePost("m1"), makePost("p0")], next: nil)))
        #expect(Self.ids(state) == ["n1", "m1", "p0"], "nothing stands under a row it is newer than")
        #expect(state.waiting.map(\.id) == [.post("n2")])
        #expect(state.checkInvariants().isEmpty)
    }
}

extension ListStateOwnPostTests {
    /// A gap's full page whose oldest post is shown above the gap (one's own post, placed there
    /// by an earlier page) does not reach the rows below it: the gap stays, below that post.
    /// Read as "reaches the rows shown", it closed the gap with posts still missing (the stream
    /// model check, seed 1398036657, once pins and muted threads joined the toggles it draws).
    @Test("a gap's page that ends at a row above the gap leaves the gap open")
    func gapPageEndingAboveTheGap() {
        var state = ListState()
        state.reduce(.restored(
            rows: [.post(makePost("n2")), .post(makePost("m1")), .gap(Gap(below: "p1", above: "n2")), .post(makePost("p1"))],
            waiting: [], older: nil
        ))
        // A restored list first catches up (nothing new), then fills the gap.
        state.reduce(.newerLoaded(token: state.inFlight?.token ?? 0, page: NewerPage(posts: [], hasMore: false)))
        state.reduce(.gapOpened(.gap(below: "p1")))
        #expect(state.inFlight?.kind == .gap(Gap(below: "p1", above: "n2", status: .loading)), "\(String(describing: state.inFlight)) \(state.queued)")
        let token = state.inFlight?.token ?? 0
        state.reduce(.newerLoaded(token: token, page: NewerPage(posts: [makePost("m1")], hasMore: true)))
        #expect(state.rows.first { $0.gap != nil }?.gap?.above == "m1", "\(Self.ids(state))")
        #expect(state.checkInvariants().isEmpty)
    }
}
