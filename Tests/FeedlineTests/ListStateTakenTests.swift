@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Testing

/// Rows a pending removal took (`ListState/taken`, `TakenRows`): every event in every phase,
/// for every cause — kept with their places while pending, put back on a refusal unless another
/// cause still hides them, released on a confirmation; an account's hiding holds its rows (the
/// store still counts them), so what it releases and what comes back held is checked too.
@Suite("Rows taken while a removal is pending")
struct ListStateTakenTests {
    enum Cause: String, CaseIterable, CustomTestStringConvertible {
        case account, domain, delete, conversation, membership, notification, clear
        var testDescription: String { rawValue }

        var value: TakenRows.Cause {
            switch self {
            case .account: .account("a")
            case .domain: .domain("example.social")
            case .delete: .delete("p5")
            case .conversation: .conversation("c1")
            case .membership: .membership("a")
            case .notification: .notifications(.group("n1"))
            case .clear: .notifications(.all)
            }
        }

        var holds: Bool { self == .account }
        /// Conversations, memberships and a notification group's dismissal take one row each; a
        /// later taking replaces it.
        var takesOne: Bool { self == .conversation || self == .membership || self == .notification }
    }

    enum Phase: String, CaseIterable, CustomTestStringConvertible {
        /// Loaded, nothing taken.
        case none
        /// The cause took p2, p5, p9 (one-row causes: p5).
        case pending
        /// Pending, and p5 is a row again, on top (a page or the stream brought it back).
        case pendingOneBack
        var testDescription: String { rawValue }
    }

    enum Event: String, CaseIterable, CustomTestStringConvertible {
        /// The cause takes p3 and p7 too (one-row causes: p3).
        case takenMore
        case confirmed
        /// Refused: every row back; p9 (one-row causes: p5) in a newer copy.
        case refused
        /// Refused while another cause still hides p2 (one-row causes: p5).
        case refusedStillHidden
        var testDescription: String { rawValue }
    }

    static let original: [ListRow] = makePosts(12).map { .post(PostRow(post: $0)) }
    static func row(_ number: Int) -> ListRow { original[number - 1] }
    static func rows(_ numbers: [Int]) -> [ListRow] { numbers.map(row) }
    static func taken(_ numbers: [Int]) -> [ReinsertedRow] { numbers.map { ReinsertedRow(index: $0 - 1, row: row($0)) } }
    static func ids(_ numbers: [Int]) -> [RowID] { numbers.map { row($0).id } }
    /// A newer copy of post `number`'s row (the store's, as a refusal finds it).
    static func newer(_ number: Int) -> ListRow {
        .post(PostRow(post: makePost("p\(number)", minutesAgo: Double(number), favourited: true, favourites: 1)))
    }

    static func state(_ phase: Phase, _ cause: Cause) -> ListState {
        var state = ListState()
        state.reduce(.appeared)
        state.reduce(.pageLoaded(token: 1, page: Page(items: original, next: PageCursor("end"))))
        guard phase != .none else { return state }
        state.reduce(.rowsTaken(ids(cause.takesOne ? [5] : [2, 5, 9]), by: cause.value))
        if phase == .pendingOneBack { state.reduce(.rowsReinserted([ReinsertedRow(index: 0, row: row(5))])) }
        return state
    }

    static func event(_ event: Event, _ cause: Cause) -> ListEvent {
        switch event {
        case .takenMore: .rowsTaken(ids(cause.takesOne ? [3] : [3, 7]), by: cause.value)
        case .confirmed: .removalConfirmed(cause.value)
        case .refused:
            .removalRefused(cause.value, current: cause.takesOne ? [newer(5)] : [newer(9)], stillHidden: [])
        case .refusedStillHidden:
            cause.takesOne
                ? .removalRefused(cause.value, current: [], stillHidden: [row(5).id])
                : .removalRefused(cause.value, current: [row(5), row(9)], stillHidden: [row(2).id])
        }
    }

    /// What each event does in each phase: the rows after it (numbers; `-n` is post n's newer
    /// copy), the rows still taken, the held rows released and the held rows back.
    struct Expected {
        var rows: [Int]
        var taken: [ReinsertedRow]
        var released: [Int] = []
        var back: [Int] = []
    }

    static func expected(_ phase: Phase, _ event: Event, _ cause: Cause) -> Expected {
        let all = Array(1...12)
        if cause.takesOne {
            switch (phase, event) {
            case (.none, .takenMore): return Expected(rows: all.filter { $0 != 3 }, taken: taken([3]))
            case (.none, _): return Expected(rows: all, taken: [])
            case (.pending, .takenMore):
                // The later taking replaces the first: p5 stays away for good.
                return Expected(rows: all.filter { $0 != 3 && $0 != 5 }, taken: [ReinsertedRow(index: 2, row: row(3))])
            case (.pending, .confirmed), (.pending, .refusedStillHidden):
                return Expected(rows: all.filter { $0 != 5 }, taken: [], released: cause.holds ? [5] : [])
            case (.pending, .refused): return Expected(rows: [1, 2, 3, 4, -5, 6, 7, 8, 9, 10, 11, 12], taken: [], back: cause.holds ? [5] : [])
            case (.pendingOneBack, .takenMore):
                return Expected(rows: [5, 1, 2, 4, 6, 7, 8, 9, 10, 11, 12], taken: [ReinsertedRow(index: 3, row: row(3))])
            case (.pendingOneBack, _):
                // p5 is a row already: it stays where it is, and nothing is held any more.
                return Expected(rows: [5] + all.filter { $0 != 5 }, taken: [])
            }
        }
        let pendingRows = all.filter { ![2, 5, 9].contains($0) }
        let oneBackRows = [5] + pendingRows
        let held: (Phase) -> [Int] = { phase in cause.holds ? (phase == .pendingOneBack ? [2, 9] : [2, 5, 9]) : [] }
        switch (phase, event) {
        case (.none, .takenMore):
            return Expected(rows: all.filter { $0 != 3 && $0 != 7 }, taken: taken([3, 7]))
        case (.none, _):
            return Expected(rows: all, taken: [])
        case (.pending, .takenMore):
            // p3 and p7 by their places counted with the rows taken (p2 above them is away).
            return Expected(rows: pendingRows.filter { $0 != 3 && $0 != 7 }, taken: taken([2, 5, 9, 3, 7]))
        case (.pending, .confirmed):
            return Expected(rows: pendingRows, taken: [], released: held(.pending))
        case (.pending, .refused):
            return Expected(rows: [1, 2, 3, 4, 5, 6, 7, 8, -9, 10, 11, 12], taken: [], back: held(.pending))
        case (.pending, .refusedStillHidden):
            // Each in its old place: p2, above them, stays away and leaves the count.
            return Expected(rows: [1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], taken: [], released: cause.holds ? [2] : [], back: cause.holds ? [5, 9] : [])
        case (.pendingOneBack, .takenMore):
            // Counted with the rows taken, p5 among them (a page brought it back on top).
            return Expected(
                rows: oneBackRows.filter { $0 != 3 && $0 != 7 },
                taken: taken([2, 5, 9]) + [ReinsertedRow(index: 3, row: row(3)), ReinsertedRow(index: 7, row: row(7))]
            )
        case (.pendingOneBack, .confirmed):
            return Expected(rows: oneBackRows, taken: [], released: held(.pendingOneBack))
        case (.pendingOneBack, .refused):
            // p2 and p9 at their old places (p5 stays on top).
            return Expected(rows: [5, 2, 1, 3, 4, 6, 7, 8, -9, 10, 11, 12], taken: [], back: held(.pendingOneBack))
        case (.pendingOneBack, .refusedStillHidden):
            return Expected(rows: [5, 1, 3, 4, 6, 7, 8, 9, 10, 11, 12], taken: [], released: cause.holds ? [2] : [], back: cause.holds ? [9] : [])
        }
    }

    @Test("the phases look as intended", arguments: Phase.allCases, Cause.allCases)
    func phases(_ phase: Phase, _ cause: Cause) {
        let state = Self.state(phase, cause)
        #expect(state.checkInvariants().isEmpty)
        let took = cause.takesOne ? [5] : [2, 5, 9]
        switch phase {
        case .none:
            #expect(state.taken.isEmpty && state.rows.count == 12)
        case .pending:
            #expect(Array(state.rows) == Self.rows(Array(1...12).filter { !took.contains($0) }))
            #expect(state.taken == TakenRows([cause.value: Self.taken(took)], held: cause.holds ? Set(Self.ids(took)) : []))
        case .pendingOneBack:
            #expect(state.rows.first == Self.row(5))
            #expect(state.taken == TakenRows([cause.value: Self.taken(took)], held: cause.holds ? Set(Self.ids(took.filter { $0 != 5 })) : []))
        }
    }

    @Test("every event in every phase, for every cause", arguments: Phase.allCases, Cause.allCases)
    func transitions(_ phase: Phase, _ cause: Cause) {
        for event in Event.allCases {
            let before = Self.state(phase, cause)
            let expected = Self.expected(phase, event, cause)
            let heldAfter: Set<RowID> = {
                guard cause.holds else { return [] }
                return Set(expected.taken.map(\.row.id)).filter { id in !expected.rows.contains { Self.row(abs($0)).id == id } }
            }()
            let (actual, _) = assertTransition(from: before, on: Self.event(event, cause)) { state in
                state.rows = RowList(expected.rows.map { $0 < 0 ? Self.newer(-$0) : Self.row($0) })
                state.taken = TakenRows(expected.taken.isEmpty ? [:] : [cause.value: expected.taken], held: heldAfter)
            }
            var replay = before
            let (_, released, back) = replay.reduceHolding(Self.event(event, cause))
            #expect(replay == actual)
            #expect(released.map(\.id) == Self.ids(expected.released), "released, \(phase) on \(event)")
            #expect(back == Set(Self.ids(expected.back)), "held rows back, \(phase) on \(event)")
        }
    }

    @Test("another cause's rows stay taken when one is answered; a reset keeps what is taken")
    func causesApart() {
        var state = Self.state(.pending, .account)
        state.reduce(.rowsTaken(Self.ids([4]), by: .domain("example.social")))
        let (_, released, _) = state.reduceHolding(.removalConfirmed(.account("a")))
        #expect(released.map(\.id) == Self.ids([2, 5, 9]))
        #expect(state.taken == TakenRows([.domain("example.social"): [ReinsertedRow(index: 2, row: Self.row(4))]]))
        state.reduce(.reset)
        #expect(state.taken.rows(of: .domain("example.social")).count == 1)
        #expect(state.checkInvariants().isEmpty)
    }
}
