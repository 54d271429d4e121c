@_spi(FeedService) import Feedline
import Testing

/// The marker machine, exhaustively: every event in every phase of a timeline's marker — a
/// position wanted before the server's marker was read, idle with nothing to save, idle with an
/// unsaved position (a save failed), a window open, a save on its way (first and last attempt), a
/// conflict's wait — before and after the session began finishing.
@Suite("Marker machine")
struct MarkerStateTests {
    enum Phase: String, CaseIterable, CustomTestStringConvertible {
        case unread, idleSaved, idleUnsaved, waiting, saving, savingLast, backingOff
        var testDescription: String { rawValue }
    }

    /// The home marker in `phase`: the server held `s`, the user reached `b` (unread: the
    /// server's marker is not known yet).
    static func state(_ phase: Phase, finishing: Bool = false) -> MarkerState {
        var state = MarkerState()
        if phase != .unread { state.reduce(.read(.home, "s")) }
        switch phase {
        case .unread:
            state.reduce(.moved(.home, "b"))
        case .idleSaved:
            state.reduce(.moved(.home, "s"))
        case .idleUnsaved:
            state.reduce(.moved(.home, "b"))
            endWait(&state)
            state.reduce(.failed(.home, token: token(state)))
        case .waiting:
            state.reduce(.moved(.home, "b"))
        case .saving:
            state.reduce(.moved(.home, "b"))
            endWait(&state)
        case .savingLast:
            state.reduce(.moved(.home, "b"))
            endWait(&state)
            for _ in 1..<MarkerState.conflictAttempts {
                state.reduce(.conflicted(.home, token: token(state)))
                endWait(&state)
            }
        case .backingOff:
            state.reduce(.moved(.home, "b"))
            endWait(&state)
            state.reduce(.conflicted(.home, token: token(state)))
        }
        if finishing { state.reduce(.finishing) }
        return state
    }

    static func token(_ state: MarkerState) -> Int {
        switch state[.home].phase {
        case .idle: 0
        case .waiting(let token), .saving(_, _, let token), .backingOff(_, let token): token
        }
    }

    /// The home marker in `phase` before and after `event` with its current token; checks on
    /// the way that the same event with a stale token changes nothing.
    static func answer(
        _ phase: Phase, finishing: Bool, _ event: (Int) -> MarkerEvent, sourceLocation: SourceLocation = #_sourceLocation
    ) -> (before: MarkerState, after: MarkerState) {
        let before = state(phase, finishing: finishing)
        var stale = before
        stale.reduce(event(999))
        #expect(stale == before, "a stale token changes nothing", sourceLocation: sourceLocation)
        var after = before
        after.reduce(event(token(before)))
        return (before, after)
    }

    static func endWait(_ state: inout MarkerState) {
        state.reduce(.waitEnded(.home, token: token(state)))
    }

    /// The phase without its token, for comparison.
    static func shape(_ phase: MarkerState.Phase) -> String {
        switch phase {
        case .idle: "idle"
        case .waiting: "waiting"
        case .saving(let id, let attempt, _): "saving \(id) #\(attempt)"
        case .backingOff(let attempt, _): "backingOff #\(attempt)"
        }
    }

    static func shape(_ state: MarkerState) -> String { shape(state[.home].phase) }

    @Test("the phases look as intended, and each asks for its one effect", arguments: Phase.allCases)
    func phases(_ phase: Phase) {
        let state = Self.state(phase)
        let expected: (String, String?, [String]) = switch phase {
        case .unread: ("idle", "b", [])
        case .idleSaved: ("idle", "s", [])
        case .idleUnsaved: ("idle", "b", [])
        case .waiting: ("waiting", "b", ["wait 10"])
        case .saving: ("saving b #1", "b", ["save b"])
        case .savingLast: ("saving b #\(MarkerState.conflictAttempts)", "b", ["save b"])
        case .backingOff: ("backingOff #1", "b", ["wait 1"])
        }
        #expect(Self.shape(state) == expected.0)
        #expect(state[.home].wanted?.rawValue == expected.1)
        #expect(state[.home].saved == (phase == .unread ? nil : "s"))
        #expect(state[.home].isRead == (phase != .unread))
        let requests = state.requests.map { request -> String in
            switch request {
            case .wait(_, let duration, _): "wait \(duration.components.seconds)"
            case .save(_, let id, _): "save \(id)"
            }
        }
        #expect(requests == expected.2)
        #expect(state.isSettled == [.unread, .idleSaved, .idleUnsaved, .waiting].contains(phase))
        #expect(state[.notifications] == MarkerState.Slot(), "the other timeline is untouched")
    }

    @Test("read: what the server holds (none too); an idle position that differs from it opens a window (saves at once when finishing)", arguments: Phase.allCases, [false, true])
    func read(_ phase: Phase, finishing: Bool) {
        for id: ItemID? in ["b", "x", nil] {
            let before = Self.state(phase, finishing: finishing)
            var state = before
            state.reduce(.read(.home, id))
            #expect(state[.home].saved == id && state[.home].isRead)
            guard case .idle = before[.home].phase else {
                #expect(state[.home].phase == before[.home].phase, "nothing under way changes")
                continue
            }
            if let wanted = state[.home].wanted, wanted != id {
                #expect(Self.shape(state) == (finishing ? "saving \(wanted) #1" : "waiting"))
            } else {
                #expect(Self.shape(state) == "idle")
            }
        }
    }

    @Test("moved: a new position opens a window when idle (saves at once when finishing) once the marker was read; under way it waits its turn", arguments: Phase.allCases, [false, true])
    func moved(_ phase: Phase, finishing: Bool) {
        var state = Self.state(phase, finishing: finishing)
        let before = state
        state.reduce(.moved(.home, "c"))
        #expect(state[.home].wanted == "c")
        switch before[.home].phase {
        case .idle where !before[.home].isRead: #expect(Self.shape(state) == "idle", "nothing is saved before the marker is read")
        case .idle: #expect(Self.shape(state) == (finishing ? "saving c #1" : "waiting"))
        default: #expect(state[.home].phase == before[.home].phase)
        }
        // Moving back to what the server holds needs nothing new.
        var back = Self.state(phase, finishing: finishing)
        back.reduce(.moved(.home, "s"))
        #expect(back[.home].phase == Self.state(phase, finishing: finishing)[.home].phase)
    }

    @Test("waitEnded: a window's end saves the newest position, a conflict's wait sends it again; a stale end does nothing", arguments: Phase.allCases, [false, true])
    func waitEnded(_ phase: Phase, finishing: Bool) {
        let (before, state) = Self.answer(phase, finishing: finishing) { .waitEnded(.home, token: $0) }
        switch Self.shape(before) {
        case "waiting": #expect(Self.shape(state) == "saving b #1")
        case "backingOff #1": #expect(Self.shape(state) == "saving b #2")
        default: #expect(state == before, "no wait of that token runs")
        }
    }

    @Test("saved: the server holds the position; a newer one opens the next window", arguments: Phase.allCases, [false, true])
    func saved(_ phase: Phase, finishing: Bool) {
        let (before, state) = Self.answer(phase, finishing: finishing) { .saved(.home, token: $0) }
        guard case .saving = before[.home].phase else {
            #expect(state == before)
            return
        }
        #expect(state[.home].saved == "b")
        #expect(Self.shape(state) == "idle")
        #expect(state.isSettled)
        // Moved on while the save was on its way: the next window (at once when finishing).
        var moved = before
        moved.reduce(.moved(.home, "c"))
        moved.reduce(.saved(.home, token: Self.token(before)))
        #expect(moved[.home].saved == "b")
        #expect(Self.shape(moved) == (finishing ? "saving c #1" : "waiting"))
    }

    @Test("conflicted: sent again after a short wait, up to the limit; then the position stays wanted", arguments: Phase.allCases, [false, true])
    func conflicted(_ phase: Phase, finishing: Bool) {
        let (before, state) = Self.answer(phase, finishing: finishing) { .conflicted(.home, token: $0) }
        switch Self.shape(before) {
        case "saving b #1": #expect(Self.shape(state) == "backingOff #1")
        case "saving b #\(MarkerState.conflictAttempts)":
            #expect(Self.shape(state) == "idle")
            #expect(state[.home].wanted == "b" && state[.home].saved == "s", "still wanted: the next move or the end tries again")
        default: #expect(state == before)
        }
    }

    @Test("failed: the position stays wanted for the next move or the end; nothing retries by itself", arguments: Phase.allCases, [false, true])
    func failed(_ phase: Phase, finishing: Bool) {
        let (before, state) = Self.answer(phase, finishing: finishing) { .failed(.home, token: $0) }
        if case .saving = before[.home].phase {
            #expect(Self.shape(state) == "idle")
            #expect(state[.home].wanted == "b" && state[.home].saved == "s")
            #expect(state.requests.isEmpty)
        } else {
            #expect(state == before)
        }
    }

    @Test("finishing: an open window or an unsaved position is saved at once; a save or a conflict's wait goes on", arguments: Phase.allCases)
    func finishing(_ phase: Phase) {
        var state = Self.state(phase)
        let before = state
        state.reduce(.finishing)
        #expect(state.isFinishing)
        switch phase {
        case .unread, .idleSaved: #expect(Self.shape(state) == "idle")
        case .idleUnsaved, .waiting: #expect(Self.shape(state) == "saving b #1")
        case .saving, .savingLast, .backingOff: #expect(state[.home].phase == before[.home].phase)
        }
        #expect(state.isSettled == (phase == .idleSaved || phase == .unread))
        // Finishing twice is finishing once.
        var twice = state
        twice.reduce(.finishing)
        #expect(twice == state)
    }

    @Test("the two timelines are independent: each has its window, save and tokens")
    func twoTimelines() {
        var state = MarkerState()
        state.reduce(.read(.home, nil))
        state.reduce(.read(.notifications, "n0"))
        state.reduce(.moved(.home, "h1"))
        state.reduce(.moved(.notifications, "n1"))
        #expect(state.requests.count == 2)
        guard case .waiting(let home) = state[.home].phase, case .waiting(let notes) = state[.notifications].phase else {
            Issue.record("both should wait")
            return
        }
        #expect(home != notes)
        // The home window's token ends nothing of the notifications' window.
        state.reduce(.waitEnded(.notifications, token: home))
        #expect(Self.shape(state[.notifications].phase) == "waiting", "another timeline's token is stale here")
        state.reduce(.waitEnded(.notifications, token: notes))
        #expect(Self.shape(state[.notifications].phase) == "saving n1 #1")
        #expect(Self.shape(state[.home].phase) == "waiting")
    }
}
