import Foundation

/// Why a stored account or registration could not be read, written or removed: one sentence a
/// user can act on through `LocalizedError`. None ever contains a token or client secret.
public enum CredentialStoreError: Error, LocalizedError, Hashable, Sendable, CustomStringConvertible {
    /// The file can be read by other users (`mode`: its permission bits): refused, as ssh refuses
    /// such a private key.
    case tooOpen(path: String, mode: Int)
    /// The file exists but cannot be read; `reason` says why.
    case unreadable(path: String, reason: String)
    /// The file is not a credential file Feedline wrote; `reason` says what is wrong.
    case malformed(path: String, reason: String)
    /// The file or its directory cannot be written; `reason` says why. Nothing was left behind.
    case unwritable(path: String, reason: String)
    /// The file cannot be removed; `reason` says why.
    case unremovable(path: String, reason: String)
    /// No account is stored under this name; `known` lists those that are.
    case noSuchAccount(String, known: [String])

    /// One sentence a user can act on.
    public var errorDescription: String? {
        switch self {
        case .tooOpen(let path, let mode):
            "The credential file \(path) can be read by other users (permissions \(String(mode, radix: 8))), so Feedline will not use it: run chmod 600 \(path)."
        case .unreadable(let path, let reason):
            "The credential file \(path) cannot be read: \(reason)."
        case .malformed(let path, let reason):
            "The credential file \(path) is not one Feedline wrote (\(reason)); remove it and run feedline login again."
        case .unwritable(let path, let reason):
            "Could not save \(path): \(reason)."
        case .unremovable(let path, let reason):
            "Could not remove \(path): \(reason)."
        case .noSuchAccount(let name, let known):
            known.isEmpty
                ? "No account \(name) is signed in (none is): run feedline login SERVER."
                : "No account \(name) is signed in; the signed-in accounts are \(known.joined(separator: ", ")) (feedline accounts lists them)."
        }
    }

    /// Same as ``errorDescription``.
    public var description: String { errorDescription ?? "" }
}
