import Foundation

/// The address of a Mastodon-API server, validated: `https://mastodon.social`.
///
/// Written without a scheme (`mastodon.social`), the address means `https://` — servers are
/// reached over TLS unless `http://` is written out (a local test server). Other schemes, a user
/// name or password, a query or a fragment are errors. A path is kept (for a server behind a
/// prefix) without its trailing `/`.
public struct MastodonServer: Hashable, Sendable, CustomStringConvertible {
    /// The base address: scheme, host, optional port and path prefix, no trailing `/`.
    public let url: URL

    /// A server from what the user typed (see the type's description).
    ///
    /// - Throws: ``MastodonSetupError/invalidServer(_:reason:)`` saying what is wrong.
    public init(parsing text: String) throws(MastodonSetupError) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .invalidServer(text, reason: "it is empty; write e.g. https://mastodon.social") }
        let written = trimmed.contains("://") ? trimmed : "https://" + trimmed
        guard let components = URLComponents(string: written) else {
            throw .invalidServer(text, reason: "it is not a web address; write e.g. https://mastodon.social")
        }
        try self.init(components: components, text: text)
    }

    /// A server from a URL (see the type's description; a URL without a scheme is an error here).
    public init(url: URL) throws(MastodonSetupError) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
            throw .invalidServer(url.absoluteString, reason: "it is not a web address")
        }
        try self.init(components: components, text: url.absoluteString)
    }

    private init(components original: URLComponents, text: String) throws(MastodonSetupError) {
        var components = original
        guard let scheme = components.scheme?.lowercased(), scheme == "https" || scheme == "http" else {
            throw .invalidServer(text, reason: "only https:// (or http://) addresses work")
        }
        guard let host = components.host, !host.isEmpty else {
            throw .invalidServer(text, reason: "it names no host; write e.g. https://mastodon.social")
        }
        guard components.user == nil, components.password == nil else {
            throw .invalidServer(text, reason: "it must not contain a user name or password")
        }
        guard components.query == nil, components.fragment == nil else {
            throw .invalidServer(text, reason: "it must not have a query (?…) or fragment (#…)")
        }
        components.scheme = scheme
        components.host = host.lowercased()
        var path = components.percentEncodedPath
        while path.hasSuffix("/") { path.removeLast() }
        components.percentEncodedPath = path
        guard let url = components.url else { throw .invalidServer(text, reason: "it is not a web address") }
        self.url = url
    }

    /// The base address as text.
    public var description: String { url.absoluteString }

    /// `host` or `host:port` (lowercased): how accounts on this server are named
    /// (`alice@social.example`, `alice@127.0.0.1:8080`).
    public var authority: String {
        let host = url.host ?? url.absoluteString
        let shownHost = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return url.port.map { "\(shownHost):\($0)" } ?? shownHost
    }

    /// The address as `feedline login` takes it: `social.example` for an https server on its
    /// default port without a path, the full address otherwise.
    public var loginArgument: String {
        if url.scheme == "https", url.port == nil, url.path.isEmpty { return authority }
        return url.absoluteString
    }

    /// Whether the host is a loopback address (`localhost`, `127.0.0.0/8`, `::1`): the only
    /// servers `feedline login` talks to over plain http, so tests can run a local one.
    public var isLoopback: Bool {
        url.host.map(Self.isLoopback(host:)) ?? false
    }

    /// Whether `host` (as a URL names it) is a loopback address: `localhost`, `127.0.0.0/8`, `::1`.
    package static func isLoopback(host named: String) -> Bool {
        var host = named.lowercased()
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host == "localhost" || host == "::1" || host == "0:0:0:0:0:0:0:1" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "127" else { return false }
        return parts.allSatisfy { part in part.count <= 3 && UInt8(part) != nil }
    }

    /// Whether Feedline talks to this server at all: over `https://`, or over plain `http://`
    /// on this machine only (``isLoopback``), so that a token never crosses the network in clear.
    public var allowsRequests: Bool { url.scheme == "https" || isLoopback }

    /// The address of an API path on this server with these query items.
    package func url(path: String, query: [URLQueryItem] = []) -> URL {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false) ?? URLComponents()
        components.percentEncodedPath += path
        components.queryItems = query.isEmpty ? nil : query
        return components.url ?? url
    }

    /// Whether `other` has the same scheme, host and port as this server: only such addresses
    /// are sent the access token.
    package func isSameOrigin(_ other: URL) -> Bool {
        Self.origin(of: url) == Self.origin(of: other)
    }

    /// `scheme://host:port` of `url` (the default port written out), `nil` without a scheme or host.
    static func origin(of url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
        let port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : -1)
        return "\(scheme)://\(host):\(port)"
    }
}
