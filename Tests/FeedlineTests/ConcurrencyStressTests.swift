@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

/// Many tasks at once on the relay and the post store. These pass on their own, and give
/// `swift test --sanitize=thread` (run by `.ci/run`) real contention to look at.
/// A lock that tasks can share (a `Locked` itself cannot be captured by a sending closure).
private final class Shared<Value: Sendable>: Sendable {
    let lock: Locked<Value>
    init(_ value: Value) { lock = Locked(value) }
    func withLock<Result: Sendable>(_ body: (inout Value) -> Result) -> Result { lock.withLock { body(&$0) } }
}

@Suite("Concurrency stress")
struct ConcurrencyStressTests {
    private struct Stamp: Hashable, Sendable {
        var writer: Int
        var sequence: Int
    }

    @Test("Concurrent setters: a lasting subscriber sees every value once, each writer's in order")
    func concurrentSetters() async {
        let writers = 8, sets = 2_000
        let relay = Relay(Stamp(writer: -1, sequence: 0))
        let received = Shared<[Stamp]>([])
        let subscription = relay.subscribe { stamp in received.withLock { $0.append(stamp) } }
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    for sequence in 0..<sets { relay.set(Stamp(writer: writer, sequence: sequence)) }
                }
            }
        }
        let seen = received.withLock { $0 }
        #expect(seen.count == 1 + writers * sets)
        #expect(Set(seen).count == seen.count, "a value was delivered twice")
        var last = [Int](repeating: -1, count: writers)
        for stamp in seen.dropFirst() {
            #expect(stamp.sequence == last[stamp.writer] + 1, "writer \(stamp.writer) out of order")
            last[stamp.writer] = stamp.sequence
        }
        #expect(seen.last == relay.value, "the last delivery is not the current value")
        subscription.cancel()
    }

    @Test("Subscribing, cancelling and updating from many tasks: no lost update, no stale delivery")
    func churn() async {
        let seed = testSeed(0xC0FFEE)
        let workers = 6
        let relay = Relay([Int](repeating: 0, count: workers))
        let problems = Shared<[String]>([])
        let updates = await withTaskGroup(of: (Int, Int).self) { group in
            for worker in 0..<workers {
                group.addTask {
                    var random = SeededGenerator(seed: seed &+ UInt64(worker))
                    var tokens: [Subscription] = []
                    var updates = 0
                    for _ in 0..<1_500 {
                        switch random.next() % 3 {
                        case 0:
                            // Each subscriber must see the total only grow: every delivery is newer.
                            let lastTotal = Shared(-1)
                            tokens.append(relay.subscribe { counters in
                                let total = counters.reduce(0, +)
                                let stale = lastTotal.withLock { last in
                                    defer { last = total }
                                    return total <= last
                                }
                                if stale { problems.withLock { $0.append("total \(total) delivered after a newer one") } }
                            })
                        case 1:
                            if !tokens.isEmpty { tokens.removeLast().cancel() }
                        default:
                            relay.update { $0[worker] += 1 }
                            updates += 1
                        }
                    }
                    tokens.removeAll()
                    return (worker, updates)
                }
            }
            var result = [Int](repeating: 0, count: workers)
            for await (worker, count) in group { result[worker] = count }
            return result
        }
        #expect(relay.value == updates, "seed \(seed): an update was lost")
        #expect(relay.subscriberCount == 0, "seed \(seed): tokens released but subscribers remain")
        #expect(problems.withLock { $0 }.isEmpty, "seed \(seed): \(problems.withLock { $0 }.prefix(3))")
    }

    @Test("Handlers that set and cancel during delivery, from several threads, settle in order")
    func reentrantHandlers() async {
        let relay = Relay(0)
        let seen = Shared<[Int]>([])
        let bouncer = relay.subscribe { value in
            if value > 0, value % 3 == 0 { relay.set(-value) }
        }
        let recorder = relay.subscribe { value in seen.withLock { $0.append(value) } }
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<4 {
                group.addTask {
                    for step in 1...900 where step % 4 == writer { relay.set(step) }
                }
            }
        }
        let values = seen.withLock { $0 }
        // Every positive multiple of 3 is followed, later, by its negation.
        for value in values where value > 0 && value % 3 == 0 {
            #expect(values.contains(-value), "the set made while delivering \(value) was lost")
        }
        #expect(values.last == relay.value)
        bouncer.cancel()
        recorder.cancel()
    }

    @Test("Toggles from many tasks through the main-actor store converge to the server")
    @MainActor
    func storeUnderLoad() async {
        let seed = testSeed(0x5EED)
        let posts = makePosts(40)
        let service = GatedServer(posts: posts, answering: [.interaction])
        let activity = Activity()
        let store = PostStore(service: service, activity: activity)
        store.ingest(posts, fetchedAt: store.beginFetch())
        let observed = Shared(0)
        let observation = store.observe { _ in observed.withLock { $0 += 1 } }
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<6 {
                group.addTask {
                    var random = SeededGenerator(seed: seed &+ UInt64(worker))
                    for _ in 0..<300 {
                        let id = posts[Int(random.next() % UInt64(posts.count))].id
                        let kind: InteractionKind = random.next() % 2 == 0 ? .favourite : .reblog
                        _ = await MainActor.run { store.toggle(kind, id) }
                        if random.next() % 5 == 0 {
                            let epoch = await store.beginFetch()
                            let copies = posts.compactMap { service.model.original(of: $0.id) }
                            await store.ingest(copies, fetchedAt: epoch)
                        }
                    }
                }
            }
        }
        await activity.idle()
        for post in posts {
            guard let server = service.model.original(of: post.id), let shown = store.interaction(post.id) else {
                Issue.record("seed \(seed): post \(post.id) missing")
                continue
            }
            #expect(shown.pending.isEmpty, "seed \(seed): \(post.id) still pending")
            #expect(shown.favourited == server.favourited && shown.reblogged == server.reblogged,
                    "seed \(seed): \(post.id) shows \(shown), server has \(server.favourited)/\(server.reblogged)")
        }
        #expect(observed.withLock { $0 } > 0)
        observation.cancel()
    }
}
