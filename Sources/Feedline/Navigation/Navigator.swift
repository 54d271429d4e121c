/// The route stack, as data in a relay, with the view models of the routes on it.
///
/// A stack of any depth with a list at the bottom (the root feed). Pushing a route makes its
/// view model (a list or a detail) and makes it appear (which starts its loads); popping
/// releases it — the navigator is the only owner of the view models it made, so a popped
/// screen, its subscriptions and what it showed in the store are gone unless a front kept a
/// reference. Every view model reads the session's one post store: nothing is copied between screens,
/// so an edit at any depth is seen at once by every screen beneath.
@MainActor
public final class Navigator {
    private let makeList: @MainActor (ListSource) -> FeedListViewModel
    private let makeDetail: @MainActor (PostID) -> PostDetailViewModel
    private var stack: [Screen]
    private let relay: Relay<[Route]>

    /// A navigator whose root is `root`; pushed list routes are made by `makeList`, post routes
    /// by `makeDetail`.
    public init(
        root: FeedListViewModel,
        makeList: @escaping @MainActor (ListSource) -> FeedListViewModel,
        makeDetail: @escaping @MainActor (PostID) -> PostDetailViewModel
    ) {
        self.makeList = makeList
        self.makeDetail = makeDetail
        stack = [.list(root)]
        relay = Relay([.list(root.source)])
    }

    /// The route stack, bottom first; published after every push and pop (on the main actor).
    public var routes: ReadOnlyRelay<[Route]> { relay.readOnly }

    /// The screens, bottom first.
    public var screens: [Screen] { stack }

    /// The screen on top.
    public var top: Screen { stack[stack.count - 1] }

    /// The list at the bottom of the stack.
    public var root: FeedListViewModel {
        if case .list(let list) = stack[0] { return list }
        preconditionFailure("the root of the stack is always a list")
    }

    /// How many screens are on the stack (1 at the root).
    public var depth: Int { stack.count }

    /// Pushes `route`: a new view model for it, which appears (and starts loading). The same
    /// route pushed twice gives two view models over the one store.
    public func push(_ route: Route) {
        let screen: Screen = switch route {
        case .list(let source): .list(makeList(source))
        case .post(let id): .post(makeDetail(id))
        }
        stack.append(screen)
        publish()
        switch screen {
        case .list(let list): list.appeared()
        case .post(let detail): detail.appeared()
        }
    }

    /// Opens the detail of a post: `push(.post(id))`.
    public func open(_ id: PostID) { push(.post(id)) }

    /// Pops the top screen and releases its view model. Returns `false` at the root.
    @discardableResult
    public func pop() -> Bool {
        guard stack.count > 1 else { return false }
        stack.removeLast()
        publish()
        return true
    }

    /// Pops everything above the root.
    public func popToRoot() {
        guard stack.count > 1 else { return }
        stack.removeSubrange(1...)
        publish()
    }

    /// Pops everything and makes a list of `feed` the new root, which appears.
    public func replaceRoot(_ feed: Feed) {
        let list = makeList(.feed(feed))
        stack = [.list(list)]
        publish()
        list.appeared()
    }

    private func publish() {
        relay.set(stack.map(\.route))
    }
}
