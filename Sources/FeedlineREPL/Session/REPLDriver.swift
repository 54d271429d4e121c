import Feedline

/// The REPL as a library: turns command lines into view-model calls on a ``FeedSession`` and
/// prints what changed — each list's changesets, the open post's changed parts, the status
/// line — through `write`.
///
/// A thin front: the session's view models hold all state and logic; the driver keeps only what
/// it has printed, per screen on the navigator's stack. All work happens on the main actor. In
/// *live* mode (interactive) changes that arrive later — a page, a rollback — are written as
/// they arrive; otherwise they are written by ``flush()``, which a script runner calls after
/// ``FeedSession/settle()``, so transcripts do not depend on the order in which concurrent
/// requests finish. Screens beneath the top keep following their view models, so going back to
/// one shows what changed there meanwhile.
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

    /// The REPL's side of one list screen.
    private final class ListEntry {
        let list: FeedListViewModel
        var screen = ListScreen()
        var subscription: Subscription?

        init(_ list: FeedListViewModel) { self.list = list }
    }

    /// The REPL's side of one post screen.
    private final class PostEntry {
        let detail: PostDetailViewModel
        var screen = DetailScreen()
        var subscription: Subscription?

        init(_ detail: PostDetailViewModel) { self.detail = detail }
    }

    private enum Entry {
        case list(ListEntry)
        case post(PostEntry)
    }

    private let session: FeedSession
    private let options: Options
    private let write: @MainActor (String) -> Void
    private let rowRenderer: RowRenderer
    private let detailRenderer: DetailRenderer
    private var stack: [Entry] = []
    private var routesSubscription: Subscription?
    private var started = false
    /// Set once the root list has appeared: live flushes wait for it, so the greeting is not
    /// followed by the empty list's status.
    private var following = false

    /// A driver over `session` that hands each chunk of output (whole lines, each ending in a
    /// newline) to `write`.
    public init(session: FeedSession, options: Options = Options(), write: @escaping @MainActor (String) -> Void) {
        self.session = session
        self.options = options
        self.write = write
        let cache = RenderCache()
        rowRenderer = RowRenderer(width: options.width, style: options.style, clock: session.clock, cache: cache)
        detailRenderer = DetailRenderer(width: options.width, style: options.style, clock: session.clock, cache: cache)
    }

    /// The kind of screen on top.
    public var screen: ScreenKind {
        if case .post = session.navigator.top { return .post }
        return .timeline
    }

    /// The prompt naming the screen: `timeline> ` or `post> `.
    public var prompt: String { "\(screen.rawValue)> " }

    /// Greets, starts following the session and makes the root list appear (which loads the first
    /// page; its first screen of rows is shown when it arrives).
    public func start() {
        guard !started else { return }
        started = true
        emit(["Feedline: \(options.sourceSummary). Type help for the commands."])
        routesSubscription = session.navigator.routes.observe { [weak self] _ in self?.routesChanged() }
        if case .list(let root)? = stack.first { root.screen.owed = options.pageSize }
        session.root.appeared()
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
        guard let top = stack.last else { return }
        switch top {
        case .list(let entry):
            emit(entry.screen.flush(rows: entry.list.rows, renderer: rowRenderer, noun: noun(of: entry.list)))
        case .post(let entry):
            emit(entry.screen.flush(detailRenderer))
        }
    }

    /// Stops following the session.
    public func finish() {
        routesSubscription = nil
        stack.removeAll()
    }

    // MARK: - Commands

    private func run(_ command: Command) -> Bool {
        switch command {
        case .nothing: break
        case .quit: return false
        case .help(let topic): emit(HelpText.lines(topic: topic, screen: screen, width: options.width))
        case .list:
            switch stack.last {
            case .list(let entry)?: emit(entry.screen.redraw(rows: entry.list.rows, renderer: rowRenderer, noun: noun(of: entry.list)))
            case .post(let entry)?: emit(entry.screen.redraw(detailRenderer))
            case nil: break
            }
        case .back:
            if !session.navigator.pop() { say("Already at the timeline.") }
        case .favourite(let row): toggle(.favourite, row: row, name: .fav)
        case .boost(let row): toggle(.reblog, row: row, name: .boost)
        case .retry: retry()
        default:
            guard case .list(let entry)? = stack.last else {
                say("\(Self.name(of: command)) works on the timeline; type back first.")
                return true
            }
            runOnList(command, entry)
        }
        return true
    }

    private func runOnList(_ command: Command, _ entry: ListEntry) {
        let list = entry.list
        switch command {
        case .more: more(entry)
        case .refresh: list.refresh()
        case .open(let number):
            guard let row = row(number, in: entry) else { return }
            guard let post = row.shownPost else {
                say("Row \(number) is a gap: gap \(number) loads the missing posts.")
                return
            }
            session.navigator.open(post.id)
        case .gap(let number):
            guard let row = row(number, in: entry) else { return }
            guard let gap = row.gap else {
                say("Row \(number) is a post, not a gap; open \(number) shows it.")
                return
            }
            if gap.status == .loading {
                say("Gap \(number) is already loading.")
            } else {
                list.openGap(row.id)
            }
        default: break
        }
    }

    private func more(_ entry: ListEntry) {
        if entry.screen.reveal(options.pageSize, rows: entry.list.rows) > 0 {
            reportDisplayed(entry)
            return
        }
        let status = entry.list.status
        if status.reachedEnd {
            say("End of \(noun(of: entry.list)): there are no older posts.")
        } else {
            entry.screen.owed = options.pageSize
            if status.loading == nil { entry.list.loadMore() }
        }
    }

    private func toggle(_ kind: InteractionKind, row number: Int?, name: CommandName) {
        switch (stack.last, number) {
        case (.post(let entry)?, nil):
            guard entry.detail.toggle(kind) else {
                if case .failed = entry.detail.current.postLoad {
                    say("The post could not be loaded; type retry to load it again.")
                } else {
                    say("The post is still loading; try again when it is shown.")
                }
                return
            }
        case (.post?, _?):
            say("On a post, \(name.rawValue) acts on that post: type \(name.rawValue) alone, or back to pick a row.")
        case (.list(let entry)?, let number?):
            guard let row = row(number, in: entry) else { return }
            guard entry.list.toggle(kind, row: row.id) else {
                say("Row \(number) is a gap: gap \(number) loads the missing posts.")
                return
            }
        case (.list?, nil):
            say(ParseError.missingRow(name).message)
        case (nil, _):
            break
        }
    }

    private func retry() {
        if case .list(let entry)? = stack.last, entry.list.state.olderFailure != nil, entry.screen.viewport.showsAll {
            entry.screen.owed = max(entry.screen.owed, options.pageSize)
        }
        if !session.retry() {
            say(isLoading ? "Still loading; nothing to retry yet." : "Nothing failed; nothing to retry.")
        }
    }

    private var isLoading: Bool {
        switch stack.last {
        case .list(let entry)?: entry.list.status.loading != nil
        case .post(let entry)?: entry.detail.current.postLoad == .loading || entry.detail.current.contextLoad == .loading
        case nil: false
        }
    }

    /// The row shown as `number` on `entry`, or `nil` after saying which rows exist.
    private func row(_ number: Int, in entry: ListEntry) -> ListRow? {
        if let row = entry.screen.viewport.row(number, in: entry.list.rows) { return row }
        say("There is no row \(number). " + rangeSentence())
        return nil
    }

    private func rangeSentence() -> String {
        guard case .list(let entry)? = stack.last else { return "No rows are shown yet." }
        let shown = entry.screen.viewport.shown
        switch shown {
        case 0: return "No rows are shown yet."
        case 1: return "Row 1 is the only row shown."
        default: return "Rows 1–\(shown) are shown."
        }
    }

    // MARK: - Following the session

    /// Keeps one entry per screen of the navigator's stack: entries of screens still there stay
    /// (with what they printed), popped ones go, pushed ones are made.
    private func routesChanged() {
        let screens = session.navigator.screens
        var kept = 0
        while kept < stack.count, kept < screens.count, Self.same(stack[kept], screens[kept]) { kept += 1 }
        stack.removeSubrange(kept...)
        for screen in screens[kept...] {
            switch screen {
            case .list(let list):
                let entry = ListEntry(list)
                if !stack.isEmpty { entry.screen.owed = options.pageSize }
                stack.append(.list(entry))
                entry.subscription = list.snapshot.observe { [weak self, weak entry] snapshot in
                    guard let self, let entry else { return }
                    self.listChanged(entry, snapshot)
                }
            case .post(let detail):
                let entry = PostEntry(detail)
                stack.append(.post(entry))
                entry.subscription = detail.state.observe { [weak self, weak entry] state in
                    guard let self, let entry else { return }
                    entry.screen.receive(state)
                    if self.options.live, self.following, self.isTop(entry) { self.flush() }
                }
            }
        }
    }

    private func listChanged(_ entry: ListEntry, _ snapshot: FeedListViewModel.Snapshot) {
        entry.screen.receive(snapshot)
        reportDisplayed(entry)
        if options.live, following, isTop(entry) { flush() }
    }

    /// Tells a list which rows came into view (this drives prefetching).
    private func reportDisplayed(_ entry: ListEntry) {
        for id in entry.screen.takeDisplayed() { entry.list.rowWillDisplay(id) }
    }

    private func isTop(_ entry: ListEntry) -> Bool {
        if case .list(let top)? = stack.last { return top === entry }
        return false
    }

    private func isTop(_ entry: PostEntry) -> Bool {
        if case .post(let top)? = stack.last { return top === entry }
        return false
    }

    private static func same(_ entry: Entry, _ screen: Screen) -> Bool {
        switch (entry, screen) {
        case (.list(let entry), .list(let list)): entry.list === list
        case (.post(let entry), .post(let detail)): entry.detail === detail
        default: false
        }
    }

    private func noun(of list: FeedListViewModel) -> String {
        switch list.source {
        case .feed: "timeline"
        case .thread: "thread"
        case .notifications: "notifications"
        }
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
