import Feedline
import Foundation

/// Why the HTTP service could not be set up from what the user gave (server, timeline, token).
/// Every case reads as one sentence through `LocalizedError`; none ever contains a token.
public enum MastodonSetupError: Error, LocalizedError, Hashable, Sendable, CustomStringConvertible {
    /// The server address cannot be used; `reason` says why.
    case invalidServer(String, reason: String)
    /// The feed name is not one Feedline knows; `reason` says why.
    case invalidTimeline(String, reason: String)
    /// The token file cannot be read; `reason` says why (`there is no such file` …).
    case tokenFileUnreadable(path: String, reason: String)
    /// The token file can be read by other users (`mode` is its permission bits, e.g. `0o644`):
    /// refused, as ssh refuses such a private key.
    case tokenFileTooOpen(path: String, mode: Int)
    /// The token file holds nothing but whitespace.
    case tokenFileEmpty(path: String)
    /// The token (from `source`) has spaces, line breaks or control characters inside it.
    case tokenMalformed(source: AccessToken.Source)
    /// The timeline needs a token and none was given; `server` is the address to sign in to, as
    /// `feedline login` takes it (``MastodonServer/loginArgument``).
    case tokenMissing(Feed, server: String)
    /// Page sizes are 1…40, as on Mastodon.
    case invalidPageSize(Int)
    /// A plain `http://` address on a host that is not this machine: a token (or what the user
    /// reads) would cross the network in clear, so nothing is sent there.
    case insecureServer(String)

    /// One sentence a user can act on.
    public var errorDescription: String? {
        switch self {
        case .invalidServer(let text, let reason):
            "The server address \"\(Self.shown(text))\" cannot be used: \(reason)."
        case .invalidTimeline(let text, let reason):
            "The timeline \"\(Self.shown(text))\" is not one Feedline knows: \(reason)."
        case .tokenFileUnreadable(let path, let reason):
            "The token file \(path) cannot be read: \(reason)."
        case .tokenFileTooOpen(let path, let mode):
            "The token file \(path) can be read by other users (permissions \(String(mode, radix: 8))), so Feedline will not use it: run chmod 600 \(path)."
        case .tokenFileEmpty(let path):
            "The token file \(path) is empty; put the access token in it, on one line."
        case .tokenMalformed(let source):
            "The access token from \(source) has spaces, line breaks or control characters inside it; it should be the token alone, on one line."
        case .tokenMissing(let timeline, let server):
            "\(timeline.title.prefix(1).uppercased())\(timeline.title.dropFirst()) needs you signed in: "
                + "run `feedline login \(server)` (or set \(AccessToken.environmentVariable), or pass --token-file FILE)."
        case .invalidPageSize(let size):
            "The page size must be between 1 and \(MastodonHTTPService.maximumPageSize), not \(size)."
        case .insecureServer(let address):
            "The server address \"\(Self.shown(address))\" cannot be used: \(Self.plainHTTPRule)."
        }
    }

    /// Same as ``errorDescription``.
    public var description: String { errorDescription ?? "" }

    /// Why plain `http://` is refused, as every refusal says it (sign-in's too).
    public static let plainHTTPRule = "plain http:// is only for test servers on this machine (localhost, 127.0.0.1, ::1); use https://"

    /// User input as shown in a message: one line, at most 100 characters.
    private static func shown(_ text: String) -> String {
        let line = String(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) })
        return line.count > 100 ? String(line.prefix(100)) + "…" : line
    }
}
