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
    /// Refused: rolled back, with the reason.
    private var failedIdle: InteractionState {
        var state = pending
        state.reduce(.requestFailed(.favourite, token: 10, failure: refusal, at: 12))
        return state
    }
    /// Failed for lack of a connection: kept, waiting to be sent again (the outbox).
    private var deferred: InteractionState {
        var state = pending
        state.reduce(.requestFailed(.favourite, token: 10, message: "Down.", at: 12))
        return state
    }
    /// Deferred, then sent again once its backoff elapsed.
    private var resending: InteractionState {
        var state = deferred
        state.reduce(.backoffElapsed(.favourite, token: 12, at: 13))
        return state
    }
    /// Restored from a saved outbox before any copy of the post arrived: sent at once.
    private var restoredUnseen: InteractionState {
        var state = InteractionState(restoring: [.favourite: true])
        state.reduce(.restored(.favourite, value: true, at: 10))
        return state
    }
    private let refusal = FeedFailure(message: "Not allowed.", isTransient: false)

    @Test("the phases look as intended")
    func phases() {
        #expect(idle.display == PostInteraction(favourited: false, favouritesCount: 3, reblogged: false, reblogsCount: 1))
        #expect(pending.display.favourited && pending.display.favouritesCount == 4 && pending.display.pending == [.favourite])
        #expect(!pendingChangedMind.display.favourited && pendingChangedMind.display.favouritesCount == 3)
        #expect(pendingChangedMind.display.pending == [.favourite])
        #expect(failedIdle.display.failure?.kind == .favourite && failedIdle.display.pending.isEmpty)
        // Deferred: still shown as wanted and pending, queued, no failure; one wait, no request.
        // It says why it waits and when it is sent again; while sent again, that it is on its way.
        let queued = QueuedChange(kind: .favourite, value: true, reason: "Down.", failedAttempts: 1, retryAfter: .seconds(2))
        #expect(deferred.display == PostInteraction(
            favourited: true, favouritesCount: 4, reblogged: false, reblogsCount: 1, pending: [.favourite], queued: [.favourite],
            queuedChanges: [queued]))
        #expect(deferred.requests.isEmpty && deferred.resends == [InteractionResend(kind: .favourite, token: 12, delay: .seconds(2))])
        var resent = deferred.display
        resent.queuedChanges[0].retryAfter = nil
        #expect(resending.display == resent)
        #expect(resending.requests == [InteractionRequest(kind: .favourite, value: true, token: 13)] && resending.resends.isEmpty)
        #expect(restoredUnseen.requests == [InteractionRequest(kind: .favourite, value: true, token: 10)])
        #expect(restoredUnseen.display.pending == [.favourite] && restoredUnseen.display.queued.isEmpty)
        for state in [idle, pending, pendingChangedMind, failedIdle, deferred, resending, restoredUnseen] {
            #expect(state.checkInvariants().isEmpty, "\(state.checkInvariants())")
        }
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
        // Back to the confirmed value while deferred: the entry leaves the outbox, nothing is sent.
        assertInteraction(from: deferred, on: .toggled(.favourite, at: 20)) {
            $0.favourite = .init(confirmed: false, count: 3, knownSince: 1)
        }
        assertInteraction(from: resending, on: .toggled(.favourite, at: 20)) {
            $0.favourite.desired = false
        }
        assertInteraction(from: restoredUnseen, on: .toggled(.favourite, at: 20)) {
            $0.favourite.desired = false
        }
        // The other kind is independent.
        assertInteraction(from: pending, on: .toggled(.reblog, at: 20)) {
            $0.reblog.desired = true
            $0.reblog.inFlight = InteractionRequest(kind: .reblog, value: true, token: 20)
        }
        assertInteraction(from: deferred, on: .toggled(.reblog, at: 20)) {
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
        // A deferred kind has nothing in flight: a late reply to its failed request is stale.
        assertInteraction(from: deferred, on: .requestSucceeded(.favourite, token: 10, reply: applied, at: 20)) { _ in }
        // A re-send that succeeds ends the entry.
        assertInteraction(from: resending, on: .requestSucceeded(.favourite, token: 13, reply: applied, at: 20)) {
            $0.favourite = .init(confirmed: true, count: 4, knownSince: 20)
        }
        // The reply is the first copy of a restored post: its other kinds are learnt from it.
        assertInteraction(from: restoredUnseen, on: .requestSucceeded(.favourite, token: 10, reply: applied, at: 20)) {
            $0.favourite = .init(confirmed: true, count: 4, knownSince: 20)
            $0.reblog = .init(confirmed: false, count: 1, knownSince: 10)
            $0.bookmark = .init(confirmed: false, count: 0, knownSince: 10)
            $0.pin = .init(confirmed: false, count: 0, knownSince: 10)
            $0.muteThread = .init(confirmed: false, count: 0, knownSince: 10)
        }
        // A reply with another token is stale and ignored.
        assertInteraction(from: pending, on: .requestSucceeded(.favourite, token: 9, reply: applied, at: 20)) { _ in }
        assertInteraction(from: resending, on: .requestSucceeded(.favourite, token: 10, reply: applied, at: 20)) { _ in }
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

    @Test("requestFailed in every phase: for lack of a connection it defers, a refusal rolls back")
    func failed() {
        assertInteraction(from: idle, on: .requestFailed(.favourite, token: 10, message: "Down.", at: 20)) { _ in }
        assertInteraction(from: pending, on: .requestFailed(.favourite, token: 10, message: "Down.", at: 20)) {
            $0.favourite.inFlight = nil
            $0.favourite.failedAttempts = 1
            $0.favourite.resend = InteractionResend(kind: .favourite, token: 20, delay: .seconds(2))
            $0.favourite.queuedReason = "Down."
        }
        // Rate limited: the re-send waits for the server's reset, not the 2 s backoff.
        let limited = FeedFailure(message: "Too many requests.", isTransient: true, retryAfter: .seconds(300))
        assertInteraction(from: pending, on: .requestFailed(.favourite, token: 10, failure: limited, at: 20)) {
            $0.favourite.inFlight = nil
            $0.favourite.failedAttempts = 1
            $0.favourite.resend = InteractionResend(kind: .favourite, token: 20, delay: .seconds(300))
            $0.favourite.queuedReason = "Too many requests."
        }
        // The user already changed their mind back: nothing visible is undone, nothing to report or keep.
        assertInteraction(from: pendingChangedMind, on: .requestFailed(.favourite, token: 10, message: "Down.", at: 20)) {
            $0.favourite = .init(confirmed: false, count: 3, knownSince: 1)
        }
        assertInteraction(from: failedIdle, on: .requestFailed(.favourite, token: 10, message: "Down.", at: 20)) { _ in }
        assertInteraction(from: deferred, on: .requestFailed(.favourite, token: 10, message: "Down.", at: 20)) { _ in }
        // A re-send that fails again waits twice as long.
        assertInteraction(from: resending, on: .requestFailed(.favourite, token: 13, message: "Down.", at: 20)) {
            $0.favourite.inFlight = nil
            $0.favourite.failedAttempts = 2
            $0.favourite.resend = InteractionResend(kind: .favourite, token: 20, delay: .seconds(4))
        }
        assertInteraction(from: restoredUnseen, on: .requestFailed(.favourite, token: 10, message: "Down.", at: 20)) {
            $0.favourite.inFlight = nil
            $0.favourite.failedAttempts = 1
            $0.favourite.resend = InteractionResend(kind: .favourite, token: 20, delay: .seconds(2))
            $0.favourite.queuedReason = "Down."
        }
        assertInteraction(from: pending, on: .requestFailed(.favourite, token: 3, message: "Down.", at: 20)) { _ in }
        // A refusal rolls back and is reported as one: a retry would only repeat it.
        assertInteraction(from: pending, on: .requestFailed(.favourite, token: 10, failure: refusal, at: 20)) {
            $0.favourite = .init(confirmed: false, count: 3, knownSince: 1)
            $0.failure = InteractionFailure(kind: .favourite, value: true, message: "Could not favourite this post: Not allowed.", isTransient: false)
        }
        // … also after re-sends that failed for lack of a connection.
        assertInteraction(from: resending, on: .requestFailed(.favourite, token: 13, failure: refusal, at: 20)) {
            $0.favourite = .init(confirmed: false, count: 3, knownSince: 1)
            $0.failure = InteractionFailure(kind: .favourite, value: true, message: "Could not favourite this post: Not allowed.", isTransient: false)
        }
    }

    @Test("each failure in a row doubles the wait before the re-send: 2 s, 4 s, 8 s … at most 60 s")
    func backoff() {
        var state = pending
        var token: StoreEpoch = 10
        var delays: [Duration] = []
        for _ in 0..<8 {
            token += 1
            state.reduce(.requestFailed(.favourite, token: state.favourite.inFlight?.token ?? 0, message: "Down.", at: token))
            delays += state.resends.map(\.delay)
            #expect(state.checkInvariants().isEmpty)
            token += 1
            state.reduce(.backoffElapsed(.favourite, token: state.favourite.resend?.token ?? 0, at: token))
            #expect(state.requests.count == 1)
        }
        #expect(delays == [2, 4, 8, 16, 32, 60, 60, 60].map { Duration.seconds($0) })
        // A success ends the attempts: the next failure waits 2 s again.
        state.reduce(.requestSucceeded(.favourite, token: token, reply: server(favourited: true, favourites: 4), at: 100))
        #expect(state.favourite == .init(confirmed: true, count: 4, knownSince: 100))
        state.reduce(.toggled(.favourite, at: 101))
        state.reduce(.requestFailed(.favourite, token: 101, message: "Down.", at: 102))
        #expect(state.resends == [InteractionResend(kind: .favourite, token: 102, delay: .seconds(2))])
    }

    // MARK: copyReceived

    @Test("copyReceived in every phase")
    func copies() {
        let fresh = server(favourited: true, favourites: 7, reblogged: true, reblogs: 2)
        assertInteraction(from: idle, on: .copyReceived(fresh, fetchedAt: 5, at: 20)) {
            $0.favourite = .init(confirmed: true, count: 7, knownSince: 5)
            $0.reblog = .init(confirmed: true, count: 2, knownSince: 5)
            $0.bookmark = .init(confirmed: false, count: 0, knownSince: 5)
            $0.pin = .init(confirmed: false, count: 0, knownSince: 5)
            $0.muteThread = .init(confirmed: false, count: 0, knownSince: 5)
        }
        // A pending toggle is not clobbered; the other kinds still take the copy.
        assertInteraction(from: pending, on: .copyReceived(fresh, fetchedAt: 15, at: 20)) {
            $0.reblog = .init(confirmed: true, count: 2, knownSince: 15)
            $0.bookmark = .init(confirmed: false, count: 0, knownSince: 15)
            $0.pin = .init(confirmed: false, count: 0, knownSince: 15)
            $0.muteThread = .init(confirmed: false, count: 0, knownSince: 15)
        }
        assertInteraction(from: pendingChangedMind, on: .copyReceived(fresh, fetchedAt: 15, at: 20)) {
            $0.reblog = .init(confirmed: true, count: 2, knownSince: 15)
            $0.bookmark = .init(confirmed: false, count: 0, knownSince: 15)
            $0.pin = .init(confirmed: false, count: 0, knownSince: 15)
            $0.muteThread = .init(confirmed: false, count: 0, knownSince: 15)
        }
        assertInteraction(from: failedIdle, on: .copyReceived(fresh, fetchedAt: 15, at: 20)) {
            $0.favourite = .init(confirmed: true, count: 7, knownSince: 15)
            $0.reblog = .init(confirmed: true, count: 2, knownSince: 15)
            $0.bookmark = .init(confirmed: false, count: 0, knownSince: 15)
            $0.pin = .init(confirmed: false, count: 0, knownSince: 15)
            $0.muteThread = .init(confirmed: false, count: 0, knownSince: 15)
        }
        // A copy that shows the deferred value confirms it: the entry ends, its wait with it.
        assertInteraction(from: deferred, on: .copyReceived(fresh, fetchedAt: 15, at: 20)) {
            $0.favourite = .init(confirmed: true, count: 7, knownSince: 15)
            $0.reblog = .init(confirmed: true, count: 2, knownSince: 15)
            $0.bookmark = .init(confirmed: false, count: 0, knownSince: 15)
            $0.pin = .init(confirmed: false, count: 0, knownSince: 15)
            $0.muteThread = .init(confirmed: false, count: 0, knownSince: 15)
        }
        // One that does not show it updates the confirmed state; the wish stays deferred.
        assertInteraction(from: deferred, on: .copyReceived(server(favourites: 5), fetchedAt: 15, at: 20)) {
            $0.favourite.count = 5
            $0.favourite.knownSince = 15
            $0.reblog.knownSince = 15
            $0.bookmark.knownSince = 15
            $0.pin.knownSince = 15
            $0.muteThread.knownSince = 15
        }
        // A copy fetched before the state was learnt confirms nothing.
        assertInteraction(from: deferred, on: .copyReceived(fresh, fetchedAt: 1, at: 20)) { _ in }
        assertInteraction(from: resending, on: .copyReceived(fresh, fetchedAt: 15, at: 20)) {
            $0.reblog = .init(confirmed: true, count: 2, knownSince: 15)
            $0.bookmark = .init(confirmed: false, count: 0, knownSince: 15)
            $0.pin = .init(confirmed: false, count: 0, knownSince: 15)
            $0.muteThread = .init(confirmed: false, count: 0, knownSince: 15)
        }
        // A restored kind never learnt takes the copy's flag and count even while its request
        // runs (so its count shows right); its wish and request stay.
        assertInteraction(from: restoredUnseen, on: .copyReceived(fresh, fetchedAt: 15, at: 20)) {
            $0.favourite.confirmed = true
            $0.favourite.count = 7
            $0.favourite.knownSince = 15
            $0.reblog = .init(confirmed: true, count: 2, knownSince: 15)
            $0.bookmark = .init(confirmed: false, count: 0, knownSince: 15)
            $0.pin = .init(confirmed: false, count: 0, knownSince: 15)
            $0.muteThread = .init(confirmed: false, count: 0, knownSince: 15)
        }
        // A copy fetched before the state was last learnt is stale.
        var settled = pending
        settled.reduce(.requestSucceeded(.favourite, token: 10, reply: server(favourited: true, favourites: 4), at: 30))
        assertInteraction(from: settled, on: .copyReceived(server(), fetchedAt: 25, at: 31)) {
            $0.reblog.knownSince = 25
            $0.bookmark.knownSince = 25
            $0.pin.knownSince = 25
            $0.muteThread.knownSince = 25
        }
    }

    // MARK: retryRequested

    @Test("retryRequested in every phase: a deferred kind is sent at once; a refusal is not wanted again (its failure stays)")
    func retried() {
        assertInteraction(from: idle, on: .retryRequested(at: 20)) { _ in }
        assertInteraction(from: pending, on: .retryRequested(at: 20)) { _ in }
        assertInteraction(from: pendingChangedMind, on: .retryRequested(at: 20)) { _ in }
        assertInteraction(from: failedIdle, on: .retryRequested(at: 20)) { _ in }
        assertInteraction(from: deferred, on: .retryRequested(at: 20)) {
            $0.favourite.resend = nil
            $0.favourite.inFlight = InteractionRequest(kind: .favourite, value: true, token: 20)
        }
        assertInteraction(from: resending, on: .retryRequested(at: 20)) { _ in }
        assertInteraction(from: restoredUnseen, on: .retryRequested(at: 20)) { _ in }
        // Any tap after the failure clears it.
        var retoggled = failedIdle
        retoggled.reduce(.toggled(.reblog, at: 15))
        retoggled.reduce(.retryRequested(at: 16))
        #expect(retoggled.failure == nil)
        #expect(retoggled.favourite.inFlight == nil && retoggled.reblog.inFlight?.value == true)
        #expect(retoggled.checkInvariants().isEmpty)
    }

    // MARK: backoffElapsed

    @Test("backoffElapsed in every phase: only the deferred kind's current wait sends")
    func elapsed() {
        for phase in [idle, pending, pendingChangedMind, failedIdle, resending, restoredUnseen] {
            assertInteraction(from: phase, on: .backoffElapsed(.favourite, token: 12, at: 20)) { _ in }
        }
        assertInteraction(from: deferred, on: .backoffElapsed(.favourite, token: 12, at: 20)) {
            $0.favourite.resend = nil
            $0.favourite.inFlight = InteractionRequest(kind: .favourite, value: true, token: 20)
        }
        assertInteraction(from: deferred, on: .backoffElapsed(.favourite, token: 11, at: 20)) { _ in }
        assertInteraction(from: deferred, on: .backoffElapsed(.reblog, token: 12, at: 20)) { _ in }
    }

    // MARK: restored

    @Test("restored in every phase: the saved value is wanted as a toggle to it would want it")
    func restored() {
        assertInteraction(from: idle, on: .restored(.favourite, value: true, at: 20)) {
            $0.favourite.desired = true
            $0.favourite.inFlight = InteractionRequest(kind: .favourite, value: true, token: 20)
        }
        assertInteraction(from: idle, on: .restored(.favourite, value: false, at: 20)) { _ in }
        assertInteraction(from: pending, on: .restored(.favourite, value: true, at: 20)) { _ in }
        assertInteraction(from: pending, on: .restored(.favourite, value: false, at: 20)) {
            $0.favourite.desired = false
        }
        assertInteraction(from: pendingChangedMind, on: .restored(.favourite, value: true, at: 20)) {
            $0.favourite.desired = true
        }
        // The failure stays: restoring is not the user acting on this post.
        assertInteraction(from: failedIdle, on: .restored(.favourite, value: true, at: 20)) {
            $0.favourite.desired = true
            $0.favourite.inFlight = InteractionRequest(kind: .favourite, value: true, token: 20)
        }
        // Deferred: sent at once, without waiting for the backoff …
        assertInteraction(from: deferred, on: .restored(.favourite, value: true, at: 20)) {
            $0.favourite.resend = nil
            $0.favourite.inFlight = InteractionRequest(kind: .favourite, value: true, token: 20)
        }
        // … or dropped when the saved value is the confirmed one.
        assertInteraction(from: deferred, on: .restored(.favourite, value: false, at: 20)) {
            $0.favourite = .init(confirmed: false, count: 3, knownSince: 1)
        }
        assertInteraction(from: resending, on: .restored(.favourite, value: false, at: 20)) {
            $0.favourite.desired = false
        }
        assertInteraction(from: restoredUnseen, on: .restored(.favourite, value: true, at: 20)) { _ in }
    }

    @Test("a restored post's unknown kinds are learnt from its first copy")
    func restoredThenCopy() {
        var state = InteractionState(restoring: [.reblog: false])
        #expect(state.reblog == .init(confirmed: true, count: 0))
        state.reduce(.restored(.reblog, value: false, at: 3))
        #expect(state.requests == [InteractionRequest(kind: .reblog, value: false, token: 3)])
        state.reduce(.copyReceived(server(favourited: true, favourites: 9, reblogged: false, reblogs: 4), fetchedAt: 4, at: 5))
        #expect(state.display == PostInteraction(favourited: true, favouritesCount: 9, reblogged: false, reblogsCount: 4, pending: [.reblog]))
        state.reduce(.requestSucceeded(.reblog, token: 3, reply: server(favourited: true, favourites: 9, reblogged: false, reblogs: 4), at: 6))
        #expect(state.display == PostInteraction(favourited: true, favouritesCount: 9, reblogged: false, reblogsCount: 4))
        #expect(state.checkInvariants().isEmpty)
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
        #expect(!state.display.bookmarked && state.display.queued == [.bookmark])
        state.reduce(.backoffElapsed(.bookmark, token: 15, at: 16))
        state.reduce(.requestFailed(.bookmark, token: 16, failure: FeedFailure(message: "Gone.", isTransient: false), at: 17))
        #expect(state.display.bookmarked && state.display.pending.isEmpty)
        #expect(state.failure == InteractionFailure(kind: .bookmark, value: false, message: "Could not remove the bookmark of this post: Gone.", isTransient: false))
        #expect(state.checkInvariants().isEmpty)
    }

    @Test("a copy of a reblog entry updates the original's state")
    func copyOfEntry() {
        var state = idle
        state.reduce(.copyReceived(makePost("w", author: bob, reblog: server(favourited: true, favourites: 8)), fetchedAt: 2, at: 3))
        #expect(state.display.favourited && state.display.favouritesCount == 8)
    }

    // MARK: Randomized schedules against a simulated server

    /// A schedule of random toggles, replies in random order (successes, failures for lack of a
    /// connection, refusals), elapsed backoffs, retries, and page copies fetched at random
    /// earlier moments, against a server that applies what succeeds.
    @Test("10,000 random schedules converge to the server's state with at most one request per kind")
    func randomSchedules() {
        let seed = testSeed(20_261_122)
        print("Interaction machine schedules from seed \(seed) (FEEDLINE_SEED replays)")
        var random = SeededGenerator(seed: seed)
        for schedule in 0..<10_000 {
            var serverState = ServerInteractions()
            for kind in InteractionKind.allCases {
                let on = Bool.random(using: &random)
                serverState.set(kind, to: on)
                if kind == .favourite { serverState.favourites = on ? 2 : 1 }
                if kind == .reblog { serverState.reblogs = on ? 2 : 1 }
            }
            func copy() -> Post {
                var post = makePost("o")
                post.interactions = serverState
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
                    if request.value == serverState.isOn(request.kind) {
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
            var resends = 0
            // What the user last asked for: only a failure may change it back.
            var intent: [InteractionKind: Bool] = Dictionary(uniqueKeysWithValues: InteractionKind.allCases.map { ($0, state.display.isOn($0)) })
            for _ in 0..<steps {
                epoch += 1
                switch Int.random(in: 0..<12, using: &random) {
                case 0..<4:
                    toggles += 1
                    let kind = InteractionKind.allCases.randomElement(using: &random) ?? .favourite
                    state.reduce(.toggled(kind, at: epoch))
                    intent[kind]?.toggle()
                case 10:
                    // Retry sends what waits for a connection; a refusal stays undone.
                    resends += state.resends.count
                    state.reduce(.retryRequested(at: epoch))
                case 11:
                    // A backoff elapses (a stale one sometimes: it must change nothing).
                    if let resend = state.resends.randomElement(using: &random) {
                        resends += 1
                        let token = Bool.random(using: &random) ? resend.token : resend.token &- 1
                        state.reduce(.backoffElapsed(resend.kind, token: token, at: epoch))
                    }
                case 4..<8 where !outstanding.isEmpty:
                    let request = outstanding.remove(at: Int.random(in: 0..<outstanding.count, using: &random))
                    if Int.random(in: 0..<4, using: &random) == 0 {
                        failures += 1
                        // For lack of a connection the wish stays; a refusal undoes it.
                        let transient = Bool.random(using: &random)
                        state.reduce(.requestFailed(request.kind, token: request.token, failure: FeedFailure(message: "Down.", isTransient: transient), at: epoch))
                        if !transient { intent[request.kind] = state.display.isOn(request.kind) }
                    } else {
                        serverState.set(request.kind, to: request.value)
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
            // Settle: the server is back and answers everything (successfully, so the display
            // must agree); deferred kinds are sent when their backoff elapses.
            while !outstanding.isEmpty || !state.resends.isEmpty {
                epoch += 1
                if let request = outstanding.first {
                    outstanding.removeFirst()
                    serverState.set(request.kind, to: request.value)
                    state.reduce(.requestSucceeded(request.kind, token: request.token, reply: copy(), at: epoch))
                } else if let resend = state.resends.first {
                    resends += 1
                    state.reduce(.backoffElapsed(resend.kind, token: resend.token, at: epoch))
                }
                startNew()
            }
            for kind in InteractionKind.allCases where state.display.isOn(kind) != intent[kind] {
                Issue.record("schedule \(schedule) (seed \(seed)): settled \(kind) shows \(state.display.isOn(kind)), the user asked for \(String(describing: intent[kind]))")
            }
            let shown = state.display
            let expected = PostInteraction(
                favourited: serverState.favourited, favouritesCount: serverState.favourites,
                reblogged: serverState.reblogged, reblogsCount: serverState.reblogs,
                bookmarked: serverState.bookmarked, pinned: serverState.pinned, muted: serverState.muted, pending: [], failure: shown.failure)
            if shown != expected {
                Issue.record("schedule \(schedule) (seed \(seed)): shows \(shown), server has \(expected)")
                return
            }
            // Requests are bounded by user actions: each toggle or reply causes at most one, and
            // each re-send one.
            if sent > toggles * 2 + resends { Issue.record("schedule \(schedule) (seed \(seed)): \(sent) requests for \(toggles) toggles and \(resends) re-sends") }
            _ = failures
        }
    }
}
