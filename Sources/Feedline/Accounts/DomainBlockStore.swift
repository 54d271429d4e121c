import Foundation

/// A change of one domain's block, as every screen that shows the domain must show it.
package struct DomainBlockChange: Hashable, Sendable {
    /// The domain, lower-cased.
    package var domain: String
    package var display: ToggleDisplay

    package init(domain: String, display: ToggleDisplay) {
        self.domain = domain
        self.display = display
    }
}

/// The session's blocked domains (Mastodon's `domain_blocks`): one convergence machine per
/// domain — the toggle machine of post interactions and relationships (`ToggleTrack`), so
/// blocks are optimistic, at most one request per domain is in flight, extra changes only move
/// the wish, a refusal rolls back with its reason and a lost connection re-sends after a
/// backoff on the session's retry clock.
///
/// A block takes every post by an account of the domain (and their boosts, and boosts of their
/// posts, and notifications from them) off every list at once while it waits for the server
/// (`PostStore.hideDomain`); a refusal puts them back; later pages and streams do not bring
/// them back until the domain is unblocked.
///
/// Main actor only. Changes are delivered synchronously, in the order they happen.
package typealias DomainBlockStore = KeyedToggleStore<DomainBlockChange>

extension KeyedToggleStore<DomainBlockChange> {
    /// A store that sends domain blocks to `service`, counted in `activity`, re-sends what
    /// failed for lack of a connection on `retryClock`, and takes the domain's posts off the
    /// lists of `posts`; what the server did with each change goes to `outcomes`.
    package convenience init(
        service: any FeedService, posts: PostStore, activity: Activity, retryClock: any Clock<Duration>, outcomes: Outcomes? = nil
    ) {
        self.init(
            activity: activity, retryClock: retryClock, key: Self.key, isValid: Self.isDomain, change: DomainBlockChange.init,
            send: { domain, value in
                try await service.setDomainBlock(domain, to: value)
                return value
            },
            describe: { domain, value in "\(value ? "block" : "unblock") the domain \(domain)" },
            changed: { domain, blocked, pending in
                if blocked { posts.hideDomain(domain, pending: pending) } else { posts.showDomain(domain) }
            },
            settled: { domain, blocked in
                if blocked { posts.domainHidingSettled(domain) }
            },
            outcomes: outcomes, subject: { domain, blocked in .domainBlock(domain, blocked: blocked) }
        )
    }

    /// The domain's block as shown now, or `nil` when nothing told the store about it.
    /// `domain` in any case.
    package func block(_ domain: String) -> ToggleDisplay? { state(domain) }

    /// Every domain change not confirmed by the server (in flight or waiting to be re-sent),
    /// with the value wanted, by domain.
    package var unsent: [(domain: String, blocked: Bool)] {
        unsentChanges.map { ($0.key, $0.value) }
    }

    /// Records domains a fetch begun at `fetchedAt` says are blocked.
    package func ingest(blocked domains: some Sequence<String>, fetchedAt: StoreEpoch) {
        for domain in domains {
            let key = Self.key(domain)
            if Self.isDomain(key) { ingest(key, true, fetchedAt: fetchedAt) }
        }
    }

    /// The domain as the store keys it: trimmed, without a leading `@`, lower-cased.
    nonisolated package static func key(_ domain: String) -> String {
        var name = Substring(domain.trimmingBlanks(newlines: false))
        while name.hasPrefix("@") { name = name.dropFirst() }
        return name.lowercased()
    }

    /// Whether `key` can be a domain: dot-separated labels of letters, digits and `-` (not
    /// first: no label starts with one; a port allowed), 1–253 characters.
    nonisolated package static func isDomain(_ key: String) -> Bool {
        guard (1...253).contains(key.count), key.contains(".") || key.contains(":") else { return false }
        return key.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-.:[]".contains($0)) } && !key.hasPrefix(".") && !key.hasSuffix(".")
            && !key.hasPrefix("-")
    }

    /// The domain of an account's handle (`user@host` → `host`), `nil` for a local account.
    nonisolated package static func domain(ofHandle handle: String) -> String? {
        let parts = handle.split(separator: "@", omittingEmptySubsequences: true)
        guard parts.count == 2 else { return nil }
        return parts[1].lowercased()
    }
}
