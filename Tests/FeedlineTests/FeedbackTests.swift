import Feedline
import FeedlineTestSupport
import Synchronization
import Testing

/// The one effect primitive: the state says which requests should run; the loop starts new
/// ones, keeps equal ones, cancels the rest and hands each result back as an event.
@MainActor
@Suite("Feedback loop", .timeLimit(.minutes(10)))
struct FeedbackTests {
    /// Effects that wait until the test releases them, and a log of what happened.
    @MainActor
    final class Harness {
        let activity = Activity()
        var started: [String] = []
        var handled: [String] = []
        var cancelled: [String] = []
        private var gates: [String: CheckedContinuation<Void, Never>] = [:]
        private(set) var loop: Feedback<String, String>?

        init() {
            loop = Feedback(
                activity: activity,
                effect: { [weak self] request in
                    guard let self else { return nil }
                    self.started.append(request)
                    await withTaskCancellationHandler {
                        await withCheckedContinuation { self.gates[request] = $0 }
                    } onCancel: {
                        Task { @MainActor in
                            self.cancelled.append(request)
                            self.gates.removeValue(forKey: request)?.resume()
                        }
                    }
                    return "done \(request)"
                },
                handle: { [weak self] event in self?.handled.append(event) }
            )
        }

        /// Lets the effect of `request` finish.
        func release(_ request: String) { gates.removeValue(forKey: request)?.resume() }

        /// Waits until `request`'s effect is parked at its gate.
        func parked(_ request: String) async {
            while gates[request] == nil { await Task.yield() }
        }
    }

    @Test("new requests start, equal ones are kept (one effect each), the rest are cancelled")
    func startKeepCancel() async {
        let harness = Harness()
        let loop = harness.loop
        loop?.react(to: ["a", "b"])
        await harness.parked("a")
        await harness.parked("b")
        loop?.react(to: ["a", "b", "b"])
        loop?.react(to: ["b", "c"])
        await harness.parked("c")
        #expect(harness.started.sorted() == ["a", "b", "c"])
        #expect(loop?.requests == ["b", "c"])
        #expect(loop?.started == 3)
        harness.release("b")
        harness.release("c")
        await harness.activity.idle()
        // a was cancelled: its result (it returned when cancelled) is dropped.
        #expect(harness.cancelled == ["a"])
        #expect(harness.handled.sorted() == ["done b", "done c"])
        #expect(loop?.requests.isEmpty == true)
    }

    @Test("run starts a one-shot request unless an equal one runs, and leaves the others alone")
    func oneShots() async {
        let harness = Harness()
        let loop = harness.loop
        loop?.react(to: ["a"])
        await harness.parked("a")
        loop?.run("b")
        loop?.run("b")
        await harness.parked("b")
        #expect(loop?.requests == ["a", "b"] && loop?.started == 2)
        harness.release("b")
        harness.release("a")
        await harness.activity.idle()
        #expect(harness.handled.sorted() == ["done a", "done b"] && harness.cancelled.isEmpty)
        loop?.run("b")
        await harness.parked("b")
        #expect(loop?.started == 3)
        harness.release("b")
        await harness.activity.idle()
    }

    @Test("a request asked for again after it finished starts again; cancelAll stops everything")
    func restartAndCancelAll() async {
        let harness = Harness()
        let loop = harness.loop
        loop?.react(to: ["a"])
        await harness.parked("a")
        harness.release("a")
        await harness.activity.idle()
        loop?.react(to: ["a"])
        await harness.parked("a")
        #expect(harness.started == ["a", "a"])
        loop?.react(to: ["a", "b"], within: { $0 == "b" })
        await harness.parked("b")
        loop?.react(to: [], within: { $0 == "b" })
        #expect(loop?.requests == ["a"])
        loop?.cancelAll()
        await harness.activity.idle()
        #expect(harness.handled == ["done a"])
        #expect(Set(harness.cancelled) == ["a", "b"])
    }

    @Test("the activity counts an effect until its event is handled, so idle waits for chains")
    func chains() async {
        let activity = Activity()
        var handled: [Int] = []
        var loop: Feedback<Int, Int>?
        loop = Feedback(
            activity: activity,
            effect: { request in await Task.yield(); return request + 1 },
            handle: { event in
                handled.append(event)
                if event < 5 { loop?.react(to: [event]) }
            }
        )
        loop?.react(to: [0])
        await activity.idle()
        #expect(handled == [1, 2, 3, 4, 5])
        #expect(activity.isIdle)
        #expect(loop?.started == 5)
    }
}
