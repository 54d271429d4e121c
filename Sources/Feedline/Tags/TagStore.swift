/// A change of whether you follow one hashtag.
package struct TagFollowChange: Hashable, Sendable {
    /// The hashtag's key: its name lower-cased (``Hashtag/key``).
    package var tag: String
    package var display: ToggleDisplay

    package init(tag: String, display: ToggleDisplay) {
        self.tag = tag
        self.display = display
    }
}

/// The hashtags you follow, one state per hashtag shared by every screen that shows it (the
/// followed tags, search results, trends): optimistic, at most one request per hashtag in
/// flight, rolled back with the reason on refusal, sent again after a lost connection — the
/// toggle machine every other setting of the session runs on.
///
/// Main actor only. Changes are delivered synchronously, in the order they happen.
@MainActor
package final class TagStore {
    private let observers = HandlerList<TagFollowChange>()
    private var toggles: KeyedToggles?

    /// A store that sends follows of hashtags to `service`, counted in `activity`, and re-sends
    /// what failed for lack of a connection on `retryClock`; what the server did with each change
    /// goes to `outcomes`.
    package init(service: any FeedService, activity: Activity, retryClock: any Clock<Duration>, outcomes: Outcomes? = nil) {
        toggles = KeyedToggles(
            activity: activity, retryClock: retryClock,
            send: { tag, value in (try await service.setTagFollow(tag, to: value)).following ?? value },
            describe: { tag, value in "\(value ? "follow" : "unfollow") #\(tag)" },
            changed: { _, _, _ in },
            settled: { _ in },
            notify: { [weak self] tag in self?.notify(tag) },
            outcomes: outcomes, subject: { tag, following in .tagFollow(tag, following: following) }
        )
    }

    /// Whether you follow the hashtag (`name` with or without `#`, any case) as shown now, or
    /// `nil` when nothing told the store.
    package func follow(_ name: String) -> ToggleDisplay? {
        toggles?.state(Self.key(name))
    }

    /// Calls `handler` on the main actor after every change, in order. Lasts as long as the token.
    package func observe(_ handler: @escaping @MainActor @Sendable (TagFollowChange) -> Void) -> Subscription {
        observers.add(handler)
    }

    /// Whether a change failed and was not retried, or waits to be sent again.
    package var hasFailures: Bool { toggles?.hasFailures ?? false }

    /// Every change the server has not confirmed, with the value wanted, by hashtag.
    package var unsent: [(tag: String, following: Bool)] {
        (toggles?.unsent ?? []).map { ($0.key, $0.value) }
    }

    package func waitForRequests(atMost limit: Duration) async {
        await toggles?.waitForRequests(atMost: limit)
    }

    package var requestsInFlight: [(String, Bool)] { toggles?.requestsInFlight ?? [] }

    /// Marks the start of a fetch of hashtags; pass its answer to ``ingest(_:fetchedAt:)``.
    package func beginFetch() -> StoreEpoch {
        toggles?.beginFetch() ?? 0
    }

    /// Records what a fetch begun at `fetchedAt` says of the hashtags it brought (those whose
    /// ``Hashtag/following`` is known).
    package func ingest(_ tags: some Sequence<Hashtag>, fetchedAt: StoreEpoch) {
        for tag in tags {
            if let following = tag.following { toggles?.ingest(tag.key, following, fetchedAt: fetchedAt) }
        }
    }

    /// Follows (`true`) or unfollows the hashtag: optimistic, converging. Returns `false`
    /// (nothing happens) for something that cannot be a hashtag's name.
    @discardableResult
    package func set(_ name: String, _ value: Bool) -> Bool {
        let key = Self.key(name)
        guard Self.isTag(key) else { return false }
        toggles?.set(key, value)
        return true
    }

    @discardableResult
    package func retryFailed() -> Bool {
        toggles?.retryFailed() ?? false
    }

    private func notify(_ key: String) {
        guard let display = follow(key) else { return }
        observers.notify(TagFollowChange(tag: key, display: display))
    }

    /// `name` as the store keys it: without a leading `#`, lower-cased.
    nonisolated package static func key(_ name: String) -> String {
        var tag = Substring(name)
        while tag.hasPrefix("#") { tag = tag.dropFirst() }
        return tag.lowercased()
    }

    /// Whether `key` can be a hashtag: letters, digits and underscores, at least one (how long
    /// one may be is the server's to say).
    nonisolated package static func isTag(_ key: String) -> Bool {
        !key.isEmpty && key.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
    }
}

extension Hashtag {
    /// The hashtag as `store` shows it: its followed state, when the store knows it.
    @MainActor
    func following(in store: TagStore?) -> Hashtag {
        guard let display = store?.follow(key) else { return self }
        var tag = self
        tag.following = display.isOn
        return tag
    }
}
