@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Testing

/// Entries a server sent that could not be read: the page shows the rest, and the list's status
/// counts what was left out so a front says so once.
@Suite("Pagination machine: entries left out")
struct ListStateSkippedTests {
    private static func status(_ state: ListState) -> ListStatus { ListStatus(state) }

    @Test("every answer adds what it left out to the status; the rows are the ones that came")
    func answersAddUp() {
        var state = ListState()
        state.reduce(.appeared)
        state.reduce(.pageLoaded(token: 1, page: Page(posts: makePosts(2), next: PageCursor("p2"), skipped: 1)))
        #expect(state.rows.count == 2)
        #expect(Self.status(state).skipped == 1)

        state.reduce(.loadMoreRequested)
        state.reduce(.pageLoaded(token: 2, page: Page(posts: makePosts(3, from: 3), next: nil, skipped: 2)))
        #expect(state.rows.count == 5)
        #expect(Self.status(state).skipped == 3)

        state.reduce(.refreshRequested)
        state.reduce(.newerLoaded(token: 3, page: NewerPage(posts: makePosts(1, prefix: "n"), hasMore: false, skipped: 1)))
        #expect(Self.status(state).skipped == 4)

        // An answer read whole leaves the count as it was.
        state.reduce(.refreshRequested)
        state.reduce(.newerLoaded(token: 4, page: NewerPage(posts: [], hasMore: false)))
        #expect(Self.status(state).skipped == 4)
        #expect(state.checkInvariants().isEmpty)
    }

    @Test("a stale answer counts nothing; reset starts the count again")
    func staleAndReset() {
        var state = ListState()
        state.reduce(.appeared)
        state.reduce(.pageLoaded(token: 99, page: Page(posts: makePosts(2), next: nil, skipped: 5)))
        #expect(Self.status(state).skipped == 0)
        state.reduce(.pageLoaded(token: 1, page: Page(posts: makePosts(2), next: nil, skipped: 1)))
        #expect(Self.status(state).skipped == 1)
        state.reduce(.reset)
        #expect(Self.status(state).skipped == 0)
        #expect(ListStatus().skipped == 0)
    }
}
