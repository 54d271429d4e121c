@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Testing

/// A list that deletes emptied: it does not stay empty while the server has posts.
@Suite("List machine: a list emptied by deletes")
struct ListStateEmptiedTests {
    /// Every row was deleted, then every row that waited above after a catch-up that said posts
    /// may be missing: nothing is left to show that gap, so the list asks again — here, with no
    /// row to ask above, the first page. It stayed empty for good before (the stream model
    /// check, seeds 1398038557 and 1398035021 of 6,000 runs).
    @Test("when the last rows left, and then the last waiting ones, the list loads again")
    func emptiedListLoadsAgain() {
        var state = ListState()
        state.reduce(.appeared)
        state.reduce(.pageLoaded(token: 1, page: Page(posts: [makePost("p1")], next: nil)))
        state.reduce(.streamed([.post(makePost("n1"))]))
        state.reduce(.rowsRemoved([.post("p1")]))
        state.reduce(.catchUpRequested)
        let token = state.inFlight?.token ?? 0
        state.reduce(.newerLoaded(token: token, page: NewerPage(posts: [makePost("n3"), makePost("n2")], hasMore: true)))
        #expect(state.rows.isEmpty && !state.waiting.isEmpty && state.inFlight == nil, "\(ListStateOwnPostTests.ids(state)) \(state.waiting.map(\.id))")
        state.reduce(.rowsRemoved(state.waiting.map(\.id)))
        #expect(state.waiting.isEmpty)
        #expect(state.inFlight?.kind == .page(after: nil), "\(String(describing: state.inFlight))")
        #expect(state.checkInvariants().isEmpty)
    }
}
