import Feedline
import Foundation

extension MastodonHTTPService {
    /// The service for `feedline --server URL [--timeline T] [--token-file FILE]`, with the token
    /// from `FEEDLINE_TOKEN` in `environment` when no file is given.
    ///
    /// Checks, in this order, the server address (no scheme means `https://`), the timeline
    /// (`home`, `public`, `local`, `tag:NAME`; `nil` means `home`) and the token (a file wins over
    /// the environment; the home timeline needs one).
    ///
    /// - Throws: ``MastodonSetupError`` with one sentence for the user; it never contains the token.
    public static func make(
        server: String,
        timeline: String? = nil,
        tokenFile: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        pageSize: Int = MastodonHTTPService.defaultPageSize,
        timeout: Duration = MastodonHTTPService.defaultTimeout,
        clock: any Clock<Duration> = ContinuousClock(),
        wallClock: WallClock = .system
    ) throws(MastodonSetupError) -> MastodonHTTPService {
        let address = try MastodonServer(parsing: server)
        let source = try timeline.map { text throws(MastodonSetupError) in try TimelineSource(parsing: text) } ?? .home
        let token = try AccessToken.resolve(tokenFile: tokenFile, environment: environment)
        return try MastodonHTTPService(
            server: address, timeline: source, token: token, pageSize: pageSize, timeout: timeout, clock: clock, wallClock: wallClock
        )
    }
}
