@_spi(Benchmarks) import Feedline
import Foundation
import OpenCombine
import Synchronization
import CHeapInfo

/// The minimal reference relay of the issue: a `Mutex` holding the value and an array of
/// closures, the closures called outside the lock. No replay ordering under re-entrancy, no
/// cancellation: the floor any relay with more guarantees is compared against.
final class ReferenceRelay<Value: Sendable>: Sendable {
    private let state: Mutex<(value: Value, handlers: [@Sendable (Value) -> Void])>

    init(_ value: Value) {
        state = Mutex((value, []))
    }

    func set(_ value: Value) {
        let handlers = state.withLock { state in
            state.value = value
            return state.handlers
        }
        for handler in handlers { handler(value) }
    }

    func subscribe(_ handler: @escaping @Sendable (Value) -> Void) {
        let value = state.withLock { state in
            state.handlers.append(handler)
            return state.value
        }
        handler(value)
    }
}

/// Where the handlers put what they receive. Only the benchmark's thread touches it.
final class Tally: @unchecked Sendable {
    var sum = 0
    var calls = 0
}

enum RelayBench {
    static let sets = 1_000_000

    static func run(_ options: Options) -> [Result] {
        [0, 1, 10].flatMap { subscribers -> [Result] in
            let name = "relay.set+notify ×1M, \(subscribers) sub"
            progress(name)
            let medians = interleaved(warmup: 1, rounds: options.rounds(9, quick: 3), [
                Contender(name: "ours") { ours(subscribers) },
                Contender(name: "reference") { reference(subscribers) },
                Contender(name: "CurrentValueSubject") { openCombine(subscribers) },
            ])
            return [
                Result(name: name, oursMilliseconds: medians[0], peer: "reference relay (Mutex + [closure])",
                       peerMilliseconds: medians[1]),
                Result(name: name, oursMilliseconds: medians[0], peer: "OpenCombine CurrentValueSubject",
                       peerMilliseconds: medians[2]),
            ]
        }
    }

    /// What every subscriber must have summed: the replayed 0, then 0 + 1 + … + (sets − 1).
    private static func check(_ tally: Tally, subscribers: Int, _ who: String) {
        let expectedSum = subscribers * (sets * (sets - 1) / 2)
        expect(tally.sum == expectedSum, "\(who): sum \(tally.sum), expected \(expectedSum)")
        expect(tally.calls == subscribers * (sets + 1), "\(who): \(tally.calls) calls")
    }

    static func ours(_ subscribers: Int) -> Double {
        let tally = Tally()
        let relay = BenchmarkHooks.Relay(0)
        let tokens = (0..<subscribers).map { _ in
            relay.subscribe { value in
                tally.sum &+= value
                tally.calls += 1
            }
        }
        let (_, milliseconds) = timed {
            for value in 0..<sets { relay.set(value) }
        }
        withExtendedLifetime(tokens) {}
        check(tally, subscribers: subscribers, "Relay")
        expect(relay.value == sets - 1, "Relay value")
        return milliseconds
    }

    static func reference(_ subscribers: Int) -> Double {
        let tally = Tally()
        let relay = ReferenceRelay(0)
        for _ in 0..<subscribers {
            relay.subscribe { value in
                tally.sum &+= value
                tally.calls += 1
            }
        }
        let (_, milliseconds) = timed {
            for value in 0..<sets { relay.set(value) }
        }
        check(tally, subscribers: subscribers, "reference relay")
        return milliseconds
    }

    static func openCombine(_ subscribers: Int) -> Double {
        let tally = Tally()
        let subject = CurrentValueSubject<Int, Never>(0)
        let tokens = (0..<subscribers).map { _ in
            subject.sink { value in
                tally.sum &+= value
                tally.calls += 1
            }
        }
        let (_, milliseconds) = timed {
            for value in 0..<sets { subject.send(value) }
        }
        withExtendedLifetime(tokens) {}
        check(tally, subscribers: subscribers, "CurrentValueSubject")
        expect(subject.value == sets - 1, "CurrentValueSubject value")
        return milliseconds
    }

    // MARK: - Heap per instance

    /// Bytes of heap in use (glibc's `mallinfo2().uordblks`: allocated chunks, malloc's own
    /// per-chunk overhead included).
    static func heapInUse() -> Int {
        Int(cheapinfo_heap_in_use())
    }

    /// Heap bytes per instance: the growth of the heap in use while `count` instances made by
    /// `make` are alive, divided by `count`. The array holding them is allocated beforehand.
    static func bytesPerInstance<T>(count: Int = 10_000, _ make: () -> T) -> Double {
        var keep: [T] = []
        keep.reserveCapacity(count)
        let before = heapInUse()
        for _ in 0..<count { keep.append(make()) }
        let after = heapInUse()
        expect(keep.count == count, "instances kept")
        withExtendedLifetime(keep) {}
        return Double(after - before) / Double(count)
    }

    /// `malloc_usable_size` of the one allocation an object is made of (its chunk minus malloc's
    /// header): a cross-check of the heap deltas for objects that allocate nothing else.
    static func objectNotes() -> [String] {
        let relay = BenchmarkHooks.Relay(0)
        let reference = ReferenceRelay(0)
        let subject = CurrentValueSubject<Int, Never>(0)
        func usable(_ object: AnyObject) -> Int {
            Int(cheapinfo_usable_size(Unmanaged.passUnretained(object).toOpaque()))
        }
        let notes = [
            "  malloc_usable_size of the object itself: Relay<Int> \(usable(relay.object)) B, reference relay \(usable(reference)) B, "
                + "CurrentValueSubject \(usable(subject)) B (its lock and other parts are separate allocations)",
            "  heap bytes = growth of mallinfo2().uordblks over 10,000 live instances ÷ 10,000 (whole malloc chunks, header included)",
        ]
        withExtendedLifetime((relay, reference, subject)) {}
        return notes
    }

    static func memory() -> [MemoryResult] {
        progress("relay heap bytes")
        let tally = Tally()
        let ours = bytesPerInstance { BenchmarkHooks.Relay(0).object }
        let reference = bytesPerInstance { ReferenceRelay(0) }
        let subject = bytesPerInstance { CurrentValueSubject<Int, Never>(0) }
        let oursSubscribed = bytesPerInstance { () -> (AnyObject, Feedline.Subscription) in
            let relay = BenchmarkHooks.Relay(0)
            return (relay.object, relay.subscribe { tally.sum &+= $0 })
        }
        let subjectSubscribed = bytesPerInstance { () -> (CurrentValueSubject<Int, Never>, AnyCancellable) in
            let subject = CurrentValueSubject<Int, Never>(0)
            return (subject, subject.sink { tally.sum &+= $0 })
        }
        let referenceSubscribed = bytesPerInstance { () -> ReferenceRelay<Int> in
            let relay = ReferenceRelay(0)
            relay.subscribe { tally.sum &+= $0 }
            return relay
        }
        return [
            MemoryResult(name: "Relay<Int>, no subscriber", oursBytes: ours, peer: "reference relay", peerBytes: reference),
            MemoryResult(name: "Relay<Int>, no subscriber", oursBytes: ours, peer: "CurrentValueSubject", peerBytes: subject),
            MemoryResult(name: "Relay<Int> + 1 subscription", oursBytes: oursSubscribed, peer: "reference relay",
                         peerBytes: referenceSubscribed),
            MemoryResult(name: "Relay<Int> + 1 subscription", oursBytes: oursSubscribed, peer: "CurrentValueSubject",
                         peerBytes: subjectSubscribed),
        ]
    }
}
