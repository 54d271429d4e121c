import Foundation

/// An OAuth access token for `Authorization: Bearer …`, from a file or the environment.
///
/// The token is a secret: ``description``, ``debugDescription`` and the mirror (`dump`, the
/// debugger's summary) all redact it, and no error of this module ever contains it. Only the
/// HTTP service reads the value, to build the `Authorization` header.
public struct AccessToken: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Where a token came from, for messages.
    public enum Source: Hashable, Sendable, CustomStringConvertible {
        /// Read from this file (`--token-file`).
        case file(String)
        /// Read from the ``AccessToken/environmentVariable`` environment variable.
        case environment
        /// Stored by `feedline login` for this account (`user@server`).
        case account(String)
        /// Given by code.
        case value

        /// `the file PATH`, `FEEDLINE_TOKEN`, `the stored account USER@SERVER` or `the given value`.
        public var description: String {
            switch self {
            case .file(let path): "the file \(path)"
            case .environment: AccessToken.environmentVariable
            case .account(let id): "the stored account \(id)"
            case .value: "the given value"
            }
        }
    }

    /// The environment variable a token is read from when no token file is given: `FEEDLINE_TOKEN`.
    public static let environmentVariable = "FEEDLINE_TOKEN"

    /// The largest token file read (tokens are under a hundred bytes).
    public static let maximumFileSize = 16 * 1024

    /// The secret itself: read by the service (the `Authorization` header) and by the account
    /// store (which writes it to a 0600 file and revokes it); never printed.
    package let secret: String
    /// Where the token came from.
    public let source: Source

    /// A token from `text`, with surrounding whitespace and line breaks trimmed.
    ///
    /// - Throws: ``MastodonSetupError/tokenMalformed(source:)`` when what is left is empty or has
    ///   whitespace or control characters inside (it would not fit in one header line).
    public init(_ text: String, source: Source = .value) throws(MastodonSetupError) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let fits = trimmed.unicodeScalars.allSatisfy { scalar in
            scalar.value > 0x20 && scalar.value != 0x7F && !scalar.properties.isWhitespace
                && scalar.properties.generalCategory != .control
        }
        guard !trimmed.isEmpty, fits else { throw .tokenMalformed(source: source) }
        secret = trimmed
        self.source = source
    }

    /// The token the user gave: the file's content when `tokenFile` is given (it wins over the
    /// environment), else `FEEDLINE_TOKEN` from `environment` when set and not blank, else `nil`.
    ///
    /// - Throws: ``MastodonSetupError/tokenFileUnreadable(path:reason:)`` (missing, a directory,
    ///   unreadable, too large, not UTF-8), ``MastodonSetupError/tokenFileTooOpen(path:mode:)``
    ///   (other users may read it), ``MastodonSetupError/tokenFileEmpty(path:)``, or
    ///   ``MastodonSetupError/tokenMalformed(source:)`` for a token with inner spaces or line breaks.
    public static func resolve(tokenFile: String?, environment: [String: String]) throws(MastodonSetupError) -> AccessToken? {
        if let path = tokenFile {
            let text = try read(path)
            guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw .tokenFileEmpty(path: path) }
            return try AccessToken(text, source: .file(path))
        }
        guard let text = environment[environmentVariable], !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            return nil
        }
        return try AccessToken(text, source: .environment)
    }

    private static func read(_ path: String) throws(MastodonSetupError) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .tokenFileUnreadable(path: path, reason: "there is no such file")
        }
        guard !isDirectory.boolValue else { throw .tokenFileUnreadable(path: path, reason: "it is a directory") }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .tokenFileUnreadable(path: path, reason: "permission denied")
        }
        defer { try? handle.close() }
        // As ssh does with private keys: a secret other users can read is refused, not used.
        var info = stat()
        if fstat(handle.fileDescriptor, &info) == 0, info.st_mode & 0o077 != 0 {
            throw .tokenFileTooOpen(path: path, mode: Int(info.st_mode & 0o777))
        }
        let data: Data
        do {
            data = try handle.read(upToCount: maximumFileSize + 1) ?? Data()
        } catch {
            throw .tokenFileUnreadable(path: path, reason: "reading it failed")
        }
        guard data.count <= maximumFileSize else {
            throw .tokenFileUnreadable(path: path, reason: "it is larger than \(maximumFileSize / 1024) KiB, too large to be a token")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .tokenFileUnreadable(path: path, reason: "it is not UTF-8 text")
        }
        return text
    }

    /// `AccessToken(redacted, from SOURCE)`: never the token.
    public var description: String { "AccessToken(redacted, from \(source))" }

    /// Same as ``description``.
    public var debugDescription: String { description }

    /// A mirror with the source only, so `dump` and debuggers never show the token.
    public var customMirror: Mirror { Mirror(self, children: ["source": source], displayStyle: .struct) }

    /// `text` with every occurrence of the token replaced by `[redacted]`: for text that came
    /// from elsewhere (a server's error message) and might echo it.
    func redacting(_ text: String) -> String {
        text.replacingOccurrences(of: secret, with: "[redacted]")
    }
}
