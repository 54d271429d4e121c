import FeedlineMastodon
import Foundation

/// Why `feedline login` (or `logout`) stopped: the ``step`` that failed and the ``reason``,
/// as one sentence through `LocalizedError`. It never contains a token, code, verifier or
/// client secret, and a failed sign-in never leaves an account file behind.
public struct LoginError: Error, LocalizedError, Hashable, Sendable, CustomStringConvertible {
    /// The steps of a sign-in, in order, and the one of a sign-out.
    public enum Step: String, Sendable, Hashable, CaseIterable {
        /// Reading the address the user gave.
        case address
        /// Finding the server and its sign-in addresses.
        case discovery
        /// Registering Feedline with the server (`POST /api/v1/apps`).
        case registration
        /// Reading the code the user pastes.
        case code
        /// Trading the code for a token (`POST /oauth/token`).
        case token
        /// Checking the new token (`GET /api/v1/accounts/verify_credentials`).
        case verification
        /// Writing the account's file.
        case saving
        /// Revoking a token at sign-out (`POST /oauth/revoke`).
        case revocation

        /// "finding the server", "exchanging the code for a token"…
        public var phrase: String {
            switch self {
            case .address: "reading the address"
            case .discovery: "finding the server"
            case .registration: "registering Feedline with the server"
            case .code: "reading the code"
            case .token: "exchanging the code for a token"
            case .verification: "checking the new token"
            case .saving: "saving the account"
            case .revocation: "revoking the token"
            }
        }
    }

    /// What went wrong.
    public enum Reason: Sendable, Hashable {
        /// The address cannot be used; the sentence says why.
        case invalidAddress(String)
        /// Plain `http://` to a host that is not a loopback address.
        case insecure
        /// The server could not be reached, or did not answer (a transport failure).
        case unreachable(MastodonHTTPError)
        /// The server answers the way no Mastodon-compatible server does: `what` was asked,
        /// `answer` says what came back ("an HTML page", "HTTP 404").
        case notMastodon(what: String, answer: String)
        /// The server refused the request with this status and message.
        case refused(status: Int, message: String?)
        /// The server is rate limiting requests.
        case rateLimited
        /// The code is wrong, was already used, or has expired.
        case codeRejected
        /// The server no longer knows Feedline's registration (it was forgotten here).
        case clientRejected
        /// The input ended before a code was typed.
        case noCode
        /// The server's answer is not the JSON the endpoint documents; `detail` says where.
        case unexpectedAnswer(String)
        /// The server named the account with characters a file name cannot safely hold.
        case unusableUsername(String)
        /// The discovery document sends a step to another host.
        case foreignEndpoint(String)
        /// The account file could not be written (or another store problem).
        case store(CredentialStoreError)
    }

    /// The step that failed.
    public let step: Step
    /// The server as `feedline login` takes it (`social.example`).
    public let server: String
    /// What went wrong.
    public let reason: Reason

    /// A failure of `step` on `server` for `reason`.
    public init(_ step: Step, server: String, _ reason: Reason) {
        self.step = step
        self.server = server
        self.reason = reason
    }

    /// One sentence: "Signing in to social.example failed while exchanging the code for a
    /// token: … No account was saved."
    public var errorDescription: String? {
        if step == .revocation { return "Could not revoke the token on \(server): \(reasonText)." }
        return "Signing in to \(server) failed while \(step.phrase): \(reasonText). No account was saved."
    }

    /// Same as ``errorDescription``.
    public var description: String { errorDescription ?? "" }

    private var reasonText: String {
        switch reason {
        case .invalidAddress(let sentence):
            return Self.clause(sentence)
        case .insecure:
            return MastodonSetupError.plainHTTPRule
        case .unreachable(let error):
            switch error {
            case .noConnection(let host, let why): return "the server cannot be reached (\(host): \(why))"
            case .timedOut(let seconds): return "the server did not answer within \(Int(seconds.rounded())) seconds"
            case .plainHTTP(let host, let suggestion):
                return "the secure connection to \(host) failed: it answers plain HTTP" + (suggestion.map { " (sign in with `feedline login \($0)`)" } ?? ", not HTTPS")
            default: return Self.clause(error.description)
            }
        case .notMastodon(let what, let answer):
            return "it does not look like a Mastodon-compatible server (it answers \(what) with \(answer))"
        case .refused(let status, let message):
            let said = message.map { ": \"\($0)\"" } ?? ""
            return step == .registration
                ? "the server refused the application (HTTP \(status)\(said))"
                : "the server refused (HTTP \(status)\(said))"
        case .rateLimited:
            return "the server is rate limiting requests; try again in a few minutes"
        case .codeRejected:
            return "the server did not accept the code: it is wrong, was already used or has expired; run `feedline login \(server)` again for a new one"
        case .clientRejected:
            return "the server no longer knows Feedline's registration, so it was forgotten here; run `feedline login \(server)` again"
        case .noCode:
            return "the input ended before a code was entered"
        case .unexpectedAnswer(let detail):
            return "the server's answer was not the expected JSON (\(detail))"
        case .unusableUsername(let name):
            return "the server named the account \"\(name.prefix(60))\", which cannot be stored safely"
        case .foreignEndpoint(let url):
            return "its discovery document sends sign-in to another host (\(url.prefix(100)))"
        case .store(let error):
            return Self.clause(error.description)
        }
    }

    /// A sentence as a clause: the first letter lowercased (unless an acronym), no final full stop.
    private static func clause(_ sentence: String) -> String {
        var text = sentence
        while text.hasSuffix(".") { text.removeLast() }
        guard let first = text.first, let second = text.dropFirst().first, !second.isUppercase else { return text }
        return first.lowercased() + text.dropFirst()
    }
}
