@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Testing

/// Rows a pending removal took, put back on a refusal (`ListEvent.rowsReinserted`): each where
/// it was, published as their insertions, at a cost of the rows put back — not of the list.
@Suite("Rows put back")
struct ListStatePutBackTests {
    static func loaded(_ count: Int) -> ListState {
        var state = ListState()
        state.reduce(.appeared)
        state.reduce(.pageLoaded(token: 1, page: Page(posts: makePosts(count), next: PageCursor("end"))))
        return state
    }

    @Test("rows taken and put back: each at its place, the changeset their insertions, only their own keys written")
    func putBack() {
        var state = Self.loaded(2_000)
        let original = Array(state.rows)
        let indices = (0..<40).map { 3 + $0 * 49 }
        let taken = indices.map { ReinsertedRow(index: $0, row: original[$0]) }
        state.reduce(.rowsRemoved(taken.map(\.row.id)))
        let before = Array(state.rows)
        let written = state.rows.keysWritten
        // In any order: they go back in ascending order of their places.
        let changes = state.reduce(.rowsReinserted(taken.reversed()))
        #expect(Array(state.rows) == original)
        #expect(changes.deletions.isEmpty && changes.updates.isEmpty)
        #expect(changes.insertions.map(\.index) == indices)
        #expect(changes.apply(to: before) == original)
        #expect(state.rows.keysWritten - written == taken.count)
        #expect(state.checkInvariants().isEmpty)
    }

    @Test("a row back already (a page brought it) stays where it is; the others go back, and the changeset says only theirs")
    func someBackAlready() {
        var state = Self.loaded(30)
        let original = Array(state.rows)
        let taken = [2, 7, 11].map { ReinsertedRow(index: $0, row: original[$0]) }
        state.reduce(.rowsRemoved(taken.map(\.row.id)))
        // Row 7 comes back first, on top (as a refresh could bring it).
        state.reduce(.ownPosted(original[7]))
        let before = Array(state.rows)
        let changes = state.reduce(.rowsReinserted(taken))
        #expect(state.rows.index(of: original[7].id) == 0)
        #expect(state.rows.index(of: original[2].id) == 2 && state.rows.index(of: original[11].id) == 11)
        #expect(changes.insertions.map(\.index) == [2, 11])
        #expect(changes.apply(to: before) == Array(state.rows))
        #expect(state.checkInvariants().isEmpty)
    }
}
