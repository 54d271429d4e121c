/// A value with a default that coding leaves implicit: empty, zero, `false`.
protocol CodingDefault: Hashable, Codable {
    /// The value a keyed container omits, and reads back when its key is missing.
    static var codingDefault: Self { get }
}

extension Array: CodingDefault where Element: Hashable & Codable {
    static var codingDefault: [Element] { [] }
}

extension Int: CodingDefault {
    static var codingDefault: Int { 0 }
}

extension Bool: CodingDefault {
    static var codingDefault: Bool { false }
}

/// A stored field that a synthesized `Codable` conformance leaves out of a keyed container while
/// it holds its default, and reads back as that default when its key is missing (the overloads
/// of `encode(_:forKey:)` and `decode(_:forKey:)` below, which synthesized code picks over the
/// generic ones). Equality and hashing are the value's own.
@propertyWrapper
struct OmittedWhenDefault<Value: CodingDefault>: Hashable, Codable {
    var wrappedValue: Value

    init(wrappedValue: Value) {
        self.wrappedValue = wrappedValue
    }

    /// Outside a keyed container (never in a post's JSON): the value itself.
    init(from decoder: any Decoder) throws {
        wrappedValue = try decoder.singleValueContainer().decode(Value.self)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}

extension OmittedWhenDefault: Sendable where Value: Sendable {}

extension KeyedEncodingContainer {
    /// Writes `field` under `key`, unless it holds its default: then nothing.
    mutating func encode<Value>(_ field: OmittedWhenDefault<Value>, forKey key: Key) throws {
        guard field.wrappedValue != Value.codingDefault else { return }
        try encode(field.wrappedValue, forKey: key)
    }
}

extension KeyedDecodingContainer {
    /// The field under `key`, or its default when the key is missing or `null`.
    func decode<Value>(_ type: OmittedWhenDefault<Value>.Type, forKey key: Key) throws -> OmittedWhenDefault<Value> {
        OmittedWhenDefault(wrappedValue: try decodeIfPresent(Value.self, forKey: key) ?? Value.codingDefault)
    }
}
