@_spi(FeedService) import Feedline
import Foundation
import Testing

/// The rows that wait above a list, as their own machine: every transition in every phase,
/// each expected state written as the old one mutated (`WaitingRowsTests+Expected.swift`),
/// with the invariants and the change law checked after each.
///
/// In every phase the list's request in flight has token 3 and started after two arrivals
/// (`requestMark` 2), and the list's next token is 4: answers come from that request
/// (``Start/inFlight``) or from one that started just now, after every mark
/// (``Start/afterMarks``, token 4).
@Suite("Waiting rows")
struct WaitingRowsTests {
    enum Phase: String, CaseIterable, CustomTestStringConvertible {
        /// Nothing waits, nothing may be missing.
        case nothingWaiting
        /// Nothing waits, but posts may be missing above the rows (a delete dropped a gap from
        /// the top) since token 4.
        case nothingWaitingMayMiss
        /// s3 s2 s1 wait (arrivals 3, 2, 1).
        case waiting
        /// As ``waiting``, and posts may be missing below them since token 4.
        case waitingMayMiss
        /// As ``waiting``, then the stream dropped: missed since 3 arrivals, no catch-up asked.
        case interrupted
        /// As ``interrupted``, then s4 arrived (after the reconnect).
        case arrivedSinceDrop
        /// As ``interrupted``, then a catch-up was asked for: token 4 on covers the drop.
        case catchUpAsked
        /// As ``catchUpAsked``, then s4 arrived.
        case arrivedSinceCatchUpAsked

        var testDescription: String { rawValue }
    }

    /// Which request answers: the one in flight in every phase (token 3, started after two
    /// arrivals) or one started just now (token 4, after every mark of the phase).
    enum Start: String, CaseIterable, Sendable {
        case inFlight, afterMarks

        var token: Int { self == .inFlight ? 3 : 4 }
        /// The list's next token when it answers.
        var nextToken: Int { token + 1 }
    }

    /// How a refresh went for the list: new rows on top, a full page with nothing new, or
    /// nothing new.
    enum Refresh: String, CaseIterable, Sendable {
        case newRows, fullNothingNew, nothingNew
    }

    /// How a catch-up went: not full and asked above a waiting row, not full and asked above
    /// the list's top row, or full.
    enum CatchUp: String, CaseIterable, Sendable {
        case belowTop, fromTop, full
    }

    /// Every transition, with the arguments that choose different paths.
    enum Event: Hashable, CaseIterable, CustomTestStringConvertible, Sendable {
        /// `arrived(s9)`: a post nothing knows.
        case arrivedNew
        /// `arrived(s2, edited)`: a post that may wait already.
        case arrivedAgain
        /// `arrived(gap)`.
        case arrivedGap
        case interrupted
        case catchUpAsked
        case requestStarted
        /// `firstPageAnswered([s2, p1])`, s2 and p1 shown now.
        case firstPageAnswered(Start)
        /// `refreshAnswered([s2, p1])`, s2 and p1 shown now.
        case refreshAnswered(Start, Refresh)
        /// `catchUpAnswered([c2, s2, c1])`.
        case catchUpAnswered(Start, CatchUp)
        /// `pageBrought([s2, p1])`.
        case pageBrought
        /// `shown(current: [s2, latest copy])`.
        case shown
        /// `removed([s2, p9, s2])`.
        case removed
        case topGapDropped
        case reset

        static let allCases: [Event] =
            [.arrivedNew, .arrivedAgain, .arrivedGap, .interrupted, .catchUpAsked, .requestStarted]
            + Start.allCases.map { .firstPageAnswered($0) }
            + Start.allCases.flatMap { start in Refresh.allCases.map { .refreshAnswered(start, $0) } }
            + Start.allCases.flatMap { start in CatchUp.allCases.map { .catchUpAnswered(start, $0) } }
            + [.pageBrought, .shown, .removed, .topGapDropped, .reset]

        var testDescription: String {
            switch self {
            case .firstPageAnswered(let start): "firstPageAnswered(\(start))"
            case .refreshAnswered(let start, let refresh): "refreshAnswered(\(start), \(refresh))"
            case .catchUpAnswered(let start, let catchUp): "catchUpAnswered(\(start), \(catchUp))"
            default: "\(self)"
            }
        }
    }

    // MARK: - Rows

    static func post(_ id: String, text: String? = nil) -> ListRow { .post(makePost(id, text: text)) }
    static let edited = post("s2", text: "edited")
    static let latest = post("s2", text: "latest")
    static let gap = ListRow.gap(Gap(below: "p1", above: "s1"))

    static func group(_ key: String, newest: String) -> ListRow {
        .notification(NotificationRow(group: NotificationGroup(
            id: key, kind: .follow, accounts: [], count: 1, latestAt: testNow, newestID: ItemID(newest))))
    }

    /// Post rows `ids`, in order.
    static func posts(_ ids: [String]) -> [ListRow] { ids.map { post($0) } }

    /// The change of rows `started` and `stopped` (post ids).
    static func change(started: [String] = [], stopped: [String] = []) -> WaitingRows.Change {
        WaitingRows.Change(started: posts(started), stopped: posts(stopped))
    }

    /// Posts `arrivals` (id and arrival, newest first) are what waits.
    static func waits(_ state: inout WaitingRows, _ arrivals: KeyValuePairs<String, Int>) {
        state.rows = RowList(arrivals.map { post($0.key) })
        state.arrivedAt = Dictionary(uniqueKeysWithValues: arrivals.map { (RowID.post(PostID($0.key)), $0.value) })
    }

    // MARK: - Phases

    static func state(_ phase: Phase) -> WaitingRows {
        var state = WaitingRows()
        func arrive(_ id: String) { _ = state.arrived(post(id), nextToken: 1) }
        switch phase {
        case .nothingWaiting: state.requestStarted()
        case .nothingWaitingMayMiss: state = Self.state(.nothingWaiting); state.topGapDropped(nextToken: 4)
        case .waiting: arrive("s1"); arrive("s2"); state.requestStarted(); arrive("s3")
        case .waitingMayMiss: state = Self.state(.waiting); state.topGapDropped(nextToken: 4)
        case .interrupted: state = Self.state(.waiting); _ = state.interrupted(nextToken: 4)
        case .arrivedSinceDrop: state = Self.state(.interrupted); arrive("s4")
        case .catchUpAsked: state = Self.state(.interrupted); state.catchUpAsked(nextToken: 4)
        case .arrivedSinceCatchUpAsked: state = Self.state(.catchUpAsked); arrive("s4")
        }
        return state
    }

    @Test("the phases look as intended", arguments: Phase.allCases)
    func phases(_ phase: Phase) {
        let state = Self.state(phase)
        #expect(state.checkInvariants().isEmpty)
        var expected = WaitingRows()
        switch phase {
        case .nothingWaiting: break
        case .nothingWaitingMayMiss:
            expected.mayMiss = true
            expected.mayMissSince = 4
        case .waiting, .waitingMayMiss, .interrupted, .catchUpAsked:
            Self.waits(&expected, ["s3": 3, "s2": 2, "s1": 1])
            expected.arrivals = 3
            expected.requestMark = 2
            if phase == .waitingMayMiss {
                expected.mayMiss = true
                expected.mayMissSince = 4
            }
            if phase == .interrupted { expected.missedSince = .init(arrivals: 3, token: nil) }
            if phase == .catchUpAsked { expected.missedSince = .init(arrivals: 3, token: 4) }
        case .arrivedSinceDrop, .arrivedSinceCatchUpAsked:
            Self.waits(&expected, ["s4": 4, "s3": 3, "s2": 2, "s1": 1])
            expected.arrivals = 4
            expected.requestMark = 2
            expected.missedSince = .init(arrivals: 3, token: phase == .arrivedSinceDrop ? nil : 4)
        }
        #expect(state == expected, "\(fieldDiff(expected, state))")
    }

    // MARK: - Every transition in every phase

    /// The state an event starts from in `phase`: for an answer from a request that started
    /// after every mark, the phase with that request started.
    static func from(_ phase: Phase, for event: Event) -> WaitingRows {
        var state = Self.state(phase)
        switch event {
        case .firstPageAnswered(.afterMarks), .refreshAnswered(.afterMarks, _), .catchUpAnswered(.afterMarks, _): state.requestStarted()
        default: break
        }
        return state
    }

    /// Sends `event` (the list's next token is 4 in every phase; 5 once a request started after
    /// the marks).
    static func apply(_ event: Event, to state: inout WaitingRows) -> WaitingRows.Change {
        let shown = RowList(posts(["s2", "p1"]))
        switch event {
        case .arrivedNew: return state.arrived(post("s9"), nextToken: 1)
        case .arrivedAgain: return state.arrived(edited, nextToken: 1)
        case .arrivedGap: return state.arrived(gap, nextToken: 1)
        case .interrupted: return state.interrupted(nextToken: 4)
        case .catchUpAsked: state.catchUpAsked(nextToken: 4)
        case .requestStarted: state.requestStarted()
        case .firstPageAnswered(let start):
            return state.firstPageAnswered(posts(["s2", "p1"]), token: start.token, shown: shown, nextToken: start.nextToken)
        case .refreshAnswered(let start, let refresh):
            return state.refreshAnswered(
                posts(["s2", "p1"]), token: start.token, shown: shown,
                newRows: refresh == .newRows ? 2 : 0, hasMore: refresh == .fullNothingNew, nextToken: start.nextToken)
        case .catchUpAnswered(let start, let catchUp):
            return state.catchUpAnswered(
                posts(["c2", "s2", "c1"]), token: start.token, hasMore: catchUp == .full, fromTop: catchUp == .fromTop, nextToken: start.nextToken)
        case .pageBrought: return state.pageBrought(posts(["s2", "p1"]))
        case .shown: return state.shown(current: [latest]).change
        case .removed: return state.removed([.post("s2"), .post("p9"), .post("s2")])
        case .topGapDropped: state.topGapDropped(nextToken: 4)
        case .reset: return state.reset()
        }
        return WaitingRows.Change()
    }

    @Test("every transition in every phase: the old state mutated into the expected one", arguments: Phase.allCases, Event.allCases)
    func transition(_ phase: Phase, _ event: Event) {
        let state = Self.from(phase, for: event)
        var expected = state
        let change = Self.expect(event, in: phase, &expected)
        assertWaiting(from: state, event.testDescription, { Self.apply(event, to: &$0) }, expect: { $0 = expected }, change: change)
    }

    // MARK: - What transitions return, and the queries

    @Test("showing puts every waiting row on top in its latest copy, only those that came since an open drop, with a gap below when posts may be missing", arguments: Phase.allCases)
    func shownPuts(_ phase: Phase) {
        var state = Self.state(phase)
        let page = state.shown(current: [Self.latest]).page
        switch phase {
        case .nothingWaiting, .nothingWaitingMayMiss: #expect(page == NewerPage(items: [], hasMore: false))
        case .waiting, .interrupted, .catchUpAsked: #expect(page == NewerPage(items: [Self.post("s3"), Self.latest, Self.post("s1")], hasMore: false))
        case .waitingMayMiss: #expect(page == NewerPage(items: [Self.post("s3"), Self.latest, Self.post("s1")], hasMore: true))
        case .arrivedSinceDrop, .arrivedSinceCatchUpAsked: #expect(page == NewerPage(items: [Self.post("s4")], hasMore: true))
        }
    }

    @Test("a notification group that waits and grew moves up as a new arrival; a page takes it only with the same newest notification", arguments: Phase.allCases)
    func groups(_ phase: Phase) {
        let first = Self.group("g1", newest: "n1")
        let grown = Self.group("g1", newest: "n2")
        var state = Self.state(phase)
        _ = state.arrived(first, nextToken: 1)
        let arrivals = state.arrivals
        let moved = assertWaiting(from: state, "arrived(grown group)", { $0.arrived(grown, nextToken: 1) }, expect: { state in
            state.rows = RowList([grown] + state.rows.filter { $0.id != grown.id })
            state.arrivals = arrivals + 1
            state.arrivedAt[grown.id] = arrivals + 1
        }, change: WaitingRows.Change(started: [grown], stopped: [first]))
        assertWaiting(from: moved, "pageBrought(older copy of the group)", { $0.pageBrought([first]) }, expect: { _ in })
        assertWaiting(from: moved, "pageBrought(the group)", { $0.pageBrought([grown]) }, expect: { state in
            state.rows = RowList(state.rows.filter { $0.id != grown.id })
            state.arrivedAt[grown.id] = nil
        }, change: WaitingRows.Change(stopped: [grown]))
    }

    @Test("the queries in every phase", arguments: Phase.allCases)
    func queries(_ phase: Phase) {
        let state = Self.state(phase)
        let brought = Self.posts(["s2", "p1"])
        switch phase {
        case .nothingWaiting, .nothingWaitingMayMiss:
            #expect(state.isEmpty)
            #expect(state.catchUpAnchor == nil)
            #expect(state.coveredArrival(by: brought) == 0)
        case .waiting, .waitingMayMiss, .interrupted, .arrivedSinceDrop, .catchUpAsked, .arrivedSinceCatchUpAsked:
            #expect(!state.isEmpty)
            // The newest row that waited before a drop: s4 came after it.
            #expect(state.catchUpAnchor == Self.post("s3"))
            // The request's start (2 arrivals), or s2's arrival: 2 either way; s9 does not wait.
            #expect(state.coveredArrival(by: brought) == 2)
            #expect(state.coveredArrival(by: Self.posts(["s9"])) == 2)
        }
        switch phase {
        case .nothingWaitingMayMiss, .waitingMayMiss:
            #expect(state.mayMiss(after: 3), "request 3 started before the mark")
            #expect(!state.mayMiss(after: 4))
        case .nothingWaiting, .waiting, .interrupted, .arrivedSinceDrop, .catchUpAsked, .arrivedSinceCatchUpAsked:
            #expect(!state.mayMiss(after: 3) && !state.mayMiss(after: 4))
        }
        switch phase {
        case .nothingWaiting, .nothingWaitingMayMiss, .waiting, .waitingMayMiss:
            #expect(state.staleArrivals(ofToken: 3) == 0 && state.staleArrivals(ofToken: 4) == 0)
        case .interrupted, .arrivedSinceDrop:
            #expect(state.staleArrivals(ofToken: 3) == 3 && state.staleArrivals(ofToken: 4) == 3, "no catch-up asked yet")
        case .catchUpAsked, .arrivedSinceCatchUpAsked:
            #expect(state.staleArrivals(ofToken: 3) == 3)
            #expect(state.staleArrivals(ofToken: 4) == 0, "the catch-up asked for covers the drop")
        }
    }

    @Test("a catch-up's page keeps the rows that arrived while it ran above it, and its own order for the rows it brought")
    func catchUpKeepsOrder() {
        var state = WaitingRows()
        state.requestStarted()
        _ = state.arrived(Self.post("s1"), nextToken: 1)
        _ = state.arrived(Self.post("s9"), nextToken: 1)
        // The catch-up (started before s1 and s9) brings s1 among its own posts.
        assertWaiting(from: state, "catchUpAnswered([c2, s1, c1])", {
            $0.catchUpAnswered(Self.posts(["c2", "s1", "c1"]), token: 1, hasMore: false, fromTop: true, nextToken: 2)
        }, expect: { state in
            Self.waits(&state, ["s9": 2, "c2": 0, "s1": 1, "c1": 0])
        }, change: Self.change(started: ["c2", "c1"]))
    }

    @Test("a flood keeps at most the limit waiting: the oldest are let go, counted, and posts may be missing below what waits")
    func floodIsBounded() {
        var state = WaitingRows()
        let flood = WaitingRows.limit + 50
        var letGo: [RowID] = []
        for index in 0..<flood {
            let change = state.arrived(Self.post("f\(index)"), nextToken: 7)
            letGo += change.stopped.map(\.id)
            #expect(state.rows.count <= WaitingRows.limit)
        }
        #expect(state.rows.count == WaitingRows.limit)
        #expect(state.rows.first?.id == Self.post("f\(flood - 1)").id, "the newest waits on top")
        #expect(letGo == (0..<50).map { Self.post("f\($0)").id }, "the oldest are let go, oldest first")
        #expect(state.beyond == 50 && state.letGo == 50)
        #expect(state.mayMiss && state.mayMissSince == 7, "showing them leaves a gap for what was let go")
        #expect(state.checkInvariants().isEmpty)
        // Shown: the gap below stands for what was let go; nothing is counted beyond any more.
        let (page, _) = state.shown(current: [])
        #expect(page.items.count == WaitingRows.limit && page.hasMore)
        #expect(state.beyond == 0)
    }
}
