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
package typealias TagStore = KeyedToggleStore<TagFollowChange>

extension KeyedToggleStore<TagFollowChange> {
    /// A store that sends follows of hashtags to `service`, counted in `activity`, and re-sends
    /// what failed for lack of a connection on `retryClock`; what the server did with each change
    /// goes to `outcomes`.
    package convenience init(service: any FeedService, activity: Activity, retryClock: any Clock<Duration>, outcomes: Outcomes? = nil) {
        self.init(
            activity: activity, retryClock: retryClock, key: Self.key, isValid: Self.isTag, change: TagFollowChange.init,
            send: { tag, value in (try await service.setTagFollow(tag, to: value)).following ?? value },
            describe: { tag, value in "\(value ? "follow" : "unfollow") #\(tag)" },
            outcomes: outcomes, subject: { tag, following in .tagFollow(tag, following: following) }
        )
    }

    /// Whether you follow the hashtag (`name` with or without `#`, any case) as shown now, or
    /// `nil` when nothing told the store.
    package func follow(_ name: String) -> ToggleDisplay? { state(name) }

    /// Every change the server has not confirmed, with the value wanted, by hashtag.
    package var unsent: [(tag: String, following: Bool)] {
        unsentChanges.map { ($0.key, $0.value) }
    }

    /// Records what a fetch begun at `fetchedAt` says of the hashtags it brought (those whose
    /// ``Hashtag/following`` is known).
    package func ingest(_ tags: some Sequence<Hashtag>, fetchedAt: StoreEpoch) {
        for tag in tags {
            if let following = tag.following { ingest(tag.key, following, fetchedAt: fetchedAt) }
        }
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
