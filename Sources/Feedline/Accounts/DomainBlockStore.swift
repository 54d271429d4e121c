import Foundation

/// A domain block as every screen shows it: the value the user wants, whether it waits for the
/// server, and the last refusal.
public struct DomainBlockDisplay: Hashable, Sendable {
    /// Whether the domain is blocked (the value the user wants).
    public var blocked: Bool
    /// Whether the change waits for the server (a request in flight, or a re-send after a lost
    /// connection).
    public var pending: Bool
    /// The last refusal, e.g. "Could not block the domain promo.example: …", until the next change.
    public var failure: String?

    public init(blocked: Bool, pending: Bool = false, failure: String? = nil) {
        self.blocked = blocked
        self.pending = pending
        self.failure = failure
    }
}

/// A change of one domain's block, as every screen that shows the domain must show it.
public struct DomainBlockChange: Hashable, Sendable {
    /// The domain, lower-cased.
    public var domain: String
    public var display: DomainBlockDisplay

    public init(domain: String, display: DomainBlockDisplay) {
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
public final class DomainBlockStore {
    private struct Request: Hashable, Sendable {
        var request: ToggleRequest<String>
    }

    private enum Reply: Sendable {
        case succeeded(Request)
        case failed(Request, FeedFailure)
        case elapsed(ToggleResend<String>)
    }

    private var tracks: [String: ToggleTrack<String>] = [:]
    private var failures: [String: String] = [:]
    private var epoch: StoreEpoch = 0
    private let observers = HandlerList<DomainBlockChange>()
    private let posts: PostStore
    private var requests: Feedback<Request, Reply>?
    private var waits: Feedback<ToggleResend<String>, Reply>?
    private let requestWaiters = DeadlineWaiters()
    private let retryClock: any Clock<Duration>

    /// A store that sends domain blocks to `service`, counted in `activity`, re-sends what
    /// failed for lack of a connection on `retryClock`, and takes the domain's posts off the
    /// lists of `posts`.
    package init(service: any FeedService, posts: PostStore, activity: Activity, retryClock: any Clock<Duration>) {
        self.posts = posts
        self.retryClock = retryClock
        requests = Feedback(
            activity: activity,
            effect: { request in
                do {
                    try await service.setDomainBlock(request.request.kind, to: request.request.value)
                    return .succeeded(request)
                } catch {
                    return .failed(request, FeedFailure(error))
                }
            },
            handle: { [weak self] reply in self?.settle(reply) }
        )
        waits = .waits(
            activity: activity, clock: retryClock, delay: { $0.delay }, elapsed: { .elapsed($0) },
            handle: { [weak self] reply in self?.settle(reply) }
        )
    }

    // MARK: - Reading

    /// The domain's block as shown now, or `nil` when nothing told the store about it.
    /// `domain` in any case.
    public func block(_ domain: String) -> DomainBlockDisplay? {
        let key = Self.key(domain)
        guard let track = tracks[key] else { return nil }
        return DomainBlockDisplay(blocked: track.desired, pending: track.isPending, failure: failures[key])
    }

    /// Calls `handler` on the main actor after every change of a domain's block, in order.
    /// Lasts as long as the returned token.
    public func observe(_ handler: @escaping @MainActor @Sendable (DomainBlockChange) -> Void) -> Subscription {
        observers.add(handler)
    }

    /// Whether a domain change failed and was not retried, or waits to be sent again.
    public var hasFailures: Bool {
        tracks.contains { $0.value.resend != nil } || !failures.isEmpty
    }

    /// Every domain change not confirmed by the server (in flight or waiting to be re-sent),
    /// with the value wanted, by domain.
    public var unsent: [(domain: String, blocked: Bool)] {
        tracks.filter(\.value.isPending).keys.sorted().compactMap { key in tracks[key].map { (key, $0.desired) } }
    }

    /// Returns once no domain request is in flight (at once when none is), or after `limit`
    /// on the retry clock.
    package func waitForRequests(atMost limit: Duration) async {
        guard !(requests?.requests.isEmpty ?? true) else { return }
        await requestWaiters.wait(atMost: limit, on: retryClock)
    }

    /// The requests in flight now, as (domain, value). For tests.
    package var requestsInFlight: [(String, Bool)] {
        (requests?.requests ?? []).map { ($0.request.kind, $0.request.value) }
    }

    // MARK: - Input

    /// Marks the start of a fetch of blocked domains; pass its answer to ``ingest(blocked:fetchedAt:)``.
    package func beginFetch() -> StoreEpoch {
        epoch += 1
        return epoch
    }

    /// Records domains a fetch begun at `fetchedAt` says are blocked.
    package func ingest(blocked domains: some Sequence<String>, fetchedAt: StoreEpoch) {
        for domain in domains {
            let key = Self.key(domain)
            guard !key.isEmpty else { continue }
            var track = tracks[key] ?? ToggleTrack(confirmed: true, count: 0)
            let before = tracks[key]
            track.receive(flag: true, count: 0, fetchedAt: fetchedAt)
            tracks[key] = track
            if before == nil { posts.hideDomain(key, pending: false) }
            if before != track { notify(key) }
        }
    }

    /// Blocks (`true`) or unblocks the domain: optimistic, converging. Returns `false` (nothing
    /// happens) for something that is no domain name, or the local server's (no host).
    @discardableResult
    package func set(_ domain: String, _ value: Bool) -> Bool {
        let key = Self.key(domain)
        guard Self.isDomain(key) else { return false }
        var track = tracks[key] ?? ToggleTrack(confirmed: !value, count: 0)
        if track.desired == value, track.knownSince != 0 || track.isPending { return true }
        if track.knownSince == 0, !track.isPending {
            // Never learnt: taken to be the opposite on the server, so the wish is sent
            // (blocking a domain already blocked changes nothing there).
            track.confirmed = !value
            track.desired = !value
        }
        let before = track.desired
        epoch += 1
        failures[key] = nil
        track.want(key, value, at: epoch)
        tracks[key] = track
        applyHiding(key, was: before, now: track.desired, pending: track.isPending)
        notify(key)
        match(key)
        return true
    }

    /// Wants again every change that rolled back, and sends every deferred one at once.
    /// Returns whether there was any.
    @discardableResult
    package func retryFailed() -> Bool {
        var any = false
        for key in tracks.keys.sorted() {
            guard var track = tracks[key] else { continue }
            if failures[key] != nil {
                any = true
                // The wish that rolled back is the opposite of what shows now.
                set(key, !track.desired)
                continue
            }
            if track.resend != nil {
                any = true
                epoch += 1
                track.want(key, track.desired, at: epoch)
                tracks[key] = track
                notify(key)
                match(key)
            }
        }
        return any
    }

    // MARK: - Effects

    private func settle(_ reply: Reply) {
        defer {
            if !requestWaiters.isEmpty, requests?.requests.isEmpty ?? true { requestWaiters.resumeAll() }
        }
        epoch += 1
        switch reply {
        case .elapsed(let resend):
            guard var track = tracks[resend.kind] else { return }
            track.backoffElapsed(resend.kind, token: resend.token, at: epoch)
            tracks[resend.kind] = track
            match(resend.kind)
        case .succeeded(let request):
            let key = request.request.kind
            guard var track = tracks[key] else { return }
            let wasPending = track.isPending
            _ = track.succeeded(key, token: request.request.token, flag: request.request.value, count: 0, counted: false, at: epoch)
            tracks[key] = track
            if wasPending, !track.isPending, track.desired { posts.domainHidingSettled(key) }
            notify(key)
            match(key)
        case .failed(let request, let failure):
            let key = request.request.kind
            guard var track = tracks[key] else { return }
            let before = track.desired
            let outcome = track.failed(key, token: request.request.token, failure: failure, at: epoch)
            tracks[key] = track
            if case .rolledBack(let wanted) = outcome {
                failures[key] = "Could not \(wanted ? "block" : "unblock") the domain \(key): \(failure.message)"
            }
            applyHiding(key, was: before, now: track.desired, pending: track.isPending)
            notify(key)
            match(key)
        }
    }

    /// Takes the domain's posts off (or puts them back on) the lists when the wish changed.
    private func applyHiding(_ key: String, was: Bool, now: Bool, pending: Bool) {
        guard was != now else { return }
        if now {
            posts.hideDomain(key, pending: pending)
        } else {
            posts.showDomain(key)
        }
    }

    /// Makes the requests and waits match what the domain's track asks for.
    private func match(_ key: String) {
        let track = tracks[key]
        requests?.react(to: track?.inFlight.map { [Request(request: $0)] } ?? [], within: { $0.request.kind == key })
        waits?.react(to: track?.resend.map { [$0] } ?? [], within: { $0.kind == key })
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

    /// Whether `key` can be a domain: dot-separated labels of letters, digits and `-` (a port
    /// allowed), 1–253 characters.
    nonisolated package static func isDomain(_ key: String) -> Bool {
        guard (1...253).contains(key.count), key.contains(".") || key.contains(":") else { return false }
        return key.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-.:[]".contains($0)) } && !key.hasPrefix(".") && !key.hasSuffix(".")
    }

    /// The domain of an account's handle (`user@host` → `host`), `nil` for a local account.
    nonisolated package static func domain(ofHandle handle: String) -> String? {
        let parts = handle.split(separator: "@", omittingEmptySubsequences: true)
        guard parts.count == 2 else { return nil }
        return parts[1].lowercased()
    }
}
