import Feedline
import Foundation

/// A JSON value, for the client's command ids (echoed exactly as sent) and for building messages.
public indirect enum JSONLValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONLValue])
    case object([(String, JSONLValue)])

    public static func == (lhs: JSONLValue, rhs: JSONLValue) -> Bool { lhs.json == rhs.json }
    public func hash(into hasher: inout Hasher) { hasher.combine(json) }

    /// Compact JSON text; object keys keep their order; numbers without a fraction print as integers.
    public var json: String {
        var output = ""
        write(to: &output)
        return output
    }

    private func write(to output: inout String) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .number(let value):
            if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
                output += String(Int64(value))
            } else if value.isFinite {
                output += "\(value)"
            } else {
                output += "null"
            }
        case .string(let value): Self.writeString(value, to: &output)
        case .array(let values):
            output += "["
            for (index, value) in values.enumerated() {
                if index > 0 { output += "," }
                value.write(to: &output)
            }
            output += "]"
        case .object(let pairs):
            output += "{"
            for (index, pair) in pairs.enumerated() {
                if index > 0 { output += "," }
                Self.writeString(pair.0, to: &output)
                output += ":"
                pair.1.write(to: &output)
            }
            output += "}"
        }
    }

    /// `value` as a JSON string. Escaped as `\u` and four hex digits (a pair of them past the Basic
    /// Multilingual Plane), besides `"` and `\`: every C0 and C1 control and DEL, the line and
    /// paragraph separators, bidirectional controls and invisible characters — everything the
    /// one sanitiser (`TextSafety`) looks at. So a message is one line, and a line shown in a
    /// terminal can neither drive it nor hide anything; the decoded string is the one sent.
    private static func writeString(_ value: String, to output: inout String) {
        output += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where TextSafety.needsLook(scalar):
                if scalar.value > 0xFFFF {
                    let value = scalar.value - 0x10000
                    output += escaped(0xD800 + (value >> 10)) + escaped(0xDC00 + (value & 0x3FF))
                } else {
                    output += escaped(scalar.value)
                }
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }

    /// `\u001b`: a UTF-16 code unit as a JSON escape.
    private static func escaped(_ unit: UInt32) -> String {
        let hex = String(unit, radix: 16)
        return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}

extension JSONLValue: Decodable {
    public init(from decoder: any Decoder) throws {
        if var list = try? decoder.unkeyedContainer() {
            var values: [JSONLValue] = []
            while !list.isAtEnd { values.append(try list.decode(JSONLValue.self)) }
            self = .array(values)
            return
        }
        if let map = try? decoder.container(keyedBy: AnyKey.self) {
            self = .object(try map.allKeys.sorted { $0.stringValue < $1.stringValue }.map { ($0.stringValue, try map.decode(JSONLValue.self, forKey: $0)) })
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let value = try? single.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? single.decode(Double.self) {
            self = .number(value)
        } else {
            self = .string(try single.decode(String.self))
        }
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// The field `key` of an object, if this is one and has it.
    subscript(key: String) -> JSONLValue? {
        guard case .object(let pairs) = self else { return nil }
        return pairs.first { $0.0 == key }?.1
    }

    /// The text, if this is a string.
    var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}

extension JSONLValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
}

extension JSONLValue {
    /// `.string(value)` or `.null` when `value` is nil.
    static func optional(_ value: String?) -> JSONLValue { value.map(JSONLValue.string) ?? .null }
    static func int(_ value: Int) -> JSONLValue { .number(Double(value)) }
}
