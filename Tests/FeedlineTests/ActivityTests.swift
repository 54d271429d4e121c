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
}
