import Feedline
import Foundation
import Testing

@Suite("Trimming blanks")
struct BlankTrimmingTests {
    /// Every scalar of the Basic Multilingual Plane (where all white space is) and a sample of
    /// the others, at both ends of a word and alone, trims as `trimmingCharacters(in:)` does.
    @Test("trims what Foundation's whitespace sets trim, scalar by scalar", arguments: [false, true])
    func sameAsFoundation(newlines: Bool) {
        let set: CharacterSet = newlines ? .whitespacesAndNewlines : .whitespaces
        let values = Array(0...0xD7FF) + Array(0xE000...0xFFFF) + [0x1_0000, 0x1_F600, 0xE_0020, 0x10_FFFF]
        var differing: [UInt32] = []
        for value in values {
            guard let scalar = Unicode.Scalar(UInt32(value)) else { continue }
            for text in ["\(scalar)a\(scalar)", "\(scalar)", "\(scalar)\(scalar) b \(scalar)"]
            where text.trimmingBlanks(newlines: newlines) != text.trimmingCharacters(in: set) {
                differing.append(UInt32(value))
            }
        }
        #expect(differing.isEmpty, "scalars trimmed differently: \(differing.prefix(20).map { String($0, radix: 16) })")
    }

    @Test("keeps the inside and returns an untrimmed string unchanged")
    func inside() {
        #expect("  two  words \n".trimmingBlanks(newlines: true) == "two  words")
        #expect("  two  words \n".trimmingBlanks(newlines: false) == "two  words \n")
        #expect("\u{3000}\t".trimmingBlanks(newlines: false).isEmpty)
        #expect("e\u{301}".trimmingBlanks(newlines: true) == "e\u{301}")
    }
}
