import Feedline

/// The REPL as a library: turns command lines into view-model calls on a ``FeedSession`` and
/// prints what changed — the timeline's changesets, the open post's changed parts, the status
/// line — through `write`.
///
/// A thin front: the session's view models hold all state and logic; the driver keeps only what
/// it has printed. All work happens on the main actor. In *live* mode (interactive) changes that
/// arrive later — a page, a rollback — are written as they arrive; otherwise they are written by
/// ``flush()``, which a script runner calls after ``FeedSession/settle()``, so transcripts do not
/// depend on the order in which concurrent requests finish.
@MainActor
public final class REPLDriver {
    /// How the driver draws.
    public struct Options: Sendable {
        /// Rows per screen (`more` shows this many).
        public var pageSize: Int
        /// Columns of the terminal.
        public var width: Int
        /// Colours, or none.
        public var style: Style
        /// Write changes as they arrive (interactive) instead of at ``flush()`` only.
        public var live: Bool
        /// What is being read, for the greeting ("the home timeline from the timeline fixtures").
        public var sourceSummary: String

        /// Options; `pageSize` is at least 1 and `width` at least 20.
        public init(pageSize: Int = 10, width: Int = 80, style: Style = .plain, live: Bool = false, sourceSummary: String = "the home timeline from the timeline fixtures") {
            self.pageSize = max(1, pageSize)
            self.width = max(20, width)
            self.style = style
            self.live = live
            self.sourceSummary = sourceSummary
        }
    }

    private let session: FeedSession
    private let options: Options
    private let write: @MainActor (String) -> Void
    private let rowRenderer: RowRenderer
    private let detailRenderer: DetailRenderer
    private var timelineView = TimelineView()
    private var detailView: DetailView?
    private var subscriptions: [Subscription] = []
    private var detailSubscription: Subscription?
    private var started = false
    /// Set once the timeline has appeared: live flushes wait for it, so the greeting is not
    /// followed by the empty timeline's status.
    private var following = false

    /// A driver over `session` that hands each chunk of output (whole lines, each ending in a
    /// newline) to `write`.
    public init(session: FeedSession, options: Options = Options(), write: @escaping @MainActor (String) -> Void) {
        self.session = session
        self.options = options
        self.write = write
        rowRenderer = RowRenderer(width: options.width, style: options.style, clock: session.clock)
        detailRenderer = DetailRenderer(width: options.width, style: options.style, clock: session.clock)
    }

    /// The screen on top.
    public var screen: ScreenKind {
        if case .post = session.navigator.top { return .post }
        return .timeline
    }

    /// The prompt naming the screen: `timeline> ` or `post> `.
    public var prompt: String { "\(screen.rawValue)> " }

    /// Greets, starts following the session and makes the timeline appear (which loads the first
    /// page; its first screen of rows is shown when it arrives).
    public func start() {
        guard !started else { return }
        started = true
        emit(["Feedline: \(options.sourceSummary). Type help for the commands."])
        timelineView.owed = options.pageSize
        subscriptions.append(session.timeline.snapshot.subscribe { [weak self] snapshot in
            MainActor.assumeIsolated { self?.timelineChanged(snapshot) }
        })
        subscriptions.append(session.navigator.routes.subscribe { [weak self] _ in
            MainActor.assumeIsolated { self?.routesChanged() }
        })
        session.timeline.appeared()
        following = true
        flush()
    }

    /// Handles one line: runs the command and writes its immediate output. Returns `false` after
    /// `quit`. A line that is not a command writes one line saying why (and what was meant).
    @discardableResult
    public func handle(_ line: String) -> Bool {
        switch CommandParser.parse(line) {
        case .failure(let error):
            var message = error.message
            if case .rowTooLarge = error { message += " " + rangeSentence() }
            say(message)
            return true
        case .success(let command):
            let goOn = run(command)
            flush()
            return goOn
        }
    }

    /// Writes what changed since the last flush on the screen on top.
    public func flush() {
        switch screen {
        case .timeline:
            emit(timelineView.flush(rowRenderer))
        case .post:
            if var view = detailView {
                emit(view.flush(detailRenderer))
                detailView = view
            }
        }
    }

    /// Stops following the session.
    public func finish() {
        subscriptions.removeAll()
        detailSubscription = nil
        detailView = nil
    }

    // MARK: - Commands

    private func run(_ command: Command) -> Bool {
        switch command {
        case .nothing: break
        case .quit: return false
        case .help(let topic): emit(HelpText.lines(topic: topic, screen: screen, width: options.width))
        case .list:
            switch screen {
            case .timeline: emit(timelineView.redraw(rowRenderer))
            case .post:
                if var view = detailView {
                    emit(view.redraw(detailRenderer))
                    detailView = view
                }
            }
        case .back:
            if !session.navigator.pop() { say("Already at the timeline.") }
        case .favourite(let row): toggle(.favourite, row: row, name: .fav)
        case .boost(let row): toggle(.reblog, row: row, name: .boost)
        case .retry: retry()
        default:
            guard screen == .timeline else {
                say("\(Self.name(of: command)) works on the timeline; type back first.")
                return true
            }
            runOnTimeline(command)
        }
        return true
    }

    private func runOnTimeline(_ command: Command) {
        let timeline = session.timeline
        switch command {
        case .more: more()
        case .refresh: timeline.refresh()
        case .open(let number):
            guard let row = row(number) else { return }
            guard let post = row.post else {
                say("Row \(number) is a gap: gap \(number) loads the missing posts.")
                return
            }
            session.navigator.open(post.id)
        case .gap(let number):
            guard let row = row(number) else { return }
            guard let gap = row.gap else {
                say("Row \(number) is a post, not a gap; open \(number) shows it.")
                return
            }
            if gap.status == .loading {
                say("Gap \(number) is already loading.")
            } else {
                timeline.openGap(row.id)
            }
        default: break
        }
    }

    private func more() {
        if timelineView.reveal(options.pageSize) > 0 {
            reportDisplayed()
            return
        }
        let status = session.timeline.status
        if status.reachedEnd {
            say("End of timeline: there are no older posts.")
        } else {
            timelineView.owed = options.pageSize
            if status.loading == nil { session.timeline.loadMore() }
        }
    }

    private func toggle(_ kind: InteractionKind, row number: Int?, name: CommandName) {
        switch (session.navigator.top, number) {
        case (.post(let detail), nil):
            guard detail.current.post != nil else {
                say("The post is still loading; try again when it is shown.")
                return
            }
            if kind == .favourite { detail.toggleFavourite() } else { detail.toggleReblog() }
        case (.post, _?):
            say("On a post, \(name.rawValue) acts on that post: type \(name.rawValue) alone, or back to pick a row.")
        case (.timeline(let timeline), let number?):
            guard let row = row(number) else { return }
            guard let post = row.post, let viewModel = timeline.rowViewModel(post.id) else {
                say("Row \(number) is a gap: gap \(number) loads the missing posts.")
                return
            }
            if kind == .favourite { viewModel.toggleFavourite() } else { viewModel.toggleReblog() }
        case (.timeline, nil):
            say(ParseError.missingRow(name).message)
        }
    }

    private func retry() {
        switch session.navigator.top {
        case .post(let detail):
            guard detail.current.failure != nil else {
                say("Nothing failed on this post.")
                return
            }
            detail.retry()
        case .timeline(let timeline):
            guard timeline.status.failure != nil, timeline.status.loading == nil else {
                say(timeline.status.loading != nil ? "Still loading; nothing to retry yet." : "Nothing failed; nothing to retry.")
                return
            }
            if case .loadOlder? = timeline.status.failure?.intent, timelineView.shown == timelineView.rows.count {
                timelineView.owed = max(timelineView.owed, options.pageSize)
            }
            timeline.retry()
        }
    }

    /// The row shown as `number`, or `nil` after saying which rows exist.
    private func row(_ number: Int) -> TimelineRow? {
        if let row = timelineView.row(number) { return row }
        say("There is no row \(number). " + rangeSentence())
        return nil
    }

    private func rangeSentence() -> String {
        let shown = timelineView.shown
        switch shown {
        case 0: return "No rows are shown yet."
        case 1: return "Row 1 is the only row shown."
        default: return "Rows 1–\(shown) are shown."
        }
    }

    // MARK: - Following the session

    private func timelineChanged(_ snapshot: TimelineViewModel.Snapshot) {
        timelineView.receive(snapshot)
        reportDisplayed()
        if options.live, following, screen == .timeline { flush() }
    }

    /// Tells the timeline which rows came into view (this drives prefetching).
    private func reportDisplayed() {
        for id in timelineView.takeDisplayed() { session.timeline.rowWillDisplay(id) }
    }

    private func routesChanged() {
        detailSubscription = nil
        detailView = nil
        guard case .post(let detail) = session.navigator.top else { return }
        detailView = DetailView()
        detailSubscription = detail.state.subscribe { [weak self] state in
            MainActor.assumeIsolated { self?.detailChanged(state) }
        }
    }

    private func detailChanged(_ state: PostDetailState) {
        guard var view = detailView else { return }
        view.receive(state)
        detailView = view
        if options.live, following { flush() }
    }

    // MARK: - Output

    private func say(_ line: String) {
        emit([line])
    }

    private func emit(_ lines: [String]) {
        guard !lines.isEmpty else { return }
        write(lines.joined(separator: "\n") + "\n")
    }

    private static func name(of command: Command) -> String {
        switch command {
        case .more: "more"
        case .refresh: "refresh"
        case .open: "open"
        case .gap: "gap"
        default: "That command"
        }
    }
}
