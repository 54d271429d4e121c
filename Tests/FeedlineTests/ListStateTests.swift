import FeedlineTestSupport
@_spi(FeedService) import Feedline
import Foundation
import Testing

/// The pagination machine, event by event, in every phase.
@Suite("Pagination machine")
struct ListStateTests {
    enum Phase: String, CaseIterable, CustomTestStringConvertible {
        case initial, loadingFirst, firstFailed, loaded, loadingOlder, olderFailed
        case refreshing, refreshFailed, withGap, fillingGap, gapFailed, end
        var testDescription: String { rawValue }
    }

    static let page1 = Page(posts: makePosts(20), next: PageCursor("p20"))
    static let page2 = Page(posts: makePosts(20, from: 21), next: PageCursor("p40"))
    static let lastPage = Page(posts: makePosts(5, from: 21), next: nil)
    static let arrivals = NewerPage(posts: makePosts(20, prefix: "n"), hasMore: true)
    static let gapID = RowID.gap(below: "p1")
    static let gap = Gap(below: "p1", above: "n20")

    static func state(_ phase: Phase) -> ListState {
        var state = ListState()
        func send(_ event: ListEvent) { state.reduce(event) }
        switch phase {
        case .initial: break
        case .loadingFirst: send(.appeared)
        case .firstFailed: send(.appeared); send(.pageFailed(token: 1, message: "Down."))
        case .loaded: send(.appeared); send(.pageLoaded(token: 1, page: page1))
        case .loadingOlder: state = Self.state(.loaded); state.reduce(.loadMoreRequested)
        case .olderFailed: state = Self.state(.loadingOlder); state.reduce(.pageFailed(token: 2, message: "Down."))
        case .refreshing: state = Self.state(.loaded); state.reduce(.refreshRequested)
        case .refreshFailed: state = Self.state(.refreshing); state.reduce(.pageFailed(token: 2, message: "Down."))
        case .withGap: state = Self.state(.refreshing); state.reduce(.newerLoaded(token: 2, page: arrivals))
        case .fillingGap: state = Self.state(.withGap); state.reduce(.gapOpened(gapID))
        case .gapFailed: state = Self.state(.fillingGap); state.reduce(.pageFailed(token: 3, message: "Down."))
        case .end: state = Self.state(.loadingOlder); state.reduce(.pageLoaded(token: 2, page: lastPage))
        }
        return state
    }

    @Test("the phases look as intended", arguments: Phase.allCases)
    func phases(_ phase: Phase) {
        let state = Self.state(phase)
        #expect(state.checkInvariants().isEmpty)
        switch phase {
        case .initial: #expect(state.rows.isEmpty && state.inFlight == nil)
        case .loadingFirst: #expect(state.inFlight == ListRequest(token: 1, kind: .page(after: nil)))
        case .firstFailed: #expect(state.olderFailure == "Down." && state.lastFailed == .loadOlder)
        case .loaded: #expect(state.rows.count == 20 && state.older == .from(PageCursor("p20")))
        case .loadingOlder: #expect(state.inFlight == ListRequest(token: 2, kind: .page(after: PageCursor("p20"))))
        case .olderFailed: #expect(state.olderFailure == "Down." && state.inFlight == nil)
        case .refreshing: #expect(state.inFlight == ListRequest(token: 2, kind: .refresh(above: "p1")))
        case .refreshFailed: #expect(state.refreshFailure == "Down." && state.lastFailed == .refresh)
        case .withGap:
            #expect(state.rows.count == 41)
            #expect(state.rows[20] == .gap(Self.gap))
        case .fillingGap: #expect(state.rows[20].gap?.status == .loading)
        case .gapFailed: #expect(state.rows[20].gap?.status == .failed("Down.") && state.lastFailed == .fillGap(Self.gapID))
        case .end: #expect(state.reachedEnd && state.rows.count == 25)
        }
    }

    private func loading(_ state: inout ListState, _ kind: ListRequest.Kind) {
        state.inFlight = ListRequest(token: state.nextToken, kind: kind)
        state.nextToken += 1
    }

    private func markGap(_ state: inout ListState, _ status: Gap.Status) {
        var rows = Array(state.rows)
        guard let index = rows.firstIndex(where: { $0.id == Self.gapID }), var gap = rows[index].gap else { return }
        gap.status = status
        rows[index] = .gap(gap)
        state.rows = RowList(rows)
    }

    // MARK: - appeared

    @Test("appeared loads the first page only when nothing is there", arguments: Phase.allCases)
    func appeared(_ phase: Phase) {
        assertTransition(from: Self.state(phase), on: .appeared) { state in
            if phase == .initial { loading(&state, .page(after: nil)) }
        }
    }

    // MARK: - gapOpened

    @Test("gapOpened loads the gap, queues behind another request, ignores a loading gap", arguments: Phase.allCases)
    func gapOpened(_ phase: Phase) {
        assertTransition(from: Self.state(phase), on: .gapOpened(Self.gapID)) { state in
            switch phase {
            case .withGap:
                markGap(&state, .loading)
                loading(&state, .gap(Gap(below: "p1", above: "n20", status: .loading)))
            case .gapFailed:
                markGap(&state, .loading)
                state.lastFailed = nil
                loading(&state, .gap(Gap(below: "p1", above: "n20", status: .loading)))
            default: break
            }
        }
    }

    @Test("gapOpened for a row that is not a gap does nothing", arguments: Phase.allCases)
    func gapOpenedUnknown(_ phase: Phase) {
        assertTransition(from: Self.state(phase), on: .gapOpened(.gap(below: "nope"))) { _ in }
        assertTransition(from: Self.state(phase), on: .gapOpened(.post("p1"))) { _ in }
    }

    @Test("a gap opened while something else loads runs after it")
    func gapQueued() {
        var state = Self.state(.withGap)
        state.reduce(.loadMoreRequested)
        let (queued, _) = assertTransition(from: state, on: .gapOpened(Self.gapID)) { $0.queued = [.fillGap(Self.gapID)] }
        assertTransition(from: queued, on: .pageLoaded(token: 3, page: Self.page2)) { state in
            state.rows = RowList(queued.rows + Self.page2.posts.map(ListRow.post))
            state.older = .from(PageCursor("p40"))
            state.queued = []
            markGap(&state, .loading)
            loading(&state, .gap(Gap(below: "p1", above: "n20", status: .loading)))
        }
    }

    // MARK: - loadMoreRequested

    @Test("loadMoreRequested loads the next page, retries a failed one with its cursor, queues or ignores", arguments: Phase.allCases)
    func loadMore(_ phase: Phase) {
        assertTransition(from: Self.state(phase), on: .loadMoreRequested) { state in
            switch phase {
            case .initial: loading(&state, .page(after: nil))
            case .firstFailed:
                state.olderFailure = nil
                state.lastFailed = nil
                loading(&state, .page(after: nil))
            case .loaded, .withGap, .refreshFailed, .gapFailed: loading(&state, .page(after: PageCursor("p20")))
            case .olderFailed:
                state.olderFailure = nil
                state.lastFailed = nil
                loading(&state, .page(after: PageCursor("p20")))
            case .refreshing, .fillingGap: state.queued = [.loadOlder]
            case .loadingFirst, .loadingOlder, .end: break
            }
        }
    }

    // MARK: - responses

    @Test("responses with a stale token are dropped", arguments: Phase.allCases)
    func staleResponses(_ phase: Phase) {
        let state = Self.state(phase)
        let stale = state.nextToken - 2  // an earlier request's token (or 0 / -1: none)
        for event: ListEvent in [
            .pageLoaded(token: stale, page: Self.page2), .pageLoaded(token: 99, page: Self.page2),
            .newerLoaded(token: stale, page: Self.arrivals), .newerLoaded(token: 99, page: Self.arrivals),
            .pageFailed(token: stale, message: "Late."), .pageFailed(token: 99, message: "Late."),
        ] {
            assertTransition(from: state, on: event) { _ in }
        }
    }

    @Test("pageFailed records the failure of what was loading", arguments: Phase.allCases)
    func pageFailed(_ phase: Phase) {
        let state = Self.state(phase)
        let token = state.inFlight?.token ?? 99
        assertTransition(from: state, on: .pageFailed(token: token, message: "Nope.")) { state in
            switch phase {
            case .loadingFirst, .loadingOlder:
                state.inFlight = nil
                state.olderFailure = "Nope."
                state.lastFailed = .loadOlder
            case .refreshing:
                state.inFlight = nil
                state.refreshFailure = "Nope."
                state.lastFailed = .refresh
            case .fillingGap:
                state.inFlight = nil
                markGap(&state, .failed("Nope."))
                state.lastFailed = .fillGap(Self.gapID)
            default: break
            }
        }
    }

    @Test("pageLoaded appends the page and moves the cursor; a page for another request is a failure", arguments: Phase.allCases)
    func pageLoaded(_ phase: Phase) {
        let state = Self.state(phase)
        let token = state.inFlight?.token ?? 99
        let page = phase == .loadingFirst ? Self.page1 : Self.page2
        assertTransition(from: state, on: .pageLoaded(token: token, page: page)) { state in
            switch phase {
            case .loadingFirst, .loadingOlder:
                state.inFlight = nil
                state.rows = RowList(state.rows + page.posts.map(ListRow.post))
                state.older = .from(page.next)
            case .refreshing:
                state.inFlight = nil
                state.refreshFailure = failure(ListState.unexpectedResponse)
                state.lastFailed = .refresh
            case .fillingGap:
                state.inFlight = nil
                markGap(&state, .failed(failure(ListState.unexpectedResponse)))
                state.lastFailed = .fillGap(Self.gapID)
            default: break
            }
        }
    }

    @Test("newerLoaded inserts above the top or fills the gap; for a page request it is a failure", arguments: Phase.allCases)
    func newerLoaded(_ phase: Phase) {
        let state = Self.state(phase)
        let token = state.inFlight?.token ?? 99
        let posts = makePosts(3, prefix: "g")
        assertTransition(from: state, on: .newerLoaded(token: token, page: NewerPage(posts: posts, hasMore: false))) { state in
            switch phase {
            case .loadingFirst, .loadingOlder:
                state.inFlight = nil
                state.olderFailure = failure(ListState.unexpectedResponse)
                state.lastFailed = .loadOlder
            case .refreshing:
                state.inFlight = nil
                state.rows = RowList(posts.map(ListRow.post) + state.rows)
                state.lastRefresh = .newRows(3)
            case .fillingGap:
                state.inFlight = nil
                var rows = Array(state.rows)
                rows.replaceSubrange(20...20, with: posts.map(ListRow.post))
                state.rows = RowList(rows)
            default: break
            }
        }
    }

    // MARK: - refreshRequested

    @Test("refreshRequested loads newer posts above the top (the first page when empty)", arguments: Phase.allCases)
    func refresh(_ phase: Phase) {
        assertTransition(from: Self.state(phase), on: .refreshRequested) { state in
            switch phase {
            case .initial: loading(&state, .page(after: nil))
            case .firstFailed:
                state.olderFailure = nil
                state.lastFailed = nil
                loading(&state, .page(after: nil))
            case .loadingFirst, .loadingOlder, .fillingGap: state.queued = [.refresh]
            case .loaded, .olderFailed, .end: loading(&state, .refresh(above: "p1"))
            case .refreshFailed:
                state.refreshFailure = nil
                state.lastFailed = nil
                loading(&state, .refresh(above: "p1"))
            case .withGap, .gapFailed:
                state.lastRefresh = nil  // the outcome of the last refresh, until this one comes back
                loading(&state, .refresh(above: "n1"))
            case .refreshing: break
            }
        }
    }

    // MARK: - reset

    @Test("reset clears everything, drops what is in flight and loads the first page", arguments: Phase.allCases)
    func reset(_ phase: Phase) {
        let (after, changes) = assertTransition(from: Self.state(phase), on: .reset) { state in
            state.rows = RowList([])
            state.older = .from(nil)
            state.olderFailure = nil
            state.refreshFailure = nil
            state.queued = []
            state.lastFailed = nil
            state.lastRefresh = nil
            loading(&state, .page(after: nil))
        }
        #expect(changes.deletions.count == Self.state(phase).rows.count)
        // What was in flight before is now stale.
        if let old = Self.state(phase).inFlight {
            assertTransition(from: after, on: .pageLoaded(token: old.token, page: Self.page1)) { _ in }
        }
    }

    // MARK: - retryRequested

    @Test("retryRequested reruns the last failure, with the same cursor", arguments: Phase.allCases)
    func retry(_ phase: Phase) {
        assertTransition(from: Self.state(phase), on: .retryRequested) { state in
            switch phase {
            case .firstFailed:
                state.olderFailure = nil
                state.lastFailed = nil
                loading(&state, .page(after: nil))
            case .olderFailed:
                state.olderFailure = nil
                state.lastFailed = nil
                loading(&state, .page(after: PageCursor("p20")))
            case .refreshFailed:
                state.refreshFailure = nil
                state.lastFailed = nil
                loading(&state, .refresh(above: "p1"))
            case .gapFailed:
                markGap(&state, .loading)
                state.lastFailed = nil
                loading(&state, .gap(Gap(below: "p1", above: "n20", status: .loading)))
            default: break
            }
        }
    }

    @Test("retryRequested reruns every failure: a page and a refresh that failed after it, the last failure first")
    func retryEverything() {
        var state = Self.state(.olderFailed)
        state.reduce(.refreshRequested)
        state.reduce(.pageFailed(token: 3, message: "Still down."))
        #expect(state.olderFailure == "Down." && state.refreshFailure == "Still down." && state.lastFailed == .refresh)
        #expect(state.failedIntents == [.refresh, .loadOlder])
        let (retried, _) = assertTransition(from: state, on: .retryRequested) { state in
            state.refreshFailure = nil
            state.lastFailed = nil
            loading(&state, .refresh(above: "p1"))
            state.queued = [.loadOlder]
        }
        // When the refresh settles, the queued page runs with its cursor.
        assertTransition(from: retried, on: .newerLoaded(token: 4, page: NewerPage(posts: [], hasMore: false))) { state in
            state.lastRefresh = .nothingNew
            state.queued = []
            state.olderFailure = nil
            loading(&state, .page(after: PageCursor("p20")))
        }
    }

    // MARK: - postChanged

    @Test("postChanged updates the rows named, in every phase, and nothing else", arguments: Phase.allCases)
    func postChanged(_ phase: Phase) {
        let state = Self.state(phase)
        var edited = makePost("p2", text: "edited")
        edited.favourited = true
        let change = PostChange(
            originalID: "p2", post: edited,
            interaction: PostInteraction(favourited: true, favouritesCount: 1, reblogged: false, reblogsCount: 0, pending: [.favourite])
        )
        let (_, changes) = assertTransition(from: state, on: .postChanged(change, rows: [.post("p2"), .post("gone"), .gap(below: "x")])) { state in
            guard let index = state.rows.index(of: .post("p2")) else { return }
            var rows = Array(state.rows)
            rows[index] = .post(PostRow(post: edited, interaction: change.interaction))
            state.rows = RowList(rows)
        }
        #expect(changes.updates.count == (state.rows.contains(.post("p2")) ? 1 : 0))
        #expect(changes.insertions.isEmpty && changes.deletions.isEmpty && changes.moves.isEmpty)
    }

    // MARK: - quoteChanged, quoteDeleted

    @Test("quoteChanged and quoteDeleted change the quotes of the rows named that quote the post, in every phase, and nothing else", arguments: Phase.allCases)
    func quoteChanged(_ phase: Phase) {
        var state = Self.state(phase)
        let quoted = makePost("o1", text: "quoted")
        var quoting = makePost("p2")
        quoting.quote = Quote(state: .accepted, post: quoted)
        if let index = state.rows.index(of: .post("p2")) {
            var rows = Array(state.rows)
            rows[index] = .post(PostRow(post: quoting, quoted: QuotedPost(post: quoted)))
            state.rows = RowList(rows)
        }
        var favourited = quoted
        favourited.favourited = true
        let change = PostChange(
            originalID: "o1", post: favourited,
            interaction: PostInteraction(favourited: true, favouritesCount: 1, reblogged: false, reblogsCount: 0, pending: [.favourite])
        )
        // p3 is named but quotes nothing: it stays as it is.
        let (_, changes) = assertTransition(from: state, on: .quoteChanged(change, rows: [.post("p2"), .post("p3"), .post("gone")])) { state in
            guard let index = state.rows.index(of: .post("p2")) else { return }
            var rows = Array(state.rows)
            rows[index] = .post(PostRow(post: quoting, quoted: QuotedPost(post: favourited, interaction: change.interaction)))
            state.rows = RowList(rows)
        }
        #expect(changes.updates.count == (state.rows.contains(.post("p2")) ? 1 : 0))
        #expect(changes.insertions.isEmpty && changes.deletions.isEmpty && changes.moves.isEmpty)

        let (_, deletion) = assertTransition(from: state, on: .quoteDeleted("o1", rows: [.post("p2"), .post("p3")])) { state in
            guard let index = state.rows.index(of: .post("p2")) else { return }
            var rows = Array(state.rows)
            var gone = quoting
            gone.quote?.state = .deleted
            rows[index] = .post(PostRow(post: gone))
            state.rows = RowList(rows)
        }
        #expect(deletion.updates.count == (state.rows.contains(.post("p2")) ? 1 : 0))
        #expect(deletion.insertions.isEmpty && deletion.deletions.isEmpty && deletion.moves.isEmpty, "the quoting row stays")
    }

    // MARK: - rowWillDisplay

    @Test("a row near the end prefetches — never after a failure, never at the end", arguments: Phase.allCases)
    func rowNearEnd(_ phase: Phase) {
        let state = Self.state(phase)
        let last = state.rows.last?.id ?? .post("p20")
        assertTransition(from: state, on: .rowWillDisplay(last)) { state in
            Self.seen(last, in: &state)
            switch phase {
            case .loaded, .withGap, .refreshFailed, .gapFailed: loading(&state, .page(after: PageCursor("p20")))
            case .refreshing, .fillingGap: state.queued = [.loadOlder]
            default: break
            }
        }
    }

    @Test("a row far from the end does nothing", arguments: Phase.allCases)
    func rowFarFromEnd(_ phase: Phase) {
        let state = Self.state(phase)
        let first = state.rows.first?.id ?? .post("p1")
        assertTransition(from: state, on: .rowWillDisplay(first)) { Self.seen(first, in: &$0) }
    }

    @Test("positionRestored takes a kept position when there is none or it was written later; nothing else changes", arguments: Phase.allCases)
    func positionRestored(_ phase: Phase) {
        let state = Self.state(phase)
        let older = ReadingPosition(id: "k1", createdAt: Date(timeIntervalSince1970: 100))
        let newer = ReadingPosition(id: "k2", createdAt: Date(timeIntervalSince1970: 200))
        assertTransition(from: state, on: .positionRestored(older)) { $0.position = older }
        var ahead = state
        ahead.position = newer
        assertTransition(from: ahead, on: .positionRestored(older)) { _ in }
        assertTransition(from: ahead, on: .positionRestored(newer)) { _ in }
        var behind = state
        behind.position = older
        assertTransition(from: behind, on: .positionRestored(newer)) { $0.position = newer }
    }

    @Test("in the notifications the position is the newest notification of a group displayed; it moves only to a later one")
    func notificationPosition() {
        func group(_ key: String, newest: String, at seconds: Double) -> ListRow {
            .notification(NotificationRow(group: NotificationGroup(
                id: key, kind: .follow, accounts: [], count: 1, latestAt: Date(timeIntervalSince1970: seconds), newestID: ItemID(newest))))
        }
        var state = ListState()
        state.reduce(.appeared)
        let token = state.inFlight?.token ?? 0
        state.reduce(.pageLoaded(token: token, page: Page(items: [group("g1", newest: "n30", at: 300), group("g2", newest: "n20", at: 200)], next: nil)))
        state.reduce(.rowWillDisplay(.notification("g2")))
        #expect(state.position == ReadingPosition(id: "n20", createdAt: Date(timeIntervalSince1970: 200)))
        state.reduce(.rowWillDisplay(.notification("g1")))
        #expect(state.position?.id == "n30")
        state.reduce(.rowWillDisplay(.notification("g2")))
        #expect(state.position?.id == "n30", "scrolling back down never moves it back")
    }

    /// What displaying `id` does to the reading position in these phases (none set yet): the
    /// first post row displayed becomes it.
    static func seen(_ id: RowID, in state: inout ListState) {
        if state.position == nil, case .post(let row)? = state.rows[id: id] {
            state.position = ReadingPosition(row.post)
        }
    }

    @Test("the prefetch distance is the window at the end")
    func prefetchDistance() {
        var state = ListState(prefetchDistance: 3)
        state.reduce(.appeared)
        state.reduce(.pageLoaded(token: 1, page: Self.page1))
        assertTransition(from: state, on: .rowWillDisplay(.post("p17"))) { Self.seen(.post("p17"), in: &$0) }
        assertTransition(from: state, on: .rowWillDisplay(.post("p18"))) {
            Self.seen(.post("p18"), in: &$0)
            $0.inFlight = ListRequest(token: 2, kind: .page(after: PageCursor("p20")))
            $0.nextToken = 3
        }
    }

    // MARK: - Behaviour across events

    @Test("scrolling near the end after a failed page never asks again until an explicit retry")
    func noRequestFailLoop() {
        var state = Self.state(.olderFailed)
        for row in state.rows { state.reduce(.rowWillDisplay(row.id)) }
        #expect(state.inFlight == nil)
        state.reduce(.retryRequested)
        #expect(state.inFlight?.kind == .page(after: PageCursor("p20")))
    }

    @Test("a post already present is updated in place, never repeated — within a page and across pages")
    func deduplication() {
        var state = Self.state(.loadingOlder)
        var edited = makePost("p5", text: "edited")
        edited.favouritesCount = 9
        let page = Page(posts: [makePost("p21"), edited, makePost("p21"), makePost("p22")], next: PageCursor("p22"))
        let (after, changes) = assertTransition(from: state, on: .pageLoaded(token: 2, page: page)) { state in
            var rows = Array(state.rows)
            rows[4] = .post(edited)
            rows += [.post(makePost("p21")), .post(makePost("p22"))]
            state.rows = RowList(rows)
            state.inFlight = nil
            state.older = .from(PageCursor("p22"))
        }
        #expect(changes.updates.map(\.newIndex) == [4])
        #expect(changes.insertions.map(\.index) == [20, 21])
        state = after
        // A refresh that returns posts already present inserts only the new ones.
        state.reduce(.refreshRequested)
        let token = state.nextToken - 1
        assertTransition(from: state, on: .newerLoaded(token: token, page: NewerPage(posts: [makePost("n1"), makePost("p1", minutesAgo: 1)], hasMore: false))) { state in
            state.rows = RowList([.post(makePost("n1"))] + state.rows)
            state.inFlight = nil
            state.lastRefresh = .newRows(1)
        }
    }

    @Test("a refresh whose page is not full leaves no gap; one with nothing new changes nothing")
    func refreshWithoutGap() {
        var state = Self.state(.refreshing)
        let (_, changes) = assertTransition(from: state, on: .newerLoaded(token: 2, page: NewerPage(posts: [], hasMore: false))) {
            $0.inFlight = nil
            $0.lastRefresh = .nothingNew
        }
        #expect(changes.isEmpty)
        state = Self.state(.refreshing)
        assertTransition(from: state, on: .newerLoaded(token: 2, page: NewerPage(posts: makePosts(2, prefix: "n"), hasMore: false))) { state in
            state.rows = RowList(makePosts(2, prefix: "n").map(ListRow.post) + state.rows)
            state.inFlight = nil
            state.lastRefresh = .newRows(2)
        }
    }

    @Test("a gap filled in parts shrinks from the top and keeps its identity")
    func partialGapFill() {
        let state = Self.state(.fillingGap)
        let part = NewerPage(posts: makePosts(3, prefix: "g"), hasMore: true)
        let (after, changes) = assertTransition(from: state, on: .newerLoaded(token: 3, page: part)) { state in
            var rows = Array(state.rows)
            rows.replaceSubrange(20...20, with: part.posts.map(ListRow.post) + [.gap(Gap(below: "p1", above: "g3"))])
            state.rows = RowList(rows)
            state.inFlight = nil
        }
        #expect(changes.insertions.map(\.index) == [20, 21, 22])
        #expect(changes.updates.map(\.oldIndex) == [20])
        #expect(changes.updates.map(\.newIndex) == [23])
        // Opening it again asks for what is still missing: newer than p1, older than g3.
        var reopened = after
        reopened.reduce(.gapOpened(Self.gapID))
        #expect(reopened.inFlight?.kind == .gap(Gap(below: "p1", above: "g3", status: .loading)))
    }

    @Test("a gap that turns out empty is removed")
    func emptyGap() {
        let state = Self.state(.fillingGap)
        // (An empty answer that says more is missing keeps the gap: see ListStateStreamTests.)
        let (_, changes) = assertTransition(from: state, on: .newerLoaded(token: 3, page: NewerPage(posts: [], hasMore: false))) { state in
            var rows = Array(state.rows)
            rows.remove(at: 20)
            state.rows = RowList(rows)
            state.inFlight = nil
        }
        #expect(changes.deletions == [20])
    }

    @Test("queued requests run in order, each once")
    func queueOrder() {
        var state = Self.state(.refreshing)
        state.reduce(.loadMoreRequested)
        state.reduce(.loadMoreRequested)
        state.reduce(.refreshRequested)
        #expect(state.queued == [.loadOlder])
        state.reduce(.pageFailed(token: 2, message: "Down."))
        #expect(state.inFlight?.kind == .page(after: PageCursor("p20")))
        #expect(state.queued.isEmpty)
        #expect(state.refreshFailure == "Down.")
    }

    @Test("the end of the timeline stops page requests but not refreshes")
    func endOfTimeline() {
        var state = Self.state(.end)
        state.reduce(.loadMoreRequested)
        for row in state.rows { state.reduce(.rowWillDisplay(row.id)) }
        #expect(state.inFlight == nil)
        state.reduce(.refreshRequested)
        #expect(state.inFlight?.kind == .refresh(above: "p1"))
    }

    @Test("random event sequences keep the invariants, and every changeset turns the old rows into the new")
    func randomSequences() {
        let seed = testSeed(99)
        var random = SeededGenerator(seed: seed)
        var nextPost = 0
        func posts(_ count: Int, existing: [ListRow]) -> [Post] {
            (0..<count).map { _ in
                if !existing.isEmpty, Int.random(in: 0..<5, using: &random) == 0,
                    let post = existing.randomElement(using: &random)?.post?.post { return post }
                nextPost += 1
                return makePost("r\(nextPost)")
            }
        }
        for run in 0..<300 {
            var state = ListState(prefetchDistance: Int.random(in: 0...6, using: &random))
            for step in 0..<60 {
                let token = Int.random(in: 0..<4, using: &random) == 0 ? Int.random(in: 0...state.nextToken, using: &random) : (state.inFlight?.token ?? 0)
                let event: ListEvent
                switch Int.random(in: 0..<11, using: &random) {
                case 0: event = .appeared
                case 1: event = .gapOpened(state.rows.filter { $0.gap != nil }.randomElement(using: &random)?.id ?? .gap(below: "x"))
                case 2: event = .loadMoreRequested
                case 3: event = .pageFailed(token: token, message: "Down.")
                case 4: event = .pageLoaded(token: token, page: Page(posts: posts(Int.random(in: 0...5, using: &random), existing: Array(state.rows)), next: Bool.random(using: &random) ? PageCursor("c\(step)") : nil))
                case 5, 6: event = .newerLoaded(token: token, page: NewerPage(posts: posts(Int.random(in: 0...4, using: &random), existing: Array(state.rows)), hasMore: Bool.random(using: &random)))
                case 7: event = .refreshRequested
                case 8: event = Int.random(in: 0..<5, using: &random) == 0 ? .reset : .retryRequested
                default: event = .rowWillDisplay(state.rows.randomElement(using: &random)?.id ?? .post("x"))
                }
                let before = state
                let changes = state.reduce(event)
                let broken = state.checkInvariants()
                if !broken.isEmpty || changes.apply(to: before.rows) != Array(state.rows) || Set(state.rows.map(\.id)).count != state.rows.count {
                    Issue.record("run \(run) step \(step) (seed \(seed)): \(event) broke \(broken)")
                    return
                }
            }
        }
    }
}
