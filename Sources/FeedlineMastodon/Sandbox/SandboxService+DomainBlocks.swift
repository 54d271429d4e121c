@_spi(FeedService) import Feedline
import Foundation

/// The user's domain blocks on the sandbox, as Mastodon's `GET /api/v1/domain_blocks` and
/// `POST` / `DELETE /api/v1/domain_blocks` answer them (rules in ``SandboxAccounts``): the list
/// starts as the scenario's `domain_blocks` (and the domains of accounts whose relationship in the
/// accounts file says `domain_blocking`), and each relationship with an account of a blocked
/// domain says ``Feedline/Relationship/domainBlocking``.
///
/// The sandbox serves feeds, notifications and threads as before a block (its feeds do not
/// leave out muted or blocked accounts either): the core takes a blocked domain's posts off its
/// lists itself. Its search leaves them out, as it does muted and blocked accounts' posts.
///
/// Each call is a request of its own kind (``SandboxScenario/Request/domainBlocks``,
/// ``SandboxScenario/Request/domainBlock``) with latency and faults like the others; a lost
/// answer makes the change and then fails as a timeout.
extension SandboxService {
    /// A page of the blocked domains, lower-cased, the newest block first, then the scenario's
    /// in its order: ``pageSize`` of them after the offset the cursor names (opaque to callers);
    /// the last page has no cursor.
    ///
    /// - Throws: ``SandboxError/unknownCursor(_:)`` for a cursor it did not give, or a scheduled fault.
    @_spi(FeedService) public func domainBlocks(after cursor: PageCursor?) async throws -> Page<String> {
        let size = pageSize
        return try await performOnAccounts(.domainBlocks) { state, _ throws(SandboxError) in
            let window = try OffsetWindow(after: cursor, size: size)
            return window.page(of: state.accounts.blockedDomains) { $0 }
        }
    }

    /// Blocks (`true`) or unblocks `domain` (any case, a leading `@` dropped): see
    /// ``SandboxAccounts/setDomainBlock(_:to:)``. Idempotent.
    ///
    /// - Throws: ``SandboxError/refused(_:)`` — never transient — for something that is no domain
    ///   name, and for the sandbox's own domain ("You cannot block your own domain."); or a
    ///   scheduled fault.
    public func setDomainBlock(_ domain: String, to value: Bool) async throws {
        try await performOnAccounts(.domainBlock) { state, _ throws(SandboxError) in
            try state.accounts.setDomainBlock(domain, to: value)
        }
    }
}
