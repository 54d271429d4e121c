import Foundation

/// A value of a parsed tree that an entity's reading refused (a missing key, a wrong type); its
/// words are `JSONDecoder`'s to give, when it decodes the document again.
struct TreeMismatch: Error {}

/// What a tree reading could not be sure of: a number written with a fraction or an exponent
/// read where an integer goes, which `JSONDecoder` may read differently. A reading marked here
/// is not used, even when it succeeded (a `try?` in an entity may have hidden the doubt).
final class TreeDoubts {
    private(set) var any = false

    /// Marks the reading as not to be trusted.
    func mark() { any = true }
}

/// The members of one parsed JSON object, read by key as a `KeyedDecodingContainer` reads them.
struct TreeFields<Key: CodingKey>: FieldReader {
    let members: [String: JSONTree]
    let doubts: TreeDoubts

    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        guard case .string(let text)? = members[key.stringValue] else { throw TreeMismatch() }
        return text
    }

    func decode<Value: TreeReadable>(_ type: Value.Type, forKey key: Key) throws -> Value {
        guard let tree = members[key.stringValue] else { throw TreeMismatch() }
        if case .null = tree { throw TreeMismatch() }
        return try Value(tree: tree, doubts: doubts)
    }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try decodeIfPresent(type, key)
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        try decodeIfPresent(type, key)
    }

    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        try decodeIfPresent(type, key)
    }

    func decodeIfPresent<Value: TreeReadable>(_ type: Value.Type, forKey key: Key) throws -> Value? {
        try decodeIfPresent(type, key)
    }

    private func decodeIfPresent<Value: TreeReadable>(_ type: Value.Type, _ key: Key) throws -> Value? {
        guard let tree = members[key.stringValue] else { return nil }
        if case .null = tree { return nil }
        return try Value(tree: tree, doubts: doubts)
    }

    func id(_ key: Key) throws -> String {
        switch members[key.stringValue] {
        case .string(let text)?: return text
        case .integer(let number)?: return String(number)
        case .otherNumber(let text)?:
            // An integer past Int64 (a UInt64 id) reads as its text; anything else is JSONDecoder's to judge.
            if let number = UInt64(text) { return String(number) }
            doubts.mark()
            throw TreeMismatch()
        default: throw TreeMismatch()
        }
    }

    func optionalID(_ key: Key) throws -> String? {
        switch members[key.stringValue] {
        case nil, .null?: return nil
        default: return try id(key)
        }
    }

    func value<Value: TreeReadable>(_ key: Key, or fallback: Value) throws -> Value {
        try decodeIfPresent(Value.self, key) ?? fallback
    }
}

extension String: TreeReadable {
    init(tree: JSONTree, doubts: TreeDoubts) throws {
        guard case .string(let text) = tree else { throw TreeMismatch() }
        self = text
    }
}

extension Bool: TreeReadable {
    init(tree: JSONTree, doubts: TreeDoubts) throws {
        guard case .bool(let flag) = tree else { throw TreeMismatch() }
        self = flag
    }
}

extension Int: TreeReadable {
    init(tree: JSONTree, doubts: TreeDoubts) throws {
        switch tree {
        case .integer(let number): self = Int(number)
        case .otherNumber:
            doubts.mark()
            throw TreeMismatch()
        default: throw TreeMismatch()
        }
    }
}

/// Dates as ``Mastodon/makeDecoder()`` reads them: a string ``Mastodon/DateFormat`` reads.
extension Date: TreeReadable {
    init(tree: JSONTree, doubts: TreeDoubts) throws {
        guard case .string(let text) = tree, let date = Mastodon.DateFormat.date(from: text) else { throw TreeMismatch() }
        self = date
    }
}

extension Array: TreeReadable where Element: TreeReadable {
    init(tree: JSONTree, doubts: TreeDoubts) throws {
        guard case .array(let elements) = tree else { throw TreeMismatch() }
        self = try elements.map { try Element(tree: $0, doubts: doubts) }
    }
}

extension Mastodon {
    /// `type` read from `data` through a parsed ``JSONTree`` rather than `JSONDecoder`: the same
    /// value ``decode(_:from:)`` gives, several times faster, or `nil` when the document is not
    /// one the tree reads for sure or does not decode — then ``decode(_:from:)`` says why.
    static func decodeQuickly<Value: TreeReadable>(_ type: Value.Type, from data: Data) -> Value? {
        guard let tree = JSONTree.parse(data) else { return nil }
        let doubts = TreeDoubts()
        guard let value = try? Value(tree: tree, doubts: doubts), !doubts.any else { return nil }
        return value
    }
}
