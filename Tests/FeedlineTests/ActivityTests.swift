import Feedline
import Synchronization
import Testing

@MainActor
@Suite("Activity")
struct ActivityTests {
    @Test("idle returns at once when nothing runs, and after every effect, including follow-ups")
    func idle() async {
        let activity = Activity()
        await activity.idle()
        let order = Locked<[String]>([])
        activity.run {
            order.withLock { $0.append("first") }
            activity.run { order.withLock { $0.append("follow-up") } }
        }
        #expect(activity.running == 1)
        await activity.idle()
        #expect(order.withLock { $0 } == ["first", "follow-up"])
        #expect(activity.isIdle && activity.started == 2)
    }

    @Test("an effect waiting on a clock does not hold idle; the work it does after the wait does")
    func waitingEffects() async {
        let activity = Activity()
        let clock = ManualClock()
        let done = Locked(false)
        activity.run {
            try? await activity.waiting { try await clock.sleep(for: .seconds(60)) }
            // Work after the wait: a request, say.
            activity.run { done.withLock { $0 = true } }
        }
        await clock.waitForSleepers(1)
        #expect(activity.total == 1 && activity.waitingCount == 1 && activity.running == 0 && activity.isIdle)
        // Settled while it waits: idle returns at once.
        await activity.idle()
        #expect(!done.withLock { $0 })
        clock.advance(by: .seconds(60))
        // Once the wait is over the effect works again, and idle waits for it and its follow-up.
        await clock.waitForSleepers(0)
        while activity.total > 0 && activity.running == 0 { await Task.yield() }
        await activity.idle()
        #expect(done.withLock { $0 })
        #expect(activity.total == 0 && activity.started == 2)
    }

    @Test("stop: an effect started but not yet begun never runs its work, one running is cancelled, and none starts after")
    func stop() async {
        let activity = Activity()
        let clock = ManualClock()
        let ran = Locked<[String]>([])
        activity.run {
            ran.withLock { $0.append("waiting") }
            try? await activity.waiting { try await clock.sleep(for: .seconds(60)) }
            ran.withLock { $0.append(Task.isCancelled ? "cancelled" : "woke") }
        }
        await clock.waitForSleepers(1)
        // Started on the main actor, where this test runs: its task cannot begin before stop.
        let late = activity.run { ran.withLock { $0.append("late") } }
        activity.stop()
        activity.run { ran.withLock { $0.append("after") } }
        await late.value
        await activity.idle()
        while activity.total > 0 { await Task.yield() }
        #expect(ran.withLock { $0 } == ["waiting", "cancelled"])
        #expect(activity.started == 2 && activity.total == 0)
    }
}
