import Foundation

/// How long to run: `--quick` for a smoke run, `--rounds N` to override every scenario's
/// measured rounds (e.g. many rounds under a profiler).
struct Options: Sendable {
    var quick = false
    var rounds: Int?

    func rounds(_ normal: Int, quick quickRounds: Int) -> Int {
        rounds ?? (quick ? quickRounds : normal)
    }
}

/// One contender of a scenario: `sample()` runs the measured work once (doing any untimed setup
/// itself) and returns the milliseconds of the timed part. It must check its own result.
struct Contender {
    var name: String
    var sample: () -> Double
}

/// Times `contenders` interleaved: each round runs every contender once, alternating the order
/// from round to round, after `warmup` rounds that are thrown away. Returns the median per
/// contender, in the order given.
func interleaved(warmup: Int, rounds: Int, _ contenders: [Contender]) -> [Double] {
    var samples = [[Double]](repeating: [], count: contenders.count)
    for round in 0..<(warmup + rounds) {
        let order = round.isMultiple(of: 2) ? Array(contenders.indices) : contenders.indices.reversed()
        for index in order {
            let milliseconds = contenders[index].sample()
            if round >= warmup { samples[index].append(milliseconds) }
        }
    }
    return samples.map(median)
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    let middle = sorted.count / 2
    return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
}

/// Milliseconds taken by `body`; its result is handed back so that callers check it.
@inline(__always)
func timed<T>(_ body: () throws -> T) rethrows -> (T, Double) {
    let start = ContinuousClock.now
    let result = try body()
    let elapsed = ContinuousClock.now - start
    return (result, elapsed.milliseconds)
}

extension Duration {
    var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1_000 + Double(attoseconds) / 1e15
    }
}

/// A sanity check on a measured result. A failure ends the run: a number from wrong work is
/// worse than no number.
func expect(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition {
        FileHandle.standardError.write(Data("feedline-bench: sanity check failed: \(message())\n".utf8))
        exit(2)
    }
}

/// Progress on standard error, so that `--json` output stays clean.
func progress(_ text: String) {
    FileHandle.standardError.write(Data("· \(text)\n".utf8))
}

/// A deterministic random number generator (SplitMix64): every contender gets identical input.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
