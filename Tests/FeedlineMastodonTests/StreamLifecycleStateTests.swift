import Feedline
import Foundation
import Testing

import FeedlineMastodon

/// The live-updates lifecycle as a pure machine: every event in every phase (each phase with the
/// stream looked for on the server itself and on an announced host), the requests each state
/// asks for, and what the session is shown.
@Suite("Stream lifecycle")
struct StreamLifecycleStateTests {
    typealias State = StreamLifecycleState
    typealias Phase = StreamLifecycleState.Phase
    typealias CatchUp = StreamLifecycleState.CatchUp

    static let hostA = URL(string: "https://streaming.example.social/api/v1/streaming/user")!
    static let hostB = URL(string: "https://stream2.example.social/api/v1/streaming/user")!
    static let refusal = "The server did not accept the access token. Run `feedline login example.social` to sign in again."

    /// Small numbers apart from the defaults, so a test cannot pass on a default by chance.
    static let policy: StreamPolicy = {
        var policy = StreamPolicy()
        policy.firstBackoff = .seconds(3)
        policy.maximumBackoff = .seconds(20)
        policy.pollInterval = .seconds(90)
        policy.stableAfter = .seconds(30)
        return policy
    }()

    static let phases: [Phase] = [
        .off, .connecting(attempt: 0), .connecting(attempt: 2), .discovering(attempt: 0), .discovering(attempt: 2),
        .live(attempt: 0), .live(attempt: 2), .waiting(attempt: 1), .waiting(attempt: 3), .polling,
        .unauthorized(message: refusal),
    ]
    static let endpoints: [State.Endpoint] = [.sameHost, .announced(hostA), .announced(hostB)]
    static let states: [State] = phases.flatMap { phase in endpoints.map { State(policy: policy, phase: phase, endpoint: $0) } }

    /// Every kind of event, with the payloads that choose different paths.
    static let events: [StreamLifecycleEvent] = [
        .announced(hostA), .announced(hostB), .announced(nil), .backoffElapsed, .connected,
        .dropped(livedFor: .seconds(29)), .dropped(livedFor: .seconds(30)), .failed, .movedElsewhere, .pollDue,
        .refused, .started(signedIn: true), .started(signedIn: false), .stopped, .unauthorized(message: refusal),
    ]

    /// Fails to compile when an event kind is added and ``events`` does not list it.
    static func kind(_ event: StreamLifecycleEvent) -> String {
        switch event {
        case .announced: "announced"
        case .backoffElapsed: "backoffElapsed"
        case .connected: "connected"
        case .dropped: "dropped"
        case .failed: "failed"
        case .movedElsewhere: "movedElsewhere"
        case .pollDue: "pollDue"
        case .refused: "refused"
        case .started: "started"
        case .stopped: "stopped"
        case .unauthorized: "unauthorized"
        }
    }

    /// One expected transition: from states `from` selects, `event` turns the state into
    /// `expect(old)` and asks for `catchUp`.
    struct Transition: Sendable {
        var from: @Sendable (State) -> Bool
        var event: StreamLifecycleEvent
        var expect: @Sendable (inout State) -> Void
        var catchUp: CatchUp?
    }

    static func attempt(_ phase: Phase) -> Int? {
        switch phase {
        case .connecting(let attempt), .discovering(let attempt), .live(let attempt), .waiting(let attempt): attempt
        case .off, .polling, .unauthorized: nil
        }
    }

    static func isConnecting(_ state: State) -> Bool { if case .connecting = state.phase { true } else { false } }
    static func isDiscovering(_ state: State) -> Bool { if case .discovering = state.phase { true } else { false } }
    static func isLive(_ state: State) -> Bool { if case .live = state.phase { true } else { false } }
    static func isWaiting(_ state: State) -> Bool { if case .waiting = state.phase { true } else { false } }

    /// Every transition that changes anything or asks for a catch-up, written out; every other
    /// event in every other phase must change nothing and ask for nothing.
    static let transitions: [Transition] = {
        var table: [Transition] = []
        func add(
            _ from: @escaping @Sendable (State) -> Bool, _ event: StreamLifecycleEvent, _ catchUp: CatchUp? = nil,
            _ expect: @escaping @Sendable (inout State) -> Void
        ) {
            table.append(Transition(from: from, event: event, expect: expect, catchUp: catchUp))
        }
        // Discovery: a new address is tried in the same attempt; the same one again, or none, polls.
        for url in [hostA, hostB] {
            add({ isDiscovering($0) && $0.endpoint != .announced(url) }, .announced(url)) { state in
                state.phase = .connecting(attempt: attempt(state.phase)!)
                state.endpoint = .announced(url)
            }
            add({ isDiscovering($0) && $0.endpoint == .announced(url) }, .announced(url)) { $0.phase = .polling }
        }
        add(isDiscovering, .announced(nil)) { $0.phase = .polling }
        // Waiting ends in the attempt it waited for.
        add(isWaiting, .backoffElapsed) { $0.phase = .connecting(attempt: attempt($0.phase)!) }
        // Every connection that opens catches up the lists it feeds.
        add(isConnecting, .connected, .streamedLists) { $0.phase = .live(attempt: attempt($0.phase)!) }
        // A short-lived connection climbs the backoff; one that lived stableAfter starts it over.
        add(isLive, .dropped(livedFor: .seconds(29))) { $0.phase = .waiting(attempt: attempt($0.phase)! + 1) }
        add(isLive, .dropped(livedFor: .seconds(30))) { $0.phase = .waiting(attempt: 1) }
        add({ isConnecting($0) || isDiscovering($0) }, .failed) { $0.phase = .waiting(attempt: attempt($0.phase)! + 1) }
        // Not here: ask the server where, once; from an announced host, poll.
        add({ isConnecting($0) && $0.endpoint == .sameHost }, .movedElsewhere) { $0.phase = .discovering(attempt: attempt($0.phase)!) }
        add({ isConnecting($0) && $0.endpoint != .sameHost }, .movedElsewhere) { $0.phase = .polling }
        add({ $0.phase == .polling }, .pollDue, .everyList) { _ in }
        add({ isConnecting($0) || isDiscovering($0) || isLive($0) || isWaiting($0) }, .pollDue, .unstreamedLists) { _ in }
        add({ isConnecting($0) || isDiscovering($0) }, .refused) { $0.phase = .polling }
        // A refused token: nothing more is asked with it, neither the stream nor a poll.
        add({ isConnecting($0) || isDiscovering($0) }, .unauthorized(message: refusal)) { $0.phase = .unauthorized(message: refusal) }
        add({ $0.phase == .off }, .started(signedIn: true)) { $0.phase = .connecting(attempt: 0) }
        add({ $0.phase == .off }, .started(signedIn: false)) { $0.phase = .polling }
        add({ _ in true }, .stopped) { state in
            state.phase = .off
            state.endpoint = .sameHost
        }
        return table
    }()

    @Test("every event in every phase: the written-out transitions, and nothing else changes anything")
    func everyEventInEveryPhase() {
        #expect(Set(Self.events.map(Self.kind)).count == 11, "every kind of event is sent")
        var used = Set<Int>()
        for state in Self.states {
            for event in Self.events {
                let matches = Self.transitions.indices.filter { Self.transitions[$0].event == event && Self.transitions[$0].from(state) }
                #expect(matches.count <= 1, "\(event) from \(state.phase), \(state.endpoint): \(matches.count) rows of the table apply")
                var expected = state
                var expectedCatchUp: CatchUp?
                if let index = matches.first {
                    used.insert(index)
                    Self.transitions[index].expect(&expected)
                    expectedCatchUp = Self.transitions[index].catchUp
                }
                assertTransition(from: state, on: event, expect: expected, catchUp: expectedCatchUp)
            }
        }
        #expect(used.count == Self.transitions.count, "every row of the table is reached: \(Set(Self.transitions.indices).subtracting(used))")
    }

    /// Sends `event` to `state`; the result must equal `expected` (differing fields listed) and
    /// the catch-up asked for must be `catchUp`.
    func assertTransition(
        from state: State, on event: StreamLifecycleEvent, expect expected: State, catchUp: CatchUp?,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var actual = state
        let asked = actual.reduce(event)
        var differences: [String] = []
        if actual.phase != expected.phase { differences.append("phase: expected \(expected.phase), got \(actual.phase)") }
        if actual.endpoint != expected.endpoint { differences.append("endpoint: expected \(expected.endpoint), got \(actual.endpoint)") }
        if actual.policy != expected.policy { differences.append("policy changed") }
        if asked != catchUp { differences.append("catch-up: expected \(String(describing: catchUp)), got \(String(describing: asked))") }
        if !differences.isEmpty {
            let listed = differences.joined(separator: "\n  ")
            Issue.record("\(event) from \(state.phase), \(state.endpoint):\n  \(listed)", sourceLocation: sourceLocation)
        }
    }

    @Test("the requests of each phase: one step towards a stream plus the poll timer; polling only polls; off runs nothing")
    func requests() {
        let poll = State.Request.poll(every: .seconds(90))
        for endpoint in Self.endpoints {
            func requests(_ phase: Phase) -> [State.Request] { State(policy: Self.policy, phase: phase, endpoint: endpoint).requests }
            #expect(requests(.off) == [])
            #expect(requests(.unauthorized(message: Self.refusal)) == [], "a refused token is not used again, not even to poll")
            #expect(requests(.polling) == [poll])
            #expect(requests(.connecting(attempt: 2)) == [.connect(endpoint, attempt: 2), poll])
            #expect(requests(.discovering(attempt: 2)) == [.discover(attempt: 2), poll])
            #expect(requests(.waiting(attempt: 3)) == [.backoff(.seconds(12), attempt: 3), poll])
            // The connection is one request from connecting to live: it keeps running when it opens.
            #expect(requests(.live(attempt: 2)) == requests(.connecting(attempt: 2)))
        }
        // After every transition the poll timer is the same request (it keeps its schedule),
        // unless off or refused.
        for state in Self.states {
            for event in Self.events {
                var next = state
                next.reduce(event)
                if next.phase != .off, next.phase != .unauthorized(message: Self.refusal) { #expect(next.requests.last == poll) }
            }
        }
    }

    @Test("what the session shows in each phase")
    func streamState() {
        func shown(_ phase: Phase) -> StreamState { State(policy: Self.policy, phase: phase).streamState }
        #expect(shown(.off) == .off)
        #expect(shown(.connecting(attempt: 0)) == .connecting)
        #expect(shown(.discovering(attempt: 0)) == .connecting)
        #expect(shown(.live(attempt: 0)) == .live)
        #expect(shown(.live(attempt: 4)) == .live)
        #expect(shown(.waiting(attempt: 1)) == .reconnecting(after: .seconds(3), attempt: 1))
        #expect(shown(.connecting(attempt: 1)) == .reconnecting(after: .seconds(3), attempt: 1), "still reconnecting until live")
        #expect(shown(.discovering(attempt: 2)) == .reconnecting(after: .seconds(6), attempt: 2))
        #expect(shown(.waiting(attempt: 5)) == .reconnecting(after: .seconds(20), attempt: 5), "capped")
        #expect(shown(.polling) == .polling(every: .seconds(90)))
        #expect(shown(.unauthorized(message: Self.refusal)) == .refused(message: Self.refusal))
    }

    @Test("the backoff doubles from the first wait up to the cap, without jitter; the defaults are 1 s … 60 s and a 60 s poll")
    func backoff() {
        let defaults = StreamPolicy()
        #expect((1...9).map { defaults.backoff(attempt: $0) } == [1, 2, 4, 8, 16, 32, 60, 60, 60].map { Duration.seconds($0) })
        #expect(defaults.backoff(attempt: 0) == .seconds(1) && defaults.backoff(attempt: .max) == .seconds(60))
        #expect(defaults.pollInterval == .seconds(60) && defaults.stableAfter == .seconds(60))
        #expect((1...5).map { Self.policy.backoff(attempt: $0) } == [3, 6, 12, 20, 20].map { Duration.seconds($0) })
    }

    @Test("a whole life: connect, drop, climb, settle, move, discover, poll, stop")
    func walk() {
        var state = State(policy: Self.policy)
        var shown: [StreamState] = []
        var catchUps: [CatchUp] = []
        func send(_ event: StreamLifecycleEvent) {
            if let catchUp = state.reduce(event) { catchUps.append(catchUp) }
            if shown.last != state.streamState { shown.append(state.streamState) }
        }
        for event: StreamLifecycleEvent in [
            .started(signedIn: true), .connected, .dropped(livedFor: .seconds(1)), .backoffElapsed, .failed, .backoffElapsed,
            .connected, .dropped(livedFor: .seconds(5)), .backoffElapsed, .connected, .dropped(livedFor: .seconds(31)),
            .backoffElapsed, .movedElsewhere, .announced(Self.hostA), .connected, .pollDue, .dropped(livedFor: .zero),
            .backoffElapsed, .movedElsewhere, .pollDue, .stopped,
        ] {
            send(event)
        }
        #expect(
            shown == [
                .connecting, .live, .reconnecting(after: .seconds(3), attempt: 1), .reconnecting(after: .seconds(6), attempt: 2), .live,
                .reconnecting(after: .seconds(12), attempt: 3), .live, .reconnecting(after: .seconds(3), attempt: 1), .live,
                .reconnecting(after: .seconds(6), attempt: 2), .polling(every: .seconds(90)), .off,
            ]
        )
        #expect(catchUps == [.streamedLists, .streamedLists, .streamedLists, .streamedLists, .unstreamedLists, .everyList])
        #expect(state == State(policy: Self.policy), "stopping forgets the announced host")
    }

    @Test("which lists each catch-up covers")
    func catchUpScopes() {
        let sources: [ListSource] = [.feed(.home), .notifications, .feed(.public), .feed(.local), .feed(.tag("swift")), .feed(.account("1")), .feed(.list("7")), .thread("9")]
        #expect(sources.filter(CatchUp.streamedLists.covers) == [.feed(.home), .notifications])
        #expect(sources.filter(CatchUp.unstreamedLists.covers) == Array(sources.dropFirst(2)))
        #expect(sources.filter(CatchUp.everyList.covers) == sources)
    }
}
