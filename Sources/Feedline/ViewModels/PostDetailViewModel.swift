/// The post detail screen: the full post, its thread, and the same favourite / boost / bookmark
/// state that every row of this post shows — one entry in the session's post store, read and written by
/// all, so a change on any side is seen on the others at once.
///
/// Made by the ``Navigator`` when a post route is pushed and released when it is popped. Its
/// loads run in a `Feedback` loop and hold it weakly; what it showed in the store is released
/// with it.
@MainActor
public final class PostDetailViewModel {
    private let relay: Relay<PostDetailState>
    private let store: PostStore
    private let clock: WallClock
    private var holder: PostStore.Holder?
    private var showing = false
    /// The post the detail shows as its post's quote, through the holder.
    private var quoteShown: PostID?
    /// The loads' loop (set at the end of `init`, so its handler can hold the view model weakly).
    private var loads: Feedback<PostDetailRequest, Loaded>?

    /// A detail for the post `id` names (an entry or an original id).
    package init(id: PostID, service: any FeedService, store: PostStore, activity: Activity, clock: WallClock) {
        self.store = store
        self.clock = clock
        relay = Relay(PostDetailState(id: id, known: store.current(id)))
        holder = store.makeHolder { [weak self] event in self?.storeChanged(event) }
        loads = Feedback(
            activity: activity,
            prepare: { _ in store.beginFetch() },
            effect: { request, fetchedAt in await Self.load(request, id: id, service: service, fetchedAt: fetchedAt) },
            handle: { [weak self] loaded in self?.receive(loaded) }
        )
        showIfKnown()
    }

    isolated deinit {
        loads?.cancelAll()
    }

    // MARK: - Output

    /// The detail's state, published after every change (on the main actor).
    public var state: ReadOnlyRelay<PostDetailState> { relay.readOnly }
    /// The current state.
    public var current: PostDetailState { relay.value }
    /// The id the detail was opened with.
    public var id: PostID { relay.value.id }
    /// The original post's id once the detail has it (a detail opened from a boost acts on the
    /// original: the boost may be undone while it is open), else the id it was opened with.
    private var postID: PostID { relay.value.post?.id ?? relay.value.id }
    /// The post's age from the injected clock.
    public var relativeTime: String? { relay.value.post.map { clock.relative($0.createdAt) } }

    // MARK: - Input

    /// The screen became visible: loads the post (if unknown) and its thread.
    public func appeared() { send(.appeared) }
    /// Retries the loads that failed.
    public func retry() { send(.retryRequested) }


    /// Toggles `kind` (favourite, boost, bookmark) of the post. Ignored — returns `false` — until
    /// the detail has its post, even if another screen has taught the store the post meanwhile.
    @discardableResult
    public func toggle(_ kind: InteractionKind) -> Bool {
        guard relay.value.post != nil, !relay.value.deleted else { return false }
        return store.toggle(kind, postID)
    }

    /// Sets `kind` of the post to `value` (see ``FeedSession/set(_:_:post:)``): nothing happens
    /// when it already is. Ignored — returns `false` — until the detail has its post.
    @discardableResult
    public func set(_ kind: InteractionKind, _ value: Bool) -> Bool {
        guard relay.value.post != nil, !relay.value.deleted else { return false }
        return store.set(kind, value, postID)
    }

    /// Reveals the post past its filter's warning (``PostDetailState/warning``) — on this
    /// detail and on every row of the post, on every screen. Returns `false` when there is no
    /// warning to reveal.
    @discardableResult
    public func reveal() -> Bool {
        guard relay.value.warning != nil else { return false }
        return store.reveal(postID)
    }

    /// Asks for the post's translation, shown under the original here and on every row of the
    /// post (see ``FeedSession/translate(post:)``). Returns why nothing was asked — the detail
    /// does not have its post yet — or `nil`.
    @discardableResult
    public func translate() -> FeedFailure? {
        guard relay.value.post != nil, !relay.value.deleted else {
            return FeedFailure(message: "The post is not loaded yet.", isTransient: false)
        }
        return store.translate(postID)
    }

    /// Shows the original again, without its translation, here and on every row of the post.
    /// Returns `false` when no translation shows or is on its way.
    @discardableResult
    public func showOriginal() -> Bool {
        store.showOriginal(postID)
    }

    // MARK: - One's own replies

    /// One's own reply (`reply`: on its way, or the server's post confirming the copy `local`
    /// shown while it was sent) joins the thread when it answers the post or a reply the thread
    /// shows (see `PostDetailEvent/contextReplied(_:replacing:)`); it is shown through the
    /// store like the thread's other posts.
    private func ownReplied(_ reply: Post, replacing local: PostID?) {
        let shownLocal = local.map { local in relay.value.context?.descendants.contains { $0.id == local } ?? false } ?? false
        guard shownLocal || reply.inReplyToID.map(relay.value.threadAnswers) == true else { return }
        if shownLocal, let local { holder?.hide(local, row: .post(local)) }
        send(.contextReplied(showInThread(reply), replacing: local))
    }

    /// One's own reply shown while it was sent (`local`) will not be posted: it leaves the thread.
    private func ownReplyWithdrawn(_ local: PostID) {
        guard relay.value.context?.descendants.contains(where: { $0.id == local }) == true else { return }
        holder?.hide(local, row: .post(local))
        send(.contextPostsRemoved([local]))
    }

    /// Reduces `event`, publishes the new state, and starts the loads it asks for (once a
    /// response being handled has been taken in whole).
    package func send(_ event: PostDetailEvent) {
        var state = relay.value
        state.reduce(event)
        if state != relay.value { relay.set(state) }
        if !receiving { loads?.react(to: state.requests) }
    }

    // MARK: - Effects

    enum Loaded: Sendable {
        case post(Post, StoreEpoch)
        case context(PostContext, StoreEpoch)
        case failed(PostDetailRequest, FeedFailure)
    }

    private static func load(_ request: PostDetailRequest, id: PostID, service: any FeedService, fetchedAt: StoreEpoch) async -> Loaded {
        do {
            switch request {
            case .post: return .post(try await service.post(id), fetchedAt)
            case .context: return .context(try await service.context(of: id), fetchedAt)
            }
        } catch {
            return .failed(request, FeedFailure(error))
        }
    }

    /// Set while a response is taken in: the store's changes it causes arrive as events before
    /// the response's own, and must not ask again for the load that just answered.
    private var receiving = false

    private func receive(_ loaded: Loaded) {
        receiving = true
        defer {
            receiving = false
            loads?.react(to: relay.value.requests)
        }
        switch loaded {
        case .post(let post, let fetchedAt):
            // Deleted while it came (a stream said so): the detail says so.
            if store.wasDeleted(post.content, fetchedAt: fetchedAt) {
                send(.deleted)
                return
            }
            store.ingest([post], fetchedAt: fetchedAt)
            guard let current = store.current(post.id) else { return }
            send(.postLoaded(current))
            showIfKnown()
            showQuote()
        case .context(var context, let fetchedAt):
            // The thread as the store has it: without posts deleted while it came, in their
            // latest copies; shown through the holder, so later edits and deletes reach it.
            context.ancestors.removeAll { store.wasDeleted($0, fetchedAt: fetchedAt) }
            context.descendants.removeAll { store.wasDeleted($0, fetchedAt: fetchedAt) }
            store.ingest(context.ancestors + context.descendants, fetchedAt: fetchedAt)
            context.ancestors = context.ancestors.map(showInThread)
            context.descendants = context.descendants.map(showInThread)
            send(.contextLoaded(context))
        case .failed(.post, let failure):
            send(.postFailed(failure))
        case .failed(.context, let failure):
            send(.contextFailed(failure))
        }
    }

    /// What the store says of a post the detail shows: its own post, or one of its thread.
    private func storeChanged(_ event: PostStore.HolderEvent) {
        switch event {
        case .changed(let change, _):
            if let shown = relay.value.post, shown.id == change.originalID {
                send(.postChanged(change))
                showQuote()
            } else {
                send(.contextPostChanged(change.post))
            }
        case .deleted(let rows, let detail, _):
            if detail { send(.deleted) }
            let gone = Set(rows.compactMap { row -> PostID? in if case .post(let id) = row { id } else { nil } })
            if !gone.isEmpty { send(.contextPostsRemoved(gone)) }
        case .undeleted:
            // The delete was refused: the post (and its thread) load again.
            send(.undeleted)
        case .deleteSettled:
            break
        case .quoteChanged(let change, _):
            send(.quoteChanged(QuotedPost(post: change.post, interaction: change.interaction)))
        case .quoteDeleted:
            send(.quoteDeleted)
        case .accountHidden, .accountShown, .accountHidingSettled, .accountUnhidden, .domainHidden, .domainShown, .domainHidingSettled, .filterChanged:
            // A detail the user opened stays; its thread is a list, which hears of it itself.
            break
        case .arrived(.own(let post, .some)):
            // Your reply on its way.
            ownReplied(post, replacing: nil)
        case .arrived, .streamInterrupted:
            break
        case .ownConfirmed(let post, let local, _):
            ownReplied(post, replacing: local)
        case .ownWithdrawn(let local):
            ownReplyWithdrawn(local)
        }
    }

    /// A post of the thread, shown through the holder as a row of its own id, in the store's copy.
    private func showInThread(_ post: Post) -> Post {
        holder?.show(post.id, row: .post(post.id))
        return store.current(post.id).map { current in post.reblog == nil ? current.post : post } ?? post
    }

    /// Starts showing the post in the store once the detail has it, and the post it quotes.
    private func showIfKnown() {
        guard !showing, relay.value.post != nil, let holder else { return }
        showing = holder.show(postID, row: nil)
        showQuote()
    }

    /// Shows the post its post quotes now through the holder (a fresher copy may name one the
    /// copy it opened with did not carry), with the store's copy of it.
    private func showQuote() {
        guard showing, let post = relay.value.post, let holder else { return }
        let quote = post.quote
        let id = quote?.state == .accepted ? quote?.postID : nil
        if id != quoteShown {
            if let old = quoteShown { holder.hideQuote(old, in: .post(postID)) }
            quoteShown = id.flatMap { holder.showQuote($0, in: .post(postID)) ? $0 : nil }
            // What it quoted before is not what it quotes now.
            if relay.value.quoted != nil, relay.value.quoted?.post.id != id { send(.quoteChanged(nil)) }
        }
        guard let id else { return }
        if store.isQuoteDeleted(id) {
            send(.quoteDeleted)
        } else if let current = store.quoted(by: post), current != relay.value.quoted {
            send(.quoteChanged(current))
        }
    }
}
