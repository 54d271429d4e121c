import FeedlineTestSupport
import Feedline
import Testing

/// Sends `event` and checks the result equals the old state mutated by `mutate`.
private func assertInteraction(
    from state: InteractionState,
    on event: InteractionEvent,
    expect mutate: (inout InteractionState) -> Void,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    var actual = state
    actual.reduce(event)
    var expected = state
    mutate(&expected)
    #expect(actual == expected, "\(event)", sourceLocation: sourceLocation)
    #expect(actual.checkInvariants().isEmpty, "\(actual.checkInvariants())", sourceLocation: sourceLocation)
}

@Suite("Interaction machine")
struct InteractionStateTests {
    /// An original post with the given server state.
    private func server(favourited: Bool = false, favourites: Int = 3, reblogged: Bool = false, reblogs: Int = 1) -> Post {
        makePost("o", favourited: favourited, favourites: favourites, reblogged: reblogged, reblogs: reblogs)
    }

    // The phases of one kind's track.
    private var idle: InteractionState { InteractionState(serverCopy: server(), fetchedAt: 1) }
    private var pending: InteractionState {
        var state = idle
        state.reduce(.toggled(.favourite, at: 10))
        return state
    }
    private var pendingChangedMind: InteractionState {
        var state = pending
        state.reduce(.toggled(.favourite, at: 11))
        return state
    }
    private var failedIdle: InteractionState {
        var state = pending
        state.reduce(.requestFailed(.favourite, token: 10, message: "Down.", at: 12))
        return state
    }

    @Test("the phases look as intended")
    func phases() {
        #expect(idle.display == PostInteraction(favourited: false, favouritesCount: 3, reblogged: false, reblogsCount: 1))
        #expect(pending.display.favourited && pending.display.favouritesCount == 4 && pending.display.pending == [.favourite])
        #expect(!pendingChangedMind.display.favourited && pendingChangedMind.display.favouritesCount == 3)
        #expect(pendingChangedMind.display.pending == [.favourite])
        #expect(failedIdle.display.failure?.kind == .favourite)
    }

    // MARK: toggled

    @Test("toggled in every phase")
    func toggled() {
        assertInteraction(from: idle, on: .toggled(.favourite, at: 20)) {
            $0.favourite.desired = true
            $0.favourite.inFlight = InteractionRequest(kind: .favourite, value: true, token: 20)
        }
        assertInteraction(from: pending, on: .toggled(.favourite, at: 20)) {
            $0.favourite.desired = false  // only the desired value moves; no second request
        }
        assertInteraction(from: pendingChangedMind, on: .toggled(.favourite, at: 20)) {
            $0.favourite.desired = true
        }
        assertInteraction(from: failedIdle, on: .toggled(.favourite, at: 20)) {
            $0.failure = nil
            $0.favourite.desired = true
            $0.favourite.inFlight = InteractionRequest(kind: .favourite, value: true, token: 20)
        }
        // The other kind is independent.
        assertInteraction(from: pending, on: .toggled(.reblog, at: 20)) {
            $0.reblog.desired = true
            $0.reblog.inFlight = InteractionRequest(kind: .reblog, value: true, token: 20)
        }
    }

    // MARK: requestSucceeded

    @Test("requestSucceeded in every phase")
    func succeeded() {
        let applied = server(favourited: true, favourites: 4)
        assertInteraction(from: idle, on: .requestSucceeded(.favourite, token: 10, reply: applied, at: 20)) { _ in }
        assertInteraction(from: pending, on: .requestSucceeded(.favourite, token: 10, reply: applied, at: 20)) {
            $0.favourite = .init(confirmed: true, count: 4, knownSince: 20)
        }
        // Changed their mind meanwhile: exactly one more request, for the new desire.
        assertInteraction(from: pendingChangedMind, on: .requestSucceeded(.favourite, token: 10, reply: applied, at: 20)) {
            $0.favourite = .init(
                confirmed: true, count: 4, desired: false,
                inFlight: InteractionRequest(kind: .favourite, value: false, token: 20), knownSince: 20)
        }
        assertInteraction(from: failedIdle, on: .requestSucceeded(.favourite, token: 10, reply: applied, at: 20)) { _ in }
        // A reply with another token is stale and ignored.
        assertInteraction(from: pending, on: .requestSucceeded(.favourite, token: 9, reply: applied, at: 20)) { _ in }
    }

    @Test("a reply whose count lags its flag does not let the count drift")
    func laggingCount() {
        var state = InteractionState(serverCopy: server(favourited: true, favourites: 5), fetchedAt: 1)
        state.reduce(.toggled(.favourite, at: 2))
        #expect(state.display.favouritesCount == 4)
        // Mastodon's unfavourite reply: flag off, count still 5.
        state.reduce(.requestSucceeded(.favourite, token: 2, reply: server(favourited: false, favourites: 5), at: 3))
        #expect(state.display.favouritesCount == 4)
        #expect(!state.display.favourited)
        state.reduce(.toggled(.favourite, at: 4))
        state.reduce(.requestSucceeded(.favourite, token: 4, reply: server(favourited: true, favourites: 4), at: 5))
        #expect(state.display.favouritesCount == 5)
        // A reply whose count moved is taken as is (someone else may have acted too).
        state.reduce(.toggled(.favourite, at: 6))
        state.reduce(.requestSucceeded(.favourite, token: 6, reply: server(favourited: false, favourites: 9), at: 7))
        #expect(state.display.favouritesCount == 9)
    }

    @Test("a reblog reply is the wrapper; the original inside it is read")
    func reblogWrapper() {
        var state = idle
        state.reduce(.toggled(.reblog, at: 2))
        let wrapper = makePost("w", author: bob, reblog: server(reblogged: true, reblogs: 2))
        state.reduce(.requestSucceeded(.reblog, token: 2, reply: wrapper, at: 3))
        #expect(state.display.reblogged && state.display.reblogsCount == 2 && state.display.pending.isEmpty)
    }

    @Test("a reply that did not apply the request is accepted and reported, not retried")
    func notApplied() {
        assertInteraction(from: pending, on: .requestSucceeded(.favourite, token: 10, reply: server(), at: 20)) {
            $0.favourite = .init(confirmed: false, count: 3, knownSince: 20)
            $0.failure = InteractionFailure(kind: .favourite, value: true, message: "The server did not favourite this post.", isTransient: false)
        }
    }

    // MARK: requestFailed

    @Test("requestFailed in every phase")
    func failed() {
        assertInteraction(from: idle, on: .requestFailed(.favourite, token: 10, message: "Down.", at: 20)) { _ in }
        assertInteraction(from: pending, on: .requestFailed(.favourite, token: 10, message: "Down.", at: 20)) {
            $0.favourite = .init(confirmed: false, count: 3, knownSince: 1)
            $0.failure = InteractionFailure(kind: .favourite, value: true, message: "Could not favourite this post: Down.")
        }
        // The user already changed their mind back: nothing visible is undone, nothing to report.
        assertInteraction(from: pendingChangedMind, on: .requestFailed(.favourite, token: 10, message: "Down.", at: 20)) {
            $0.favourite = .init(confirmed: false, count: 3, knownSince: 1)
        }
        assertInteraction(from: failedIdle, on: .requestFailed(.favourite, token: 10, message: "Down.", at: 20)) { _ in }
        assertInteraction(from: pending, on: .requestFailed(.favourite, token: 3, message: "Down.", at: 20)) { _ in }
        // A refusal is reported as one: a retry would only repeat it.
        let refusal = FeedFailure(message: "Not allowed.", isTransient: false)
        assertInteraction(from: pending, on: .requestFailed(.favourite, token: 10, failure: refusal, at: 20)) {
            $0.favourite = .init(confirmed: false, count: 3, knownSince: 1)
            $0.failure = InteractionFailure(kind: .favourite, value: true, message: "Could not favourite this post: Not allowed.", isTransient: false)
        }
    }

    // MARK: copyReceived

    @Test("copyReceived in every phase")
    func copies() {
        let fresh = server(favourited: true, favourites: 7, reblogged: true, reblogs: 2)
        assertInteraction(from: idle, on: .copyReceived(fresh, fetchedAt: 5, at: 20)) {
            $0.favourite = .init(confirmed: true, count: 7, knownSince: 5)
            $0.reblog = .init(confirmed: true, count: 2, knownSince: 5)
            $0.bookmark = .init(confirmed: false, count: 0, knownSince: 5)
        }
        // A pending toggle is not clobbered; the other kinds still take the copy.
        assertInteraction(from: pending, on: .copyReceived(fresh, fetchedAt: 15, at: 20)) {
            $0.reblog = .init(confirmed: true, count: 2, knownSince: 15)
            $0.bookmark = .init(confirmed: false, count: 0, knownSince: 15)
        }
        assertInteraction(from: pendingChangedMind, on: .copyReceived(fresh, fetchedAt: 15, at: 20)) {
            $0.reblog = .init(confirmed: true, count: 2, knownSince: 15)
            $0.bookmark = .init(confirmed: false, count: 0, knownSince: 15)
        }
        assertInteraction(from: failedIdle, on: .copyReceived(fresh, fetchedAt: 15, at: 20)) {
            $0.favourite = .init(confirmed: true, count: 7, knownSince: 15)
            $0.reblog = .init(confirmed: true, count: 2, knownSince: 15)
            $0.bookmark = .init(confirmed: false, count: 0, knownSince: 15)
        }
        // A copy fetched before the state was last learnt is stale.
        var settled = pending
        settled.reduce(.requestSucceeded(.favourite, token: 10, reply: server(favourited: true, favourites: 4), at: 30))
        assertInteraction(from: settled, on: .copyReceived(server(), fetchedAt: 25, at: 31)) {
            $0.reblog.knownSince = 25
            $0.bookmark.knownSince = 25
        }
    }

    // MARK: retryRequested

    @Test("retryRequested in every phase: only a failure is wanted again")
    func retried() {
        assertInteraction(from: idle, on: .retryRequested(at: 20)) { _ in }
        assertInteraction(from: pending, on: .retryRequested(at: 20)) { _ in }
        assertInteraction(from: pendingChangedMind, on: .retryRequested(at: 20)) { _ in }
        assertInteraction(from: failedIdle, on: .retryRequested(at: 20)) {
            $0.failure = nil
            $0.favourite.desired = true
            $0.favourite.inFlight = InteractionRequest(kind: .favourite, value: true, token: 20)
        }
        // Any tap after the failure clears it: a retry after that has nothing to send again.
        var retoggled = failedIdle
        retoggled.reduce(.toggled(.reblog, at: 15))
        retoggled.reduce(.retryRequested(at: 16))
        #expect(retoggled.failure == nil)
        #expect(retoggled.favourite.inFlight == nil && retoggled.reblog.inFlight?.value == true)
        #expect(retoggled.checkInvariants().isEmpty)
    }

    @Test("a bookmark converges like the others and never has a count")
    func bookmarks() {
        var state = idle
        state.reduce(.toggled(.bookmark, at: 10))
        #expect(state.display.bookmarked && state.display.pending == [.bookmark] && state.bookmark.count == 0)
        state.reduce(.toggled(.bookmark, at: 11))
        state.reduce(.toggled(.bookmark, at: 12))
        #expect(state.requests == [InteractionRequest(kind: .bookmark, value: true, token: 10)])
        var reply = server()
        reply.bookmarked = true
        state.reduce(.requestSucceeded(.bookmark, token: 10, reply: reply, at: 13))
        #expect(state.display.bookmarked && state.requests.isEmpty && state.bookmark.count == 0)
        state.reduce(.toggled(.bookmark, at: 14))
        state.reduce(.requestFailed(.bookmark, token: 14, message: "Down.", at: 15))
        #expect(state.display.bookmarked)
        #expect(state.failure == InteractionFailure(kind: .bookmark, value: false, message: "Could not remove the bookmark of this post: Down."))
        #expect(state.checkInvariants().isEmpty)
    }

    @Test("a copy of a reblog entry updates the original's state")
    func copyOfEntry() {
        var state = idle
        state.reduce(.copyReceived(makePost("w", author: bob, reblog: server(favourited: true, favourites: 8)), fetchedAt: 2, at: 3))
        #expect(state.display.favourited && state.display.favouritesCount == 8)
    }

    // MARK: Randomized schedules against a simulated server

    /// A schedule of random toggles, replies in random order (successes and failures), and page
    /// copies fetched at random earlier moments, against a server that applies what succeeds.
    @Test("10,000 random schedules converge to the server's state with at most one request per kind")
    func randomSchedules() {
        let seed = testSeed(20_261_122)
        var random = SeededGenerator(seed: seed)
        struct ServerPost {
            var flags: [InteractionKind: Bool] = [:]
            var counts: [InteractionKind: Int] = [:]
            mutating func apply(_ kind: InteractionKind, _ value: Bool) {
                if kind.isCounted, flags[kind] != value { counts[kind, default: 0] += value ? 1 : -1 }
                flags[kind] = value
            }
        }
        for schedule in 0..<10_000 {
            var serverState = ServerPost()
            for kind in InteractionKind.allCases {
                let on = Bool.random(using: &random)
                serverState.flags[kind] = on
                serverState.counts[kind] = kind.isCounted ? (on ? 2 : 1) : 0
            }
            func copy() -> Post {
                var post = makePost("o", favourited: serverState.flags[.favourite] ?? false, favourites: serverState.counts[.favourite] ?? 0,
                                    reblogged: serverState.flags[.reblog] ?? false, reblogs: serverState.counts[.reblog] ?? 0)
                post.bookmarked = serverState.flags[.bookmark] ?? false
                return post
            }
            var epoch: StoreEpoch = 1
            var state = InteractionState(serverCopy: copy(), fetchedAt: epoch)
            // Requests the server has received and not yet answered, and copies being fetched.
            var outstanding: [InteractionRequest] = []
            var fetches: [(startedAt: StoreEpoch, copy: Post?)] = []
            var sent = 0
            var failures = 0
            func startNew() {
                for request in state.requests where !outstanding.contains(request) {
                    if request.value == serverState.flags[request.kind] {
                        Issue.record("schedule \(schedule) (seed \(seed)): request \(request) sent although the server already agrees")
                    }
                    outstanding.append(request)
                    sent += 1
                }
                for kind in InteractionKind.allCases where outstanding.filter({ $0.kind == kind }).count > 1 {
                    Issue.record("schedule \(schedule) (seed \(seed)): two \(kind) requests in flight")
                }
            }
            let steps = Int.random(in: 1...14, using: &random)
            var toggles = 0
            // What the user last asked for: only a failure may change it back.
            var intent: [InteractionKind: Bool] = Dictionary(uniqueKeysWithValues: InteractionKind.allCases.map { ($0, state.display.isOn($0)) })
            for _ in 0..<steps {
                epoch += 1
                switch Int.random(in: 0..<11, using: &random) {
                case 0..<4:
                    toggles += 1
                    let kind = InteractionKind.allCases.randomElement(using: &random) ?? .favourite
                    state.reduce(.toggled(kind, at: epoch))
                    intent[kind]?.toggle()
                case 10:
                    // Retry wants again what the last failure undid (and counts as the user's tap).
                    if let failed = state.failure {
                        toggles += 1
                        intent[failed.kind] = failed.value
                    }
                    state.reduce(.retryRequested(at: epoch))
                case 4..<8 where !outstanding.isEmpty:
                    let request = outstanding.remove(at: Int.random(in: 0..<outstanding.count, using: &random))
                    if Int.random(in: 0..<4, using: &random) == 0 {
                        failures += 1
                        state.reduce(.requestFailed(request.kind, token: request.token, message: "Down.", at: epoch))
                        intent[request.kind] = state.display.isOn(request.kind)
                    } else {
                        serverState.apply(request.kind, request.value)
                        var reply = copy()
                        // Mastodon's undo replies may lag by one.
                        if !request.value, Bool.random(using: &random) {
                            if request.kind == .favourite { reply.favouritesCount += 1 }
                            if request.kind == .reblog { reply.reblogsCount += 1 }
                        }
                        state.reduce(.requestSucceeded(request.kind, token: request.token, reply: reply, at: epoch))
                    }
                case 8:
                    // A fetch starts now; the server is read now or later.
                    fetches.append((epoch, Bool.random(using: &random) ? copy() : nil))
                default:
                    if !fetches.isEmpty {
                        var fetch = fetches.remove(at: Int.random(in: 0..<fetches.count, using: &random))
                        let read = fetch.copy ?? copy()
                        fetch.copy = read
                        state.reduce(.copyReceived(read, fetchedAt: fetch.startedAt, at: epoch))
                    }
                }
                startNew()
                for kind in InteractionKind.allCases where state.display.isOn(kind) != intent[kind] {
                    Issue.record("schedule \(schedule) (seed \(seed)): \(kind) shows \(state.display.isOn(kind)), the user asked for \(String(describing: intent[kind]))")
                }
                let broken = state.checkInvariants()
                if !broken.isEmpty { Issue.record("schedule \(schedule) (seed \(seed)): \(broken)") }
            }
            // Settle: the server answers everything (successfully, so the display must agree).
            while let request = outstanding.first {
                outstanding.removeFirst()
                epoch += 1
                serverState.apply(request.kind, request.value)
                state.reduce(.requestSucceeded(request.kind, token: request.token, reply: copy(), at: epoch))
                startNew()
            }
            let shown = state.display
            let expected = PostInteraction(
                favourited: serverState.flags[.favourite] ?? false, favouritesCount: serverState.counts[.favourite] ?? 0,
                reblogged: serverState.flags[.reblog] ?? false, reblogsCount: serverState.counts[.reblog] ?? 0,
                bookmarked: serverState.flags[.bookmark] ?? false, pending: [], failure: shown.failure)
            if shown != expected {
                Issue.record("schedule \(schedule) (seed \(seed)): shows \(shown), server has \(expected)")
                return
            }
            // Requests are bounded by user actions: each toggle or reply causes at most one.
            if sent > toggles * 2 { Issue.record("schedule \(schedule) (seed \(seed)): \(sent) requests for \(toggles) toggles") }
            _ = failures
        }
    }
}
