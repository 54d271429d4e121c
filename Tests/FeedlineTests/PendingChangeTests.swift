@testable import Feedline
import Testing

/// The pending-change machine, every event in every phase: each expectation is written as the
/// old state mutated into the expected one, with the outcome it reports, and the invariants are
/// checked after every transition.
@Suite("Pending change machine")
struct PendingChangeTests {
    typealias Change = PendingChange<String>
    typealias Outcome = ChangeOutcome<String>

    static let down = FeedFailure(message: "Down.", isTransient: true)
    static let refusal = FeedFailure(message: "No.", isTransient: false)

    /// The phases (and the notes and wishes that choose other paths within them).
    enum Phase: String, CaseIterable {
        /// Confirmed "a", nothing asked.
        case settled
        /// Settled, with the note of a refused "b".
        case refused
        /// "b" sent at 10.
        case sending
        /// "b" sent at 10, then "c" wanted.
        case sendingChanged
        /// "b" sent at 10, then "a" (the confirmed value) wanted again.
        case sendingBack
        /// "b" failed for lack of a connection at 12: a re-send waits 2 s.
        case deferred
        /// Deferred, then sent again at 13 once the wait was over.
        case resending
    }

    enum Event: CaseIterable {
        case wantNew, wantConfirmed, wantOther
        case backoffElapsed, backoffElapsedStale, retry, acknowledge
        case receiveFresh, receiveStale, receiveWish
        case failTransient, failRefused, failStale
        case answerApplied, answerNotApplied, answerStale
    }

    static func state(_ phase: Phase) -> Change {
        var change = Change(confirmed: "a", knownSince: 5)
        switch phase {
        case .settled:
            break
        case .refused:
            change.want("b", at: 10)
            _ = change.failed(token: 10, failure: refusal, at: 11)
        case .sending:
            change.want("b", at: 10)
        case .sendingChanged:
            change.want("b", at: 10)
            change.want("c", at: 11)
        case .sendingBack:
            change.want("b", at: 10)
            change.want("a", at: 11)
        case .deferred:
            change.want("b", at: 10)
            _ = change.failed(token: 10, failure: down, at: 12)
        case .resending:
            change.want("b", at: 10)
            _ = change.failed(token: 10, failure: down, at: 12)
            change.backoffElapsed(token: 12, at: 13)
        }
        return change
    }

    /// The token of the request in flight in `change` (or one no request has).
    static func current(_ change: Change) -> StoreEpoch { change.inFlight?.token ?? 10 }

    /// Sends `event` to `change` at epoch 20.
    static func send(_ event: Event, to change: inout Change) -> Outcome? {
        let token = current(change)
        switch event {
        case .wantNew: change.want("b", at: 20)
        case .wantConfirmed: change.want("a", at: 20)
        case .wantOther: change.want("c", at: 20)
        case .backoffElapsed: change.backoffElapsed(token: change.resend?.token ?? 12, at: 20)
        case .backoffElapsedStale: change.backoffElapsed(token: 99, at: 20)
        case .retry: change.retry(at: 20)
        case .acknowledge: change.acknowledge()
        case .receiveFresh: return change.receive("d", fetchedAt: 30)
        case .receiveStale: return change.receive("d", fetchedAt: 3)
        case .receiveWish: return change.receive("b", fetchedAt: 30)
        case .failTransient: return change.failed(token: token, failure: down, at: 20)
        case .failRefused: return change.failed(token: token, failure: refusal, at: 20)
        case .failStale: return change.failed(token: 99, failure: refusal, at: 20)
        case .answerApplied: return change.succeeded(token: token, value: change.inFlight?.value ?? "b", at: 20)
        case .answerNotApplied: return change.succeeded(token: token, value: "a", at: 20)
        case .answerStale: return change.succeeded(token: 99, value: "z", at: 20)
        }
        return nil
    }

    /// What each event does in each phase: the old state's mutation and the outcome.
    static func expected(_ phase: Phase, _ event: Event) -> (mutate: (inout Change) -> Void, outcome: Outcome?) {
        let same: (inout Change) -> Void = { _ in }
        switch (phase, event) {
        // Settled: a wish is sent at once; a fresh copy is shown; answers and waits of nobody do nothing.
        case (.settled, .wantNew): return ({ $0.wanted = "b"; $0.inFlight = .init(value: "b", token: 20) }, nil)
        case (.settled, .wantOther): return ({ $0.wanted = "c"; $0.inFlight = .init(value: "c", token: 20) }, nil)
        case (.settled, .receiveFresh): return ({ $0.confirmed = "d"; $0.wanted = "d"; $0.knownSince = 30 }, nil)
        case (.settled, .receiveWish): return ({ $0.confirmed = "b"; $0.wanted = "b"; $0.knownSince = 30 }, nil)
        case (.settled, _): return (same, nil)

        // Refused: a note until the next wish or acknowledge; copies still show.
        case (.refused, .wantNew): return ({ $0.refusal = nil; $0.wanted = "b"; $0.inFlight = .init(value: "b", token: 20) }, nil)
        case (.refused, .wantConfirmed), (.refused, .acknowledge): return ({ $0.refusal = nil }, nil)
        case (.refused, .wantOther): return ({ $0.refusal = nil; $0.wanted = "c"; $0.inFlight = .init(value: "c", token: 20) }, nil)
        case (.refused, .receiveFresh): return ({ $0.confirmed = "d"; $0.wanted = "d"; $0.knownSince = 30 }, nil)
        case (.refused, .receiveWish): return ({ $0.confirmed = "b"; $0.wanted = "b"; $0.knownSince = 30 }, nil)
        case (.refused, _): return (same, nil)

        // Sending: wishes wait for the answer; copies are ignored (the answer is fresher).
        case (.sending, .wantConfirmed): return ({ $0.wanted = "a" }, nil)
        case (.sending, .wantOther): return ({ $0.wanted = "c" }, nil)
        case (.sending, .failTransient):
            return ({ $0.inFlight = nil; $0.failedAttempts = 1; $0.queuedReason = "Down."; $0.resend = .init(token: 20, delay: .seconds(2)) },
                    .queued("b", reason: "Down.", after: .seconds(2)))
        case (.sending, .failRefused):
            return ({ $0.inFlight = nil; $0.wanted = "a"; $0.refusal = .init(wanted: "b", message: "No.") }, .refused("b", message: "No."))
        case (.sending, .answerApplied): return ({ $0.inFlight = nil; $0.confirmed = "b"; $0.knownSince = 20 }, .done("b"))
        case (.sending, .answerNotApplied):
            return ({ $0.inFlight = nil; $0.wanted = "a"; $0.knownSince = 20 }, .notApplied("b", now: "a"))
        case (.sending, _): return (same, nil)

        // Sending, another wish meanwhile: it goes next, whatever the answer.
        case (.sendingChanged, .wantNew): return ({ $0.wanted = "b" }, nil)
        case (.sendingChanged, .wantConfirmed): return ({ $0.wanted = "a" }, nil)
        case (.sendingChanged, .failTransient):
            return ({ $0.inFlight = nil; $0.failedAttempts = 1; $0.queuedReason = "Down."; $0.resend = .init(token: 20, delay: .seconds(2)) },
                    .queued("c", reason: "Down.", after: .seconds(2)))
        case (.sendingChanged, .failRefused):
            // Reported, but no note: it would outlive the wish it does not concern.
            return ({ $0.inFlight = .init(value: "c", token: 20) }, .refused("b", message: "No."))
        case (.sendingChanged, .answerApplied):
            return ({ $0.confirmed = "b"; $0.knownSince = 20; $0.inFlight = .init(value: "c", token: 20) }, nil)
        case (.sendingChanged, .answerNotApplied):
            return ({ $0.inFlight = nil; $0.wanted = "a"; $0.knownSince = 20 }, .notApplied("b", now: "a"))
        case (.sendingChanged, _): return (same, nil)

        // Sending, then back to the confirmed value: nothing to undo on failure; an applied
        // answer is undone by one more request.
        case (.sendingBack, .wantNew): return ({ $0.wanted = "b" }, nil)
        case (.sendingBack, .wantOther): return ({ $0.wanted = "c" }, nil)
        case (.sendingBack, .failTransient), (.sendingBack, .failRefused): return ({ $0.inFlight = nil }, nil)
        case (.sendingBack, .answerApplied):
            return ({ $0.confirmed = "b"; $0.knownSince = 20; $0.inFlight = .init(value: "a", token: 20) }, nil)
        case (.sendingBack, .answerNotApplied): return ({ $0.inFlight = nil; $0.knownSince = 20 }, .done("a"))
        case (.sendingBack, _): return (same, nil)

        // Deferred: a wish or a retry sends at once; a copy showing the wish ends the wait.
        case (.deferred, .wantNew), (.deferred, .backoffElapsed), (.deferred, .retry):
            return ({ $0.resend = nil; $0.inFlight = .init(value: "b", token: 20) }, nil)
        case (.deferred, .wantConfirmed):
            return ({ $0.resend = nil; $0.wanted = "a"; $0.failedAttempts = 0; $0.queuedReason = nil }, nil)
        case (.deferred, .wantOther): return ({ $0.resend = nil; $0.wanted = "c"; $0.inFlight = .init(value: "c", token: 20) }, nil)
        case (.deferred, .receiveFresh): return ({ $0.confirmed = "d"; $0.knownSince = 30 }, nil)
        case (.deferred, .receiveWish):
            return ({ $0.confirmed = "b"; $0.knownSince = 30; $0.resend = nil; $0.failedAttempts = 0; $0.queuedReason = nil }, .done("b"))
        case (.deferred, _): return (same, nil)

        // Sent again: a second failure doubles the wait; an answer ends the count.
        case (.resending, .wantConfirmed): return ({ $0.wanted = "a" }, nil)
        case (.resending, .wantOther): return ({ $0.wanted = "c" }, nil)
        case (.resending, .failTransient):
            return ({ $0.inFlight = nil; $0.failedAttempts = 2; $0.resend = .init(token: 20, delay: .seconds(4)) },
                    .queued("b", reason: "Down.", after: .seconds(4)))
        case (.resending, .failRefused):
            return ({ $0.inFlight = nil; $0.wanted = "a"; $0.failedAttempts = 0; $0.queuedReason = nil; $0.refusal = .init(wanted: "b", message: "No.") },
                    .refused("b", message: "No."))
        case (.resending, .answerApplied):
            return ({ $0.inFlight = nil; $0.confirmed = "b"; $0.knownSince = 20; $0.failedAttempts = 0; $0.queuedReason = nil }, .done("b"))
        case (.resending, .answerNotApplied):
            return ({ $0.inFlight = nil; $0.wanted = "a"; $0.knownSince = 20; $0.failedAttempts = 0; $0.queuedReason = nil },
                    .notApplied("b", now: "a"))
        case (.resending, _): return (same, nil)
        }
    }

    @Test("every event in every phase", arguments: Phase.allCases)
    func everyEvent(_ phase: Phase) {
        let start = Self.state(phase)
        #expect(start.brokenInvariants.isEmpty, "\(phase): \(start.brokenInvariants)")
        for event in Event.allCases {
            var actual = start
            let outcome = Self.send(event, to: &actual)
            let (mutate, expectedOutcome) = Self.expected(phase, event)
            var expected = start
            mutate(&expected)
            #expect(actual == expected, "\(phase) on \(event):\n expected \(expected)\n actual   \(actual)")
            #expect(outcome == expectedOutcome, "\(phase) on \(event): outcome \(String(describing: outcome))")
            #expect(actual.brokenInvariants.isEmpty, "\(phase) on \(event): \(actual.brokenInvariants)")
        }
    }

    @Test("a wait is at most a minute, or as long as the server asked")
    func backoff() {
        var change = Change(confirmed: "a", knownSince: 1)
        change.want("b", at: 2)
        var delays: [Duration] = []
        for attempt in 0..<8 {
            let token = change.inFlight?.token ?? 0
            guard case .queued(_, _, let after)? = change.failed(token: token, failure: Self.down, at: StoreEpoch(10 + attempt)) else {
                Issue.record("attempt \(attempt) was not queued")
                return
            }
            delays.append(after)
            change.retry(at: StoreEpoch(100 + attempt))
        }
        #expect(delays == [2, 4, 8, 16, 32, 60, 60, 60].map { Duration.seconds($0) })
        let limited = FeedFailure(message: "Slow down.", isTransient: true, retryAfter: .seconds(300))
        let token = change.inFlight?.token ?? 0
        #expect(change.failed(token: token, failure: limited, at: 200) == .queued("b", reason: "Slow down.", after: .seconds(300)))
    }

    @Test("a refusal is never sent again by a retry; the next wish clears its note")
    func refusalsAreNotes() {
        var change = Self.state(.refused)
        #expect(change.retry(at: 30) == false)
        #expect(change.inFlight == nil && change.wanted == "a" && change.refusal?.message == "No.")
        change.want("c", at: 31)
        #expect(change.refusal == nil && change.inFlight == .init(value: "c", token: 31))
    }
}
