import Foundation

/// Why the config file cannot be used: one sentence naming the file and the line, through
/// `LocalizedError`.
public struct ConfigFileError: Error, LocalizedError, Hashable, Sendable, CustomStringConvertible {
    /// The file.
    public let path: String
    /// The line (1-based) the problem is on; `nil` when it is about the whole file.
    public let line: Int?
    /// What is wrong, as a clause ("unknown key \"colour\" (did you mean color?)").
    public let problem: String

    /// A problem with the file at `path`, on `line`.
    public init(path: String, line: Int?, problem: String) {
        self.path = path
        self.line = line
        self.problem = problem
    }

    /// "The config file PATH, line 3: unknown key "colour" (did you mean color?)."
    public var errorDescription: String? {
        let place = line.map { "The config file \(path), line \($0)" } ?? "The config file \(path)"
        return "\(place): \(problem)."
    }

    /// Same as ``errorDescription``.
    public var description: String { errorDescription ?? "" }
}
