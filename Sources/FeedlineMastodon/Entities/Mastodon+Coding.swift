import Foundation

extension Mastodon {
    /// A JSON decoder for Mastodon entities: dates in any form ``DateFormat`` reads.
    ///
    /// Every decoder in this module comes from here, so all of them read dates the same way.
    /// A date it cannot read is a `DecodingError.dataCorrupted` at the date's coding path.
    public static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = DateFormat.date(from: text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a date: \"\(text)\"")
            }
            return date
        }
        return decoder
    }

    /// A JSON encoder that writes entities the way Mastodon does: dates as
    /// `2026-11-20T09:15:02.000Z`, keys sorted so the output is stable.
    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(DateFormat.timestamp(date))
        }
        return encoder
    }

    /// Decodes `type` from `data` with a decoder from ``makeDecoder()``.
    ///
    /// - Throws: ``DecodingFailure`` naming what was wrong and where; never traps on any input.
    public static func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws(DecodingFailure) -> Value {
        do {
            return try makeDecoder().decode(type, from: data)
        } catch let error as DecodingError {
            throw DecodingFailure(error)
        } catch {
            throw DecodingFailure(path: "", problem: String(describing: error))
        }
    }

    /// Why a document did not decode: the coding path of the offending value and the problem,
    /// written `[3].reblog.account.acct: missing`.
    public struct DecodingFailure: Error, LocalizedError, Hashable, Sendable, CustomStringConvertible {
        /// Where the problem is: array indices in brackets, keys after dots (`[3].reblog.account.acct`);
        /// empty for the document itself.
        public var path: String
        /// What is wrong there, in a few words (`missing`, `null`, `expected a string, found a number` …).
        public var problem: String

        /// A failure at `path` (already rendered) with `problem`.
        public init(path: String, problem: String) {
            self.path = path
            self.problem = problem
        }

        /// Describes a `DecodingError` by its coding path and kind.
        public init(_ error: DecodingError) {
            switch error {
            case .keyNotFound(let key, let context):
                self.init(path: Self.render(context.codingPath + [key]), problem: "missing")
            case .valueNotFound(_, let context):
                self.init(path: Self.render(context.codingPath), problem: "null where a value is required")
            case .typeMismatch(let type, let context):
                self.init(path: Self.render(context.codingPath), problem: Self.mismatch(type, context.debugDescription))
            case .dataCorrupted(let context):
                let problem =
                    context.codingPath.isEmpty && context.underlyingError == nil
                        && context.debugDescription.contains("not valid JSON")
                    ? Self.notJSON : context.debugDescription
                self.init(path: Self.render(context.codingPath), problem: problem)
            @unknown default:
                self.init(path: "", problem: String(describing: error))
            }
        }

        /// The problem of a document that is not JSON at all.
        public static let notJSON = "not valid JSON"

        /// Whether the document was not JSON at all (rather than JSON of the wrong shape).
        public var isNotJSON: Bool { path.isEmpty && problem == Self.notJSON }

        /// `path: problem`, or just the problem when it concerns the whole document.
        public var description: String { path.isEmpty ? problem : "\(path): \(problem)" }

        /// Same as ``description``.
        public var errorDescription: String? { description }

        /// `[3].reblog.account.acct` from a coding path.
        public static func render(_ path: [any CodingKey]) -> String {
            var text = ""
            for key in path {
                if let index = key.intValue {
                    text += "[\(index)]"
                } else {
                    text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
                }
            }
            return text
        }

        private static func mismatch(_ type: Any.Type, _ debugDescription: String) -> String {
            let expected: String
            switch type {
            case is String.Type: expected = "a string"
            case is Bool.Type: expected = "true or false"
            case is Int.Type, is Int64.Type, is UInt64.Type, is Double.Type: expected = "a number"
            case is [Any].Type: expected = "an array"
            case is [String: Any].Type: expected = "an object"
            default: expected = "a \(type)"
            }
            guard let found = debugDescription.range(of: "but found "),
                let end = debugDescription.range(of: " instead", range: found.upperBound..<debugDescription.endIndex)
            else { return "expected \(expected)" }
            return "expected \(expected), found \(debugDescription[found.upperBound..<end.lowerBound])"
        }
    }
}

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
