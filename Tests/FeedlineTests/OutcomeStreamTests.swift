@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

/// A server whose hashtag follows and domain blocks wait until the test answers, refuses or
/// drops them (for lack of a connection), in any order.
private func outcomeServer(sourceLocation: SourceLocation = #_sourceLocation) -> GatedServer {
    let server = GatedServer(sourceLocation: sourceLocation)
    server.hold(.setTagFollow, .setDomainBlock)
    return server
}

/// A server's failure: a refusal, or a lost connection (transient).
private struct Failure: FeedServiceError {
    var message: String
    var isTransient: Bool
    var errorDescription: String? { message }
}

/// One way to hear results: the session's outcomes, through its public API.
@MainActor
@Suite("Outcome stream", .timeLimit(.minutes(10)))
struct OutcomeStreamTests {
    private static func subject(_ call: GatedCall) -> Outcome.Subject {
        call.kind == .setTagFollow ? .tagFollow(call.key, following: call.value == true) : .domainBlock(call.key, blocked: call.value == true)
    }

    @Test("every change asked yields one final outcome, in the order of the answers: done, refused with the server's sentence, queued with its delay and then its end (seeded: FEEDLINE_SEED replays)")
    func oneFinalOutcomePerChange() async throws {
        let base = testSeed(UInt64(Date().timeIntervalSince1970))
        print("OutcomeStreamTests seed: \(base)")
        for round in 0..<40 {
            let seed = base &+ UInt64(round)
            var random = SeededGenerator(seed: seed)
            let server = outcomeServer()
            let clock = ManualClock()
            let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: clock)
            let (heard, told) = AsyncStream.makeStream(of: Outcome.self)
            var outcomes = heard.makeAsyncIterator()
            let subscription = session.observeOutcomes { told.yield($0) }
            var asked: [Outcome.Subject] = []
            for index in 0..<(2 + random.next(below: 6)) {
                let value = random.next(below: 2) == 0
                if random.next(below: 2) == 0 {
                    #expect(session.setTagFollow("tag\(index)", value))
                    asked.append(.tagFollow("tag\(index)", following: value))
                } else {
                    #expect(session.setDomainBlock("d\(index).example", value))
                    asked.append(.domainBlock("d\(index).example", blocked: value))
                }
            }
            var finals: [Outcome.Subject: Int] = [:]
            var waiting = asked.count
            var failures: [Outcome.Subject: Int] = [:]
            while waiting > 0 {
                await server.held.waitFor(waiting)
                guard let call = server.held.take(at: random.next(below: waiting)) else { break }
                let subject = Self.subject(call.call)
                let outcome: Outcome
                switch random.next(below: 4) {
                case 0:
                        call.fail(Failure(message: "Refused \(subject).", isTransient: false))
                    outcome = Outcome.refused(subject, sentence: "Refused \(subject).")
                    waiting -= 1
                case 1:
                    failures[subject, default: 0] += 1
                    call.fail(Failure(message: "The connection was lost.", isTransient: true))
                    // 2 s after the first failure, doubling.
                    let delay = Duration.seconds(min(2 << min(failures[subject, default: 1] - 1, 5), 60))
                    outcome = Outcome.queued(subject, reason: "The connection was lost.", resendAfter: delay)
                default:
                    call.answer(.now)
                    outcome = Outcome.done(subject)
                    waiting -= 1
                }
                let got = await outcomes.next()
                #expect(got == outcome, "seed \(seed): heard \(String(describing: got)), expected \(outcome)")
                if outcome.isFinal { finals[subject, default: 0] += 1 }
                if !outcome.isFinal {
                    // Sent again at once by a retry (the request is held again).
                    #expect(session.retry(), "seed \(seed)")
                }
            }
            #expect(finals.count == asked.count && finals.values.allSatisfy { $0 == 1 }, "seed \(seed): one final outcome per change: \(finals)")
            await session.settle()
            subscription.cancel()
            told.finish()
            var more: [Outcome] = []
            while let outcome = await outcomes.next() { more.append(outcome) }
            #expect(more == [], "seed \(seed): nothing more is heard")
        }
    }

    @Test("a post's favourite and an account's mute are heard from the same stream: queued with its delay, refused with the server's sentence, done — the relationship store already words a refusal when it is heard")
    func postsAndAccounts() async throws {
        let (session, service, clock) = await outboxSession([makePost("p1", favourites: 3)])
        var heard: [Outcome] = []
        let subscription = session.observeOutcomes { heard.append($0) }
        let favourite = Outcome.Subject.interaction(.favourite, true, post: "p1")
        #expect(session.root.toggle(.favourite, row: .post("p1")))
        await service.waitForHeld(1)
        service.lose(at: 0)
        await quiesce(session, service, clock)
        #expect(heard == [Outcome.queued(favourite, reason: "The server could not be reached.", resendAfter: .seconds(2))])
        clock.advance(by: .seconds(2))
        await service.waitForHeld(1)
        service.failHeld(at: 0, with: RecordNotFound())
        await quiesce(session, service, clock)
        #expect(heard.last == Outcome.refused(favourite, sentence: "Record not found"))
        #expect(session.root.interaction("p1")?.favourited == false, "rolled back on the screens")
        #expect(session.root.toggle(.favourite, row: .post("p1")))
        await service.waitForHeld(1)
        #expect(service.waiting.map(\.description) == ["interaction(favourite true p1)"])
        service.answer(at: 0)
        await quiesce(session, service, clock)
        #expect(heard.last == Outcome.done(favourite))
        #expect(session.root.interaction("p1")?.favourited == true)
        #expect(heard.count == 3)
        subscription.cancel()

        let server = GatedServer.relationships(posts: RelationshipSessionTests.posts)
        let accounts = await RelationshipSessionTests().stack(server)
        var told: [Outcome] = []
        var failureWhenHeard: [String?] = []
        let listening = accounts.observeOutcomes { outcome in
            told.append(outcome)
            failureWhenHeard.append(accounts.relationships.relationship(RelationshipSessionTests.bobID)?.failure?.message)
        }
        let bob = RelationshipSessionTests.bobID
        accounts.set(.mute, true, account: bob)
        await server.waitForChanges(1)
        server.fail(at: 0, transient: false)
        await accounts.settle()
        guard case .refused(_, let sentence)? = told.first else {
            Issue.record("heard \(told)")
            return
        }
        #expect(told == [Outcome.refused(.relationship(.mute, true, account: bob), sentence: sentence)])
        #expect(failureWhenHeard == ["Could not mute this account: \(sentence)"], "the store words the refusal before it is heard")
        accounts.set(.mute, true, account: bob)
        await server.waitForChanges(1)
        server.answer(at: 0)
        await accounts.settle()
        #expect(told.last == Outcome.done(.relationship(.mute, true, account: bob)))
        #expect(told.count == 2)
        listening.cancel()
    }

    @Test("a change queued for lack of a connection is done when a fetched copy shows it: one queued, then one done, and nothing when its re-send would have come")
    func copyEndsQueued() async throws {
        let server = outcomeServer()
        let clock = ManualClock()
        let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: clock)
        var heard: [Outcome] = []
        let subscription = session.observeOutcomes { heard.append($0) }
        #expect(session.setTagFollow("birds", true))
        await server.held.waitFor(1)
        server.held.take(at: 0)?.fail(Failure(message: "The connection was lost.", isTransient: true))
        await session.settle()
        #expect(heard == [Outcome.queued(.tagFollow("birds", following: true), reason: "The connection was lost.", resendAfter: .seconds(2))])
        // The server took the follow whose answer was lost: its followed list says so.
        server.update { try? $0.tags.set("birds", to: true) }
        server.answer(.followedTags)
        session.navigator.push(.list(.followedTags))
        await session.settle()
        #expect(heard.last == Outcome.done(.tagFollow("birds", following: true)))
        #expect(heard.count == 2)
        #expect(session.tags.follow("birds") == ToggleDisplay(isOn: true, pending: false))
        subscription.cancel()
    }
}
