import Feedline

/// The JSON-lines front: reads one command per line, writes one message per line.
///
/// A thin front over a ``FeedSession``: commands become view-model calls; the timeline's
/// snapshots, the route stack, every post's shared state and the detail on top are written as
/// they change — including changes that arrive later (a page, a rollback). All work happens on
/// the main actor, so messages come out in the order things happened.
@MainActor
public final class JSONLinesDriver {
    private let session: FeedSession
    private let write: @MainActor (String) -> Void
    private var subscriptions: [Subscription] = []
    private var detailSubscription: Subscription?
    private var sawTimeline = false

    /// A driver over `session` that hands each output line (without newline) to `write`.
    public init(session: FeedSession, write: @escaping @MainActor (String) -> Void) {
        self.session = session
        self.write = write
    }

    /// Writes the greeting, the routes and the first timeline snapshot, starts following every
    /// change, and makes the timeline appear (which loads the first page).
    public func start() {
        emit(JSONLMessage.hello())
        let clock = session.clock
        subscriptions.append(session.navigator.routes.observe { [weak self] routes in
            self?.routesChanged(routes)
        })
        subscriptions.append(session.root.snapshot.observe { [weak self] snapshot in
            guard let self else { return }
            if self.sawTimeline {
                self.emit(JSONLMessage.changes(snapshot, clock: clock))
            } else {
                self.sawTimeline = true
                self.emit(JSONLMessage.timeline(snapshot, clock: clock))
            }
        })
        subscriptions.append(session.store.observe { [weak self] change in
            self?.emit(JSONLMessage.post(change))
        })
        session.root.appeared()
    }

    /// Handles one input line. Returns `false` after `quit` (the driver has written `bye`).
    /// Blank lines are ignored; anything else that is not a command gets an error line.
    public func handle(_ line: String) async -> Bool {
        if line.allSatisfy(\.isWhitespace) { return true }
        let command: JSONLCommand
        switch JSONLCommand.parse(line) {
        case .failure(let error):
            emit(JSONLMessage.error(error.message, id: error.id))
            return true
        case .success(let parsed):
            command = parsed
        }
        let id = command.id
        let timeline = session.root
        switch command.action {
        case .timeline:
            emit(JSONLMessage.timeline(timeline.snapshot.value, clock: session.clock, id: id))
        case .display(let rows):
            let unknown = rows.filter { timeline.state.index(of: $0) == nil }
            for row in rows where timeline.state.index(of: row) != nil { timeline.rowWillDisplay(row) }
            if !unknown.isEmpty {
                emit(JSONLMessage.error("Unknown rows: \(unknown.map(\.description).joined(separator: ", ")).", id: id))
                return true
            }
        case .loadMore: timeline.loadMore()
        case .refresh: timeline.refresh()
        case .retry:
            // Everything still failed, on every screen (pages, refreshes, gaps, detail loads,
            // interactions that rolled back).
            session.retry()
        case .openGap(let row):
            guard timeline.state.index(of: row) != nil else {
                emit(JSONLMessage.error("There is no gap \(row) in the timeline.", id: id))
                return true
            }
            timeline.openGap(row)
        case .open(let post):
            session.navigator.open(post)
        case .back:
            guard session.navigator.pop() else {
                emit(JSONLMessage.error("Already at the timeline.", id: id))
                return true
            }
        case .favourite(let post), .reblog(let post):
            let kind: InteractionKind = if case .favourite = command.action { .favourite } else { .reblog }
            guard toggle(kind, post) else {
                emit(JSONLMessage.error("Unknown post \(post): it is not in the timeline or an open detail yet.", id: id))
                return true
            }
        case .wait:
            await session.settle()
            emit(JSONLMessage.idle(id: id))
        case .quit:
            emit(JSONLMessage.ok("quit", id: id))
            finish()
            return false
        }
        emit(JSONLMessage.ok(Self.name(of: command.action), id: id))
        return true
    }

    /// Stops following changes and writes `bye`. Called by `quit`; call it at end of input.
    public func finish() {
        guard !subscriptions.isEmpty || detailSubscription != nil else { return }
        subscriptions.removeAll()
        detailSubscription = nil
        emit(JSONLMessage.bye())
    }

    /// Toggles `kind` of the post `id` names through a screen that shows it: a detail of it
    /// on the stack (top first), else a list row of it. `false` when no screen shows it.
    private func toggle(_ kind: InteractionKind, _ id: PostID) -> Bool {
        let screens = session.navigator.screens.reversed()
        let original = session.store.originalID(of: id)
        for case .post(let detail) in screens where detail.id == id || session.store.originalID(of: detail.id) == original {
            if detail.toggle(kind) { return true }
        }
        for case .list(let list) in screens {
            if list.rows.contains(.post(id)) { return list.toggle(kind, row: .post(id)) }
            if let original, let row = list.rows.first(where: { $0.shownPost?.originalID == original }) {
                return list.toggle(kind, row: row.id)
            }
        }
        return false
    }

    private func routesChanged(_ routes: [Route]) {
        emit(JSONLMessage.routes(routes))
        detailSubscription = nil
        guard case .post(let detail) = session.navigator.top else { return }
        let clock = session.clock
        detailSubscription = detail.state.observe { [weak self] state in
            self?.emit(JSONLMessage.detail(state, clock: clock))
        }
    }

    private func emit(_ message: JSONLValue) {
        write(message.json)
    }

    private static func name(of action: JSONLCommand.Action) -> String {
        switch action {
        case .timeline: "timeline"
        case .display: "display"
        case .loadMore: "loadMore"
        case .refresh: "refresh"
        case .retry: "retry"
        case .openGap: "openGap"
        case .open: "open"
        case .back: "back"
        case .favourite: "favourite"
        case .reblog: "reblog"
        case .wait: "wait"
        case .quit: "quit"
        }
    }
}
