@_spi(FeedService) import Feedline
@_spi(FeedService) import FeedlineMastodon
import Foundation
import Testing

/// The token the fake server expects; tests check it never shows in any message.
let secretToken = "s3cr3t-T0KEN-do-not-print-9f8e7d"

/// Runs `body` against a fresh fake server over the fixture timeline, stopping it afterwards.
func withFakeServer<Result>(
    statuses: [Mastodon.Status]? = nil,
    elsewhere: [Mastodon.Status] = [],
    notifications: [Mastodon.Notification] = [],
    token: String? = secretToken,
    isolation: isolated (any Actor)? = #isolation,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: (FakeMastodon, MastodonServer) async throws -> Result
) async throws -> Result {
    let fake = try FakeMastodon(
        statuses: statuses ?? FixtureStatuses.timeline(), elsewhere: elsewhere, notifications: notifications, token: token,
        sourceLocation: sourceLocation
    )
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

/// Runs `body` against a fresh fake server that knows the whole of `Fixtures/timeline`: the
/// home timeline, the statuses elsewhere (profiles, hashtags, bookmarks, threads) and the
/// user's notifications, grouped as `grouped` says.
func withFixtureServer<Result>(
    grouped: FakeMastodon.GroupedNotifications = .supported,
    isolation: isolated (any Actor)? = #isolation,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: (FakeMastodon, MastodonServer) async throws -> Result
) async throws -> Result {
    try await withFakeServer(
        statuses: FixtureStatuses.timeline(), elsewhere: FixtureStatuses.elsewhere(), notifications: FixtureStatuses.notifications(),
        sourceLocation: sourceLocation
    ) { fake, server in
        fake.groupedNotifications = grouped
        return try await body(fake, server)
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

/// Every page of `feed` from the top, following each page's `next` until there is none (at most
/// `limit` pages: a loop is a failure, not a hang).
func walk(
    _ service: MastodonHTTPService, _ feed: Feed, limit: Int = 30, sourceLocation: SourceLocation = #_sourceLocation
) async throws -> [Page<Post>] {
    var pages: [Page<Post>] = []
    var cursor: PageCursor?
    repeat {
        let page = try await service.page(of: feed, after: cursor)
        pages.append(page)
        cursor = page.next
    } while cursor != nil && pages.count < limit
    #expect(cursor == nil, "\(feed) did not end within \(limit) pages", sourceLocation: sourceLocation)
    return pages
}

/// Every page of the notifications from the top (at most `limit` pages).
func walkNotifications(
    _ service: MastodonHTTPService, of kinds: Set<NotificationGroup.Kind> = [], limit: Int = 30, sourceLocation: SourceLocation = #_sourceLocation
) async throws -> [Page<NotificationGroup>] {
    var pages: [Page<NotificationGroup>] = []
    var cursor: PageCursor?
    repeat {
        let page = try await service.notifications(of: kinds, after: cursor)
        pages.append(page)
        cursor = page.next
    } while cursor != nil && pages.count < limit
    #expect(cursor == nil, "the notifications did not end within \(limit) pages", sourceLocation: sourceLocation)
    return pages
}
