/// The post detail screen: the full post, its thread, and the same favourite / reblog state
/// that every timeline row of this post shows — one relay in ``PostStore``, read and written by
/// both, so a change on either side is seen on the other at once.
///
/// Made by the ``Navigator`` when a post route is pushed and released when it is popped. Its
/// subscription to the shared state is owned by the view model and ends with it; its loads
/// hold it weakly.
@MainActor
public final class PostDetailViewModel {
    private let relay: Relay<PostDetailState>
    private let service: any FeedService
    private let store: PostStore
    private let activity: Activity
    private let clock: WallClock
    private var interactionSubscription: Subscription?
    private var running: [PostDetailState.Request: Task<Void, Never>] = [:]

    /// A detail for the post `id` names (an entry or an original id).
    public init(id: PostID, service: any FeedService, store: PostStore, activity: Activity, clock: WallClock) {
        self.service = service
        self.store = store
        self.activity = activity
        self.clock = clock
        relay = Relay(PostDetailState(id: id, post: store.post(id), interaction: store.interaction(id)))
        subscribeToInteraction()
    }

    deinit {
        for task in running.values { task.cancel() }
    }

    // MARK: - Output

    /// The detail's state, published after every change (on the main actor).
    public var state: ReadOnlyRelay<PostDetailState> { relay.readOnly }
    /// The current state.
    public var current: PostDetailState { relay.value }
    /// The id the detail was opened with.
    public var id: PostID { relay.value.id }
    /// The post's age from the injected clock.
    public var relativeTime: String? { relay.value.post.map { clock.relative($0.createdAt) } }

    // MARK: - Input

    /// Reduces `event`, publishes the new state, and starts the loads it asks for.
    public func send(_ event: PostDetailEvent) {
        var state = relay.value
        state.reduce(event)
        if state != relay.value { relay.set(state) }
        react()
    }

    /// The screen became visible: loads the post (if unknown) and its thread.
    public func appeared() { send(.appeared) }
    /// Retries the loads that failed.
    public func retry() { send(.retryRequested) }
    /// Favourites or unfavourites the post; ignored until the post is known.
    public func toggleFavourite() { store.toggle(.favourite, relay.value.id) }
    /// Boosts or unboosts the post; ignored until the post is known.
    public func toggleReblog() { store.toggle(.reblog, relay.value.id) }

    // MARK: - Effects

    private func react() {
        let wanted = relay.value.requests
        for (request, task) in running where !wanted.contains(request) {
            task.cancel()
            running[request] = nil
        }
        let id = relay.value.id
        for request in wanted where running[request] == nil {
            let fetchedAt = store.beginFetch()
            running[request] = activity.run { [service, store, weak self] in
                let event: PostDetailEvent
                do {
                    switch request {
                    case .post:
                        let post = try await service.post(id)
                        store.ingest([post], fetchedAt: fetchedAt)
                        event = .postLoaded(post)
                    case .context:
                        let context = try await service.context(of: id)
                        store.ingest(context.ancestors + context.descendants, fetchedAt: fetchedAt)
                        event = .contextLoaded(context)
                    }
                } catch {
                    let message = FeedError.message(for: error)
                    event = request == .post ? .postFailed(message) : .contextFailed(message)
                }
                guard let self else { return }
                self.running[request] = nil
                self.send(event)
                if request == .post { self.subscribeToInteraction() }
            }
        }
    }

    private func subscribeToInteraction() {
        guard interactionSubscription == nil, let shared = store.relay(relay.value.id) else { return }
        interactionSubscription = shared.subscribe { [weak self] interaction in
            MainActor.assumeIsolated {
                self?.send(.interactionChanged(interaction))
            }
        }
    }
}
