@_spi(FeedService) import Feedline
import Foundation

extension MastodonHTTPService {
    /// The service for `feedline --server URL [--timeline T] [--token-file FILE]`, with the token
    /// from `FEEDLINE_TOKEN` in `environment` when no file is given.
    ///
    /// Checks, in this order, the server address (no scheme means `https://`), the timeline
    /// (see ``Feedline/Feed/init(parsing:)``; `nil` means `home`) and the token (a file wins over
    /// the environment; the home timeline and the user's own lists need one). The service pages
    /// any feed; the timeline named here is the one a session starts on (``startFeed``).
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
    ) throws(MastodonSetupError) -> (service: MastodonHTTPService, startFeed: Feed) {
        let address = try MastodonServer(parsing: server)
        let feed = try timeline.map { text throws(MastodonSetupError) in try Feed(parsing: text) } ?? .home
        let token = try AccessToken.resolve(tokenFile: tokenFile, environment: environment)
        if feed.needsSignIn, token == nil { throw .tokenMissing(feed, server: address.loginArgument) }
        let service = try MastodonHTTPService(
            server: address, token: token, pageSize: pageSize, timeout: timeout, clock: clock, wallClock: wallClock
        )
        return (service, feed)
    }
}
