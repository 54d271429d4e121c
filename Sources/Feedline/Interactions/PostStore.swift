/// A change of one post's displayed interaction state.
public struct PostChange: Hashable, Sendable {
    /// The original post's id (the store's key).
    public var originalID: PostID
    public var interaction: PostInteraction
}

/// The one source of truth for posts' interaction state, shared by every row and detail.
///
/// Posts are keyed by their *original* id (`reblog?.id ?? id`), so a reblog entry and the
/// original share state; each entry id also resolves to its original. For each post the store
/// runs an ``InteractionState`` machine and the requests it asks for: at most one per post and
/// kind in flight, extra taps only move the desired value, errors roll back (see
/// ``InteractionState/reduce(_:)``).
///
/// Fetches report the posts they bring with ``ingest(_:fetchedAt:)`` and the epoch they took from
/// ``beginFetch()`` when they started; a copy fetched before the store last learnt a post's
/// state is ignored for that post.
///
/// The store keeps every post it has seen for its own lifetime. Relays are made on first request
/// and held by the store; subscriptions to them belong to whoever subscribed.
@MainActor
public final class PostStore {
    private final class Entry {
        var post: Post
        var contentEpoch: StoreEpoch
        var state: InteractionState
        var relay: Relay<PostInteraction>?

        init(post: Post, epoch: StoreEpoch) {
            self.post = post
            self.contentEpoch = epoch
            self.state = InteractionState(serverCopy: post, fetchedAt: epoch)
        }
    }

    private let service: any FeedService
    private let activity: Activity
    private var entries: [PostID: Entry] = [:]
    private var originalOfEntry: [PostID: PostID] = [:]
    private var epoch: StoreEpoch = 0
    private var runningTokens: Set<StoreEpoch> = []
    private let observers = HandlerList<PostChange>()

    /// Requests sent to the service since the store was made (interactions only).
    public private(set) var requestsSent = 0

    /// A store that sends interaction requests to `service`, counted in `activity`.
    public init(service: any FeedService, activity: Activity) {
        self.service = service
        self.activity = activity
    }

    // MARK: - Reading

    /// The latest copy of the original post that `id` names (an entry or an original id).
    public func post(_ id: PostID) -> Post? {
        entry(id)?.post
    }

    /// The original id for an entry or original id the store knows.
    public func originalID(of id: PostID) -> PostID? {
        entries[id] != nil ? id : originalOfEntry[id]
    }

    /// The displayed interaction state of the post `id` names, if the store knows it.
    public func interaction(_ id: PostID) -> PostInteraction? {
        entry(id)?.state.display
    }

    /// The full machine state of the post `id` names (for diagnostics and tests).
    public func state(_ id: PostID) -> InteractionState? {
        entry(id)?.state
    }

    /// The relay holding the displayed interaction state of the post `id` names; every row and
    /// detail of that post reads the same relay. `nil` for a post the store has not seen.
    /// The relay is set on the main actor only.
    public func relay(_ id: PostID) -> ReadOnlyRelay<PostInteraction>? {
        guard let entry = entry(id) else { return nil }
        if let relay = entry.relay { return relay.readOnly }
        let relay = Relay(entry.state.display)
        entry.relay = relay
        return relay.readOnly
    }

    /// Subscriptions on the relay of `id` (0 when none was made). For lifetime tests.
    public func subscriberCount(_ id: PostID) -> Int {
        entry(id)?.relay?.subscriberCount ?? 0
    }

    /// Calls `handler` on the main actor after every change of any post's displayed state,
    /// in the order the changes happen. Lasts as long as the returned token.
    public func observe(_ handler: @escaping @MainActor @Sendable (PostChange) -> Void) -> Subscription {
        observers.add(handler)
    }

    // MARK: - Input

    /// Marks the start of a fetch; pass the result to ``ingest(_:fetchedAt:)`` with what it brings.
    public func beginFetch() -> StoreEpoch {
        epoch += 1
        return epoch
    }

    /// Records server copies of posts fetched by a fetch that started at `fetchedAt`: new posts
    /// get an entry; known posts get fresher content and confirmed state, except for kinds with a
    /// request in flight or learnt after that fetch started.
    ///
    /// - Complexity: O(k) for k posts.
    public func ingest(_ posts: some Sequence<Post>, fetchedAt: StoreEpoch) {
        for post in posts {
            let original = post.content
            if post.reblog != nil { originalOfEntry[post.id] = original.id }
            if let entry = entries[original.id] {
                if fetchedAt > entry.contentEpoch {
                    entry.post = original
                    entry.contentEpoch = fetchedAt
                }
                epoch += 1
                handle(.copyReceived(original, fetchedAt: fetchedAt, at: epoch), entry: entry, id: original.id)
            } else {
                entries[original.id] = Entry(post: original, epoch: fetchedAt)
            }
        }
    }

    /// Toggles favourite or reblog of the post `id` names. Returns `false` for a post the store
    /// has not seen (nothing happens then).
    @discardableResult
    public func toggle(_ kind: InteractionKind, _ id: PostID) -> Bool {
        guard let originalID = originalID(of: id), let entry = entries[originalID] else { return false }
        epoch += 1
        handle(.toggled(kind, at: epoch), entry: entry, id: originalID)
        return true
    }

    // MARK: - Effects

    private func entry(_ id: PostID) -> Entry? {
        if let entry = entries[id] { return entry }
        return originalOfEntry[id].flatMap { entries[$0] }
    }

    private func handle(_ event: InteractionEvent, entry: Entry, id: PostID) {
        let before = entry.state.display
        entry.state.reduce(event)
        let after = entry.state.display
        if after != before {
            entry.relay?.set(after)
            observers.notify(PostChange(originalID: id, interaction: after))
        }
        startRequests(of: entry.state, id: id)
    }

    private func startRequests(of state: InteractionState, id: PostID) {
        for request in state.requests where !runningTokens.contains(request.token) {
            runningTokens.insert(request.token)
            requestsSent += 1
            activity.run { [service, weak self] in
                do {
                    let reply = switch request.kind {
                    case .favourite: try await service.setFavourite(request.value, postID: id)
                    case .reblog: try await service.setReblog(request.value, postID: id)
                    }
                    self?.settle(request, id: id, reply: .success(reply))
                } catch {
                    self?.settle(request, id: id, reply: .failure(FeedError.message(for: error)))
                }
            }
        }
    }

    private enum Reply {
        case success(Post)
        case failure(String)
    }

    private func settle(_ request: InteractionRequest, id: PostID, reply: Reply) {
        runningTokens.remove(request.token)
        guard let entry = entries[id] else { return }
        epoch += 1
        switch reply {
        case .success(let post):
            let original = post.content
            if original.id == id {
                entry.post = original
                entry.contentEpoch = epoch
            }
            handle(.requestSucceeded(request.kind, token: request.token, reply: post, at: epoch), entry: entry, id: id)
        case .failure(let message):
            handle(.requestFailed(request.kind, token: request.token, message: message, at: epoch), entry: entry, id: id)
        }
    }
}
