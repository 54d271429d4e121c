@_spi(FeedService) import Feedline
import Foundation

/// What a request to a Mastodon-API server can fail with. Every case reads as one sentence a
/// user can act on through `LocalizedError` (the view models show it as is); none ever
/// contains the access token — text that comes from the server is redacted before it is kept.
public enum MastodonHTTPError: Error, Hashable, Sendable, CustomStringConvertible {
    /// 401: the token is missing (`sentToken` false) or the server rejected it; `server` is the
    /// address to sign in to, as `feedline login` takes it (``MastodonServer/loginArgument``).
    case unauthorized(serverMessage: String?, sentToken: Bool, server: String)
    /// 403: the server refuses this to this user or token.
    case forbidden(serverMessage: String?)
    /// 403 on a write: the sign-in lacks the permission (an account signed in before Feedline
    /// asked for it); `server` is what `feedline login` takes.
    case writeRefused(serverMessage: String?, server: String)
    /// 404 or 410: no such record (Mastodon says `Record not found`).
    case notFound(serverMessage: String?)
    /// 422: the server understood the request but cannot do it.
    case unprocessable(serverMessage: String?)
    /// The server offers no translations (its description's `configuration.translation.enabled`
    /// is false, or it has no v2 description): `server` is its address.
    case translationOff(server: String)
    /// 429: too many requests. `reset` is when the limit resets, `secondsToReset` how far away
    /// that was when the error was made (both `nil` when the server did not say).
    case rateLimited(reset: Date?, secondsToReset: Int?)
    /// 206 on a timeline: the server is still building it (Mastodon's home feed after a long absence).
    case timelinePreparing(Feed)
    /// 502, 503 or 504: the server (or its proxy) is down, overloaded or in maintenance.
    case serverUnavailable(status: Int)
    /// Another 5xx: the server failed.
    case serverError(status: Int, serverMessage: String?)
    /// A status Feedline does not expect here (a redirect to another server, a 400 …).
    case unexpectedStatus(Int, serverMessage: String?)
    /// No answer within the request timeout (nothing arrived for that long).
    case timedOut(seconds: Double)
    /// The answer was still coming after `seconds` in all (a server that trickles), so it was
    /// given up.
    case tookTooLong(seconds: Double)
    /// The server's redirects (within its own address) went round in a loop, or on for too long.
    case redirectLoop
    /// The answer's header fields are larger than Feedline reads.
    case headerTooLarge
    /// The answer's body is larger than `limitBytes` (``MastodonHTTPService/maximumAnswerSize``):
    /// refused before it was held in memory.
    case answerTooLarge(limitBytes: Int)
    /// The server's TLS certificate is not trusted (self-signed, expired, or for another name).
    case untrustedCertificate(host: String)
    /// The server could not be reached; `reason` says how (not found, refused, no network …).
    case noConnection(host: String, reason: String)
    /// Another network failure.
    case network(reason: String)
    /// The connection closed before the server's answer was complete (fewer bytes came than it
    /// announced, or none): worth trying again.
    case closedEarly
    /// The TLS handshake with `host` failed because the server there answers plain HTTP;
    /// `suggestion` is the `http://` address to use instead, for a server on this machine (the
    /// only place Feedline sends a token in the clear), else `nil`.
    case plainHTTP(host: String, suggestion: String?)
    /// The body is not the JSON the endpoint documents: `what` names the request ("the home
    /// timeline", "post 42"), `server` the server, `failure` where the shape was wrong.
    case unexpectedBody(what: String, server: String, failure: Mastodon.DecodingFailure)
    /// The server answers an API request the way no Mastodon-compatible server does — a page
    /// that is not JSON (HTML, plain text), or a 404 without Mastodon's JSON error body — so the
    /// address is likely not a Mastodon server. `what` names the request, `status` is the HTTP
    /// status of the answer and `body` says what it was ("an HTML page").
    case notMastodon(server: String, what: String, status: Int, body: String)

    /// One sentence a user can act on.
    public var errorDescription: String? {
        switch self {
        case .unauthorized(let message, let sentToken, let server):
            sentToken
                ? "The server did not accept the access token\(Self.quoted(message)). Run `feedline login \(server)` to sign in again (or check \(AccessToken.environmentVariable))."
                : "The server wants you signed in for this\(Self.quoted(message)). Run `feedline login \(server)` (or check \(AccessToken.environmentVariable))."
        case .forbidden(let message):
            "The server does not allow this\(Self.quoted(message)); the access token may lack the permission it needs."
        case .writeRefused(let message, let server):
            "The server refused this\(Self.quoted(message)): this sign-in may lack the permission to write. Run `feedline login \(server)` to sign in again and grant it."
        case .notFound(let message):
            Self.sentence(message) ?? "Record not found."
        case .unprocessable(let message):
            "The server could not do this\(Self.quoted(message))."
        case .translationOff(let server):
            "\(server) does not offer translations: its administrators have not set up a translation service."
        case .rateLimited(let reset, let seconds):
            if let reset, let seconds {
                "The server is rate limiting requests; try again \(Self.span(seconds)) (at \(Self.clockTime(reset)) UTC)."
            } else {
                "The server is rate limiting requests; try again in a few minutes."
            }
        case .timelinePreparing(let timeline):
            "The server is still preparing \(timeline.title); try again (refresh) in a minute."
        case .serverUnavailable(let status):
            "The server is unavailable right now (HTTP \(status)): it may be overloaded or down for maintenance. Try again later."
        case .serverError(let status, let message):
            "The server failed with an internal error (HTTP \(status))\(Self.quoted(message)). Try again later."
        case .unexpectedStatus(let status, let message):
            "The server answered with an unexpected HTTP status \(status)\(Self.quoted(message))."
        case .timedOut(let seconds):
            "The server did not answer within \(Self.number(seconds)) seconds. Check your connection and try again."
        case .tookTooLong(let seconds):
            "The server's answer was still coming after \(Self.number(seconds)) seconds, so Feedline stopped waiting for it. Try again later."
        case .redirectLoop:
            "The server keeps redirecting the request (a redirect loop), so it never answers it. Check the address given to --server."
        case .headerTooLarge:
            "The server's answer has header fields too large to read, which no Mastodon-compatible server sends. Check the address given to --server."
        case .answerTooLarge(let limit):
            "The server's answer is larger than \(Self.size(limit)), far more than any Mastodon answer, so Feedline did not read it."
        case .untrustedCertificate(let host):
            "The secure connection to \(host) was refused: its certificate is not trusted (self-signed, expired, or for another name). Check the server address; Feedline never connects without a valid certificate."
        case .noConnection(let host, let reason):
            "Could not connect to \(host): \(reason). Check the server address and your network connection."
        case .network(let reason):
            "The request failed: \(reason). Try again."
        case .closedEarly:
            "The server closed the connection before its answer was complete."
        case .plainHTTP(let host, let suggestion?):
            "The secure connection to \(host) failed: it answers plain HTTP. Try --server \(suggestion)."
        case .plainHTTP(let host, nil):
            "The secure connection to \(host) failed: it answers plain HTTP, not HTTPS. Check the address given to --server."
        case .unexpectedBody(let what, _, let failure):
            "The server's answer for \(what) was not the expected JSON (\(failure.description))."
        case .notMastodon(let server, let what, let status, let body):
            "\(server) does not look like a Mastodon-compatible server (it answers \(what) with "
                + ((200..<300).contains(status) ? body : "HTTP \(status) and \(body)") + "). Check the address given to --server."
        }
    }

    /// Same as ``errorDescription``.
    public var description: String { errorDescription ?? "" }

    /// Whether trying the same request again later may succeed.
    public var isTransient: Bool {
        switch self {
        case .rateLimited, .timelinePreparing, .serverUnavailable, .serverError, .timedOut, .tookTooLong, .noConnection, .network, .closedEarly: true
        case .unauthorized, .forbidden, .writeRefused, .notFound, .unprocessable, .translationOff, .unexpectedStatus, .unexpectedBody, .notMastodon, .plainHTTP,
            .redirectLoop, .headerTooLarge, .answerTooLarge, .untrustedCertificate: false
        }
    }

    /// A 429's time to its reset, when the server said: a queued favourite waits for it.
    public var retryAfter: Duration? {
        guard case .rateLimited(_, let seconds?) = self else { return nil }
        return .seconds(max(0, seconds))
    }

    // MARK: - Wording

    /// ` (“message”)`, or nothing without a message.
    private static func quoted(_ message: String?) -> String {
        guard let message, !message.isEmpty else { return "" }
        return " (\"\(message)\")"
    }

    /// The message as a sentence ending in a full stop, `nil` when empty.
    private static func sentence(_ message: String?) -> String? {
        guard let message, !message.isEmpty else { return nil }
        return message.last.map { ".!?".contains($0) } == true ? message : message + "."
    }

    /// `in 8 seconds`, `in 5 minutes`, `in 2 hours`, `now`.
    private static func span(_ seconds: Int) -> String {
        if seconds < 1 { return "now" }
        if seconds < 60 { return seconds == 1 ? "in 1 second" : "in \(seconds) seconds" }
        if seconds < 3600 {
            let minutes = (seconds + 59) / 60
            return minutes == 1 ? "in 1 minute" : "in \(minutes) minutes"
        }
        let hours = (seconds + 3599) / 3600
        return hours == 1 ? "in 1 hour" : "in \(hours) hours"
    }

    /// `8 MiB`, `512 KiB`, `300 bytes`.
    private static func size(_ bytes: Int) -> String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }

    /// `14:05:09` in UTC.
    private static func clockTime(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { let value = value ?? 0; return value < 10 ? "0\(value)" : "\(value)" }
        return "\(two(parts.hour)):\(two(parts.minute)):\(two(parts.second))"
    }

    /// `15`, `0.3`.
    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : String(value)
    }
}

/// Classified for the view models: transient or a refusal, and how long the server asked to wait.
@_spi(FeedService) extension MastodonHTTPError: FeedServiceError {}
