@_spi(FeedService) import Feedline
@_spi(FeedService) import FeedlineMastodon
import Foundation
import Testing

/// Turning `--server`, `--timeline`, `--token-file` and `FEEDLINE_TOKEN` into a service, with
/// one clear sentence for each mistake.
@Suite("HTTP setup")
struct SetupTests {
    @Test("feeds parse from home, public, local, tag:NAME, bookmarks, favourites, list:ID and account:ID")
    func timelines() throws {
        #expect(try Feed(parsing: "home") == .home)
        #expect(try Feed(parsing: " Public ") == .public)
        #expect(try Feed(parsing: "LOCAL") == .local)
        #expect(try Feed(parsing: "tag:Swift") == .tag("Swift"))
        #expect(try Feed(parsing: "tag:#café_2") == .tag("café_2"))
        #expect(try Feed(parsing: "Bookmarks") == .bookmarks)
        #expect(try Feed(parsing: "favorites") == .favourites)
        #expect(try Feed(parsing: "list:42") == .list("42"))
        #expect(try Feed(parsing: "account:109") == .account("109"))
        #expect(Feed.tag("x").description == "tag:x")
    }

    @Test(
        "bad timelines say what is expected",
        arguments: [
            ("federated", "The timeline \"federated\" is not one Feedline knows: expected home, public, local, tag:NAME, bookmarks, favourites or list:ID."),
            ("tag:", "The timeline \"tag:\" is not one Feedline knows: the tag has no name; write tag:NAME, e.g. tag:swift."),
            ("tag:a/b", "The timeline \"tag:a/b\" is not one Feedline knows: a tag name has only letters, digits and underscores."),
            ("", "The timeline \"\" is not one Feedline knows: expected home, public, local, tag:NAME, bookmarks, favourites or list:ID."),
        ]
    )
    func badTimelines(_ text: String, _ message: String) {
        #expect(throws: MastodonSetupError.self) { try Feed(parsing: text) }
        do {
            _ = try Feed(parsing: text)
        } catch {
            #expect(error.localizedDescription == message)
        }
    }

    @Test("server addresses: no scheme means https, trailing slashes go, http is kept")
    func servers() throws {
        #expect(try MastodonServer(parsing: "mastodon.social").url.absoluteString == "https://mastodon.social")
        #expect(try MastodonServer(parsing: " https://Mastodon.Social/ ").url.absoluteString == "https://mastodon.social")
        #expect(try MastodonServer(parsing: "http://127.0.0.1:8080").url.absoluteString == "http://127.0.0.1:8080")
        #expect(try MastodonServer(parsing: "example.com/social/").url.absoluteString == "https://example.com/social")
    }

    @Test(
        "bad server addresses say why",
        arguments: [
            ("", "The server address \"\" cannot be used: it is empty; write e.g. https://mastodon.social."),
            ("ftp://x.org", "The server address \"ftp://x.org\" cannot be used: only https:// (or http://) addresses work."),
            ("https://me:pw@x.org", "The server address \"https://me:pw@x.org\" cannot be used: it must not contain a user name or password."),
            ("https://x.org/?a=b", "The server address \"https://x.org/?a=b\" cannot be used: it must not have a query (?…) or fragment (#…)."),
            ("https://", "The server address \"https://\" cannot be used: it names no host; write e.g. https://mastodon.social."),
            ("exa mple.org", "The server address \"exa mple.org\" cannot be used: it is not a web address; write e.g. https://mastodon.social."),
        ]
    )
    func badServers(_ text: String, _ message: String) {
        do {
            _ = try MastodonServer(parsing: text)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.localizedDescription == message)
        }
    }

    @Test("the token comes from the file (trimmed) before the environment, else from FEEDLINE_TOKEN, else none")
    func tokenSources() throws {
        let file = try TemporaryFile("  \(secretToken)\n\n")
        defer { file.remove() }
        let fromFile = try #require(try AccessToken.resolve(tokenFile: file.path, environment: ["FEEDLINE_TOKEN": "other"]))
        #expect(fromFile == (try AccessToken(secretToken, source: .file(file.path))))
        let fromEnvironment = try #require(try AccessToken.resolve(tokenFile: nil, environment: ["FEEDLINE_TOKEN": "\(secretToken)\n"]))
        #expect(fromEnvironment.source == .environment)
        #expect(try AccessToken.resolve(tokenFile: nil, environment: ["FEEDLINE_TOKEN": "  "]) == nil)
        #expect(try AccessToken.resolve(tokenFile: nil, environment: [:]) == nil)
        expectNoToken(fromFile)
        expectNoToken(fromEnvironment)
        #expect(fromFile.description == "AccessToken(redacted, from the file \(file.path))")
    }

    @Test("unreadable, empty and malformed token files are clear errors without the token")
    func tokenFileErrors() throws {
        let empty = try TemporaryFile(" \n\t\n")
        let twoLines = try TemporaryFile("\(secretToken)\nsecond-line\n")
        defer { empty.remove(); twoLines.remove() }
        let cases: [(String, String)] = [
            ("/no/such/token", "The token file /no/such/token cannot be read: there is no such file."),
            ("/tmp", "The token file /tmp cannot be read: it is a directory."),
            (empty.path, "The token file \(empty.path) is empty; put the access token in it, on one line."),
            (twoLines.path, "The access token from the file \(twoLines.path) has spaces, line breaks or control characters inside it; it should be the token alone, on one line."),
        ]
        for (path, message) in cases {
            do {
                _ = try AccessToken.resolve(tokenFile: path, environment: [:])
                Issue.record("accepted \(path)")
            } catch {
                #expect(error.localizedDescription == message)
                expectNoToken(error)
            }
        }
    }

    @Test("a token file other users can read is refused with the chmod that fixes it, as ssh refuses such a key")
    func tokenFileReadableByOthers() throws {
        for mode in [0o644, 0o640, 0o604, 0o660] {
            let file = try TemporaryFile("\(secretToken)\n", permissions: mode)
            defer { file.remove() }
            do {
                _ = try AccessToken.resolve(tokenFile: file.path, environment: [:])
                Issue.record("accepted a token file with mode \(String(mode, radix: 8))")
            } catch {
                #expect(error == .tokenFileTooOpen(path: file.path, mode: mode))
                #expect(
                    error.localizedDescription
                        == "The token file \(file.path) can be read by other users (permissions \(String(mode, radix: 8))), so Feedline will not use it: run chmod 600 \(file.path)."
                )
                expectNoToken(error)
            }
        }
        let owner = try TemporaryFile("\(secretToken)\n", permissions: 0o400)
        defer { owner.remove() }
        #expect(try AccessToken.resolve(tokenFile: owner.path, environment: [:])?.source == .file(owner.path))
    }

    @Test("servers name their accounts by host and port, say how feedline login takes them, and know loopback hosts")
    func serverNames() throws {
        let social = try MastodonServer(parsing: "Social.Example")
        #expect(social.authority == "social.example")
        #expect(social.loginArgument == "social.example")
        #expect(!social.isLoopback)
        let local = try MastodonServer(parsing: "http://127.0.0.1:8080")
        #expect(local.authority == "127.0.0.1:8080")
        #expect(local.loginArgument == "http://127.0.0.1:8080")
        #expect(local.isLoopback)
        #expect(try MastodonServer(parsing: "https://example.org:8443").loginArgument == "https://example.org:8443")
        #expect(try MastodonServer(parsing: "example.org/social").loginArgument == "https://example.org/social")
        #expect(try MastodonServer(parsing: "http://localhost:3000").isLoopback)
        #expect(try MastodonServer(parsing: "http://127.1.2.3").isLoopback)
        #expect(try MastodonServer(parsing: "http://[::1]:3000").isLoopback)
        #expect(try !MastodonServer(parsing: "http://127.0.0.1.example.org").isLoopback)
        #expect(try !MastodonServer(parsing: "http://10.0.0.1").isLoopback)
        #expect(try !MastodonServer(parsing: "http://128.0.0.1").isLoopback)
    }

    @Test("plain http:// to a host that is not this machine is refused on every path, with or without a token, before a request exists")
    func plainHTTPElsewhere() throws {
        let file = try TemporaryFile(secretToken + "\n")
        defer { file.remove() }
        let sentence = "The server address \"http://social.example\" cannot be used: plain http:// is only for test servers "
            + "on this machine (localhost, 127.0.0.1, ::1); use https://."
        // --server with FEEDLINE_TOKEN, with --token-file, and signed out.
        let paths: [(tokenFile: String?, environment: [String: String])] = [(nil, ["FEEDLINE_TOKEN": secretToken]), (file.path, [:]), (nil, [:])]
        for (tokenFile, environment) in paths {
            #expect(throws: MastodonSetupError.insecureServer("http://social.example")) {
                try MastodonHTTPService.make(server: "http://social.example", timeline: "public", tokenFile: tokenFile, environment: environment)
            }
        }
        #expect(MastodonSetupError.insecureServer("http://social.example").localizedDescription == sentence)
        // A stored account or the config file's (the initializer every path ends in).
        for address in ["http://social.example", "http://10.0.0.7:3000", "http://127.0.0.1.example", "http://[fe80::1]"] {
            let server = try MastodonServer(parsing: address)
            #expect(!server.allowsRequests, "\(address)")
            #expect(throws: MastodonSetupError.insecureServer(server.description)) {
                try MastodonHTTPService(server: server, token: AccessToken(secretToken, source: .environment))
            }
        }
        // This machine, and https anywhere.
        for address in ["http://127.0.0.1:8080", "http://localhost", "http://[::1]:3000", "https://social.example", "social.example"] {
            let server = try MastodonServer(parsing: address)
            #expect(server.allowsRequests, "\(address)")
            _ = try MastodonHTTPService(server: server, token: AccessToken(secretToken, source: .environment))
        }
    }

    @Test("make builds the service from command-line values and checks them in order")
    func make() throws {
        let (service, feed) = try MastodonHTTPService.make(
            server: "social.example", timeline: "tag:swift", tokenFile: nil, environment: ["FEEDLINE_TOKEN": secretToken]
        )
        #expect(service.server.url.absoluteString == "https://social.example")
        #expect(feed == .tag("swift"))
        #expect(service.description == "MastodonHTTPService(https://social.example, signed in)")
        expectNoToken(service)

        let publicService = try MastodonHTTPService.make(server: "social.example", timeline: "public", environment: [:]).service
        #expect(publicService.description.hasSuffix("signed out)"))

        #expect(throws: MastodonSetupError.tokenMissing(.home, server: "social.example")) {
            try MastodonHTTPService.make(server: "social.example", environment: [:])
        }
        #expect(
            MastodonSetupError.tokenMissing(.home, server: "social.example").localizedDescription
                == "The home timeline needs you signed in: run `feedline login social.example` (or set FEEDLINE_TOKEN, or pass --token-file FILE)."
        )
        #expect(throws: MastodonSetupError.invalidTimeline("nope", reason: "expected home, public, local, tag:NAME, bookmarks, favourites or list:ID")) {
            try MastodonHTTPService.make(server: "social.example", timeline: "nope", environment: [:])
        }
        #expect(throws: MastodonSetupError.invalidPageSize(41)) {
            try MastodonHTTPService.make(server: "social.example", timeline: "public", environment: [:], pageSize: 41)
        }
    }

    @Test("rate-limit headers: Retry-After seconds (relative, so clock skew does not move it), else X-RateLimit-Reset; junk is ignored")
    func rateLimitHeaders() {
        let now = Date(timeIntervalSince1970: 1_795_348_800)
        let mastodon = RateLimit(header: { ["X-RateLimit-Limit": "300", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "2026-11-22T12:05:00.000Z"][$0] }, now: now)
        #expect(mastodon == RateLimit(limit: 300, remaining: 0, reset: now.addingTimeInterval(300)))
        let retryAfter = RateLimit(header: { ["Retry-After": "7", "X-RateLimit-Reset": "soon"][$0] }, now: now)
        #expect(retryAfter.reset == now.addingTimeInterval(7))
        let both = RateLimit(header: { ["Retry-After": "300", "X-RateLimit-Reset": "2026-11-26T12:05:00.000Z"][$0] }, now: now)
        #expect(both.reset == now.addingTimeInterval(300))
        #expect(RateLimit(header: { _ in "x" }, now: now) == RateLimit())
    }
}

/// A file in the temporary directory, removed by `remove()`.
struct TemporaryFile {
    let path: String

    /// A file holding `text`, mode `permissions` (token files must be 0600).
    init(_ text: String, permissions: Int = 0o600) throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("feedline-token-\(UUID().uuidString)").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: permissions], ofItemAtPath: path)
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}
