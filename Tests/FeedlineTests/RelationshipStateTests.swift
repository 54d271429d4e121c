@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

/// The relationship machine: every event in every phase of a kind's track, on the toggle
/// machine post interactions share.
@Suite("Relationship machine")
struct RelationshipStateTests {
    static let kemi = AccountID("7")
    static let refusal = FeedFailure(message: "Forbidden.", isTransient: false)
    static let down = FeedFailure(message: "The server did not answer.", isTransient: true)

    /// The phases a kind's track goes through, built by events from a settled state.
    enum Phase: String, CaseIterable {
        case settled, sending, sendingChangedMind, deferred, resending, rolledBack, neverLearnt
    }

    static func state(_ phase: Phase, kind: RelationshipKind = .follow) -> RelationshipState {
        var state = RelationshipState(serverCopy: Relationship(accountID: kemi, showingBoosts: false), fetchedAt: 1)
        if phase == .neverLearnt {
            return RelationshipState(serverCopy: Relationship(accountID: kemi), fetchedAt: 0)
        }
        guard phase != .settled else { return state }
        state.reduce(.toggled(kind, mute: nil, at: 10))
        switch phase {
        case .settled, .neverLearnt, .sending: break
        case .sendingChangedMind: state.reduce(.toggled(kind, mute: nil, at: 11))
        case .deferred: state.reduce(.requestFailed(kind, token: 10, failure: down, at: 12))
        case .resending:
            state.reduce(.requestFailed(kind, token: 10, failure: down, at: 12))
            state.reduce(.backoffElapsed(kind, token: 12, at: 13))
        case .rolledBack: state.reduce(.requestFailed(kind, token: 10, failure: refusal, at: 12))
        }
        return state
    }

    /// What the server says after setting `kind` to `value` from nothing.
    static func reply(_ kind: RelationshipKind, _ value: Bool) -> Relationship {
        var r = Relationship(accountID: kemi, showingBoosts: false)
        switch kind {
        case .follow: r.following = value
        case .mute: r.muting = value
        case .block: r.blocking = value
        case .notify: r.notifying = value
        case .boosts: r.showingBoosts = value
        }
        return r
    }

    static func events(_ kind: RelationshipKind) -> [(String, RelationshipEvent)] {
        [
            ("toggled", .toggled(kind, mute: nil, at: 20)),
            ("copy (fresh, on)", .copyReceived(reply(kind, true), fetchedAt: 20, at: 20)),
            ("copy (stale, on)", .copyReceived(reply(kind, true), fetchedAt: 0, at: 20)),
            ("success (current token)", .requestSucceeded(kind, token: 10, reply: reply(kind, true), at: 20)),
            ("success (resent token)", .requestSucceeded(kind, token: 13, reply: reply(kind, true), at: 20)),
            ("success (old token)", .requestSucceeded(kind, token: 3, reply: reply(kind, true), at: 20)),
            ("success not applied", .requestSucceeded(kind, token: 10, reply: reply(kind, false), at: 20)),
            ("refused", .requestFailed(kind, token: 10, failure: refusal, at: 20)),
            ("down", .requestFailed(kind, token: 10, failure: down, at: 20)),
            ("failure (old token)", .requestFailed(kind, token: 3, failure: refusal, at: 20)),
            ("backoff elapsed", .backoffElapsed(kind, token: 12, at: 20)),
            ("backoff (old token)", .backoffElapsed(kind, token: 5, at: 20)),
            ("retry", .retryRequested(at: 20)),
        ]
    }

    @Test("every event in every phase keeps the invariants, never has two requests of a kind in flight, and leaves other kinds alone",
        arguments: RelationshipKind.allCases)
    func everyEventInEveryPhase(kind: RelationshipKind) {
        for phase in Phase.allCases {
            for (name, event) in Self.events(kind) {
                var state = Self.state(phase, kind: kind)
                #expect(state.checkInvariants().isEmpty, "\(phase) before \(name)")
                let before = state
                state.reduce(event)
                #expect(state.checkInvariants().isEmpty, "\(kind) \(phase) + \(name): \(state.checkInvariants())")
                #expect(state.toggleRequests.filter { $0.kind == kind }.count <= 1)
                if case .copyReceived = event {} else if case .requestSucceeded = event {} else {
                    for other in RelationshipKind.allCases where other != kind {
                        #expect(state[other] == before[other], "\(kind) \(phase) + \(name) changed \(other)")
                    }
                }
            }
        }
    }

    @Test("a toggle shows the wish at once and sends one request; taps while it runs move only the wish")
    func optimisticAndOneInFlight() {
        var state = Self.state(.settled)
        state.reduce(.toggled(.follow, mute: nil, at: 10))
        #expect(state.display.relationship.following)
        #expect(state.display.pending == [.follow])
        #expect(state.toggleRequests == [ToggleRequest(kind: .follow, value: true, token: 10)])
        state.reduce(.toggled(.follow, mute: nil, at: 11))
        state.reduce(.toggled(.follow, mute: nil, at: 12))
        #expect(state.toggleRequests.count == 1)
        #expect(state.display.relationship.following)
        // The answer confirms it; the wish already matches: nothing more is sent.
        state.reduce(.requestSucceeded(.follow, token: 10, reply: Self.reply(.follow, true), at: 13))
        #expect(state.toggleRequests.isEmpty)
        #expect(state.display.pending.isEmpty)
    }

    @Test("a refusal rolls back with a sentence naming what failed; retry does not ask for it again (the server would refuse it again), a toggle does")
    func refusalRollsBack() {
        var state = Self.state(.rolledBack, kind: .block)
        #expect(!state.display.relationship.blocking)
        #expect(state.display.failure?.message == "Could not block this account: Forbidden.")
        state.reduce(.retryRequested(at: 30))
        #expect(!state.display.relationship.blocking)
        #expect(state.display.failure?.message == "Could not block this account: Forbidden.")
        #expect(state.toggleRequests.isEmpty)
        state.reduce(.toggled(.block, mute: nil, at: 31))
        #expect(state.display.relationship.blocking)
        #expect(state.display.failure == nil)
        #expect(state.toggleRequests.map(\.value) == [true])
    }

    @Test("a lost connection keeps the wish and waits to send it again; the next toggle back drops it")
    func deferredKeepsTheWish() {
        var state = Self.state(.deferred, kind: .mute)
        #expect(state.display.relationship.muting)
        #expect(state.resends.count == 1)
        state.reduce(.toggled(.mute, mute: nil, at: 30))
        #expect(!state.display.relationship.muting)
        #expect(state.resends.isEmpty && state.toggleRequests.isEmpty)
    }

    @Test("a follow the server answers with a request shows as requested — never inferred, taken from the answer")
    func requestedComesFromTheAnswer() {
        var state = Self.state(.sending)
        // On its way: following, not requested (the account may be locked; only the server knows).
        #expect(state.display.relationship.following && !state.display.relationship.requested)
        var answer = Relationship(accountID: Self.kemi, requested: true, showingBoosts: false)
        answer.following = false
        state.reduce(.requestSucceeded(.follow, token: 10, reply: answer, at: 20))
        #expect(state.display.relationship.requested)
        #expect(!state.display.relationship.following)
        #expect(state.display.failure == nil)
        #expect(state.display.line { _ in "" } == "requested")
    }

    @Test("a block's answer that ended the follow shows the follow ended; a mute takes its options")
    func replyIsTheWholeRelationship() {
        var state = RelationshipState(serverCopy: Relationship(accountID: Self.kemi, following: true, followedBy: true), fetchedAt: 1)
        state.reduce(.toggled(.block, mute: nil, at: 10))
        state.reduce(.requestSucceeded(.block, token: 10, reply: Relationship(accountID: Self.kemi, followedBy: false, blocking: true), at: 11))
        #expect(!state.display.relationship.following)
        #expect(state.display.relationship.blocking)
        var muting = Self.state(.settled)
        muting.reduce(.toggled(.mute, mute: MuteOptions(duration: .seconds(86_400), notifications: false), at: 10))
        #expect(muting.muteOptions == MuteOptions(duration: .seconds(86_400), notifications: false))
        #expect(muting.display.relationship.muting && !muting.display.relationship.mutingNotifications)
    }

    @Test("a fetched copy older than what a reply taught is ignored; a fresher one is taken")
    func staleCopiesIgnored() {
        var state = Self.state(.sending)
        state.reduce(.requestSucceeded(.follow, token: 10, reply: Self.reply(.follow, true), at: 20))
        state.reduce(.copyReceived(Self.reply(.follow, false), fetchedAt: 5, at: 21))
        #expect(state.display.relationship.following)
        state.reduce(.copyReceived(Self.reply(.follow, false), fetchedAt: 30, at: 31))
        #expect(!state.display.relationship.following)
    }

    @Test("a fetched copy without the end of a mute (Mastodon's have none) keeps the end learnt when the mute was made; an unmute drops it")
    func muteEndKept() {
        let end = Date(timeIntervalSince1970: 1_795_400_000)
        var state = RelationshipState(serverCopy: Relationship(accountID: "1", muting: true, mutingNotifications: true, mutingUntil: end), fetchedAt: 1)
        #expect(state.display.relationship.mutingUntil == end)
        state.reduce(.copyReceived(Relationship(accountID: "1", muting: true, mutingNotifications: true), fetchedAt: 2, at: 3))
        #expect(state.display.relationship.mutingUntil == end)
        state.reduce(.copyReceived(Relationship(accountID: "1"), fetchedAt: 4, at: 5))
        #expect(state.display.relationship.mutingUntil == nil)
        state.reduce(.copyReceived(Relationship(accountID: "1", muting: true), fetchedAt: 6, at: 7))
        #expect(state.display.relationship.mutingUntil == nil, "a new mute does not take the old end")
    }
}
