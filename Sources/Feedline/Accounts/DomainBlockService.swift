/// The domains the signed-in user blocked, and blocking one. Part of `FeedService`.
@_spi(FeedService) public protocol DomainBlockService: Sendable {
    /// A page of the domains the signed-in user blocked (`GET /api/v1/domain_blocks`, paged by
    /// `Link`).
    func domainBlocks(after cursor: PageCursor?) async throws -> Page<String>

    /// Blocks (`true`) or unblocks `domain` for the signed-in user (`POST` / `DELETE
    /// /api/v1/domain_blocks` with `domain`).
    func setDomainBlock(_ domain: String, to value: Bool) async throws
}
