/// A JSON document parsed into values, for reading entities without `JSONDecoder`'s generic
/// machinery (``Mastodon/decodeQuickly(_:from:)``).
///
/// Strict: it accepts only documents `JSONDecoder` accepts and reads them the same way (RFC 8259
/// JSON, UTF-8, no comments, no trailing commas). What it is not sure to read as `JSONDecoder`
/// does — a duplicate key, a lone surrogate escape, a byte-order mark — it refuses, and the caller
/// decodes with `JSONDecoder` instead, which then also says what is wrong.
enum JSONTree: Sendable {
    case null
    case bool(Bool)
    /// An integer that fits `Int64`.
    case integer(Int64)
    /// Any other number (a fraction, an exponent, or an integer past `Int64`), as written.
    case otherNumber(String)
    case string(String)
    case array([JSONTree])
    case object([String: JSONTree])

    /// The document in `bytes`, or `nil` when it is not one this parser is sure to read as
    /// `JSONDecoder` does.
    static func parse(_ bytes: some Collection<UInt8>) -> JSONTree? {
        let parsed: JSONTree?? = bytes.withContiguousStorageIfAvailable { buffer in
            var parser = Parser(bytes: buffer)
            return parser.document()
        }
        if let parsed { return parsed }
        let copy = Array(bytes)
        return copy.withUnsafeBufferPointer { buffer in
            var parser = Parser(bytes: buffer)
            return parser.document()
        }
    }

    /// A recursive-descent parser over one buffer; every method returns `nil` on anything it refuses.
    private struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0
        var depth = 0

        /// Deeper nesting is refused (`JSONDecoder` has its own limit; fixtures are shallow).
        static let maximumDepth = 256

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        mutating func document() -> JSONTree? {
            skipWhitespace()
            guard let value = value() else { return nil }
            skipWhitespace()
            return index == bytes.count ? value : nil
        }

        private mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x0A, 0x0D, 0x09: index += 1
                default: return
                }
            }
        }

        private mutating func value() -> JSONTree? {
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "{"): return object()
            case UInt8(ascii: "["): return array()
            case UInt8(ascii: "\""): return string().map(JSONTree.string)
            case UInt8(ascii: "t"): return literal("true", .bool(true))
            case UInt8(ascii: "f"): return literal("false", .bool(false))
            case UInt8(ascii: "n"): return literal("null", .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
            default: return nil
            }
        }

        private mutating func literal(_ word: StaticString, _ value: JSONTree) -> JSONTree? {
            let count = word.utf8CodeUnitCount
            guard bytes.count - index >= count else { return nil }
            for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return nil }
            index += count
            return value
        }

        private mutating func object() -> JSONTree? {
            depth += 1
            guard depth <= Self.maximumDepth else { return nil }
            defer { depth -= 1 }
            index += 1
            // Gathered first, so the dictionary is made once at its size (growing it was a third of the parse).
            var pairs: [(String, JSONTree)] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object([:])
            }
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = string() else { return nil }
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
                index += 1
                skipWhitespace()
                guard let member = value() else { return nil }
                pairs.append((key, member))
                guard let closed = commaOrEnd(UInt8(ascii: "}")) else { return nil }
                if closed { break }
            }
            var members = [String: JSONTree](minimumCapacity: pairs.count)
            for (key, member) in pairs {
                // Which of two copies `JSONDecoder` reads is its own business: refused.
                guard members.updateValue(member, forKey: key) == nil else { return nil }
            }
            return .object(members)
        }

        private mutating func array() -> JSONTree? {
            depth += 1
            guard depth <= Self.maximumDepth else { return nil }
            defer { depth -= 1 }
            index += 1
            var elements: [JSONTree] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            while true {
                skipWhitespace()
                guard let element = value() else { return nil }
                elements.append(element)
                guard let closed = commaOrEnd(UInt8(ascii: "]")) else { return nil }
                if closed { return .array(elements) }
            }
        }

        /// After a member or an element: `true` past `end`, `false` past a comma, `nil` at anything else.
        private mutating func commaOrEnd(_ end: UInt8) -> Bool? {
            skipWhitespace()
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: ","):
                index += 1
                return false
            case end:
                index += 1
                return true
            default: return nil
            }
        }

        /// A number by JSON's grammar: an `Int64` when it is one written plainly, else its text.
        private mutating func number() -> JSONTree? {
            let start = index
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count else { return nil }
            if bytes[index] == UInt8(ascii: "0") {
                index += 1
            } else {
                guard digits() > 0 else { return nil }
            }
            var plain = true
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard digits() > 0 else { return nil }
                plain = false
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard digits() > 0 else { return nil }
                plain = false
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            if plain, let integer = Int64(text) { return .integer(integer) }
            return .otherNumber(text)
        }

        private mutating func digits() -> Int {
            let start = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
            return index - start
        }

        /// A string starting at the opening quote: valid UTF-8, no raw control characters, the
        /// escapes JSON has (a `\u` surrogate only in a pair).
        private mutating func string() -> String? {
            index += 1
            let start = index
            var ascii = true
            // The common case: no escapes, so the bytes are the string.
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    let text = Self.string(UnsafeBufferPointer(rebasing: bytes[start..<index]), ascii: ascii)
                    index += 1
                    return text
                }
                if byte == UInt8(ascii: "\\") { break }
                guard byte >= 0x20 else { return nil }
                ascii = ascii && byte < 0x80
                index += 1
            }
            var scalars: [UInt8] = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    return scalars.withUnsafeBufferPointer { Self.string($0, ascii: false) }
                case UInt8(ascii: "\\"):
                    index += 1
                    guard index < bytes.count else { return nil }
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(escape)
                    case UInt8(ascii: "b"): scalars.append(0x08)
                    case UInt8(ascii: "f"): scalars.append(0x0C)
                    case UInt8(ascii: "n"): scalars.append(0x0A)
                    case UInt8(ascii: "r"): scalars.append(0x0D)
                    case UInt8(ascii: "t"): scalars.append(0x09)
                    case UInt8(ascii: "u"):
                        guard let scalar = unicodeEscape() else { return nil }
                        scalars.append(contentsOf: String(Character(scalar)).utf8)
                    default: return nil
                    }
                default:
                    guard byte >= 0x20 else { return nil }
                    scalars.append(byte)
                    index += 1
                }
            }
            return nil
        }

        /// `utf8` as a string, `nil` when it is not valid UTF-8. (`String(validating:as:)` is generic
        /// over the encoding, and looked its types up at run time on every call: a fifth of the parse.)
        private static func string(_ utf8: UnsafeBufferPointer<UInt8>, ascii: Bool) -> String? {
            let text = String(decoding: utf8, as: UTF8.self)
            // Decoding repairs what is not UTF-8 with U+FFFD, so valid text is exactly its bytes again.
            return ascii || text.utf8.elementsEqual(utf8) ? text : nil
        }

        /// The scalar of a `\u` escape whose `\u` was read (a surrogate pair as one scalar).
        private mutating func unicodeEscape() -> Unicode.Scalar? {
            guard let unit = hex4() else { return nil }
            switch unit {
            case 0xD800...0xDBFF:
                guard bytes.count - index >= 2, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    return nil
                }
                index += 2
                guard let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return nil }
                return Unicode.Scalar(0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00))
            case 0xDC00...0xDFFF:
                return nil
            default:
                return Unicode.Scalar(unit)
            }
        }

        private mutating func hex4() -> UInt16? {
            guard bytes.count - index >= 4 else { return nil }
            var value: UInt16 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: return nil
                }
                value = value << 4 | UInt16(digit)
                index += 1
            }
            return value
        }
    }
}
