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
@MainActor
package final class DomainBlockStore {
    private let observers = HandlerList<DomainBlockChange>()
    private var toggles: KeyedToggles?

    /// A store that sends domain blocks to `service`, counted in `activity`, re-sends what
    /// failed for lack of a connection on `retryClock`, and takes the domain's posts off the
    /// lists of `posts`; what the server did with each change goes to `outcomes`.
    package init(service: any FeedService, posts: PostStore, activity: Activity, retryClock: any Clock<Duration>, outcomes: Outcomes? = nil) {
        toggles = KeyedToggles(
            activity: activity, retryClock: retryClock,
            send: { domain, value in
                try await service.setDomainBlock(domain, to: value)
                return value
            },
            describe: { domain, value in "\(value ? "block" : "unblock") the domain \(domain)" },
            changed: { domain, blocked, pending in
                if blocked { posts.hideDomain(domain, pending: pending) } else { posts.showDomain(domain) }
            },
            settled: { [weak self] domain in
                if self?.block(domain)?.isOn == true { posts.domainHidingSettled(domain) }
            },
            notify: { [weak self] domain in self?.notify(domain) },
            outcomes: outcomes, subject: { domain, blocked in .domainBlock(domain, blocked: blocked) }
        )
    }

    // MARK: - Reading

    /// The domain's block as shown now, or `nil` when nothing told the store about it.
    /// `domain` in any case.
    package func block(_ domain: String) -> ToggleDisplay? {
        toggles?.state(Self.key(domain))
    }

    /// Calls `handler` on the main actor after every change of a domain's block, in order.
    /// Lasts as long as the returned token.
    package func observe(_ handler: @escaping @MainActor @Sendable (DomainBlockChange) -> Void) -> Subscription {
        observers.add(handler)
    }

    /// Whether a domain change failed and was not retried, or waits to be sent again.
    package var hasFailures: Bool { toggles?.hasFailures ?? false }

    /// Every domain change not confirmed by the server (in flight or waiting to be re-sent),
    /// with the value wanted, by domain.
    package var unsent: [(domain: String, blocked: Bool)] {
        (toggles?.unsent ?? []).map { ($0.key, $0.value) }
    }

    /// Returns once no domain request is in flight (at once when none is), or after `limit`
    /// on the retry clock.
    package func waitForRequests(atMost limit: Duration) async {
        await toggles?.waitForRequests(atMost: limit)
    }

    /// The requests in flight now, as (domain, value). For tests.
    package var requestsInFlight: [(String, Bool)] { toggles?.requestsInFlight ?? [] }

    // MARK: - Input

    /// Marks the start of a fetch of blocked domains; pass its answer to ``ingest(blocked:fetchedAt:)``.
    package func beginFetch() -> StoreEpoch {
        toggles?.beginFetch() ?? 0
    }

    /// Records domains a fetch begun at `fetchedAt` says are blocked.
    package func ingest(blocked domains: some Sequence<String>, fetchedAt: StoreEpoch) {
        for domain in domains {
            let key = Self.key(domain)
            if Self.isDomain(key) { toggles?.ingest(key, true, fetchedAt: fetchedAt) }
        }
    }

    /// Blocks (`true`) or unblocks the domain: optimistic, converging. Returns `false` (nothing
    /// happens) for something that is no domain name.
    @discardableResult
    package func set(_ domain: String, _ value: Bool) -> Bool {
        let key = Self.key(domain)
        guard Self.isDomain(key) else { return false }
        toggles?.set(key, value)
        return true
    }

    /// Wants again every change that rolled back, and sends every deferred one at once.
    /// Returns whether there was any.
    @discardableResult
    package func retryFailed() -> Bool {
        toggles?.retryFailed() ?? false
    }

    private func notify(_ key: String) {
        guard let display = block(key) else { return }
        observers.notify(DomainBlockChange(domain: key, display: display))
    }

    /// The domain as the store keys it: trimmed, without a leading `@`, lower-cased.
    nonisolated package static func key(_ domain: String) -> String {
        var name = Substring(domain.trimmingCharacters(in: .whitespaces))
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
