/// The fields of one JSON object as an entity's tolerant decoding reads them: the calls its
/// `init(from:)` makes on a `KeyedDecodingContainer`, which is one (`JSONDecoder`'s path, with its
/// errors), and ``TreeFields``, the other (a parsed ``JSONTree``, fast).
///
/// An entity writes its reading once, as `init(reading:)` over any `FieldReader` of its coding
/// keys (``ReadableEntity``); its `init(from:)` hands that a container, and
/// ``Mastodon/decodeQuickly(_:from:)`` hands it a tree.
protocol FieldReader<Key> {
    associatedtype Key: CodingKey

    /// Whether the object has `key` (its value may be `null`).
    func contains(_ key: Key) -> Bool
    /// The string at `key`; throws when absent, `null` or not a string.
    func decode(_ type: String.Type, forKey key: Key) throws -> String
    /// The value at `key`; throws when absent, `null` or not one.
    func decode<Value: TreeReadable>(_ type: Value.Type, forKey key: Key) throws -> Value
    /// The string at `key`, `nil` when absent or `null`; throws when not a string.
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String?
    /// The flag at `key`, `nil` when absent or `null`; throws when not a boolean.
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool?
    /// The integer at `key`, `nil` when absent or `null`; throws when not one.
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int?
    /// The value at `key`, `nil` when absent or `null`; throws when not one.
    func decodeIfPresent<Value: TreeReadable>(_ type: Value.Type, forKey key: Key) throws -> Value?
    /// An id as an opaque string: a JSON string as is, a JSON integer as its decimal text.
    func id(_ key: Key) throws -> String
    /// An optional id: absent or `null` is `nil`, otherwise as ``id(_:)``.
    func optionalID(_ key: Key) throws -> String?
    /// The value at `key`, or `fallback` when the key is absent or `null`.
    func value<Value: TreeReadable>(_ key: Key, or fallback: Value) throws -> Value
}

/// `JSONDecoder`'s reading (and any other `Decoder`'s): the methods are the container's own, and
/// ``id(_:)``, ``optionalID(_:)`` and ``value(_:or:)`` those of `KeyedDecodingContainer+Tolerant`.
extension KeyedDecodingContainer: FieldReader {}

/// A value ``TreeFields`` can read from a parsed tree, the same as its `Decodable` reading.
protocol TreeReadable: Decodable {
    /// The value of `tree`; throws when `init(from:)` would throw for the same JSON (what it is
    /// not sure of is marked in `doubts`, and the caller decodes the document with `JSONDecoder`).
    init(tree: JSONTree, doubts: TreeDoubts) throws
}

/// An entity whose decoding is written once, over any ``FieldReader`` of its coding keys.
protocol ReadableEntity: TreeReadable {
    associatedtype CodingKeys: CodingKey
    /// Reads the entity from `fields`, tolerantly (see each type).
    init(reading fields: some FieldReader<CodingKeys>) throws
}

extension ReadableEntity {
    init(tree: JSONTree, doubts: TreeDoubts) throws {
        guard case .object(let members) = tree else { throw TreeMismatch() }
        try self.init(reading: TreeFields<CodingKeys>(members: members, doubts: doubts))
    }
}
