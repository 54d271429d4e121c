import Feedline
import FeedlineMastodon
import Foundation

/// The token the fake server expects; tests check it never shows in any message.
let secretToken = "s3cr3t-T0KEN-do-not-print-9f8e7d"

/// Runs `body` against a fresh fake server over the fixture timeline, stopping it afterwards.
func withFakeServer<Result>(
    statuses: [Mastodon.Status]? = nil,
    token: String? = secretToken,
    isolation: isolated (any Actor)? = #isolation,
    _ body: (FakeMastodon, MastodonServer) async throws -> Result
) async throws -> Result {
    let fake = try FakeMastodon(statuses: statuses ?? FixtureStatuses.timeline(), token: token)
    let url = try await fake.start()
    do {
        let result = try await body(fake, try MastodonServer(url: url))
        await fake.stop()
        return result
    } catch {
        await fake.stop()
        throw error
    }
}

/// A service on `server` with the secret token and test clocks.
func makeService(
    _ server: MastodonServer,
    token: String? = secretToken,
    pageSize: Int = 20,
    timeout: Duration = .seconds(60),
    clock: VirtualClock = VirtualClock(),
    now: Date = Date(timeIntervalSince1970: 1_795_348_800)
) throws -> MastodonHTTPService {
    try MastodonHTTPService(
        server: server,
        token: token.map { try AccessToken($0) },
        pageSize: pageSize,
        timeout: timeout,
        clock: clock,
        wallClock: .fixed(now)
    )
}
