import FeedlineREPL
import Testing

@Suite("Text width table")
struct TextWidthTableTests {
    /// The runs of the Basic Multilingual Plane whose width by the rule is `width`, as
    /// `TextWidth+Tables.swift` writes them.
    static func runs(ofWidth width: Int) -> [ClosedRange<UInt16>] {
        var runs: [ClosedRange<UInt16>] = []
        for value in UInt16.min...UInt16.max {
            guard let scalar = Unicode.Scalar(value), TextWidth.width(ofScalar: scalar) == width else { continue }
            if let last = runs.last, last.upperBound == value - 1 {
                runs[runs.count - 1] = last.lowerBound...value
            } else {
                runs.append(value...value)
            }
        }
        return runs
    }

    /// The Swift literal of `runs`, to paste into `TextWidth+Tables.swift` when Unicode changes.
    static func literal(_ runs: [ClosedRange<UInt16>]) -> String {
        func hex(_ value: UInt16) -> String {
            let digits = String(value, radix: 16, uppercase: true)
            return "0x" + String(repeating: "0", count: 4 - digits.count) + digits
        }
        return runs.map { "\(hex($0.lowerBound))...\(hex($0.upperBound))" }.joined(separator: ", ")
    }

    @Test("the written-out runs are what the rule says of every scalar of the Basic Multilingual Plane")
    func runsFollowTheRule() {
        let zero = Self.runs(ofWidth: 0)
        let double = Self.runs(ofWidth: 2)
        #expect(TextWidth.zeroWidthRuns == zero, "zeroWidthRuns should be: \(Self.literal(zero))")
        #expect(TextWidth.doubleWidthRuns == double, "doubleWidthRuns should be: \(Self.literal(double))")
        #expect(Self.runs(ofWidth: 1).reduce(0) { $0 + $1.count } + zero.reduce(0) { $0 + $1.count }
            + double.reduce(0) { $0 + $1.count } == 0x10000 - 0x800, "every scalar but the surrogates is 0, 1 or 2 columns")
    }

    @Test("a lone scalar of the Basic Multilingual Plane measures as the rule says")
    func tableMatchesTheRule() {
        for value in UInt16.min...UInt16.max {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let rule = TextWidth.width(ofScalar: scalar)
            let measured = TextWidth.width(of: Character(scalar))
            // ASCII controls take the fast path, which also says 0.
            #expect(measured == rule, "U+\(String(value, radix: 16, uppercase: true)): \(measured) columns, the rule says \(rule)")
            if measured != rule { return }
        }
    }
}
