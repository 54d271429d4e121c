@testable import Feedline
import Testing

/// The machines of one's own delete (``PostDeletion``) and vote (``PollVote``), every event in
/// every phase: each expectation names what the machine shows after the event — the value shown
/// and confirmed, the request in flight, the re-send, the server's sentence, what the answer
/// brought — and what it reports.
@Suite("Own delete and vote machines")
struct OwnWritingMachineTests {
    static let down = FeedFailure(message: "Down.", isTransient: true)
    static let refusal = FeedFailure(message: "No.", isTransient: false)

    // MARK: - Delete

    /// What a delete shows: whether the post is shown and confirmed to exist, the token in
    /// flight, whether a re-send waits, the refusal's sentence, and the copy the server deleted.
    struct DeletionSeen: Equatable, CustomStringConvertible {
        var shown = true
        var exists = true
        var inFlight: StoreEpoch?
        var deferred = false
        var refusal: String?
        var copy: PostID?

        init() {}

        init(_ deletion: PostDeletion) {
            shown = deletion.change.wanted
            exists = deletion.change.confirmed
            inFlight = deletion.requests.first?.token
            deferred = deletion.isDeferred
            refusal = deletion.change.refusal?.message
            copy = deletion.deletedCopy?.id
        }

        var description: String { "shown \(shown) exists \(exists) inFlight \(String(describing: inFlight)) deferred \(deferred) refusal \(refusal ?? "-") copy \(copy?.rawValue ?? "-")" }
    }

    enum DeletionPhase: CaseIterable {
        /// No delete asked.
        case settled
        /// Asked at 10, on its way.
        case sending
        /// Sent at 10, the server could not be reached at 12: a re-send waits.
        case deferred
        /// Sent at 10, refused at 11.
        case refused
        /// Sent at 10, confirmed at 11.
        case deleted
    }

    enum DeletionEvent: CaseIterable {
        case delete, answer, answerStale, failRefused, failTransient, failStale, elapsed, elapsedStale, retry
    }

    static let gone = makePost("o1")

    static func deletion(_ phase: DeletionPhase) -> PostDeletion {
        var deletion = PostDeletion()
        guard phase != .settled else { return deletion }
        deletion.delete(at: 10)
        let request = PostDeletion.Request(value: false, token: 10)
        switch phase {
        case .settled, .sending: break
        case .deferred: _ = deletion.failed(request, with: down, at: 12)
        case .refused: _ = deletion.failed(request, with: refusal, at: 11)
        case .deleted: _ = deletion.answered(request, with: gone, at: 11)
        }
        return deletion
    }

    static func send(_ event: DeletionEvent, to deletion: inout PostDeletion) -> [PostDeletion.Report] {
        let current = deletion.requests.first ?? .init(value: false, token: 10)
        let stale = PostDeletion.Request(value: false, token: 99)
        switch event {
        case .delete: deletion.delete(at: 20)
        case .answer: return deletion.answered(current, with: gone, at: 20)
        case .answerStale: return deletion.answered(stale, with: gone, at: 20)
        case .failRefused: return deletion.failed(current, with: refusal, at: 20)
        case .failTransient: return deletion.failed(current, with: down, at: 20)
        case .failStale: return deletion.failed(stale, with: refusal, at: 20)
        case .elapsed: deletion.elapsed(deletion.resends.first ?? .init(token: 12, delay: .seconds(2)), at: 20)
        case .elapsedStale: deletion.elapsed(.init(token: 99, delay: .seconds(2)), at: 20)
        case .retry: _ = deletion.retry(at: 20)
        }
        return []
    }

    static func expected(_ phase: DeletionPhase, _ event: DeletionEvent, from start: DeletionSeen) -> (DeletionSeen, [PostDeletion.Report]) {
        var seen = start
        switch (phase, event) {
        // Nothing asked: a delete is shown at once and sent.
        case (.settled, .delete):
            seen.shown = false
            seen.inFlight = 20
        case (.settled, _): break

        // On its way: a second delete joins it; the answer confirms it with the server's copy;
        // a refusal puts the post back with the server's sentence; a lost connection waits.
        case (.sending, .answer):
            seen.exists = false
            seen.inFlight = nil
            seen.copy = "o1"
            return (seen, [.done(false)])
        case (.sending, .failRefused):
            seen.shown = true
            seen.inFlight = nil
            seen.refusal = "No."
            return (seen, [.refused(false, message: "No.")])
        case (.sending, .failTransient):
            seen.inFlight = nil
            seen.deferred = true
            return (seen, [.queued(false, reason: "Down.", after: .seconds(2))])
        case (.sending, _): break

        // Waiting to be sent again: a delete, the wait's end or a retry sends it at once.
        case (.deferred, .delete), (.deferred, .elapsed), (.deferred, .retry):
            seen.deferred = false
            seen.inFlight = 20
        case (.deferred, _): break

        // Refused: the post is back with the sentence until the next delete, which is sent.
        case (.refused, .delete):
            seen.shown = false
            seen.refusal = nil
            seen.inFlight = 20
        case (.refused, _): break

        // Confirmed: nothing more happens (the store forgets the machine: a later delete asks anew).
        case (.deleted, _): break
        }
        return (seen, [])
    }

    @Test("a delete: every event in every phase", arguments: DeletionPhase.allCases)
    func everyDeletionEvent(_ phase: DeletionPhase) {
        Self.everyEvent(phase, start: Self.deletion(phase), seen: DeletionSeen.init, send: { Self.send($0, to: &$1) }, expected: { Self.expected($0, $1, from: $2) }) { actual, seen in
            actual.isDeleting == (!seen.shown && actual.isPending)
        }
    }

    /// Sends every event of `Event` to the machine of `phase` (`start`) and checks what it shows
    /// (`seen`) and reports against `expected`, that `holds` holds, and the change's invariants.
    static func everyEvent<Machine: PendingChangeComposite, Seen: Equatable & CustomStringConvertible, Event: CaseIterable, Phase>(
        _ phase: Phase, start: Machine, seen: (Machine) -> Seen, send: (Event, inout Machine) -> [Machine.Report],
        expected: (Phase, Event, Seen) -> (Seen, [Machine.Report]), holds: (Machine, Seen) -> Bool
    ) {
        #expect(start.change.brokenInvariants.isEmpty, "\(phase): \(start.change.brokenInvariants)")
        for event in Event.allCases {
            var actual = start
            let reports = send(event, &actual)
            let (expectedSeen, expectedReports) = expected(phase, event, seen(start))
            #expect(seen(actual) == expectedSeen, "\(phase) on \(event):\n expected \(expectedSeen)\n actual   \(seen(actual))")
            #expect(reports == expectedReports, "\(phase) on \(event): \(reports)")
            #expect(holds(actual, expectedSeen), "\(phase) on \(event)")
            #expect(actual.change.brokenInvariants.isEmpty, "\(phase) on \(event): \(actual.change.brokenInvariants)")
        }
    }

    // MARK: - Vote

    /// What a vote shows: the choices shown and confirmed, the token in flight, whether a
    /// re-send waits, the refusal's sentence, the server's poll, the fresh post and its epoch.
    struct VoteSeen: Equatable, CustomStringConvertible {
        var shown: [Int] = []
        var confirmed: [Int] = []
        var inFlight: StoreEpoch?
        var deferred = false
        var refusal: String?
        var counted: Poll?
        var fresh: PostID?
        var freshFetchedAt: StoreEpoch = 0

        init(_ vote: PollVote) {
            shown = vote.change.wanted
            confirmed = vote.change.confirmed
            inFlight = vote.requests.first?.token
            deferred = vote.isDeferred
            refusal = vote.change.refusal?.message
            counted = vote.counted
            fresh = vote.fresh?.id
            freshFetchedAt = vote.freshFetchedAt
        }

        var description: String {
            "shown \(shown) confirmed \(confirmed) inFlight \(String(describing: inFlight)) deferred \(deferred) refusal \(refusal ?? "-") counted \(counted != nil) fresh \(fresh?.rawValue ?? "-")@\(freshFetchedAt)"
        }
    }

    enum VotePhase: CaseIterable {
        /// No vote.
        case settled
        /// [1] sent at 10.
        case sending
        /// [1] sent at 10, then [0] wanted (the store refuses a second vote; the machine keeps it for after).
        case sendingChanged
        /// [1] sent at 10, the server could not be reached at 12.
        case deferred
        /// [1] refused at 11, the post fetched afresh at 11.
        case refused
        /// [1] counted at 11.
        case counted
    }

    enum VoteEvent: CaseIterable {
        case vote, voteOther, counted, refusedFresh, refusedNoCopy, answerStale, failRefused, failTransient, failStale, elapsed, retry
    }

    static let before = Poll(options: [.init(title: "yes", votes: 1), .init(title: "no", votes: 2)], votesCount: 3, expired: false, id: "poll1")
    static let serverPoll = Poll(options: [.init(title: "yes", votes: 1), .init(title: "no", votes: 3)], votesCount: 4, expired: false, id: "poll1", voted: true)
    static let fresh = makePost("q1")

    static func vote(_ phase: VotePhase) -> PollVote {
        var vote = PollVote(before: before)
        guard phase != .settled else { return vote }
        vote.vote([1], at: 10)
        let request = PollVote.Request(value: [1], token: 10)
        switch phase {
        case .settled, .sending: break
        case .sendingChanged: vote.vote([0], at: 11)
        case .deferred: _ = vote.failed(request, with: down, at: 12)
        case .refused: _ = vote.answered(request, with: .refused(refusal, fresh: fresh, fetchedAt: 7), at: 11)
        case .counted: _ = vote.answered(request, with: .counted(serverPoll), at: 11)
        }
        return vote
    }

    static func send(_ event: VoteEvent, to vote: inout PollVote) -> [PollVote.Report] {
        let current = vote.requests.first ?? .init(value: [1], token: 10)
        let stale = PollVote.Request(value: [1], token: 99)
        switch event {
        case .vote: vote.vote([1], at: 20)
        case .voteOther: vote.vote([0], at: 20)
        case .counted: return vote.answered(current, with: .counted(serverPoll), at: 20)
        case .refusedFresh: return vote.answered(current, with: .refused(refusal, fresh: fresh, fetchedAt: 18), at: 20)
        case .refusedNoCopy: return vote.answered(current, with: .refused(refusal, fresh: nil, fetchedAt: 18), at: 20)
        case .answerStale: return vote.answered(stale, with: .counted(serverPoll), at: 20)
        case .failRefused: return vote.failed(current, with: refusal, at: 20)
        case .failTransient: return vote.failed(current, with: down, at: 20)
        case .failStale: return vote.failed(stale, with: refusal, at: 20)
        case .elapsed: vote.elapsed(vote.resends.first ?? .init(token: 12, delay: .seconds(2)), at: 20)
        case .retry: _ = vote.retry(at: 20)
        }
        return []
    }

    static func expected(_ phase: VotePhase, _ event: VoteEvent, from start: VoteSeen) -> (VoteSeen, [PollVote.Report]) {
        var seen = start
        /// The answer to the request in flight refused `sent`: shown as confirmed, with the sentence.
        func refused(_ sent: [Int], fresh: PostID?) -> (VoteSeen, [PollVote.Report]) {
            seen.inFlight = nil
            if seen.shown == sent {
                seen.shown = seen.confirmed
                seen.refusal = "No."
            } else {
                seen.inFlight = 20
            }
            if let fresh {
                seen.fresh = fresh
                seen.freshFetchedAt = 18
            } else if event == .refusedNoCopy {
                seen.fresh = nil
                seen.freshFetchedAt = 18
            }
            return (seen, [.refused(sent, message: "No.")])
        }
        switch (phase, event) {
        // No vote: a vote is shown at once and sent.
        case (.settled, .vote), (.refused, .vote):
            seen.shown = [1]
            seen.refusal = nil
            seen.inFlight = 20
        case (.settled, .voteOther), (.refused, .voteOther):
            seen.shown = [0]
            seen.refusal = nil
            seen.inFlight = 20
        case (.settled, _), (.refused, _): break

        // On its way: the server's poll confirms it; a refusal puts it back with the sentence
        // (and the post as the server has it, when it could be fetched); a lost connection waits.
        case (.sending, .voteOther): seen.shown = [0]
        case (.sending, .counted):
            seen.confirmed = [1]
            seen.inFlight = nil
            seen.counted = serverPoll
            return (seen, [.done([1])])
        case (.sending, .refusedFresh), (.sendingChanged, .refusedFresh): return refused([1], fresh: "q1")
        case (.sending, .refusedNoCopy), (.sendingChanged, .refusedNoCopy): return refused([1], fresh: nil)
        case (.sending, .failRefused), (.sendingChanged, .failRefused): return refused([1], fresh: nil)
        case (.sending, .failTransient), (.sendingChanged, .failTransient):
            seen.inFlight = nil
            seen.deferred = true
            return (seen, [.queued(seen.shown, reason: "Down.", after: .seconds(2))])
        case (.sending, _): break

        // Another vote meanwhile: sent after the answer.
        case (.sendingChanged, .vote): seen.shown = [1]
        case (.sendingChanged, .counted):
            seen.confirmed = [1]
            seen.counted = serverPoll
            seen.inFlight = 20
        case (.sendingChanged, _): break

        // Waiting to be sent again: a vote, the wait's end or a retry sends it at once.
        case (.deferred, .vote), (.deferred, .elapsed), (.deferred, .retry):
            seen.deferred = false
            seen.inFlight = 20
        case (.deferred, .voteOther):
            seen.deferred = false
            seen.shown = [0]
            seen.inFlight = 20
        case (.deferred, _): break

        // Counted: the same vote again changes nothing; another is a new wish.
        case (.counted, .voteOther):
            seen.shown = [0]
            seen.inFlight = 20
        case (.counted, _): break
        }
        return (seen, [])
    }

    @Test("a vote: every event in every phase", arguments: VotePhase.allCases)
    func everyVoteEvent(_ phase: VotePhase) {
        // The poll to put back stays whatever happens.
        Self.everyEvent(phase, start: Self.vote(phase), seen: VoteSeen.init, send: { Self.send($0, to: &$1) }, expected: { Self.expected($0, $1, from: $2) }) { actual, _ in
            actual.before == Self.before
        }
    }
}
