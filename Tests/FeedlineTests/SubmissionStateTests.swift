import Feedline
import FeedlineTestSupport
import Foundation
import Testing

/// The submission machine: every event in every phase (see `Submission.reduce`).
@Suite("Submission machine")
struct SubmissionStateTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let draft = Draft(id: DraftID("d1"), text: "hello", createdAt: start)
    static let edit = Draft(id: DraftID("d1"), text: "hello again", createdAt: start)
    static let connectionLost = FeedFailure(message: "The request timed out; try again.", isTransient: true)
    static let rateLimited = FeedFailure(message: "Too many requests.", isTransient: true, retryAfter: .seconds(300))
    static let refused = FeedFailure(message: "Validation failed: Text can't be blank", isTransient: false)

    enum Phase: String, CaseIterable, CustomTestStringConvertible {
        case editing, refusedEditing, sending, queued, queuedLost, queuedExpired, checking, sent
        var testDescription: String { rawValue }
    }

    enum Event: String, CaseIterable, CustomTestStringConvertible {
        case edited, submitted, answered, answeredStale, failedTransient, failedRateLimited, failedRefused, failedStale
        case waited, waitedStale, retryRequested, checkedFound, checkedNothing, restarted
        var testDescription: String { rawValue }
    }

    static func make(_ phase: Phase) -> Submission {
        var submission = Submission(draft: draft)
        switch phase {
        case .editing: break
        case .refusedEditing:
            submission.reduce(.submitted(key: "k1", at: start))
            submission.reduce(.failed(token: submission.token, refused, at: start))
        case .sending:
            submission.reduce(.submitted(key: "k1", at: start))
        case .queued:
            submission.reduce(.submitted(key: "k1", at: start))
            submission.reduce(.failed(token: submission.token, rateLimited, at: start))
        case .queuedLost:
            submission.reduce(.submitted(key: "k1", at: start))
            submission.reduce(.failed(token: submission.token, connectionLost, at: start))
        case .queuedExpired:
            submission.reduce(.submitted(key: "k1", at: start.addingTimeInterval(-4_000)))
            submission.reduce(.failed(token: submission.token, connectionLost, at: start))
        case .checking:
            submission.reduce(.submitted(key: "k1", at: start.addingTimeInterval(-4_000)))
            submission.reduce(.failed(token: submission.token, connectionLost, at: start))
            submission.reduce(.retryRequested(at: start))
        case .sent:
            submission.reduce(.submitted(key: "k1", at: start))
            submission.reduce(.answered(token: submission.token, PostID("9")))
        }
        return submission
    }

    static func event(_ event: Event, for submission: Submission) -> SubmissionEvent {
        let now = start.addingTimeInterval(10)
        let token = submission.token
        return switch event {
        case .edited: .edited(edit)
        case .submitted: .submitted(key: "k2", at: now)
        case .answered: .answered(token: token, PostID("9"))
        case .answeredStale: .answered(token: token - 1, PostID("8"))
        case .failedTransient: .failed(token: token, connectionLost, at: now)
        case .failedRateLimited: .failed(token: token, rateLimited, at: now)
        case .failedRefused: .failed(token: token, refused, at: now)
        case .failedStale: .failed(token: token - 1, refused, at: now)
        case .waited: .waited(token: token, at: now)
        case .waitedStale: .waited(token: token - 1, at: now)
        case .retryRequested: .retryRequested(at: now)
        case .checkedFound: .checked(token: token, found: PostID("7"), at: now)
        case .checkedNothing: .checked(token: token, found: nil, at: now)
        case .restarted: .restarted(at: now)
        }
    }

    /// What each event does in each phase, written out as the expected phase, key and flags.
    static func expected(_ phase: Phase, _ event: Event, from before: Submission) -> Submission {
        var after = before
        let now = start.addingTimeInterval(10)
        func goes(_ next: Submission.Phase) {
            after.token += 1
            after.phase = next
        }
        func nextAttempt(_ attempt: Int) {
            let expired = after.firstSentAt.map { now.timeIntervalSince($0) >= Submission.keyLifetime } ?? false
            goes(after.mayHaveCommitted && expired ? .checking(attempt: attempt + 1) : .sending(attempt: attempt + 1))
        }
        switch (phase, event) {
        case (.editing, .edited), (.refusedEditing, .edited):
            after.draft = edit
        case (.editing, .submitted), (.refusedEditing, .submitted):
            after.key = "k2"
            after.firstSentAt = now
            after.refusal = nil
            after.mayHaveCommitted = false
            goes(.sending(attempt: 1))
        case (.sending, .answered):
            after.phase = .sent(PostID("9"))
        case (.checking, .checkedFound):
            after.phase = .sent(PostID("7"))
        case (.sending, .failedTransient):
            after.mayHaveCommitted = true
            goes(.queued(reason: connectionLost.message, attempt: 1, retryAfter: .seconds(2)))
        case (.sending, .failedRateLimited):
            goes(.queued(reason: rateLimited.message, attempt: 1, retryAfter: .seconds(300)))
        case (.checking, .failedTransient):
            goes(.queued(reason: connectionLost.message, attempt: 2, retryAfter: .seconds(4)))
        case (.checking, .failedRateLimited):
            goes(.queued(reason: rateLimited.message, attempt: 2, retryAfter: .seconds(300)))
        case (.sending, .failedRefused), (.checking, .failedRefused):
            after.refusal = refused.message
            after.key = nil
            after.firstSentAt = nil
            after.mayHaveCommitted = false
            goes(.editing)
        case (.checking, .checkedNothing):
            after.firstSentAt = now
            after.mayHaveCommitted = false
            goes(.sending(attempt: 2))
        case (.queued, .waited), (.queued, .retryRequested), (.queuedLost, .waited), (.queuedLost, .retryRequested),
            (.queuedExpired, .waited), (.queuedExpired, .retryRequested):
            nextAttempt(1)
        case (.sending, .restarted):
            after.mayHaveCommitted = true
            nextAttempt(1)
        case (.checking, .restarted):
            nextAttempt(2)
        case (.queued, .restarted), (.queuedLost, .restarted), (.queuedExpired, .restarted):
            after.token += 1
        default:
            break
        }
        return after
    }

    @Test("every event in every phase does what the rules say", arguments: Phase.allCases, Event.allCases)
    func everyEventInEveryPhase(_ phase: Phase, _ event: Event) {
        let before = Self.make(phase)
        var actual = before
        actual.reduce(Self.event(event, for: before))
        #expect(actual == Self.expected(phase, event, from: before))
    }

    @Test("each phase asks for exactly its one request, with the submission's one key", arguments: Phase.allCases)
    func requests(_ phase: Phase) {
        let submission = Self.make(phase)
        switch phase {
        case .editing, .refusedEditing, .sent:
            #expect(submission.requests.isEmpty)
        case .sending:
            #expect(submission.requests == [.send(DraftID("d1"), token: submission.token, key: "k1", Self.draft)])
        case .queued:
            #expect(submission.requests == [.wait(DraftID("d1"), token: submission.token, delay: .seconds(300))])
        case .queuedLost, .queuedExpired:
            #expect(submission.requests == [.wait(DraftID("d1"), token: submission.token, delay: .seconds(2))])
        case .checking:
            #expect(submission.requests == [.check(DraftID("d1"), token: submission.token, since: Self.start.addingTimeInterval(-4_000), Self.draft)])
        }
    }

    @Test("every attempt of one submission carries the key it was sent with, through failures and restarts")
    func oneKeyPerSubmission() {
        var submission = Submission(draft: Self.draft)
        submission.reduce(.submitted(key: "only", at: Self.start))
        var keys: Set<String> = []
        for round in 0..<20 {
            for case .send(_, _, let key, _) in submission.requests { keys.insert(key) }
            let now = Self.start.addingTimeInterval(Double(round))
            if round.isMultiple(of: 3) {
                submission.reduce(.restarted(at: now))
            } else {
                submission.reduce(.failed(token: submission.token, Self.connectionLost, at: now))
                submission.reduce(.waited(token: submission.token, at: now))
            }
        }
        #expect(keys == ["only"])
        #expect(submission.mayHaveCommitted)
    }

    @Test("a post is recognised among the newest by its reply target and text, whitespace aside, made after the first attempt")
    func matching() {
        let submission = Submission(draft: Draft(id: DraftID("d"), text: "two  words\nhere", inReplyTo: nil, createdAt: Self.start))
        let author = Author(id: "1", displayName: "Me", handle: "me")
        let same = Post(id: "5", author: author, text: "two words here", createdAt: Self.start.addingTimeInterval(30))
        let older = Post(id: "4", author: author, text: "two words here", createdAt: Self.start.addingTimeInterval(-3_600))
        let other = Post(id: "6", author: author, text: "two words", createdAt: Self.start.addingTimeInterval(30))
        let reply = Post(id: "7", author: author, text: "two words here", createdAt: Self.start.addingTimeInterval(30), inReplyToID: "1")
        #expect(submission.matches(same, since: Self.start))
        #expect(!submission.matches(older, since: Self.start))
        #expect(!submission.matches(other, since: Self.start))
        #expect(!submission.matches(reply, since: Self.start))
    }
}
