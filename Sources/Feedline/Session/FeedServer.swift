/// A server a session can talk to, as a front holds it: `SandboxService` (the offline sandbox)
/// and `MastodonHTTPService` (a real server) from `FeedlineMastodon` are servers. A front hands
/// one to ``FeedSession/init(server:clock:root:prefetchDistance:executor:cacheCapacity:retryClock:draftIDs:idempotencyKeys:)``
/// and never sees what the session asks of it.
///
/// What a session asks of a server — `FeedService`, one narrow protocol per feature, and the
/// pages and cursors they answer with — is a service implementer's concern, declared as SPI:
/// `@_spi(FeedService) import Feedline` to write a service of your own.
public protocol FeedServer: Sendable {
    /// The calls a session makes on this server.
    @_spi(FeedService) var feedService: any FeedService { get }
}

@_spi(FeedService)
extension FeedServer where Self: FeedService {
    /// A service is its own server.
    public var feedService: any FeedService { self }
}
