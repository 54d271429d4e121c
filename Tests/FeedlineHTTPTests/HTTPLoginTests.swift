import FeedlineMastodon
import FeedlineTestSupport
import Foundation
import Testing

/// `feedline login`, `accounts`, `logout` and `config`, run as the built binary against the fake
/// OAuth + Mastodon server, with `XDG_CONFIG_HOME` in a scratch directory. The code is read off
/// the fake's authorization page (the browser's part) and typed into the child's standard input.
@MainActor
@Suite("Signing in with feedline login", .timeLimit(.minutes(10)))
struct HTTPLoginTests {
    static let session = ["--now", "2026-11-21T18:00:00Z", "--width", "80"]

    /// A fake with no fixed token: only the tokens it issues sign in.
    static func withOAuthServer<Result>(user: String = "alice", _ body: (FakeMastodon) async throws -> Result) async throws -> Result {
        try await withFakeServer(token: nil) { fake, _ in
            fake.signInBrowser(as: user)
            return try await body(fake)
        }
    }

    /// The POSIX permission bits of `url`.
    static func mode(_ url: URL) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int)
    }

    @Test("login: discovery, registration, PKCE authorization, code for token with the verifier, verify_credentials; the account is stored 0600 and signs sessions in")
    func fullLogin() async throws {
        try await Self.withOAuthServer { fake in
            let home = try LoginHome()
            let port = fake.baseURL.split(separator: ":").last.map(String.init) ?? ""
            let run = try await home.login(fake.baseURL)
            #expect(run.status == 0, "\(run)")
            #expect(run.stdout.hasPrefix("Signing in to \(fake.baseURL).\nOpen this address in a browser, sign in and allow Feedline:\n"))
            #expect(run.stdout.contains("Signed in as @alice@127.0.0.1:\(port).\n"))
            #expect(run.stderr.isEmpty)

            // The flow, as the server saw it.
            let requests = fake.requests
            #expect(requests.map { "\($0.method) \($0.path)" } == [
                "GET /.well-known/oauth-authorization-server", "POST /api/v1/apps", "GET /oauth/authorize",
                "POST /oauth/token", "GET /api/v1/accounts/verify_credentials",
            ])
            let app = try #require(requests.first { $0.path == "/api/v1/apps" })
            #expect(app.form["redirect_uris"] == "urn:ietf:wg:oauth:2.0:oob")
            #expect(app.form["scopes"] == "read write:favourites write:statuses write:bookmarks write:media write:follows write:mutes write:blocks write:lists write:conversations write:filters write:notifications write:reports write:accounts")
            #expect(app.form["client_name"] == "Feedline")
            let authorize = try #require(requests.first { $0.path == "/oauth/authorize" })
            #expect(authorize.query["code_challenge_method"] == "S256")
            #expect(authorize.query["scope"] == "read write:favourites write:statuses write:bookmarks write:media write:follows write:mutes write:blocks write:lists write:conversations write:filters write:notifications write:reports write:accounts")
            #expect(authorize.query["force_login"] == nil)
            let exchange = try #require(requests.first { $0.path == "/oauth/token" })
            let verifier = try #require(exchange.form["code_verifier"])
            #expect((43...128).contains(verifier.count))
            #expect(verifier.allSatisfy { $0.isLetter || $0.isNumber || "-._~".contains($0) })
            #expect(FakeMastodon.challenge(verifier) == authorize.query["code_challenge"])
            #expect(exchange.form["grant_type"] == "authorization_code")
            let token = try #require(fake.issuedTokens.first)
            #expect(fake.issuedTokens.count == 1)
            #expect(requests.last?.authorization == "Bearer \(token)")

            // Stored: 0700 directories, a 0600 file, nothing else left behind.
            #expect(try Self.mode(home.directory) == 0o700)
            #expect(try Self.mode(home.accounts) == 0o700)
            #expect(home.accountFiles() == ["alice@127.0.0.1:\(port).json"])
            #expect(try Self.mode(home.accounts.appendingPathComponent("alice@127.0.0.1:\(port).json")) == 0o600)

            // `feedline` alone now reads alice's home timeline with the stored token.
            let before = fake.requests.count
            let session = try await home.run(Self.session, stdin: "list\nopen 1\nback\nquit\n")
            #expect(session.status == 0, "\(session)")
            #expect(session.stdout.replacingOccurrences(of: "\n", with: " ").hasPrefix("Feedline: the home timeline of 127.0.0.1:\(port) as @alice@127.0.0.1:\(port). Type help"))
            #expect(session.stdout.contains("Rows 1–10 of 20 shown"))
            let reads = fake.requests.dropFirst(before)
            #expect(reads.contains { $0.path == "/api/v1/timelines/home" })
            #expect(reads.allSatisfy { $0.authorization == "Bearer \(token)" })

            // Also over the JSON-lines protocol.
            let jsonl = try await home.run(["--jsonl"] + Self.session, stdin: "{\"cmd\":\"wait\"}\n{\"cmd\":\"quit\"}\n")
            #expect(jsonl.status == 0, "\(jsonl)")
            #expect(jsonl.stdout.contains("\"bye\""))

            // A second sign-in on the same server reuses the registration and asks for a fresh
            // browser sign-in (another account may be wanted).
            let again = try await home.login(fake.baseURL)
            #expect(again.status == 0, "\(again)")
            #expect(fake.requests.filter { $0.path == "/api/v1/apps" }.count == 1)
            #expect(fake.requests.last { $0.path == "/oauth/authorize" }?.query["force_login"] == "true")
            #expect(home.accountFiles() == ["alice@127.0.0.1:\(port).json"])
            // The token it replaced is revoked, not left valid with no file pointing at it.
            #expect(fake.isRevoked(token))
            #expect(fake.issuedTokens.filter { fake.isIssued($0) }.count == 1)

            home.expectNowhere(fake.issuedTokens + fake.clientSecrets + [verifier])
        }
    }

    @Test("a wrong code: the exchange step fails with a sentence saying so, and nothing is stored")
    func wrongCode() async throws {
        try await Self.withOAuthServer { fake in
            let home = try LoginHome()
            let run = try await home.login(fake.baseURL, typing: { _ in "not-the-code" })
            #expect(run.status == 1)
            #expect(
                run.stderr == "Signing in to \(fake.baseURL) failed while exchanging the code for a token: the server did not accept the code: "
                    + "it is wrong, was already used or has expired; run `feedline login \(fake.baseURL)` again for a new one. No account was saved.\n"
            )
            #expect(home.accountFiles().isEmpty)
            #expect(fake.issuedTokens.isEmpty)
            home.expectNowhere(fake.codes + fake.clientSecrets)
        }
    }

    @Test("an expired code (the fake's clock moved 11 minutes) fails the same way, and nothing is stored")
    func expiredCode() async throws {
        try await Self.withOAuthServer { fake in
            let home = try LoginHome()
            let run = try await home.login(fake.baseURL, beforeTyping: { fake.advanceClock(by: 11 * 60) })
            #expect(run.status == 1)
            #expect(run.stderr.contains("failed while exchanging the code for a token: the server did not accept the code: it is wrong, was already used or has expired"))
            #expect(home.accountFiles().isEmpty)
            // The verifier was right: only the expiry refused it.
            let exchange = try #require(fake.requests.first { $0.path == "/oauth/token" })
            let authorize = try #require(fake.requests.first { $0.path == "/oauth/authorize" })
            #expect(FakeMastodon.challenge(exchange.form["code_verifier"] ?? "") == authorize.query["code_challenge"])
        }
    }

    @Test("a server without the discovery document: /api/v1/instance shows it is Mastodon, the classic paths sign in")
    func withoutDiscovery() async throws {
        try await Self.withOAuthServer { fake in
            fake.serveDiscovery(false)
            let home = try LoginHome()
            let run = try await home.login(fake.baseURL)
            #expect(run.status == 0, "\(run)")
            #expect(fake.requests.map { "\($0.method) \($0.path)" } == [
                "GET /.well-known/oauth-authorization-server", "GET /api/v1/instance", "POST /api/v1/apps", "GET /oauth/authorize",
                "POST /oauth/token", "GET /api/v1/accounts/verify_credentials",
            ])
            #expect(home.accountFiles().count == 1)
        }
    }

    @Test("each failing step says which and why: unreachable, not Mastodon, application refused, no code, plain http elsewhere")
    func failingSteps() async throws {
        let home = try LoginHome()
        // Not Mastodon: a web server answering HTML 404 to everything.
        try await Self.withOAuthServer { fake in
            fake.pretendNotMastodon()
            let run = try await home.login(fake.baseURL)
            #expect(run.status == 1)
            #expect(
                run.stderr == "Signing in to \(fake.baseURL) failed while finding the server: it does not look like a Mastodon-compatible server "
                    + "(it answers /api/v1/instance with HTTP 404 and an HTML page). No account was saved.\n"
            )
        }
        // The application refused.
        try await Self.withOAuthServer { fake in
            fake.fail("/api/v1/apps", method: "POST", status: 422, error: "Validation failed: Redirect URI must be an absolute URI")
            let run = try await home.login(fake.baseURL)
            #expect(run.status == 1)
            #expect(
                run.stderr == "Signing in to \(fake.baseURL) failed while registering Feedline with the server: the server refused the application "
                    + "(HTTP 422: \"Validation failed: Redirect URI must be an absolute URI\"). No account was saved.\n"
            )
        }
        // The input ends before a code is typed.
        try await Self.withOAuthServer { fake in
            let child = try await home.run(["login", fake.baseURL])
            #expect(child.status == 1)
            #expect(child.stderr == "Signing in to \(fake.baseURL) failed while reading the code: the input ended before a code was entered. No account was saved.\n")
        }
        // Unreachable: the fake's port after it stopped.
        var stopped = ""
        try await withFakeServer(token: nil) { fake, _ in stopped = fake.baseURL }
        let unreachable = try await home.login(stopped)
        #expect(unreachable.status == 1)
        let hostPort = stopped.replacingOccurrences(of: "http://", with: "")
        #expect(
            unreachable.stderr == "Signing in to \(stopped) failed while finding the server: the server cannot be reached "
                + "(\(hostPort): the connection was refused). No account was saved.\n"
        )
        // Plain http to a host that is not this machine is refused before anything is sent.
        let insecure = try await home.run(["login", "http://social.example"])
        #expect(insecure.status == 1)
        #expect(
            insecure.stderr == "Signing in to http://social.example failed while reading the address: plain http:// is only for test servers "
                + "on this machine (localhost, 127.0.0.1, ::1); use https://. No account was saved.\n"
        )
        #expect(home.accountFiles().isEmpty)
    }

    @Test("a session on plain http:// elsewhere is refused before anything is sent, whatever gives the token")
    func plainHTTPSession() async throws {
        let home = try LoginHome()
        // Outside the home, whose every file but the credentials is searched for the token.
        let tokenFile = try TemporaryFile(secretToken + "\n")
        defer { tokenFile.remove() }
        let sentence = "The server address \"http://social.example\" cannot be used: plain http:// is only for test servers "
            + "on this machine (localhost, 127.0.0.1, ::1); use https://.\n"
        let runs = [
            try await home.run(["--server", "http://social.example", "--timeline", "public"], stdin: "quit\n", environment: ["FEEDLINE_TOKEN": secretToken]),
            try await home.run(["--server", "http://social.example", "--timeline", "public", "--token-file", tokenFile.path], stdin: "quit\n"),
            try await home.run(["--server", "http://social.example", "--jsonl"], stdin: "", environment: ["FEEDLINE_TOKEN": secretToken]),
            try await home.run(["--server", "http://social.example", "--timeline", "public"], stdin: "quit\n"),
        ]
        for run in runs {
            #expect(run.status == 1, "\(run)")
            #expect(run.stderr == sentence, "\(run)")
            #expect(run.stdout.isEmpty, "\(run)")
        }
        home.expectNowhere([secretToken])
    }

    @Test("a step after the code fails (the check, the saving): it says which, the token just issued is revoked, and nothing is stored")
    func failureAfterTheToken() async throws {
        // The check: verify_credentials answers 500.
        try await Self.withOAuthServer { fake in
            let home = try LoginHome()
            fake.fail("/api/v1/accounts/verify_credentials", method: "GET", status: 500, error: "Something went wrong on our end")
            let run = try await home.login(fake.baseURL)
            #expect(run.status == 1)
            #expect(
                run.stderr == "Signing in to \(fake.baseURL) failed while checking the new token: the server refused "
                    + "(HTTP 500: \"Something went wrong on our end\"). No account was saved.\n"
            )
            let token = try #require(fake.issuedTokens.first)
            #expect(fake.issuedTokens.count == 1)
            #expect(fake.isRevoked(token))
            let revoke = try #require(fake.requests.last)
            #expect(revoke.method == "POST" && revoke.path == "/oauth/revoke")
            #expect(revoke.form["token"] == token)
            #expect(home.accountFiles().isEmpty)
            home.expectNowhere([token] + fake.clientSecrets + fake.codes)
        }
        // The saving: accounts/ is a file, so no account file can be written there.
        try await Self.withOAuthServer { fake in
            let home = try LoginHome()
            try FileManager.default.createDirectory(at: home.directory, withIntermediateDirectories: true)
            try Data("not a directory\n".utf8).write(to: home.accounts)
            let run = try await home.login(fake.baseURL)
            #expect(run.status == 1)
            #expect(
                run.stderr == "Signing in to \(fake.baseURL) failed while saving the account: could not save \(home.accounts.path): "
                    + "it is a file, not a directory. No account was saved.\n"
            )
            let token = try #require(fake.issuedTokens.first)
            #expect(fake.isRevoked(token))
            #expect(try String(contentsOf: home.accounts, encoding: .utf8) == "not a directory\n")
            // Nothing else was left in the directory but the registration (no temporaries).
            let left = try FileManager.default.contentsOfDirectory(atPath: home.directory.path).sorted()
            #expect(left == ["accounts", "apps"])
            home.expectNowhere([token] + fake.codes)
        }
    }

    @Test("--token-file and FEEDLINE_TOKEN win over the stored account's token; the file over the variable; feedline config says which")
    func tokenByHandWins() async throws {
        try await Self.withOAuthServer { fake in
            let home = try LoginHome()
            #expect(try await home.login(fake.baseURL).status == 0)
            let stored = try #require(fake.issuedTokens.first)
            // Outside the scratch home, which expectNowhere searches.
            let elsewhere = try Scratch()
            defer { elsewhere.remove() }
            let tokenFile = elsewhere.file("token")
            try Data("from-the-file\n".utf8).write(to: tokenFile)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: tokenFile.path)

            /// The bearer tokens the fake saw during a session run with `arguments`.
            func tokens(_ arguments: [String], environment: [String: String] = [:]) async throws -> Set<String?> {
                let before = fake.requests.count
                let run = try await home.run(arguments + ["--timeline", "public"] + Self.session, stdin: "quit\n", environment: environment)
                #expect(run.status == 0, "\(run)")
                return Set(fake.requests.dropFirst(before).map(\.authorization))
            }
            #expect(try await tokens([]) == ["Bearer \(stored)"])
            #expect(try await tokens(["--token-file", tokenFile.path]) == ["Bearer from-the-file"])
            #expect(try await tokens([], environment: ["FEEDLINE_TOKEN": "from-the-variable"]) == ["Bearer from-the-variable"])
            #expect(try await tokens(["--token-file", tokenFile.path], environment: ["FEEDLINE_TOKEN": "from-the-variable"]) == ["Bearer from-the-file"])

            let config = try await home.run(["config", "--token-file", tokenFile.path], environment: ["FEEDLINE_TOKEN": "from-the-variable"])
            #expect(config.status == 0, "\(config)")
            #expect(config.stdout.contains("token        --token-file \(tokenFile.path) (it wins over stored accounts)\n"), "\(config)")
            let byVariable = try await home.run(["config"], environment: ["FEEDLINE_TOKEN": "from-the-variable"])
            #expect(byVariable.stdout.contains("token        FEEDLINE_TOKEN (it wins over stored accounts)\n"), "\(byVariable)")
            home.expectNowhere([stored, "from-the-file", "from-the-variable"])
        }
    }

    @Test("logout revokes the token at /oauth/revoke with the client it was issued to and deletes the file; the next session is signed out")
    func logoutRevokes() async throws {
        try await Self.withOAuthServer { fake in
            let home = try LoginHome()
            #expect(try await home.login(fake.baseURL).status == 0)
            let token = try #require(fake.issuedTokens.first)
            let port = fake.baseURL.split(separator: ":").last.map(String.init) ?? ""
            let run = try await home.run(["logout"])
            #expect(run.status == 0, "\(run)")
            #expect(run.stdout == "Signed out of @alice@127.0.0.1:\(port): the token is revoked and deleted.\n")
            let revoke = try #require(fake.requests.last)
            #expect(revoke.method == "POST" && revoke.path == "/oauth/revoke")
            #expect(revoke.form["token"] == token)
            #expect(revoke.form["client_id"] == fake.requests.first { $0.path == "/oauth/token" }?.form["client_id"])
            #expect(fake.isRevoked(token))
            #expect(home.accountFiles().isEmpty)
            let after = try await home.run(["accounts"])
            #expect(after.stdout == "No account is signed in; feedline login SERVER signs one in.\n")
            // Signed out, `feedline` reads the sandbox again.
            let sandbox = try await home.run(Self.session, stdin: "quit\n")
            let greeting = sandbox.stdout.replacingOccurrences(of: "\n", with: " ")
            #expect(greeting.hasPrefix("Feedline: the home timeline of the bundled sandbox (Fixtures/timeline). Type help"), "\(greeting.prefix(120))")
            home.expectNowhere([token])
        }
    }

    @Test("logout when the server is down still deletes the file, says the token could not be revoked, and exits 1")
    func logoutServerDown() async throws {
        let home = try LoginHome()
        var address = ""
        try await Self.withOAuthServer { fake in
            address = fake.baseURL
            let signedIn = try await home.login(fake.baseURL)
            #expect(signedIn.status == 0)
        }
        let port = address.split(separator: ":").last.map(String.init) ?? ""
        let run = try await home.run(["logout", "alice@127.0.0.1:\(port)"])
        #expect(run.status == 1)
        // The port is free again once the fake stopped, and another test's server may take it
        // meanwhile (the suites run in parallel): refused or closed, the revocation fails either way.
        #expect(run.stderr.hasPrefix("Could not revoke the token on \(address): the server "), "\(run.stderr)")
        #expect(
            run.stderr.contains("cannot be reached (127.0.0.1:\(port): the connection was refused).")
                || run.stderr.contains("closed the connection before its answer was complete."),
            "\(run.stderr)"
        )
        #expect(run.stderr.contains("Its file was deleted here all the same"))
        #expect(home.accountFiles().isEmpty)
    }

    @Test("two accounts on two servers: accounts lists both with the default marked; --account, --server, the config file and FEEDLINE_TOKEN each pick the token")
    func twoAccounts() async throws {
        try await Self.withOAuthServer(user: "alice") { first in
            try await Self.withOAuthServer(user: "bob") { second in
                let home = try LoginHome()
                #expect(try await home.login(first.baseURL).status == 0)
                #expect(try await home.login(second.baseURL).status == 0)
                let alice = "alice@127.0.0.1:\(first.baseURL.split(separator: ":").last ?? "")"
                let bob = "bob@127.0.0.1:\(second.baseURL.split(separator: ":").last ?? "")"
                let aliceToken = try #require(first.issuedTokens.first)
                let bobToken = try #require(second.issuedTokens.first)

                // The latest sign-in is the default.
                let listed = try await home.run(["accounts"])
                let lines = listed.stdout.split(separator: "\n").map(String.init)
                #expect(lines.count == 3, "\(listed)")
                #expect(lines.first { $0.contains(alice) }?.hasPrefix("  ") == true)
                #expect(lines.first { $0.contains(bob) }?.hasPrefix("* ") == true)

                /// The bearer tokens `server` saw during a session run with `arguments`.
                func tokens(_ arguments: [String], at server: FakeMastodon, environment: [String: String] = [:]) async throws -> Set<String?> {
                    let before = server.requests.count
                    let run = try await home.run(arguments + Self.session, stdin: "quit\n", environment: environment)
                    #expect(run.status == 0, "\(run)")
                    return Set(server.requests.dropFirst(before).map(\.authorization))
                }
                #expect(try await tokens([], at: second) == ["Bearer \(bobToken)"])
                #expect(try await tokens(["--account", alice], at: first) == ["Bearer \(aliceToken)"])
                #expect(try await tokens(["--server", first.baseURL], at: first) == ["Bearer \(aliceToken)"])
                #expect(try await tokens(["--server", second.baseURL], at: second) == ["Bearer \(bobToken)"])
                // FEEDLINE_TOKEN wins over the stored token (the fake refuses it: it is not one it issued).
                #expect(try await tokens(["--account", alice, "--timeline", "public"], at: first, environment: ["FEEDLINE_TOKEN": "by-hand"]) == ["Bearer by-hand"])

                // The config file chooses the default.
                try FileManager.default.createDirectory(at: home.directory, withIntermediateDirectories: true)
                try Data("# mine\naccount = \"\(alice)\"\n".utf8).write(to: home.configFile)
                #expect(try await tokens([], at: first) == ["Bearer \(aliceToken)"])
                let relisted = try await home.run(["accounts"])
                #expect(relisted.stdout.split(separator: "\n").first { $0.contains(alice) }?.hasPrefix("* ") == true)
                let config = try await home.run(["config"])
                #expect(config.stdout.contains("account      \(alice)"), "\(config)")
                #expect(config.stdout.contains("config.toml line 2"))
                #expect(config.stdout.contains("token        the stored account \(alice)"))
                // The two servers differ only in their port: config names each with it.
                let aliceServer = alice.split(separator: "@").last ?? ""
                #expect(config.stdout.contains("reads        the home timeline of \(aliceServer) as @\(alice)\n"), "\(config)")
                let overridden = try await home.run(["config", "--account", bob, "--width", "90"])
                #expect(overridden.stdout.contains("--account"))
                #expect(overridden.stdout.contains("width        90"))
                #expect(overridden.stdout.contains("token        the stored account \(bob)"))
                #expect(overridden.stdout.contains("reads        the home timeline of \(bob.split(separator: "@").last ?? "") as @\(bob)\n"), "\(overridden)")

                // --account on another --server is a clear error.
                let mismatch = try await home.run(["--account", alice, "--server", second.baseURL])
                #expect(mismatch.status == 1)
                #expect(mismatch.stderr == "--account \(alice) is on \(first.baseURL), not on --server \(second.baseURL).\n")
                let unknown = try await home.run(["--account", "carol@nowhere.example"])
                #expect(unknown.status == 1)
                #expect(unknown.stderr == "No account carol@nowhere.example is signed in; the signed-in accounts are \(alice), \(bob) (feedline accounts lists them).\n")

                // Logout of one leaves the other.
                let several = try await home.run(["logout"])
                #expect(several.status == 1)
                #expect(several.stderr.hasPrefix("Several accounts are signed in"))
                #expect(try await home.run(["logout", "@\(bob.uppercased())"]).status == 0)
                #expect(second.isRevoked(bobToken))
                #expect(!first.isRevoked(aliceToken))
                #expect(home.accountFiles() == ["\(alice).json"])
                home.expectNowhere([aliceToken, bobToken] + first.clientSecrets + second.clientSecrets)
            }
        }
    }

    @Test("a stored account file or a token file other users can read is refused with the chmod that fixes it")
    func permissions() async throws {
        try await Self.withOAuthServer { fake in
            let home = try LoginHome()
            #expect(try await home.login(fake.baseURL).status == 0)
            let file = try #require(home.accountFiles().first.map { home.accounts.appendingPathComponent($0) })
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
            for arguments in [Self.session, ["accounts"], ["config"]] {
                let run = try await home.run(arguments, stdin: "quit\n")
                #expect(run.status == 1)
                #expect(
                    run.stderr == "The credential file \(file.path) can be read by other users (permissions 644), so Feedline will not use it: run chmod 600 \(file.path).\n"
                )
                #expect(run.stdout.isEmpty)
            }
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
            #expect(try await home.run(Self.session, stdin: "quit\n").status == 0)

            let tokenFile = home.scratch.file("token")
            try Data("by-hand\n".utf8).write(to: tokenFile)
            try FileManager.default.setAttributes([.posixPermissions: 0o604], ofItemAtPath: tokenFile.path)
            let byHand = try await home.run(["--server", fake.baseURL, "--token-file", tokenFile.path] + Self.session, stdin: "quit\n")
            #expect(byHand.status == 1)
            #expect(byHand.stderr == "The token file \(tokenFile.path) can be read by other users (permissions 604), so Feedline will not use it: run chmod 600 \(tokenFile.path).\n")
        }
    }

    @Test("a revoked token: the 401 names the fix, feedline login SERVER, and the token shows nowhere")
    func unauthorizedNamesTheFix() async throws {
        try await Self.withOAuthServer { fake in
            let home = try LoginHome()
            #expect(try await home.login(fake.baseURL).status == 0)
            fake.revokeAll()
            let run = try await home.run(["--now", "2026-11-21T18:00:00Z", "--width", "1000"], stdin: "quit\n")
            #expect(run.status == 0)
            #expect(run.stdout.contains("The server did not accept the access token (\"The access token is invalid\"). Run `feedline login \(fake.baseURL)` to sign in again (or check FEEDLINE_TOKEN)."), "\(run)")
            home.expectNowhere(fake.issuedTokens)
        }
    }
}
