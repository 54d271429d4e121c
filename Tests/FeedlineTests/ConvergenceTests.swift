@testable import Feedline
import FeedlineTestSupport
import Foundation
import Testing

/// The convergence engine driving ``PendingChange`` machines against a held service: one request
/// per key, re-sends on the retry clock, retries, the order of what is unsent, waiting for
/// requests, re-entrant observers, and (seeded) convergence under any answer order.
@MainActor
@Suite("Convergence engine", .timeLimit(.minutes(10)))
struct ConvergenceTests {
    typealias Change = PendingChange<String>
    typealias Engine = Convergence<String, Change>

    struct Call: Sendable, Equatable {
        var key: String
        var value: String
    }

    /// An engine over `calls`, recording what `changed` and `report` heard.
    @MainActor
    final class Harness {
        let activity = Activity()
        let clock = ManualClock()
        let calls = HeldCalls<Call, String>()
        var engine: Engine!
        var changes: [String] = []
        var reports: [(String, ChangeOutcome<String>)] = []
        /// `changed` and `report` as they came, in order.
        var heard: [String] = []
        var onChange: ((String, Change?) -> Void)?
        /// Each answer as `received` heard it, with the machine as it was then.
        var received: [(key: String, sent: String, answer: String, machine: Change?)] = []
        /// What `alsoBusy` says: other requests of the store run.
        var otherBusy = false

        init(keepsMadeAtRest: Bool = true) {
            let calls = calls
            engine = Engine(
                activity: activity, retryClock: clock,
                send: { key, request in try await calls.hold(Call(key: key, value: request.value), cancellable: true) },
                received: { [unowned self] key, request, answer in
                    self.received.append((key, request.value, answer, self.engine[key]))
                },
                changed: { [unowned self] key, _, after in
                    self.changes.append(key)
                    self.heard.append("changed \(key)")
                    self.onChange?(key, after)
                },
                report: { [unowned self] key, outcome in
                    self.reports.append((key, outcome))
                    self.heard.append("report \(key)")
                },
                alsoBusy: { [unowned self] in self.otherBusy },
                keepsMadeAtRest: keepsMadeAtRest
            )
        }

        func want(_ key: String, _ value: String, confirmed: String = "a") {
            engine.update(key, orMake: { Change(confirmed: confirmed, knownSince: 1) }) { change, epoch in
                change.want(value, at: epoch)
                return []
            }
        }

        /// Waits until `count` calls are held, then takes them all (oldest first).
        func take(_ count: Int) async -> [HeldCalls<Call, String>.Held] {
            await calls.waitFor(count)
            return calls.takeAll()
        }
    }

    @Test("one request per key: wishes while it runs wait for its answer, then the last one is sent")
    func oneRequestPerKey() async {
        let harness = Harness()
        harness.want("k", "b")
        harness.want("k", "c")
        harness.want("k", "d")
        let first = await harness.take(1)
        #expect(first.map(\.call) == [Call(key: "k", value: "b")])
        #expect(harness.engine.requestsInFlight.count == 1)
        first[0].answer("b")
        let second = await harness.take(1)
        #expect(second.map(\.call) == [Call(key: "k", value: "d")])
        second[0].answer("d")
        await harness.activity.idle()
        #expect(harness.engine["k"]?.confirmed == "d" && harness.engine["k"]?.isPending == false)
        #expect(harness.reports.map(\.1) == [.done("d")])
        #expect(harness.engine.requestsSent == 2)
    }

    @Test("keys run side by side; unsent lists them in the order asked")
    func unsentInOrder() async {
        let harness = Harness()
        for key in ["z", "m", "a"] { harness.want(key, "b") }
        let held = await harness.take(3)
        #expect(harness.engine.unsent == ["z", "m", "a"])
        for call in held { call.answer(call.call.value) }
        await harness.activity.idle()
        #expect(harness.engine.unsent.isEmpty)
    }

    @Test("a lost connection waits on the retry clock and sends again; retry sends at once")
    func resends() async {
        let harness = Harness()
        harness.want("k", "b")
        var held = await harness.take(1)
        held[0].fail(FeedFailure(message: "Down.", isTransient: true))
        await harness.clock.waitForSleepers(1)
        #expect(harness.engine.hasDeferred && harness.engine.resendsWaiting == 1)
        #expect(harness.reports.map(\.1) == [.queued("b", reason: "Down.", after: .seconds(2))])
        // The wait counts as waiting: settling does not wait for it.
        await harness.activity.idle()
        harness.clock.advance(by: .seconds(2))
        held = await harness.take(1)
        held[0].fail(FeedFailure(message: "Down.", isTransient: true))
        await harness.clock.waitForSleepers(1)
        #expect(harness.engine.retry())
        held = await harness.take(1)
        #expect(harness.engine.resendsWaiting == 0)
        held[0].answer("b")
        await harness.activity.idle()
        #expect(harness.engine["k"] == {
            var change = Change(confirmed: "b", knownSince: harness.engine["k"]?.knownSince ?? 0)
            change.wanted = "b"
            return change
        }())
        #expect(harness.engine.retry() == false)
    }

    @Test("a refusal rolls back, is reported once, and a retry does not send it again")
    func refusals() async {
        let harness = Harness()
        harness.want("k", "b")
        let held = await harness.take(1)
        held[0].fail(FeedFailure(message: "No.", isTransient: false))
        await harness.activity.idle()
        #expect(harness.engine["k"]?.wanted == "a" && harness.engine["k"]?.refusal?.message == "No.")
        #expect(harness.engine.retry() == false)
        #expect(harness.calls.count == 0 && harness.engine.requestsSent == 1)
        #expect(harness.reports.map(\.1) == [.refused("b", message: "No.")])
    }

    @Test("waiting for requests returns once none is in flight, or after its limit")
    func waitForRequests() async {
        let harness = Harness()
        await harness.engine.waitForRequests(atMost: .seconds(1))
        harness.want("k", "b")
        let held = await harness.take(1)
        async let waited: Void = harness.engine.waitForRequests(atMost: .seconds(60))
        held[0].answer("b")
        await waited
        #expect(!harness.engine.hasRequestsInFlight)
        harness.want("j", "b")
        _ = await harness.take(1)
        async let limited: Void = harness.engine.waitForRequests(atMost: .seconds(5))
        await harness.clock.waitForSleepers(1)
        harness.clock.advance(by: .seconds(5))
        await limited
        #expect(harness.engine.hasRequestsInFlight)
    }

    @Test("received hears each answer before the machine takes it, and never a failure")
    func receivedBeforeTheMachine() async {
        let harness = Harness()
        harness.want("k", "b")
        var held = await harness.take(1)
        held[0].fail(FeedFailure(message: "No.", isTransient: false))
        await harness.activity.idle()
        #expect(harness.received.isEmpty)
        harness.want("k", "c")
        held = await harness.take(1)
        held[0].answer("c")
        await harness.activity.idle()
        #expect(harness.received.map(\.key) == ["k"] && harness.received.map(\.sent) == ["c"] && harness.received.map(\.answer) == ["c"])
        // The machine as it was before the answer: still sending.
        #expect(harness.received.first?.machine?.inFlight?.value == "c")
        #expect(harness.engine["k"]?.inFlight == nil && harness.engine["k"]?.confirmed == "c")
    }

    @Test("a transition's reports come before its change: a store tells its screens once, with what the answer did")
    func reportsBeforeTheChange() async {
        let harness = Harness()
        harness.want("k", "b")
        let held = await harness.take(1)
        held[0].answer("b")
        await harness.activity.idle()
        #expect(harness.heard == ["changed k", "report k", "changed k"])
    }

    @Test("waiting for requests waits for the store's other requests too, until it says one ended")
    func waitsForOtherRequests() async {
        let harness = Harness()
        harness.otherBusy = true
        async let waited: Void = harness.engine.waitForRequests(atMost: .seconds(60))
        await harness.clock.waitForSleepers(1)
        // Still busy: an ending that leaves them running resumes nobody.
        harness.engine.otherRequestsEnded()
        await Task.yield()
        #expect(harness.clock.sleeperCount == 1)
        harness.otherBusy = false
        harness.engine.otherRequestsEnded()
        await waited
        // And an engine request's answer resumes nobody while the others run.
        harness.otherBusy = true
        harness.want("k", "b")
        let held = await harness.take(1)
        async let again: Void = harness.engine.waitForRequests(atMost: .seconds(60))
        await harness.clock.waitForSleepers(1)
        held[0].answer("b")
        await harness.activity.idle()
        #expect(harness.clock.sleeperCount == 1)
        harness.otherBusy = false
        harness.engine.otherRequestsEnded()
        await again
    }

    @Test("the deferred keys are kept as machines change: in the order asked, gone once sent or settled")
    func deferredKeys() async {
        let harness = Harness()
        for key in ["z", "a", "m"] { harness.want(key, "b") }
        let held = await harness.take(3)
        for call in held where call.call.key != "a" { call.fail(FeedFailure(message: "Down.", isTransient: true)) }
        await harness.clock.waitForSleepers(2)
        #expect(harness.engine.deferredKeys == ["z", "m"] && harness.engine.hasDeferred)
        // The wish taken back: no longer deferred.
        harness.want("z", "a")
        #expect(harness.engine.deferredKeys == ["m"])
        #expect(harness.engine.retry())
        #expect(harness.engine.deferredKeys.isEmpty && !harness.engine.hasDeferred)
        let resent = await harness.take(1)
        #expect(resent.map(\.call) == [Call(key: "m", value: "b")])
        resent[0].answer("b")
        for call in held where call.call.key == "a" { call.answer("b") }
        await harness.activity.idle()
        #expect(harness.engine.unsent.isEmpty)
    }

    @Test("an observer that changes the key again: the requests follow the machine as it is after it")
    func reentrantObserver() async {
        let harness = Harness()
        var once = true
        harness.onChange = { key, after in
            guard once, after?.wanted == "b" else { return }
            once = false
            harness.want(key, "c")
        }
        harness.want("k", "b")
        let held = await harness.take(1)
        #expect(held.map(\.call) == [Call(key: "k", value: "b")])
        held[0].answer("b")
        let next = await harness.take(1)
        #expect(next.map(\.call) == [Call(key: "k", value: "c")])
        next[0].answer("c")
        await harness.activity.idle()
        #expect(harness.engine["k"]?.confirmed == "c")
    }

    @Test("a settled key can be forgotten; a pending one cannot")
    func forgetting() async {
        let harness = Harness()
        harness.engine.insert(Change(confirmed: "a", knownSince: 1), for: "s")
        harness.want("p", "b")
        #expect(harness.engine.forget("s"))
        #expect(!harness.engine.forget("p"))
        #expect(harness.engine["s"] == nil && harness.engine["p"] != nil)
        let held = await harness.take(1)
        held[0].answer("b")
        await harness.activity.idle()
    }

    @Test("a store that holds its own machines: one made and left at rest is told and not kept; one that waits is kept, settled too", arguments: [false, true])
    func madeAtRest(keepsMadeAtRest: Bool) async {
        let harness = Harness(keepsMadeAtRest: keepsMadeAtRest)
        // Wanting what is confirmed asks nothing: the machine is at rest after it.
        harness.want("k", "a")
        #expect(harness.changes == ["k"])
        #expect((harness.engine["k"] != nil) == keepsMadeAtRest)
        #expect(harness.engine.unsent.isEmpty && harness.engine.requestsInFlight.isEmpty)
        // A wish that waits for the server is kept either way, and stays once it settles.
        harness.want("w", "b")
        #expect(harness.engine["w"]?.isPending == true)
        let sent = await harness.take(1)
        sent[0].answer("b")
        await harness.activity.idle()
        #expect(harness.engine["w"]?.isPending == false)
        #expect(harness.engine.unsent.isEmpty)
    }

    @Test("seeded walks: wishes, answers in any order, failures, refusals, copies and retries converge to the server", arguments: 0..<40)
    func seededConvergence(_ walk: Int) async {
        let seed = testSeed(0x5EED) &+ UInt64(walk)
        if walk == 0 { print("Convergence walks: seeds \(seed)…\(seed + 39) (FEEDLINE_SEED=\(seed - UInt64(walk)) replays them)") }
        var random = SeededGenerator(seed: seed)
        let harness = Harness()
        let keys = ["k0", "k1", "k2"]
        let values = ["a", "b", "c", "d"]
        /// What the server holds, per key.
        var server: [String: String] = Dictionary(uniqueKeysWithValues: keys.map { ($0, "a") })
        for step in 0..<60 {
            switch random.next() % 8 {
            case 0, 1, 2:
                let key = keys[Int(random.next() % 3)]
                harness.want(key, values[Int(random.next() % 4)])
            case 3:
                // A fetch of every key begun now, answered at once (no request of the key in flight).
                let fetchedAt = harness.engine.beginFetch()
                for key in keys where harness.engine[key] != nil {
                    harness.engine.update(key) { change, _ in change.receive(server[key] ?? "a", fetchedAt: fetchedAt).map { [$0] } ?? [] }
                }
            case 4:
                harness.engine.retry()
            case 5:
                harness.clock.advance(by: .seconds(60))
            default:
                await Task.yield()
                let waiting = harness.calls.takeAll()
                for held in waiting.shuffled(using: &random) {
                    switch random.next() % 5 {
                    case 0: held.fail(FeedFailure(message: "Down.", isTransient: true))
                    case 1: held.fail(FeedFailure(message: "No.", isTransient: false))
                    default:
                        server[held.call.key] = held.call.value
                        held.answer(held.call.value)
                    }
                }
            }
            // Never two requests of one key in flight.
            let inFlight = harness.engine.requestsInFlight.map(\.0)
            #expect(Set(inFlight).count == inFlight.count, "seed \(seed) step \(step): \(inFlight)")
            await Task.yield()
        }
        // Settle: the server answers everything, every deferred change is sent at once.
        for _ in 0..<100_000 {
            let waiting = harness.calls.takeAll()
            for held in waiting {
                server[held.call.key] = held.call.value
                held.answer(held.call.value)
            }
            if harness.engine.hasDeferred { harness.engine.retry() }
            if waiting.isEmpty, harness.activity.running == 0, !harness.engine.hasRequestsInFlight, !harness.engine.hasDeferred { break }
            await Task.yield()
        }
        for key in keys {
            guard let change = harness.engine[key] else { continue }
            #expect(!change.isPending, "seed \(seed): \(key) still pending")
            #expect(change.confirmed == server[key] && change.wanted == change.confirmed, "seed \(seed): \(key) \(change) vs server \(server[key] ?? "-")")
            #expect(change.brokenInvariants.isEmpty, "seed \(seed): \(change.brokenInvariants)")
        }
        #expect(harness.engine.unsent.isEmpty, "seed \(seed)")
    }
}
