import Foundation

/// Proof Key for Code Exchange (RFC 7636) with the `S256` method: a one-time secret
/// (``verifier``) kept by Feedline and its hash (``challenge``) put in the authorization address,
/// so a code read off the screen is worth nothing without the verifier of the same login.
///
/// The verifier is a secret: ``description`` shows the challenge only.
public struct PKCE: Sendable, Hashable, CustomStringConvertible {
    /// The characters a verifier is made of: RFC 3986's unreserved set (RFC 7636, section 4.1).
    public static let unreservedCharacters: [Character] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
    /// The lengths RFC 7636 allows a verifier.
    public static let allowedLengths = 43...128
    /// The length of the verifiers ``init()`` makes: 64 characters of 66, about 386 bits.
    public static let defaultLength = 64
    /// The `code_challenge_method`: `S256`.
    public static let method = "S256"

    /// The verifier, sent only with the token request.
    public let verifier: String
    /// `BASE64URL(SHA-256(verifier))` without padding, sent in the authorization address.
    public let challenge: String

    /// A fresh verifier of ``defaultLength`` characters from the system's random number generator.
    public init() {
        var generator = SystemRandomNumberGenerator()
        self.init(length: Self.defaultLength, using: &generator)
    }

    /// A fresh verifier of `length` characters (clamped to ``allowedLengths``), each drawn
    /// uniformly from ``unreservedCharacters`` with `generator`.
    public init<Generator: RandomNumberGenerator>(length: Int, using generator: inout Generator) {
        let count = min(max(length, Self.allowedLengths.lowerBound), Self.allowedLengths.upperBound)
        var characters: [Character] = []
        characters.reserveCapacity(count)
        for _ in 0..<count {
            let index = Int.random(in: 0..<Self.unreservedCharacters.count, using: &generator)
            characters.append(Self.unreservedCharacters[index])
        }
        let verifier = String(characters)
        self.verifier = verifier
        challenge = Self.challenge(for: verifier)
    }

    /// A pair for a given verifier; `nil` when it is not 43–128 unreserved characters.
    public init?(verifier: String) {
        guard Self.allowedLengths.contains(verifier.count), verifier.allSatisfy(Self.unreservedCharacters.contains) else { return nil }
        self.verifier = verifier
        challenge = Self.challenge(for: verifier)
    }

    /// `BASE64URL(SHA-256(ASCII(verifier)))` without `=` padding (RFC 7636, section 4.2).
    public static func challenge(for verifier: String) -> String {
        base64URL(sha256(Data(verifier.utf8)))
    }

    /// SHA-256 of `data` (32 bytes).
    static func sha256(_ data: Data) -> Data {
        SHA256.hash(data)
    }

    /// Base64 with the URL-safe alphabet (`-`, `_`) and no padding (RFC 4648, section 5).
    static func base64URL(_ data: Data) -> String {
        var text = data.base64EncodedString()
        text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }

    /// `PKCE(S256, challenge …)`: never the verifier.
    public var description: String { "PKCE(\(Self.method), challenge \(challenge))" }
}
