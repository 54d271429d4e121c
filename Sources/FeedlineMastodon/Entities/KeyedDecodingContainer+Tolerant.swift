/// A coding key for any string or index, for containers whose keys are not known in advance.
struct AnyCodingKey: CodingKey, Hashable {
    var stringValue: String
    var intValue: Int?

    init(_ string: String) {
        stringValue = string
        intValue = nil
    }

    init?(stringValue: String) { self.init(stringValue) }

    init?(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}

extension KeyedDecodingContainer {
    /// An id as an opaque string: a JSON string as is, a JSON integer as its decimal text.
    func id(_ key: Key) throws -> String {
        if let text = try? decode(String.self, forKey: key) { return text }
        if let number = try? decode(Int64.self, forKey: key) { return String(number) }
        if let number = try? decode(UInt64.self, forKey: key) { return String(number) }
        guard contains(key) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "missing id"))
        }
        if try decodeNil(forKey: key) {
            throw DecodingError.valueNotFound(String.self, .init(codingPath: codingPath + [key], debugDescription: "null id"))
        }
        let found =
            (try? decode(Bool.self, forKey: key)) != nil ? "a boolean"
            : (try? decode(Double.self, forKey: key)) != nil ? "a number that is not an integer"
            : "an array or object"
        throw DecodingError.typeMismatch(
            String.self,
            .init(codingPath: codingPath + [key], debugDescription: "Expected to decode String but found \(found) instead.")
        )
    }

    /// An optional id: absent or `null` is `nil`, otherwise as ``id(_:)``.
    func optionalID(_ key: Key) throws -> String? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        return try id(key)
    }

    /// The value at `key`, or `fallback` when the key is absent or `null`.
    func value<Value: Decodable>(_ key: Key, or fallback: Value) throws -> Value {
        try decodeIfPresent(Value.self, forKey: key) ?? fallback
    }
}
