import Feedline

/// What each transition does in each phase, written as the old state mutated into the expected
/// one; each returns the change the transition must report. Every switch lists every phase.
extension WaitingRowsTests {
    static func expect(_ event: Event, in phase: Phase, _ state: inout WaitingRows) -> WaitingRows.Change {
        switch event {
        case .arrivedNew: arrivedNew(&state)
        case .arrivedAgain: arrivedAgain(phase, &state)
        case .arrivedGap: WaitingRows.Change()
        case .interrupted: interrupted(phase, &state)
        case .catchUpAsked: catchUpAsked(phase, &state)
        case .requestStarted: requestStarted(phase, &state)
        case .firstPageAnswered(let start): firstPageAnswered(start, phase, &state)
        case .refreshAnswered(let start, let refresh): refreshAnswered(start, refresh, phase, &state)
        case .catchUpAnswered(let start, let catchUp): catchUpAnswered(start, catchUp, phase, &state)
        case .pageBrought, .removed: leavesS2(phase, &state)
        case .shown: shown(phase, &state)
        case .topGapDropped: topGapDropped(&state)
        case .reset: reset(&state)
        }
    }

    /// A new post waits on top as the newest arrival, in every phase.
    private static func arrivedNew(_ state: inout WaitingRows) -> WaitingRows.Change {
        state.rows = RowList([post("s9")] + state.rows)
        state.arrivals += 1
        state.arrivedAt[.post("s9")] = state.arrivals
        return change(started: ["s9"])
    }

    /// A post that waits takes the new copy in its place, keeping its arrival; otherwise it is new.
    private static func arrivedAgain(_ phase: Phase, _ state: inout WaitingRows) -> WaitingRows.Change {
        switch phase {
        case .nothingWaiting, .nothingWaitingMayMiss:
            state.rows = RowList([edited])
            state.arrivals = 1
            state.arrivedAt = [.post("s2"): 1]
            return WaitingRows.Change(started: [edited])
        case .waiting, .waitingMayMiss, .interrupted, .catchUpAsked, .arrivedSinceDrop, .arrivedSinceCatchUpAsked:
            state.rows = RowList(state.rows.map { $0.id == .post("s2") ? edited : $0 })
            return WaitingRows.Change()
        }
    }

    /// A drop marks the arrivals; a second drop after rows arrived since the first clears what
    /// waits (posts may be missing from token 4 on).
    private static func interrupted(_ phase: Phase, _ state: inout WaitingRows) -> WaitingRows.Change {
        switch phase {
        case .nothingWaiting, .nothingWaitingMayMiss:
            state.missedSince = .init(arrivals: 0, token: nil)
        case .waiting, .waitingMayMiss, .interrupted:
            state.missedSince = .init(arrivals: 3, token: nil)
        case .catchUpAsked:
            // Nothing arrived since the first drop: the mark stays, the catch-up asked must start again.
            state.missedSince = .init(arrivals: 3, token: nil)
        case .arrivedSinceDrop, .arrivedSinceCatchUpAsked:
            waits(&state, [:])
            state.mayMiss = true
            state.mayMissSince = 4
            state.missedSince = .init(arrivals: 4, token: nil)
            return change(stopped: ["s4", "s3", "s2", "s1"])
        }
        return WaitingRows.Change()
    }

    /// A catch-up asked: from token 4 on, requests cover the drop (or what waits now).
    private static func catchUpAsked(_ phase: Phase, _ state: inout WaitingRows) -> WaitingRows.Change {
        switch phase {
        case .nothingWaiting, .nothingWaitingMayMiss: state.missedSince = .init(arrivals: 0, token: 4)
        case .waiting, .waitingMayMiss: state.missedSince = .init(arrivals: 3, token: 4)
        case .interrupted, .arrivedSinceDrop: state.missedSince = .init(arrivals: 3, token: 4)
        case .catchUpAsked, .arrivedSinceCatchUpAsked: break
        }
        return WaitingRows.Change()
    }

    private static func requestStarted(_ phase: Phase, _ state: inout WaitingRows) -> WaitingRows.Change {
        switch phase {
        case .nothingWaiting, .nothingWaitingMayMiss: break
        case .waiting, .waitingMayMiss, .interrupted, .catchUpAsked: state.requestMark = 3
        case .arrivedSinceDrop, .arrivedSinceCatchUpAsked: state.requestMark = 4
        }
        return WaitingRows.Change()
    }

    /// The first page brought s2 and p1. The request in flight (started after two arrivals)
    /// covers s2 and s1; s3 came later and keeps waiting — unless it started before a drop
    /// not caught up: then only rows that arrived after the drop keep waiting, and s3, left
    /// out for that alone, means posts may be missing. A request started after every mark
    /// covers everything and settles both marks. (Request 3 answers while the next token is 4.)
    private static func firstPageAnswered(_ start: Start, _ phase: Phase, _ state: inout WaitingRows) -> WaitingRows.Change {
        switch (start, phase) {
        case (.inFlight, .nothingWaiting), (.inFlight, .nothingWaitingMayMiss), (.afterMarks, .nothingWaiting):
            return WaitingRows.Change()
        case (.afterMarks, .nothingWaitingMayMiss):
            state.mayMiss = false
            return WaitingRows.Change()
        case (.inFlight, .waiting), (.inFlight, .waitingMayMiss):
            waits(&state, ["s3": 3])
            return change(stopped: ["s2", "s1"])
        case (.inFlight, .interrupted), (.inFlight, .catchUpAsked):
            waits(&state, [:])
            state.mayMiss = true
            state.mayMissSince = 4  // the next token while request 3 runs
            return change(stopped: ["s3", "s2", "s1"])
        case (.inFlight, .arrivedSinceDrop), (.inFlight, .arrivedSinceCatchUpAsked):
            waits(&state, ["s4": 4])
            state.mayMiss = true
            state.mayMissSince = 4  // the next token while request 3 runs
            return change(stopped: ["s3", "s2", "s1"])
        case (.afterMarks, .waiting), (.afterMarks, .waitingMayMiss), (.afterMarks, .interrupted):
            waits(&state, [:])
            state.mayMiss = false
            return change(stopped: ["s3", "s2", "s1"])
        case (.afterMarks, .catchUpAsked):
            waits(&state, [:])
            state.missedSince = nil
            return change(stopped: ["s3", "s2", "s1"])
        case (.afterMarks, .arrivedSinceDrop):
            waits(&state, [:])
            return change(stopped: ["s4", "s3", "s2", "s1"])
        case (.afterMarks, .arrivedSinceCatchUpAsked):
            waits(&state, [:])
            state.missedSince = nil
            return change(stopped: ["s4", "s3", "s2", "s1"])
        }
    }

    /// A refresh covers what waits as the first page does. Nothing new: the same. New rows on
    /// top: nothing is missing, unless rows were left out as stale. A full page with nothing new:
    /// posts may be missing from the next token on.
    private static func refreshAnswered(_ start: Start, _ refresh: Refresh, _ phase: Phase, _ state: inout WaitingRows) -> WaitingRows.Change {
        let change = firstPageAnswered(start, phase, &state)
        switch refresh {
        case .nothingNew: break
        case .newRows:
            let leftOutAsStale: Bool
            switch phase {
            case .interrupted, .arrivedSinceDrop, .catchUpAsked, .arrivedSinceCatchUpAsked: leftOutAsStale = start == .inFlight
            case .nothingWaiting, .nothingWaitingMayMiss, .waiting, .waitingMayMiss: leftOutAsStale = false
            }
            if !leftOutAsStale { state.mayMiss = false }
        case .fullNothingNew:
            state.mayMiss = true
            state.mayMissSince = start.nextToken
        }
        return change
    }

    /// A catch-up brought c2, s2 (waiting) and c1. Rows that arrived after what it covered stay
    /// above them; rows that waited before it started stay below only when it was not full and
    /// did not ask from the top row; the rows it brought arrive with its request's mark.
    private static func catchUpAnswered(_ start: Start, _ catchUp: CatchUp, _ phase: Phase, _ state: inout WaitingRows) -> WaitingRows.Change {
        let mark = state.requestMark
        var result = WaitingRows.Change()
        switch (start, phase, catchUp) {
        case (_, .nothingWaiting, _), (_, .nothingWaitingMayMiss, _):
            waits(&state, ["c2": 0, "s2": 0, "c1": 0])
            result = change(started: ["c2", "s2", "c1"])
        case (.inFlight, .waiting, .belowTop), (.inFlight, .waitingMayMiss, .belowTop):
            waits(&state, ["s3": 3, "c2": mark, "s2": 2, "c1": mark, "s1": 1])
            result = change(started: ["c2", "c1"])
        case (.inFlight, .waiting, _), (.inFlight, .waitingMayMiss, _):
            waits(&state, ["s3": 3, "c2": mark, "s2": 2, "c1": mark])
            result = change(started: ["c2", "c1"], stopped: ["s1"])
        case (.inFlight, .interrupted, .belowTop), (.inFlight, .catchUpAsked, .belowTop):
            waits(&state, ["c2": mark, "s2": 2, "c1": mark, "s1": 1])
            result = change(started: ["c2", "c1"], stopped: ["s3"])
        case (.inFlight, .interrupted, _), (.inFlight, .catchUpAsked, _):
            waits(&state, ["c2": mark, "s2": 2, "c1": mark])
            result = change(started: ["c2", "c1"], stopped: ["s3", "s1"])
        case (.inFlight, .arrivedSinceDrop, .belowTop), (.inFlight, .arrivedSinceCatchUpAsked, .belowTop):
            waits(&state, ["s4": 4, "c2": mark, "s2": 2, "c1": mark, "s1": 1])
            result = change(started: ["c2", "c1"], stopped: ["s3"])
        case (.inFlight, .arrivedSinceDrop, _), (.inFlight, .arrivedSinceCatchUpAsked, _):
            waits(&state, ["s4": 4, "c2": mark, "s2": 2, "c1": mark])
            result = change(started: ["c2", "c1"], stopped: ["s3", "s1"])
        case (.afterMarks, .waiting, .belowTop), (.afterMarks, .waitingMayMiss, .belowTop),
            (.afterMarks, .interrupted, .belowTop), (.afterMarks, .catchUpAsked, .belowTop):
            waits(&state, ["c2": mark, "s2": 2, "c1": mark, "s3": 3, "s1": 1])
            result = change(started: ["c2", "c1"])
        case (.afterMarks, .waiting, _), (.afterMarks, .waitingMayMiss, _), (.afterMarks, .interrupted, _), (.afterMarks, .catchUpAsked, _):
            waits(&state, ["c2": mark, "s2": 2, "c1": mark])
            result = change(started: ["c2", "c1"], stopped: ["s3", "s1"])
        case (.afterMarks, .arrivedSinceDrop, .belowTop), (.afterMarks, .arrivedSinceCatchUpAsked, .belowTop):
            waits(&state, ["c2": mark, "s2": 2, "c1": mark, "s4": 4, "s3": 3, "s1": 1])
            result = change(started: ["c2", "c1"])
        case (.afterMarks, .arrivedSinceDrop, _), (.afterMarks, .arrivedSinceCatchUpAsked, _):
            waits(&state, ["c2": mark, "s2": 2, "c1": mark])
            result = change(started: ["c2", "c1"], stopped: ["s4", "s3", "s1"])
        }
        // What may be missing: a full page, or rows left out as stale (the request in flight
        // started before a drop not caught up), from the next token on; a catch-up from the top that
        // started after the may-miss mark settles it.
        let leftOutAsStale: Bool
        switch phase {
        case .interrupted, .arrivedSinceDrop, .catchUpAsked, .arrivedSinceCatchUpAsked: leftOutAsStale = start == .inFlight
        case .nothingWaiting, .nothingWaitingMayMiss, .waiting, .waitingMayMiss: leftOutAsStale = false
        }
        if catchUp == .full || leftOutAsStale {
            state.mayMiss = true
            state.mayMissSince = start.nextToken
        } else if catchUp == .fromTop, start == .afterMarks || state.mayMissSince <= 3 {
            state.mayMiss = false
        }
        // The drop is covered by a catch-up that started after the one asked.
        if start == .afterMarks, phase == .catchUpAsked || phase == .arrivedSinceCatchUpAsked { state.missedSince = nil }
        return result
    }

    /// `pageBrought([s2, p1])` and `removed([s2, p9, s2])`: s2 stops waiting where it waits.
    private static func leavesS2(_ phase: Phase, _ state: inout WaitingRows) -> WaitingRows.Change {
        switch phase {
        case .nothingWaiting, .nothingWaitingMayMiss:
            return WaitingRows.Change()
        case .waiting, .waitingMayMiss, .interrupted, .catchUpAsked, .arrivedSinceDrop, .arrivedSinceCatchUpAsked:
            state.rows = RowList(state.rows.filter { $0.id != .post("s2") })
            state.arrivedAt[.post("s2")] = nil
            return change(stopped: ["s2"])
        }
    }

    /// Everything that waits stops waiting (the page it leaves is checked in
    /// `shownPuts`); rows that arrived since a drop settle it.
    private static func shown(_ phase: Phase, _ state: inout WaitingRows) -> WaitingRows.Change {
        switch phase {
        case .nothingWaiting, .nothingWaitingMayMiss:
            return WaitingRows.Change()
        case .waiting, .waitingMayMiss, .interrupted, .catchUpAsked:
            waits(&state, [:])
            state.mayMiss = false
            return change(stopped: ["s3", "s2", "s1"])
        case .arrivedSinceDrop, .arrivedSinceCatchUpAsked:
            waits(&state, [:])
            state.missedSince = nil
            return change(stopped: ["s4", "s3", "s2", "s1"])
        }
    }

    private static func topGapDropped(_ state: inout WaitingRows) -> WaitingRows.Change {
        state.mayMiss = true
        state.mayMissSince = 4
        return WaitingRows.Change()
    }

    /// Nothing waits or is marked; the counters stay.
    private static func reset(_ state: inout WaitingRows) -> WaitingRows.Change {
        let stopped = WaitingRows.Change(stopped: Array(state.rows))
        waits(&state, [:])
        state.mayMiss = false
        state.missedSince = nil
        return stopped
    }
}
