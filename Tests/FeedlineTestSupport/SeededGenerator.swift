import Foundation

/// A deterministic random number generator (SplitMix64), so randomized tests replay from a seed.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (`bound` > 0).
    public mutating func next(below bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

/// The seed for a randomized test: `FEEDLINE_SEED` when set (to replay a failure), else `fallback`.
public func testSeed(_ fallback: UInt64) -> UInt64 {
    ProcessInfo.processInfo.environment["FEEDLINE_SEED"].flatMap(UInt64.init) ?? fallback
}
