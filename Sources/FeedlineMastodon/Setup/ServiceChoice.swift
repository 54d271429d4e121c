@_spi(FeedService) import Feedline
import Foundation

/// Where a front's posts come from, as a command line names it: the offline sandbox over a
/// fixture directory, or a real Mastodon-API server. Fronts turn their flags into one of these
/// and call ``makeService(postsPerPage:clock:wallClock:environment:)``, so every front starts
/// the same way and reports setup problems in the same words.
public enum ServiceChoice: Sendable, Hashable {
    /// The sandbox serving the statuses (and scenario) of a fixture directory.
    case sandbox(fixtures: URL)
    /// Another identity of the sandbox in `sandbox` (its scenario lists it, see
    /// ``SandboxScenario/Identity``): `name`, serving the statuses (and scenario) of `fixtures`.
    case sandboxIdentity(name: String, fixtures: URL, sandbox: URL)
    /// A server: its address, a timeline (`home`, `public`, `local`, `tag:NAME`; `nil` for home)
    /// and where the token comes from (a file, else `FEEDLINE_TOKEN`).
    case server(address: String, timeline: String?, tokenFile: String?)
    /// A signed-in account: its server and token (stored by `feedline login`), named `id`
    /// (`alice@social.example`) in the greeting; `timeline` as for ``server(address:timeline:tokenFile:)``.
    case account(id: String, server: MastodonServer, timeline: String?, token: AccessToken)

    /// Whether the service talks to the network (and so needs the real clock and shows latency).
    public var isRemote: Bool {
        switch self {
        case .sandbox, .sandboxIdentity: false
        case .server, .account: true
        }
    }

    /// What is being read, for a greeting and `feedline config`: "the home timeline from the
    /// fixtures in Fixtures/timeline" (the directory's path as it was given, so two directories
    /// of the same name are told apart), "the public timeline of mastodon.social", "the #swift
    /// timeline of mastodon.social", "the home timeline of 127.0.0.1:38111 as
    /// @grace@127.0.0.1:38111" (a server's host with its port, as accounts on it are named).
    public var summary: String {
        switch self {
        case .sandbox(let fixtures):
            return Self.isBundled(fixtures)
                ? "the home timeline of the bundled sandbox (Fixtures/timeline)" : "the home timeline from the fixtures in \(fixtures.relativePath)"
        case .sandboxIdentity(let name, _, let sandbox):
            return Self.isBundled(sandbox)
                ? "the home timeline of \(name) in the bundled sandbox (Fixtures/timeline)"
                : "the home timeline of \(name) from the fixtures in \(sandbox.relativePath)"
        case .server(let address, let timeline, _):
            let host = (try? MastodonServer(parsing: address))?.authority ?? address
            let feed = (try? Feed(parsing: timeline ?? "home")) ?? .home
            return "\(feed.title) of \(host)"
        case .account(let id, let server, let timeline, _):
            let feed = (try? Feed(parsing: timeline ?? "home")) ?? .home
            return "\(feed.title) of \(server.authority) as @\(id)"
        }
    }

    /// Whether `fixtures` is the bundled sandbox found by itself (not given): then a greeting
    /// does not show a path of this machine's.
    private static func isBundled(_ fixtures: URL) -> Bool {
        guard let bundled = FixtureLocator.bundled() else { return false }
        return bundled.standardizedFileURL == fixtures.standardizedFileURL && fixtures.relativePath.hasPrefix("/")
    }

    /// The feed a session starts on: the home timeline on the sandbox, the `--timeline` one (home
    /// by default) on a server.
    ///
    /// - Throws: ``ServiceSetupError`` when the timeline is not one Feedline knows.
    public func startFeed() throws(ServiceSetupError) -> Feed {
        let timeline: String
        switch self {
        case .sandbox, .sandboxIdentity: return .home
        case .server(_, let given, _), .account(_, _, let given, _):
            guard let given else { return .home }
            timeline = given
        }
        do {
            return try Feed(parsing: timeline)
        } catch {
            throw ServiceSetupError(error.description)
        }
    }

    /// Makes the service.
    ///
    /// - Parameters:
    ///   - postsPerPage: posts per page request (1…40); `nil` for the fixture scenario's or 20.
    ///   - clock: what waits (sandbox latency, rate-limit pauses) sleep on.
    ///   - wallClock: "now" for dates the service makes.
    ///   - environment: where `FEEDLINE_TOKEN` and `FEEDLINE_TIMEOUT` (``RequestTimeout``) are
    ///     read from.
    /// - Throws: ``ServiceSetupError`` with one sentence naming what is wrong (a missing or
    ///   malformed fixture file, a bad server address, an unreadable token file …). The token
    ///   itself never appears in it.
    @_spi(FeedService) public func makeService(
        postsPerPage: Int? = nil,
        clock: any Clock<Duration>,
        wallClock: WallClock = .system,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ServiceSetupError) -> any FeedService {
        switch self {
        case .sandbox(let fixtures), .sandboxIdentity(_, let fixtures, _):
            let fixture: SandboxFixture
            do {
                // Notifications are decoded when first asked for: most sessions never open them.
                fixture = try FixtureLoader.load(from: fixtures, deferringNotifications: true)
            } catch {
                throw ServiceSetupError(error.errorDescription ?? "The fixtures in \(fixtures.path) could not be read.")
            }
            do {
                return try SandboxService(fixture: fixture, pageSize: postsPerPage, clock: clock, wallClock: wallClock)
            } catch {
                throw ServiceSetupError(error.errorDescription ?? "The fixtures in \(fixtures.path) could not be served.")
            }
        case .server(let address, let timeline, let tokenFile):
            do {
                let timeout = try RequestTimeout.resolve(environment: environment)
                return try MastodonHTTPService.make(
                    server: address, timeline: timeline, tokenFile: tokenFile, environment: environment,
                    pageSize: postsPerPage ?? MastodonHTTPService.defaultPageSize, timeout: timeout, clock: clock, wallClock: wallClock
                ).service
            } catch let invalid as RequestTimeout.Invalid {
                throw ServiceSetupError(invalid.description)
            } catch {
                throw ServiceSetupError(error.localizedDescription)
            }
        case .account(_, let server, let timeline, let token):
            do {
                // A bad timeline is reported here, before anything is sent, as for `server`.
                if let timeline { _ = try Feed(parsing: timeline) }
                return try MastodonHTTPService(
                    server: server, token: token, pageSize: postsPerPage ?? MastodonHTTPService.defaultPageSize,
                    timeout: try RequestTimeout.resolve(environment: environment), clock: clock, wallClock: wallClock
                )
            } catch let invalid as RequestTimeout.Invalid {
                throw ServiceSetupError(invalid.description)
            } catch {
                throw ServiceSetupError(error.localizedDescription)
            }
        }
    }
}

/// Why a service could not be made: one sentence for standard error.
public struct ServiceSetupError: Error, LocalizedError, Sendable, CustomStringConvertible {
    /// The sentence.
    public var description: String

    public init(_ description: String) { self.description = description }

    public var errorDescription: String? { description }
}
