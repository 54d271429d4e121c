import Foundation

extension Mastodon {
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
