/// Trimming white space without `CharacterSet`.
///
/// `trimmingCharacters(in:)` goes through `NSString`, whose first use looked up three generic
/// conformances (`UInt16: FixedWidthInteger` among them), each a scan of every conformance record
/// in the binary, and a start trims list titles, handles and image descriptions
/// (Docs/BENCHMARKS.md, "Start-up, issue 33's sixth round"). The sets are Foundation's, checked
/// scalar by scalar against it in the tests.
extension String {
    /// `self` without the white space at either end: what `trimmingCharacters(in: .whitespaces)`
    /// gives, or with `newlines` what `trimmingCharacters(in: .whitespacesAndNewlines)` gives.
    package func trimmingBlanks(newlines: Bool) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !Self.isBlank($0, newlines: newlines) }),
              let last = scalars.lastIndex(where: { !Self.isBlank($0, newlines: newlines) })
        else { return "" }
        if first == scalars.startIndex, scalars.index(after: last) == scalars.endIndex { return self }
        return String(scalars[first...last])
    }

    /// Whether `scalar` is in `CharacterSet.whitespaces` (Unicode's space separators, the tab
    /// and, in Foundation's set, the zero-width space U+200B) or, with `newlines`, in
    /// `CharacterSet.whitespacesAndNewlines` (also U+000A–U+000D, U+0085 and the line and
    /// paragraph separators).
    package static func isBlank(_ scalar: Unicode.Scalar, newlines: Bool) -> Bool {
        switch scalar.value {
        case 0x09, 0x20, 0xA0, 0x1680, 0x2000...0x200B, 0x202F, 0x205F, 0x3000: true
        case 0x0A...0x0D, 0x85, 0x2028, 0x2029: newlines
        default: false
        }
    }
}
