/// The rows that wait above a list — streamed, brought by a catch-up, or saved newer than the
/// reading position — and the bookkeeping that says where they belong: when each arrived,
/// whether posts may be missing between them and the list's rows, and since when the stream
/// may have missed some.
///
/// A value owned by `ListState` (`ListState/waitingRows`), which changes it only through its
/// transitions, each named for what happened (``arrived(_:)``, ``interrupted(nextToken:)``,
/// ``shown(current:)`` …); they are pure, and each that moves rows returns the rows that began
/// or stopped waiting (``Change``) so that the list can tell the store which posts its waiting
/// rows hold. (The fields are settable in the package so that tests can write an expected
/// state as the old one mutated.)
///
/// Guaranteed (``checkInvariants()``): the rows are unique by id, newest first, never a gap
/// row, at most ``limit`` of them; every waiting row, and only those, has an arrival; no
/// arrival, request mark or drop mark is later than ``arrivals``.
package struct WaitingRows: Sendable, Equatable {
    /// The rows that wait, newest first.
    package var rows = RowList()
    /// Whether items may be missing between the waiting rows and the list's rows (a catch-up
    /// found more than a page, or a delete dropped a gap from the top): showing them then
    /// leaves a gap row below them.
    package var mayMiss = false
    /// The first token of the requests that started after ``mayMiss`` was set: only they can
    /// tell that nothing is missing.
    package var mayMissSince = 0
    /// Set when the stream drops (or a catch-up is asked for without a drop: a first
    /// connection, a poll): posts may be missing between what waited then and what arrives
    /// later, and an answer that comes meanwhile may hold posts newer than what waited.
    /// Cleared once a catch-up, refresh or first page that started after the catch-up was
    /// asked for covers it, or showing the rows that arrived since puts a gap below them.
    package var missedSince: MissedMark?
    /// Stream arrivals so far (restored rows count as arrivals too): a counter, never lowered.
    package var arrivals = 0
    /// When each waiting row arrived (its ``arrivals`` count; a catch-up's rows take the mark
    /// of the request that brought them): a refresh or catch-up keeps the waiting rows that
    /// arrived after it started and drops the ones it covered.
    package var arrivedAt: [RowID: Int] = [:]
    /// ``arrivals`` when the list's request in flight started.
    package var requestMark = 0
    /// Rows let go from the bottom of what waits, past ``limit``, since posts were last known
    /// not to be missing; meaningful while ``mayMiss`` holds (``beyond``).
    package var letGo = 0

    /// The most rows that wait above a list (see ``arrived(_:nextToken:)``).
    package static let limit = 200

    /// The rows let go past ``limit`` that nothing has loaded since: a refresh (or the gap
    /// left below the waiting rows once they are shown) brings them.
    package var beyond: Int { mayMiss ? letGo : 0 }

    /// Since when posts may be missing: `WaitingRows/arrivals` when the stream dropped (rows
    /// that arrived later came after the reconnect) and, once a catch-up was asked for, the
    /// first token of the requests that started after that (`nil` while the stream is down).
    package struct MissedMark: Hashable, Sendable {
        package var arrivals: Int
        package var token: Int?

        package init(arrivals: Int, token: Int?) {
            self.arrivals = arrivals
            self.token = token
        }
    }

    /// What a transition did to the waiting rows: the rows that began waiting and the rows
    /// that stopped waiting (shown, covered by a page, removed, replaced by a newer copy of a
    /// notification group), each in the order the transition met them.
    package struct Change: Hashable, Sendable {
        package var started: [ListRow] = []
        package var stopped: [ListRow] = []

        package init(started: [ListRow] = [], stopped: [ListRow] = []) {
            self.started = started
            self.stopped = stopped
        }
    }

    /// Nothing waits, nothing arrived, nothing may be missing.
    package init() {}

    /// Whether no row waits. O(1).
    package var isEmpty: Bool { rows.isEmpty }

    /// Checks the invariants; returns a description of each one broken (empty when sound).
    package func checkInvariants() -> [String] {
        var broken = rows.checkIndex().map { "waiting: " + $0 }
        for row in rows where row.gap != nil { broken.append("a gap waits above: \(row.id)") }
        if rows.count > Self.limit { broken.append("\(rows.count) rows wait, more than \(Self.limit)") }
        for row in rows where arrivedAt[row.id] == nil { broken.append("\(row.id) waits with no arrival") }
        for id in arrivedAt.keys where !rows.contains(id) { broken.append("\(id) has an arrival but does not wait") }
        for (id, arrival) in arrivedAt where arrival > arrivals { broken.append("\(id) arrived at \(arrival), after the last arrival \(arrivals)") }
        if requestMark > arrivals { broken.append("request mark \(requestMark) after the last arrival \(arrivals)") }
        if let mark = missedSince, mark.arrivals > arrivals { broken.append("missed since \(mark.arrivals), after the last arrival \(arrivals)") }
        return broken
    }
}
