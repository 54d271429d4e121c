/// The state of saving reading positions to a server's markers (`MarkerSync`), as a value:
/// per timeline, the position wanted, the one the server holds as far as this session knows,
/// and what is under way. Saves are debounced: the first move starts a window of
/// ``interval``, and its end saves the newest position — at most one save per window. Nothing
/// is saved for a timeline before its marker was read (`MarkerEvent/read(_:_:)`), so a
/// position is never saved over one the server holds that this session has not seen. A save
/// refused as a conflict (another device saving at the same moment) is sent again after
/// ``conflictDelay``, up to ``conflictAttempts`` times. Once `MarkerEvent/finishing` came,
/// what is wanted is saved at once.
///
/// Pure: ``reduce(_:)`` is the transition, ``requests`` says which effects should be running.
package struct MarkerState: Hashable, Sendable {
    /// What one timeline's marker is doing.
    package enum Phase: Hashable, Sendable {
        /// Nothing under way: the wanted position is saved, or nothing is wanted.
        case idle
        /// A window is open; when it ends the wanted position is saved.
        case waiting(token: Int)
        /// A save of `id` is on its way; `attempt` counts from 1.
        case saving(ItemID, attempt: Int, token: Int)
        /// A save met a conflict; after a short wait it is sent again.
        case backingOff(attempt: Int, token: Int)
    }

    /// One timeline's marker.
    package struct Slot: Hashable, Sendable {
        /// The newest position the user reached, to be saved.
        package var wanted: ItemID?
        /// What the server holds, as far as this session knows (read at start, or saved).
        package var saved: ItemID?
        /// Whether the server's marker was read (``saved`` is then what it held, `nil` for none).
        package var isRead: Bool
        package var phase: Phase

        package init(wanted: ItemID? = nil, saved: ItemID? = nil, isRead: Bool = false, phase: Phase = .idle) {
            self.wanted = wanted
            self.saved = saved
            self.isRead = isRead
            self.phase = phase
        }

        /// Whether a save is needed: the marker was read, and something is wanted that the
        /// server does not hold.
        var isDirty: Bool { isRead && wanted != nil && wanted != saved }
    }

    /// The debounce window: at most one save per window of reading.
    package static let interval: Duration = .seconds(10)
    /// The wait before a save that met a conflict is sent again.
    package static let conflictDelay: Duration = .seconds(1)
    /// How many times a save is sent when it keeps meeting conflicts.
    package static let conflictAttempts = 3

    package private(set) var slots: [MarkerTimeline: Slot] = [:]
    /// Set by `MarkerEvent/finishing`: no more windows; what is wanted is saved at once.
    package private(set) var isFinishing = false
    private var nextToken = 1

    package init() {}

    /// The slot of `timeline` (idle and empty when never used).
    package subscript(timeline: MarkerTimeline) -> Slot { slots[timeline] ?? Slot() }

    /// Whether nothing is under way that could still save: no save in flight, no conflict
    /// waiting to be sent again, and (once finishing) nothing wanted and unsaved.
    package var isSettled: Bool {
        slots.values.allSatisfy { slot in
            switch slot.phase {
            case .idle: true
            case .waiting: !isFinishing
            case .saving, .backingOff: false
            }
        }
    }
}

/// What happens to the markers.
package enum MarkerEvent: Hashable, Sendable {
    /// The server's marker was read: what it holds (`nil`: no marker yet).
    case read(MarkerTimeline, ItemID?)
    /// The user's position moved to `id`.
    case moved(MarkerTimeline, ItemID)
    /// The wait with `token` (a window, or a conflict's delay) ended.
    case waitEnded(MarkerTimeline, token: Int)
    /// The save with `token` succeeded.
    case saved(MarkerTimeline, token: Int)
    /// The save with `token` met a conflict (another save at the same moment).
    case conflicted(MarkerTimeline, token: Int)
    /// The save with `token` failed otherwise: the position stays wanted, for the next move
    /// or the end of the session.
    case failed(MarkerTimeline, token: Int)
    /// The session is ending: save what is wanted now.
    case finishing
}

/// An effect the marker state wants running.
package enum MarkerRequest: Hashable, Sendable {
    /// Sleep for `duration` on the clock, then `MarkerEvent/waitEnded(_:token:)`.
    case wait(MarkerTimeline, Duration, token: Int)
    /// Save `id` as the marker, then `MarkerEvent/saved(_:token:)` (or a failure).
    case save(MarkerTimeline, ItemID, token: Int)
}

extension MarkerState {
    /// The effects that should be running: one per timeline at most.
    package var requests: [MarkerRequest] {
        slots.sorted { $0.key.rawValue < $1.key.rawValue }.compactMap { timeline, slot in
            switch slot.phase {
            case .idle: nil
            case .waiting(let token): .wait(timeline, Self.interval, token: token)
            case .saving(let id, _, let token): .save(timeline, id, token: token)
            case .backingOff(_, let token): .wait(timeline, Self.conflictDelay, token: token)
            }
        }
    }

    /// The transition for `event`.
    package mutating func reduce(_ event: MarkerEvent) {
        switch event {
        case .read(let timeline, let id):
            update(timeline) {
                $0.saved = id
                $0.isRead = true
            }
            startIfDirty(timeline)

        case .moved(let timeline, let id):
            update(timeline) { $0.wanted = id }
            startIfDirty(timeline)

        case .waitEnded(let timeline, let token):
            switch self[timeline].phase {
            case .waiting(token):
                setPhase(timeline, self[timeline].isDirty ? save(timeline, attempt: 1) : .idle)
            case .backingOff(let attempt, token):
                setPhase(timeline, self[timeline].isDirty ? save(timeline, attempt: attempt + 1) : .idle)
            default: break
            }

        case .saved(let timeline, let token):
            guard case .saving(let id, _, token) = self[timeline].phase else { return }
            update(timeline) { $0.saved = id }
            setPhase(timeline, .idle)
            startIfDirty(timeline)

        case .conflicted(let timeline, let token):
            guard case .saving(_, let attempt, token) = self[timeline].phase else { return }
            setPhase(timeline, attempt < Self.conflictAttempts ? .backingOff(attempt: attempt, token: takeToken()) : .idle)

        case .failed(let timeline, let token):
            guard case .saving(_, _, token) = self[timeline].phase else { return }
            setPhase(timeline, .idle)

        case .finishing:
            guard !isFinishing else { return }
            isFinishing = true
            for timeline in MarkerTimeline.allCases {
                switch self[timeline].phase {
                case .idle, .waiting: setPhase(timeline, self[timeline].isDirty ? save(timeline, attempt: 1) : .idle)
                case .saving, .backingOff: break
                }
            }
        }
    }

    /// Opens a window (or, when finishing, saves at once) if the timeline is idle and has an
    /// unsaved position.
    private mutating func startIfDirty(_ timeline: MarkerTimeline) {
        guard self[timeline].phase == .idle, self[timeline].isDirty else { return }
        setPhase(timeline, isFinishing ? save(timeline, attempt: 1) : .waiting(token: takeToken()))
    }

    private mutating func save(_ timeline: MarkerTimeline, attempt: Int) -> Phase {
        guard let id = self[timeline].wanted else { return .idle }
        return .saving(id, attempt: attempt, token: takeToken())
    }

    private mutating func setPhase(_ timeline: MarkerTimeline, _ phase: Phase) {
        update(timeline) { $0.phase = phase }
    }

    private mutating func update(_ timeline: MarkerTimeline, _ change: (inout Slot) -> Void) {
        var slot = self[timeline]
        change(&slot)
        slots[timeline] = slot
    }

    private mutating func takeToken() -> Int {
        defer { nextToken += 1 }
        return nextToken
    }
}
