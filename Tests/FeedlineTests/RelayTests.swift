import Feedline
import Synchronization
import Testing

/// Collects values delivered to a subscriber, thread-safely.
final class Recorder<Value: Sendable>: Sendable {
    private let storage = Locked<[Value]>([])
    var values: [Value] { storage.withLock { $0 } }
    func append(_ value: Value) { storage.withLock { $0.append(value) } }
}

@Suite("Relay")
struct RelayTests {
    @Test("subscribing replays the current value, then every set in order")
    func replayAndOrder() {
        let relay = Relay(1)
        let seen = Recorder<Int>()
        let subscription = relay.subscribe { seen.append($0) }
        relay.set(2)
        relay.set(3)
        relay.update { $0 += 10 }
        #expect(seen.values == [1, 2, 3, 13])
        #expect(relay.value == 13)
        subscription.cancel()
    }

    @Test("every subscriber sees every value, in subscription order per value")
    func severalSubscribers() {
        let relay = Relay("a")
        let seen = Recorder<String>()
        let first = relay.subscribe { seen.append("1:\($0)") }
        let second = relay.subscribe { seen.append("2:\($0)") }
        relay.set("b")
        #expect(seen.values == ["1:a", "2:a", "1:b", "2:b"])
        _ = (first, second)
    }

    @Test("a set from inside a handler is delivered after the current value reached everyone")
    func reentrantSet() {
        let relay = Relay(0)
        let seen = Recorder<String>()
        let first = relay.subscribe { value in
            seen.append("A\(value)")
            if value == 1 { relay.set(2) }
        }
        let second = relay.subscribe { seen.append("B\($0)") }
        relay.set(1)
        #expect(seen.values == ["A0", "B0", "A1", "B1", "A2", "B2"])
        #expect(relay.value == 2)
        _ = (first, second)
    }

    @Test("a handler may cancel its own subscription during notification")
    func cancelSelf() {
        let relay = Relay(0)
        let seen = Recorder<Int>()
        let holder = Locked<Subscription?>(nil)
        let subscription = relay.subscribe { value in
            seen.append(value)
            if value == 1 { holder.withLock { $0?.cancel() } }
        }
        holder.withLock { $0 = subscription }
        relay.set(1)
        relay.set(2)
        #expect(seen.values == [0, 1])
        #expect(relay.subscriberCount == 0)
    }

    @Test("a handler may cancel another subscription, which then gets nothing more, not even the current value")
    func cancelOther() {
        let relay = Relay(0)
        let seen = Recorder<String>()
        let victim = Locked<Subscription?>(nil)
        let killer = relay.subscribe { value in
            seen.append("K\(value)")
            if value == 1 { victim.withLock { $0?.cancel() } }
        }
        victim.withLock { $0 = relay.subscribe { seen.append("V\($0)") } }
        relay.set(1)
        relay.set(2)
        #expect(seen.values == ["K0", "V0", "K1", "K2"])
        _ = killer
    }

    @Test("subscribing from inside a handler replays in order, after the value being delivered")
    func subscribeDuringDelivery() {
        let relay = Relay(0)
        let seen = Recorder<String>()
        let late = Locked<Subscription?>(nil)
        let early = relay.subscribe { value in
            seen.append("E\(value)")
            if value == 1 {
                late.withLock { $0 = relay.subscribe { seen.append("L\($0)") } }
                relay.set(2)
            }
        }
        relay.set(1)
        #expect(seen.values == ["E0", "E1", "L1", "E2", "L2"])
        _ = early
    }

    @Test("releasing the token cancels the subscription")
    func deinitCancels() {
        let relay = Relay(0)
        let seen = Recorder<Int>()
        do {
            let subscription = relay.subscribe { seen.append($0) }
            #expect(relay.subscriberCount == 1)
            _ = subscription
        }
        relay.set(1)
        #expect(seen.values == [0])
        #expect(relay.subscriberCount == 0)
    }

    @Test("cancel is idempotent")
    func cancelTwice() {
        let relay = Relay(0)
        let subscription = relay.subscribe { _ in }
        subscription.cancel()
        subscription.cancel()
        #expect(subscription.isCancelled)
        #expect(relay.subscriberCount == 0)
    }

    @Test("concurrent updates from many tasks lose nothing, and a subscriber sees them in order")
    func concurrentUpdates() async {
        let relay = Relay(0)
        let seen = Recorder<Int>()
        let subscription = relay.subscribe { seen.append($0) }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<16 {
                group.addTask {
                    for _ in 0..<500 { relay.update { $0 += 1 } }
                }
            }
        }
        #expect(relay.value == 8000)
        let values = seen.values
        #expect(values == Array(0...8000))
        subscription.cancel()
    }

    /// `relay.set(relay.value)` is a read then a set, so it may legitimately set an older, smaller
    /// value after other tasks incremented: values need not rise. The order is checked against
    /// what the relay promises instead — every subscriber sees the sets in the one order they
    /// happened — using a subscriber that stays for the whole run as the record of that order.
    @Test("concurrent subscribe, set and cancel from many tasks neither deadlock nor deliver out of order")
    func concurrentChurn() async {
        let relay = Relay(0)
        let all = Recorder<Int>()
        let whole = relay.subscribe { all.append($0) }
        let sequences = await withTaskGroup(of: [[Int]].self) { group in
            for task in 0..<8 {
                group.addTask {
                    var sequences: [[Int]] = []
                    for round in 0..<200 {
                        let seen = Recorder<Int>()
                        let subscription = relay.subscribe { seen.append($0) }
                        relay.update { $0 += 1 }
                        if (task + round).isMultiple(of: 3) { relay.set(relay.value) }
                        subscription.cancel()
                        sequences.append(seen.values)
                    }
                    return sequences
                }
            }
            var sequences: [[Int]] = []
            for await some in group { sequences += some }
            return sequences
        }
        whole.cancel()
        let order = all.values
        #expect(order.count > 1_600, "every increment reached the whole-run subscriber")
        for values in sequences {
            // Each subscriber's values appear in the whole-run order, in the same order.
            var position = order.startIndex
            let inOrder = values.allSatisfy { value in
                guard let found = order[position...].firstIndex(of: value) else { return false }
                position = found + 1
                return true
            }
            #expect(inOrder, "\(values) is not in the relay's order of sets")
        }
        #expect(relay.subscriberCount == 0)
    }

    @Test("map derives values; removeDuplicates skips equal neighbours per subscriber")
    func derived() {
        let relay = Relay(1)
        let doubled = relay.map { $0 * 2 }
        #expect(doubled.value == 2)
        let seen = Recorder<Int>()
        let unique = Recorder<Int>()
        let a = doubled.subscribe { seen.append($0) }
        let b = relay.removeDuplicates().subscribe { unique.append($0) }
        relay.set(1)
        relay.set(2)
        relay.set(2)
        relay.set(1)
        #expect(seen.values == [2, 2, 4, 4, 2])
        #expect(unique.values == [1, 2, 1])
        _ = (a, b)
    }

    @Test("read-only view follows the relay")
    func readOnly() {
        let relay = Relay("x")
        let view = relay.readOnly
        relay.set("y")
        #expect(view.value == "y")
        #expect(ReadOnlyRelay.constant(5).value == 5)
    }

    @Test("values as an AsyncSequence: current first, then changes; ending the iteration cancels")
    func asyncValues() async {
        let relay = Relay(0)
        let stream = relay.values
        relay.set(1)
        relay.set(2)
        var received: [Int] = []
        for await value in stream {
            received.append(value)
            if value == 2 { break }
        }
        #expect(received == [0, 1, 2])
        // Dropping the stream's iterator ends the subscription eventually; the stream itself
        // is released here.
    }

    @Test("the stream's termination cancels its subscription")
    func asyncTermination() async {
        let relay = Relay(0)
        do {
            let stream = relay.values
            #expect(relay.subscriberCount == 1)
            _ = stream
        }
        #expect(relay.subscriberCount == 0)
    }
}
