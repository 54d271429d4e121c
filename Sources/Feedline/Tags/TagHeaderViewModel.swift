/// What a hashtag screen's header shows: the hashtag, its use over the last week, and whether
/// you follow it as the session shows it on every screen (``FeedSession/tagFollow(_:)``).
public struct TagHeader: Hashable, Sendable {
    /// The name the screen was opened with (without `#`).
    public var name: String
    /// The hashtag as the server answered (`following` as the tag store shows it), once loaded.
    public var tag: Hashtag?
    /// Whether you follow it, as every screen shows it (the value you want, pending, the last
    /// refusal), once known.
    public var follow: ToggleDisplay?
    /// Why the hashtag could not be loaded (``TagHeaderViewModel/retry()`` loads it again).
    public var failure: FeedFailure?

    public init(name: String, tag: Hashtag? = nil, follow: ToggleDisplay? = nil, failure: FeedFailure? = nil) {
        self.name = name
        self.tag = tag
        self.follow = follow
        self.failure = failure
    }

    /// Whether the hashtag is still on its way.
    public var isLoading: Bool { tag == nil && failure == nil }
}

/// The header of a hashtag's timeline: loads the hashtag (`TagService.tag(named:)`) and shows
/// whether you follow it through the session's one tag store — so the header, the followed tags
/// and search results agree, and a follow made anywhere shows here at once. A list of
/// `Feed.tag` owns one (``FeedListViewModel/tagHeader``).
///
/// Main actor only; ``header`` publishes after every change.
@MainActor
public final class TagHeaderViewModel {
    private let relay: Relay<TagHeader>
    private let tags: TagStore
    private enum Loaded: Sendable {
        case loaded(Hashtag, fetchedAt: StoreEpoch)
        case failed(FeedFailure)
    }

    private var loads: Feedback<Int, Loaded>?
    private var attempt = 0
    private var subscription: Subscription?

    package init(name: String, service: any FeedService, tags: TagStore, activity: Activity) {
        relay = Relay(TagHeader(name: name, follow: tags.follow(name)))
        self.tags = tags
        loads = Feedback(
            activity: activity,
            prepare: { _ in tags.beginFetch() },
            effect: { _, fetchedAt in
                do {
                    return .loaded(try await service.tag(named: name), fetchedAt: fetchedAt)
                } catch {
                    return .failed(FeedFailure(error))
                }
            },
            handle: { [weak self] result in self?.loaded(result) }
        )
        let key = TagStore.key(name)
        subscription = tags.observe { [weak self] change in
            guard let self, change.tag == key else { return }
            self.show(change.display)
        }
    }

    isolated deinit {
        loads?.cancelAll()
    }

    /// The header, published after every change (on the main actor).
    public var header: ReadOnlyRelay<TagHeader> { relay.readOnly }

    /// The header now.
    public var current: TagHeader { relay.value }

    /// Loads the hashtag when it is not loaded or loading.
    public func appeared() {
        guard current.tag == nil, current.failure == nil, loads?.requests.isEmpty ?? false else { return }
        load()
    }

    /// Loads the hashtag again after a failure.
    public func retry() {
        guard current.failure != nil else { return }
        load()
    }

    /// Follows (`true`) or unfollows the hashtag: optimistic, on every screen at once.
    @discardableResult
    public func setFollowing(_ value: Bool) -> Bool {
        tags.set(current.name, value)
    }

    private func load() {
        attempt += 1
        relay.update { $0.failure = nil }
        loads?.react(to: [attempt])
    }

    private func show(_ display: ToggleDisplay) {
        var header = current
        header.follow = display
        header.tag?.following = display.isOn
        if header != current { relay.set(header) }
    }

    private func loaded(_ result: Loaded) {
        var header = current
        switch result {
        case .loaded(let tag, let fetchedAt):
            header.tag = tag
            relay.set(header)
            // The store tells the header (through its observer) what the fetch changed; a
            // change made meanwhile wins over it.
            tags.ingest([tag], fetchedAt: fetchedAt)
            if let display = tags.follow(current.name) { show(display) }
        case .failed(let failure):
            header.failure = failure
            relay.set(header)
        }
    }
}
