@testable import Feedline
import Testing

/// A toggle track keeps its waiting parts out of line: two tracks that agree are equal however
/// they got there — the engine tells a store of a change only when the machine differs, so a
/// settled track that kept a leftover of its request would be told as changed.
@Suite("Toggle track equality")
struct ToggleTrackEqualityTests {
    @Test("a track that sent, was answered and settled equals a fresh track with the same values")
    func settledEqualsFresh() {
        var track = ToggleTrack<InteractionKind>(confirmed: false, count: 3)
        track.want(.favourite, true, at: 1)
        #expect(track.inFlight != nil)
        _ = track.succeeded(.favourite, token: 1, flag: true, count: 4, counted: true, at: 2)
        #expect(track == ToggleTrack(confirmed: true, count: 4, knownSince: 2))
        #expect(track.hashValue == ToggleTrack<InteractionKind>(confirmed: true, count: 4, knownSince: 2).hashValue)
    }

    @Test("a deferred track that the user took back equals the settled one")
    func takenBackEqualsSettled() {
        var track = ToggleTrack<InteractionKind>(confirmed: false, count: 0, knownSince: 1)
        track.want(.bookmark, true, at: 2)
        _ = track.failed(.bookmark, token: 2, failure: FeedFailure(message: "offline", isTransient: true), at: 3)
        #expect(track.resend != nil && track.failedAttempts == 1)
        track.want(.bookmark, false, at: 4)
        #expect(track == ToggleTrack(confirmed: false, count: 0, knownSince: 1))
    }
}
