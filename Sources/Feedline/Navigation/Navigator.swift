/// The route stack, as data in a relay, with the view models of the routes on it.
///
/// The timeline is always at the bottom. Pushing a post route makes its detail view model (and
/// starts its loads); popping releases it — the navigator is the only owner of detail view
/// models, so a popped detail and its subscriptions are gone unless a front kept a reference.
@MainActor
public final class Navigator {
    private let timeline: TimelineViewModel
    private let makeDetail: @MainActor (PostID) -> PostDetailViewModel
    private var details: [PostDetailViewModel] = []
    private let relay = Relay<[Route]>([.timeline])

    /// A navigator over `timeline` that makes a detail view model for each pushed post route.
    public init(timeline: TimelineViewModel, makeDetail: @escaping @MainActor (PostID) -> PostDetailViewModel) {
        self.timeline = timeline
        self.makeDetail = makeDetail
    }

    /// The route stack, bottom first; published after every push and pop (on the main actor).
    public var routes: ReadOnlyRelay<[Route]> { relay.readOnly }

    /// The screens, bottom first.
    public var screens: [Screen] { [.timeline(timeline)] + details.map(Screen.post) }

    /// The screen on top.
    public var top: Screen { details.last.map(Screen.post) ?? .timeline(timeline) }

    /// How many routes are on the stack (1 at the timeline).
    public var depth: Int { details.count + 1 }

    /// Pushes `route`. A post route gets a new detail view model, which starts loading; pushing
    /// `.timeline` pops back to it.
    public func push(_ route: Route) {
        switch route {
        case .timeline:
            popToRoot()
        case .post(let id):
            let detail = makeDetail(id)
            details.append(detail)
            publish()
            detail.appeared()
        }
    }

    /// Opens the detail of a post: `push(.post(id))`.
    public func open(_ id: PostID) { push(.post(id)) }

    /// Pops the top route and releases its view model. Returns `false` at the timeline.
    @discardableResult
    public func pop() -> Bool {
        guard details.popLast() != nil else { return false }
        publish()
        return true
    }

    /// Pops everything above the timeline.
    public func popToRoot() {
        guard !details.isEmpty else { return }
        details.removeAll()
        publish()
    }

    private func publish() {
        relay.set([.timeline] + details.map { .post($0.id) })
    }
}
