import FeedlineTestSupport
import Feedline
import Testing

/// Every kind of the interaction machine — favourite, boost, bookmark, pin, muted conversation —
/// goes through the same phases with the same events: each event in each phase, for each kind,
/// changes that kind's track as it changes a favourite's (`InteractionStateTests`), leaves the
/// others alone (except what a copy or a restored post's first reply teaches them), and keeps
/// every invariant. A kind added later joins this table through `InteractionKind.allCases`.
@Suite("Interaction machine, every kind")
struct InteractionKindsTests {
    /// The counts the server copy has: 3 favourites, 1 boost; the other kinds have none.
    private static func count(_ kind: InteractionKind, on: Bool = false) -> Int {
        switch kind {
        case .favourite: on ? 4 : 3
        case .reblog: on ? 2 : 1
        case .bookmark, .pin, .muteThread: 0
        }
    }

    /// The original as the server has it, with the kinds `on` set.
    private static func server(_ on: Set<InteractionKind> = []) -> Post {
        var post = makePost("o", favourites: count(.favourite), reblogs: count(.reblog))
        var interactions = ServerInteractions(favourites: count(.favourite), reblogs: count(.reblog))
        for kind in on { interactions.set(kind, to: true) }
        post.interactions = interactions
        return post
    }

    /// A track settled on the server's value.
    private static func settled(_ kind: InteractionKind, on: Bool = false, since: StoreEpoch) -> InteractionState.Track {
        .init(confirmed: on, count: count(kind, on: on), knownSince: since)
    }

    private let refusal = FeedFailure(message: "Not allowed.", isTransient: false)

    /// The phases of `kind`'s track, by name.
    private func phases(_ kind: InteractionKind) -> [(name: String, state: InteractionState)] {
        let idle = InteractionState(serverCopy: Self.server(), fetchedAt: 1)
        var pending = idle
        pending.reduce(.toggled(kind, at: 10))
        var changedMind = pending
        changedMind.reduce(.toggled(kind, at: 11))
        var failedIdle = pending
        failedIdle.reduce(.requestFailed(kind, token: 10, failure: refusal, at: 12))
        var deferred = pending
        deferred.reduce(.requestFailed(kind, token: 10, failure: FeedFailure(message: "Down.", isTransient: true), at: 12))
        var resending = deferred
        resending.reduce(.backoffElapsed(kind, token: 12, at: 13))
        var restoredUnseen = InteractionState(restoring: [kind: true])
        restoredUnseen.reduce(.restored(kind, value: true, at: 10))
        return [
            ("idle", idle), ("pending", pending), ("pendingChangedMind", changedMind), ("failedIdle", failedIdle), ("deferred", deferred),
            ("resending", resending), ("restoredUnseen", restoredUnseen),
        ]
    }

    /// The events sent in every phase, each with what it must do to `kind`'s phase `phase`
    /// (`expect` mutates the old state into the expected one).
    private func table(_ kind: InteractionKind) -> [(event: InteractionEvent, expect: (String, inout InteractionState) -> Void)] {
        let on = Self.count(kind, on: true)
        let others = InteractionKind.allCases.filter { $0 != kind }
        let fresh = Self.server(Set(InteractionKind.allCases))
        let sent = { (value: Bool, token: StoreEpoch) in InteractionRequest(kind: kind, value: value, token: token) }
        return [
            (.toggled(kind, at: 20), { phase, state in
                switch phase {
                case "idle", "failedIdle":
                    state.failure = nil
                    state[kind].desired = true
                    state[kind].inFlight = sent(true, 20)
                case "pending", "resending", "restoredUnseen": state[kind].desired = false
                case "pendingChangedMind": state[kind].desired = true
                case "deferred": state[kind] = Self.settled(kind, since: 1)
                default: Issue.record("no phase \(phase)")
                }
            }),
            (.requestSucceeded(kind, token: 10, reply: Self.server([kind]), at: 20), { phase, state in
                switch phase {
                case "pending": state[kind] = Self.settled(kind, on: true, since: 20)
                case "pendingChangedMind":
                    state[kind] = .init(confirmed: true, count: on, desired: false, inFlight: sent(false, 20), knownSince: 20)
                case "restoredUnseen":
                    state[kind] = Self.settled(kind, on: true, since: 20)
                    for other in others { state[other] = Self.settled(other, since: 10) }
                default: break  // nothing in flight with that token: stale
                }
            }),
            (.requestSucceeded(kind, token: 13, reply: Self.server([kind]), at: 20), { phase, state in
                if phase == "resending" { state[kind] = Self.settled(kind, on: true, since: 20) }
            }),
            (.requestFailed(kind, token: 10, failure: FeedFailure(message: "Down.", isTransient: true), at: 20), { phase, state in
                switch phase {
                case "pending", "restoredUnseen":
                    state[kind].inFlight = nil
                    state[kind].failedAttempts = 1
                    state[kind].resend = InteractionResend(kind: kind, token: 20, delay: .seconds(2))
                    state[kind].queuedReason = "Down."
                case "pendingChangedMind": state[kind] = Self.settled(kind, since: 1)
                default: break
                }
            }),
            (.requestFailed(kind, token: 13, failure: FeedFailure(message: "Down.", isTransient: true), at: 20), { phase, state in
                guard phase == "resending" else { return }
                state[kind].inFlight = nil
                state[kind].failedAttempts = 2
                state[kind].resend = InteractionResend(kind: kind, token: 20, delay: .seconds(4))
            }),
            (.requestFailed(kind, token: 10, failure: refusal, at: 20), { phase, state in
                switch phase {
                case "pending":
                    state[kind] = Self.settled(kind, since: 1)
                    state.failure = InteractionFailure(kind: kind, value: true, message: "Could not \(kind.verb(true)) this post: Not allowed.", isTransient: false)
                case "restoredUnseen":
                    // Restored from an outbox: taken to be off on the server, never learnt.
                    state[kind] = .init(confirmed: false, count: 0)
                    state.failure = InteractionFailure(kind: kind, value: true, message: "Could not \(kind.verb(true)) this post: Not allowed.", isTransient: false)
                case "pendingChangedMind": state[kind] = Self.settled(kind, since: 1)
                default: break
                }
            }),
            (.copyReceived(fresh, fetchedAt: 15, at: 20), { phase, state in
                for other in others { state[other] = Self.settled(other, on: true, since: 15) }
                switch phase {
                case "idle", "failedIdle", "deferred": state[kind] = Self.settled(kind, on: true, since: 15)
                case "restoredUnseen":
                    state[kind].confirmed = true
                    state[kind].count = on
                    state[kind].knownSince = 15
                default: break  // in flight: the copy does not clobber it
                }
            }),
            // A copy fetched before the state was learnt (epoch 1) confirms nothing it knows.
            (.copyReceived(fresh, fetchedAt: 1, at: 20), { phase, state in
                guard phase == "restoredUnseen" else { return }
                state[kind].confirmed = true
                state[kind].count = on
                state[kind].knownSince = 1
                for other in others { state[other] = Self.settled(other, on: true, since: 1) }
            }),
            (.retryRequested(at: 20), { phase, state in
                guard phase == "deferred" else { return }
                state[kind].resend = nil
                state[kind].inFlight = sent(true, 20)
            }),
            (.backoffElapsed(kind, token: 12, at: 20), { phase, state in
                guard phase == "deferred" else { return }
                state[kind].resend = nil
                state[kind].inFlight = sent(true, 20)
            }),
            (.backoffElapsed(kind, token: 11, at: 20), { _, _ in }),
            (.restored(kind, value: true, at: 20), { phase, state in
                switch phase {
                case "idle", "failedIdle":
                    state[kind].desired = true
                    state[kind].inFlight = sent(true, 20)
                case "pendingChangedMind": state[kind].desired = true
                case "deferred":
                    state[kind].resend = nil
                    state[kind].inFlight = sent(true, 20)
                default: break
                }
            }),
            (.restored(kind, value: false, at: 20), { phase, state in
                switch phase {
                case "pending", "resending", "restoredUnseen": state[kind].desired = false
                case "deferred": state[kind] = Self.settled(kind, since: 1)
                default: break
                }
            }),
        ]
    }

    @Test("every event in every phase, for every kind", arguments: InteractionKind.allCases)
    func everyEvent(kind: InteractionKind) {
        for (name, state) in phases(kind) {
            #expect(state.checkInvariants().isEmpty, "\(kind) \(name): \(state.checkInvariants())")
            for (event, expect) in table(kind) {
                var actual = state
                actual.reduce(event)
                var expected = state
                expect(name, &expected)
                #expect(actual == expected, "\(kind) in \(name) on \(event)")
                #expect(actual.checkInvariants().isEmpty, "\(kind) in \(name) on \(event): \(actual.checkInvariants())")
                #expect(actual.display.isOn(kind) == actual[kind].desired, "\(kind) in \(name) on \(event): the display shows the wish")
            }
        }
    }

    @Test("the state's queries and its display see a request or a re-send of every kind", arguments: InteractionKind.allCases)
    func queriesSeeEveryKind(kind: InteractionKind) {
        // The queries read the five tracks one by one: a kind added later must be read too.
        var asked = InteractionState(serverCopy: Self.server(), fetchedAt: 1)
        asked[kind] = .init(confirmed: false, count: Self.count(kind), desired: true, inFlight: ToggleRequest(kind: kind, value: true, token: 2), knownSince: 1)
        #expect(asked.isPending && asked.isBusy && !asked.isDeferred)
        #expect(asked.display.pending == [kind] && asked.display.queued.isEmpty && asked.display.queuedChanges.isEmpty)
        var deferred = InteractionState(serverCopy: Self.server(), fetchedAt: 1)
        deferred[kind] = .init(
            confirmed: false, count: Self.count(kind), desired: true, knownSince: 1, failedAttempts: 1,
            resend: ToggleResend(kind: kind, token: 2, delay: .seconds(2)), queuedReason: "offline"
        )
        #expect(deferred.isPending && !deferred.isBusy && deferred.isDeferred)
        #expect(deferred.display.pending == [kind] && deferred.display.queued == [kind])
        #expect(deferred.display.queuedChanges.map(\.kind) == [kind])
        let idle = InteractionState(serverCopy: Self.server(), fetchedAt: 1)
        #expect(!idle.isPending && !idle.isBusy && !idle.isDeferred && idle.display.pending.isEmpty)
    }

    @Test("each kind's phases look as a favourite's do", arguments: InteractionKind.allCases)
    func phasesLook(kind: InteractionKind) {
        let byName = Dictionary(uniqueKeysWithValues: phases(kind).map { ($0.name, $0.state) })
        #expect(byName["pending"]?.display.isOn(kind) == true && byName["pending"]?.display.pending == [kind])
        #expect(byName["pending"]?.requests == [InteractionRequest(kind: kind, value: true, token: 10)])
        #expect(byName["failedIdle"]?.display.isOn(kind) == false && byName["failedIdle"]?.display.failure?.kind == kind)
        #expect(byName["deferred"]?.display.queued == [kind] && byName["deferred"]?.requests.isEmpty == true)
        #expect(byName["deferred"]?.outbox(postID: "o") == [OutboxEntry(postID: "o", kind: kind, value: true)])
        #expect(byName["restoredUnseen"]?.requests == [InteractionRequest(kind: kind, value: true, token: 10)])
        // Only favourites and boosts are counted.
        #expect(byName["pending"]?.display.count(kind) == Self.count(kind, on: true))
    }

    @Test("a pin's and a muted conversation's words")
    func words() {
        #expect(InteractionKind.pin.verb(true) == "pin" && InteractionKind.pin.verb(false) == "unpin")
        #expect(InteractionKind.muteThread.verb(true) == "mute the conversation of")
        #expect(!InteractionKind.pin.isCounted && !InteractionKind.muteThread.isCounted)
    }
}
