import Feedline

/// The REPL as a library: turns command lines into view-model calls on a ``FeedSession`` and
/// prints what changed — each list's changesets, the open post's changed parts, status lines,
/// failures on other screens — through `write`.
///
/// A thin front: the session's view models hold all state and logic; the driver keeps only what
/// it has printed, per screen on the navigator's stack (any depth). All work happens on the main
/// actor. In *live* mode (interactive) changes that arrive later — a page, a rollback — are
/// written as they arrive; otherwise they are written by ``flush()``, which a script runner calls
/// after ``FeedSession/settle()``, so transcripts do not depend on the order in which concurrent
/// requests finish. Screens beneath the top keep following their view models, so going back to
/// one shows what changed there meanwhile.
@MainActor
public final class REPLDriver {
    /// How the driver draws.
    public struct Options: Sendable {
        /// Rows per screen (`more` and `list` show this many).
        public var pageSize: Int
        /// Columns of the terminal (the starting width when ``followsTerminal`` is set).
        public var width: Int
        /// Draw at the terminal's width as it changes (a resized window), instead of ``width``.
        public var followsTerminal: Bool
        /// Colours, or none.
        public var style: Style
        /// Write changes as they arrive (interactive) instead of at ``flush()`` only.
        public var live: Bool
        /// What is being read, for the greeting ("the home timeline from the fixtures in Fixtures/timeline").
        public var sourceSummary: String
        /// Why a thread may show fewer replies than its post counts (the server's reasons, or
        /// the sandbox's: ``DetailRenderer/sandboxMissingRepliesReason``).
        public var missingRepliesReason = DetailRenderer.serverMissingRepliesReason
        /// Called on the main actor after each command has run, before its output is written:
        /// a front that drives a scripted stream (the sandbox's) delivers what is due there.
        public var afterCommand: (@MainActor @Sendable () -> Void)?
        /// Whether the session keeps its state for the next start (the outbox among it): what
        /// ``close()`` says of taps not sent yet.
        public var keepsState = false
        /// Called on the main actor with ``REPLDriver/completionContext`` whenever it changed: rows
        /// that arrive on any screen (shown or not yet) bring handles and tags, a command changes
        /// the screen on top. An interactive front hands it to its line editor.
        public var completionChanged: (@MainActor @Sendable (CompletionContext) -> Void)?

        /// Options; `pageSize` is at least 1 and `width` at least 20.
        public init(
            pageSize: Int = 10, width: Int = 80, followsTerminal: Bool = false, style: Style = .plain, live: Bool = false,
            sourceSummary: String = "the home timeline from the fixtures in Fixtures/timeline"
        ) {
            self.pageSize = max(1, pageSize)
            self.width = max(20, width)
            self.followsTerminal = followsTerminal
            self.style = style
            self.live = live
            self.sourceSummary = sourceSummary
        }
    }

    /// What `help` depends on: its text is computed once per key.
    private struct HelpKey: Hashable {
        var topic: CommandName?
        var screen: ScreenKind
        var atBottom: Bool
        var title: String
        var width: Int
    }

    private var helpCache: [HelpKey: [String]] = [:]

    /// The REPL's side of one list screen.
    private final class ListEntry {
        let list: FeedListViewModel
        var screen = ListScreen()
        var subscription: Subscription?
        /// How the prompt and `where` name it, when the driver knows better than the feed.
        var title: String?
        /// The thread's note about replies not available here was printed.
        var notedMissingReplies = false
        /// The failure its status showed last, to count new ones.
        var lastFailure: ListStatus.Failure?
        /// The handles and tags of its rows were learnt (all of them from its first snapshot, a
        /// replay that may already hold rows; from each later one what it inserted or updated).
        var learnt = false

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
    private var options: Options
    private let write: @MainActor (String) -> Void
    private let cache = RenderCache()
    private var rowRenderer: RowRenderer
    private var detailRenderer: DetailRenderer
    private var stack: [Entry] = []
    private var subscriptions: [Subscription] = []
    private var started = false
    /// Set once the root list has appeared: live flushes wait for it, so the greeting is not
    /// followed by the empty list's status.
    private var following = false
    /// Lines about other screens (a favourite that failed there), printed with the next flush.
    private var announcements: [String] = []
    /// Lines about the outbox (a tap queued, what a retry sent and how it went), printed after
    /// the screen's changes at the next flush.
    private var reports: [String] = []
    /// The failed attempts last reported per queued post and kind.
    private var reportedQueued: [PostID: [InteractionKind: Int]] = [:]
    /// What `retry` sent and has not answered yet, per post: reported once it has.
    private var retried: [PostID: Set<InteractionKind>] = [:]
    /// Set at `quit` (or the end of input): nothing more is written but the farewell.
    private var ended = false
    /// Notes about the session (the stream's state), written after the screen's changes.
    private var notes: [String] = []
    private var lastStream = StreamState.off
    private var knownFailures: [PostID: InteractionFailure] = [:]
    /// Handles by account id and the hashtags seen, for titles and Tab completion.
    private var handles: [String: String] = [:]
    private var tags: Set<String> = []
    /// What ``Options/completionChanged`` was last told.
    private var toldCompletion: CompletionContext?
    /// Width of the terminal when following it.
    private let terminalWidth: () -> Int

    /// How many commands failed so far: lines that are not commands, commands refused (a row
    /// that does not exist, a command for another screen), and requests they started that failed
    /// (a page, a load, a favourite rolled back) — what `--bail` stops at.
    public private(set) var failures = 0

    /// A driver over `session` that hands each chunk of output (whole lines, each ending in a
    /// newline) to `write`. With `options.followsTerminal`, `terminalWidth` is asked for the
    /// width before each command and flush.
    public init(
        session: FeedSession, options: Options = Options(), terminalWidth: @escaping () -> Int = { 80 },
        write: @escaping @MainActor (String) -> Void
    ) {
        self.session = session
        self.options = options
        self.write = write
        self.terminalWidth = terminalWidth
        rowRenderer = RowRenderer(width: options.width, style: options.style, clock: session.clock, cache: cache)
        detailRenderer = DetailRenderer(width: options.width, style: options.style, clock: session.clock, cache: cache, missingRepliesReason: options.missingRepliesReason)
    }

    // MARK: - Screen on top

    /// The kind of screen on top.
    public var screen: ScreenKind {
        if case .post = session.navigator.top { return .post }
        return .list
    }

    /// The prompt naming the screen on top: `home> `, `@kemi> `, `#pond> `, `thread> `, `post> `…
    public var prompt: String {
        if case .post? = stack.last { return "post> " }
        return title(of: stack.last) + "> "
    }

    /// The stack as a breadcrumb: `home › @kemi › post 1176… › thread`.
    public var breadcrumb: String { stack.map(title).joined(separator: " › ") }

    /// What Tab completes now: the screen's commands, and the hashtags and handles of every row
    /// received so far on any screen of the stack, shown or not (``Options/completionChanged``
    /// is told each change).
    ///
    /// - Complexity: O(h log h + t log t) for h handles and t tags seen (they are sorted).
    public var completionContext: CompletionContext {
        let commands = CommandTable.commands(on: screen, atBottom: stack.count <= 1).map(\.name.rawValue).sorted()
        return CompletionContext(commands: commands, tags: tags.sorted(), handles: Set(handles.values).sorted())
    }

    // MARK: - Running

    /// Greets, starts following the session and makes the root list appear (which loads the first
    /// page; its first screen of rows is shown when it arrives).
    public func start() {
        guard !started else { return }
        started = true
        say("Feedline: \(options.sourceSummary). Type help for the commands.")
        subscriptions.append(session.navigator.routes.observe { [weak self] _ in self?.routesChanged() })
        subscriptions.append(session.store.observe { [weak self] change in self?.postChanged(change) })
        subscriptions.append(session.streamState.observe { [weak self] state in self?.streamChanged(state) })
        session.root.appeared()
        following = true
        flush()
        tellCompletion()
    }

    /// Handles one line: runs the command and writes its immediate output. Returns `false` after
    /// `quit`. A line that is not a command writes one line saying why (and what was meant).
    @discardableResult
    public func handle(_ line: String) -> Bool {
        followTerminal()
        switch CommandParser.parse(line) {
        case .failure(let error):
            var message = error.message
            if case .rowTooLarge = error { message += " " + rangeSentence() }
            refuse(message)
            return true
        case .success(let command):
            let goOn = run(command)
            if command != .nothing, goOn { options.afterCommand?() }
            flush()
            tellCompletion()
            return goOn
        }
    }

    /// Writes what changed since the last flush on the screen on top, then what failed elsewhere.
    public func flush() {
        guard !ended else { return }
        followTerminal()
        if !notes.isEmpty {
            emit(notes.flatMap { TextWidth.wrap($0, to: options.width) }.map(options.style.dim))
            notes.removeAll()
        }
        if let top = stack.last {
            switch top {
            case .list(let entry):
                emit(entry.screen.flush(rows: entry.list.rows, renderer: rowRenderer, wording: wording(of: entry)))
                noteMissingReplies(entry)
            case .post(let entry):
                emit(entry.screen.flush(detailRenderer))
            }
        }
        if !reports.isEmpty {
            emit(reports.flatMap { TextWidth.wrap($0, to: options.width) })
            reports.removeAll()
        }
        if !announcements.isEmpty {
            emit(announcements.flatMap { TextWidth.wrap($0, to: options.width) }.map(options.style.red))
            announcements.removeAll()
        }
    }

    /// Ends the session's output at `quit` or the end of input: waits (up to 2 s, on the
    /// session's retry clock) for favourites, boosts and bookmarks still on their way, then says
    /// which were not sent and what becomes of them — sent at the next start when the session
    /// keeps state (``Options/keepsState``), dropped otherwise. Nothing is written after it.
    public func close() async {
        guard !ended else { return }
        flush()
        ended = true
        let left = await session.finish(waitingAtMost: .seconds(2))
        guard !left.isEmpty else { return }
        let taps = left.map(phrase).joined(separator: "; ")
        let next = options.keepsState
            ? "\(left.count == 1 ? "It is" : "They are") sent at the next start."
            : "This session keeps no state (--state DIR would keep \(left.count == 1 ? "it" : "them")), so \(left.count == 1 ? "it is" : "they are") dropped."
        emit(TextWidth.wrap("Not sent yet: \(taps). \(next)", to: options.width))
    }

    /// Stops following the session.
    public func finish() {
        subscriptions.removeAll()
        stack.removeAll()
    }

    // MARK: - Commands

    private func run(_ command: Command) -> Bool {
        let navigator = session.navigator
        switch command {
        case .nothing: break
        case .quit: return false
        case .help(let topic):
            let key = HelpKey(topic: topic, screen: screen, atBottom: stack.count <= 1, title: title(of: stack.last), width: options.width)
            if helpCache[key] == nil {
                helpCache[key] = HelpText.lines(topic: topic, screen: screen, atBottom: key.atBottom, title: key.title, width: key.width)
            }
            emit(helpCache[key] ?? [])
        case .list(let range):
            switch stack.last {
            case .list(let entry)?:
                emit(entry.screen.redraw(range, pageSize: options.pageSize, rows: entry.list.rows, renderer: rowRenderer, wording: wording(of: entry)))
            case .post(let entry)?: emit(entry.screen.redraw(detailRenderer))
            case nil: break
            }
        case .back:
            if !navigator.pop() { refuse("Already at the bottom screen (\(title(of: stack.first))).") }
        case .top:
            if navigator.depth == 1 { refuse("Already at the bottom screen (\(title(of: stack.first))).") }
            navigator.popToRoot()
        case .whereAmI: say(breadcrumb)
        case .favourite(let row): interact(.favourite, row: row, name: .fav)
        case .boost(let row): interact(.reblog, row: row, name: .boost)
        case .bookmark(let row): interact(.bookmark, row: row, name: .bookmark)
        case .undo(let kind, let row): interact(kind, undo: true, row: row, name: Command.undoName(kind))
        case .show(let row): reveal(row: row)
        case .retry: retry()
        case .thread(let row): openThread(row)
        case .profile(let target): openProfile(target)
        case .tag(let name):
            tags.insert(name)
            navigator.push(.feed(.tag(name)))
        case .screen(let name): openScreen(name)
        case .more, .refresh, .open, .gap, .new:
            guard case .list(let entry)? = stack.last else {
                refuse("\(command.text.split(separator: " ").first ?? "That command") works on a list; type back first.")
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
        case .new:
            if list.status.waiting == 0 {
                // Without live updates (off, or the token refused) only a refresh brings newer ones.
                let live = switch session.streamState.value {
                case .off, .refused: false
                case .connecting, .live, .reconnecting, .polling: true
                }
                say(live ? "Nothing new waits above." : "Nothing new waits above; refresh loads newer \(wording(of: entry).items).")
            } else {
                list.showWaiting()
            }
        case .open(let number):
            guard let row = row(number, in: entry) else { return }
            switch row {
            case .post(let post): session.navigator.open(post.id)
            case .notification(let notification):
                if let post = notification.post {
                    session.navigator.open(post.id)
                } else if let account = notification.group.accounts.first {
                    pushProfile(account)
                } else {
                    refuse("Row \(number) is a notification about nothing to open.")
                }
            case .gap: refuse("Row \(number) is a gap: gap \(number) loads the missing posts.")
            }
        case .gap(let number):
            guard let row = row(number, in: entry) else { return }
            guard let gap = row.gap else {
                refuse("Row \(number) is not a gap; open \(number) shows it.")
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
            say("End of \(wording(of: entry).title): there is nothing older.")
        } else {
            entry.screen.owed = options.pageSize
            if status.loading == nil { entry.list.loadMore() }
        }
    }

    /// `fav`, `boost`, `bookmark` toggle; with `undo` (`unfav` …) the kind is only ever set off,
    /// and a post without it is left alone with a sentence saying so.
    private func interact(_ kind: InteractionKind, undo: Bool = false, row number: Int?, name: CommandName) {
        switch (stack.last, number) {
        case (.post(let entry)?, nil):
            if undo, let interaction = entry.detail.current.interaction, !interaction.isOn(kind) {
                say("This post is not \(Self.participle(kind)); nothing to undo.")
                return
            }
            guard undo ? entry.detail.set(kind, false) : entry.detail.toggle(kind) else {
                if entry.detail.current.deleted {
                    refuse("This post was deleted.")
                } else if case .failed = entry.detail.current.postLoad {
                    refuse("The post could not be loaded; type retry to load it again.")
                } else {
                    refuse("The post is still loading; try again when it is shown.")
                }
                return
            }
        case (.post?, _?):
            refuse("On a post, \(name.rawValue) acts on that post: type \(name.rawValue) alone, or back to pick a row.")
        case (.list(let entry)?, let number?):
            guard let row = row(number, in: entry) else { return }
            if undo, let post = row.shownPost, !post.interaction.isOn(kind) {
                say("Row \(number)'s post is not \(Self.participle(kind)); nothing to undo.")
                return
            }
            guard undo ? entry.list.set(kind, false, row: row.id) : entry.list.toggle(kind, row: row.id) else {
                refuse(row.gap != nil ? "Row \(number) is a gap: gap \(number) loads the missing posts." : "Row \(number) is not about a post.")
                return
            }
        case (.list?, nil):
            refuse(ParseError.missingRow(name).message)
        case (nil, _):
            break
        }
    }

    /// `favourited`, `boosted`, `bookmarked`.
    private static func participle(_ kind: InteractionKind) -> String {
        switch kind {
        case .favourite: "favourited"
        case .reblog: "boosted"
        case .bookmark: "bookmarked"
        }
    }

    /// `show [N]`: reveals a post a filter warns about, everywhere it is shown.
    private func reveal(row number: Int?) {
        switch (stack.last, number) {
        case (.post(let entry)?, nil):
            guard entry.detail.reveal() else {
                refuse(entry.detail.current.post == nil ? "The post is still loading; try again when it is shown." : "No filter hides anything of this post.")
                return
            }
        case (.post?, _?):
            refuse("On a post, show acts on that post: type show alone, or back to pick a row.")
        case (.list(let entry)?, let number?):
            guard let row = row(number, in: entry) else { return }
            guard entry.list.reveal(row: row.id) else {
                refuse(row.shownPost == nil ? "Row \(number) is not about a post." : "No filter hides anything of row \(number).")
                return
            }
        case (.list?, nil):
            refuse(ParseError.missingRow(.show).message)
        case (nil, _):
            break
        }
    }

    private func openThread(_ number: Int?) {
        switch (stack.last, number) {
        case (.post(let entry)?, nil):
            let id = session.store.originalID(of: entry.detail.id) ?? entry.detail.id
            session.navigator.push(.thread(id))
        case (.post?, _?):
            refuse("On a post, thread opens that post's thread: type thread alone, or back to pick a row.")
        case (.list(let entry)?, let number?):
            guard let row = row(number, in: entry) else { return }
            guard let post = row.shownPost else {
                refuse(row.gap != nil ? "Row \(number) is a gap: gap \(number) loads the missing posts." : "Row \(number) is not about a post.")
                return
            }
            session.navigator.push(.thread(post.originalID))
        case (.list?, nil):
            refuse(ParseError.missingRow(.thread).message)
        case (nil, _):
            break
        }
    }

    private func openProfile(_ target: ProfileTarget?) {
        switch (target, stack.last) {
        case (.handle(let handle)?, _):
            let id = AccountID(handle: handle)
            handles[id.rawValue] = handle
            session.navigator.push(.feed(.account(id)))
        case (.row(let number)?, .list(let entry)?):
            guard let row = row(number, in: entry) else { return }
            switch row {
            case .post(let post): pushProfile(post.author)
            case .notification(let notification):
                if let account = notification.group.accounts.first { pushProfile(account) } else { refuse("Row \(number) names no account.") }
            case .gap: refuse("Row \(number) is a gap: gap \(number) loads the missing posts.")
            }
        case (.row?, .post?):
            refuse("On a post, profile opens its author's posts: type profile alone, or back to pick a row.")
        case (nil, .post(let entry)?):
            guard let post = entry.detail.current.post else {
                refuse("The post is still loading; try again when it is shown.")
                return
            }
            pushProfile(post.author)
        case (nil, .list?):
            refuse("profile needs a row number or a handle, for example: profile 3 or profile @kemi@fieldnotes.science.")
        case (_, nil):
            break
        }
    }

    private func pushProfile(_ author: Author) {
        handles[author.id] = author.handle
        session.navigator.push(.feed(.account(AccountID(author.id))))
    }

    private func openScreen(_ name: CommandName) {
        let navigator = session.navigator
        switch name {
        case .notifications: navigator.push(.notifications)
        case .bookmarks: navigator.push(.feed(.bookmarks))
        case .favourites: navigator.push(.feed(.favourites))
        case .home, .local, .public:
            let feed: Feed = name == .home ? .home : name == .local ? .local : .public
            if session.root.source == .feed(feed) {
                if navigator.depth > 1 {
                    navigator.popToRoot()
                } else {
                    refuse("Already on \(feed.title).")
                }
                return
            }
            // Said first: the new root starts loading (and says so) as it appears.
            say("Switched to \(feed.title).")
            navigator.replaceRoot(feed)
        default: break
        }
    }

    private func retry() {
        if case .list(let entry)? = stack.last, entry.list.state.olderFailure != nil, entry.screen.viewport.showsAll {
            entry.screen.owed = max(entry.screen.owed, options.pageSize)
        }
        let sending = session.store.retryableInteractions
        if !session.retry() {
            say(isLoading ? "Still loading; nothing to retry yet." : "Nothing failed; nothing to retry.")
            return
        }
        guard !sending.isEmpty else { return }
        for entry in sending { retried[entry.postID, default: []].insert(entry.kind) }
        say("Sending again: " + sending.map(phrase).joined(separator: "; ") + ".")
    }

    /// `your favourite of Nadia Petrova's post`, `your unboost of post 1176…`.
    private func phrase(_ entry: OutboxEntry) -> String {
        let owner = session.store.post(entry.postID).map { TextWidth.oneLine($0.author.name) + "'s post" } ?? "post \(entry.postID.rawValue)"
        return "your \(Self.noun(entry.kind, entry.value)) of \(owner)"
    }

    /// `favourite`, `unfavourite`, `boost`, `unboost`, `bookmark`, `bookmark removal`.
    private static func noun(_ kind: InteractionKind, _ value: Bool) -> String {
        switch (kind, value) {
        case (.favourite, true): "favourite"
        case (.favourite, false): "unfavourite"
        case (.reblog, true): "boost"
        case (.reblog, false): "unboost"
        case (.bookmark, true): "bookmark"
        case (.bookmark, false): "bookmark removal"
        }
    }

    /// Says why a tap waits and when it is sent again, each time it is queued or fails again,
    /// and how a tap `retry` sent went once it answered.
    private func reportOutbox(_ change: PostChange) {
        let id = change.originalID
        var reported = reportedQueued[id] ?? [:]
        for queued in change.interaction.queuedChanges {
            guard let wait = queued.retryAfter, reported[queued.kind] != queued.failedAttempts else { continue }
            reported[queued.kind] = queued.failedAttempts
            retried[id]?.remove(queued.kind)
            let tap = phrase(OutboxEntry(postID: id, kind: queued.kind, value: queued.value))
            reports.append(
                "\(tap.prefix(1).uppercased() + tap.dropFirst()) is queued: \(RowRenderer.sentence(queued.reason)) Sent again in \(Self.span(wait)), or type retry."
            )
        }
        for kind in reported.keys where !change.interaction.queued.contains(kind) { reported[kind] = nil }
        reportedQueued[id] = reported.isEmpty ? nil : reported
        guard let kinds = retried[id] else { return }
        for kind in kinds where !change.interaction.pending.contains(kind) {
            retried[id]?.remove(kind)
            // A refusal shows on the row (or is announced); only a success is said here.
            if change.interaction.failure?.kind != kind {
                reports.append("Sent: " + phrase(OutboxEntry(postID: id, kind: kind, value: change.interaction.isOn(kind))) + ".")
            }
        }
        if retried[id]?.isEmpty == true { retried[id] = nil }
    }

    private var isLoading: Bool {
        switch stack.last {
        case .list(let entry)?: entry.list.status.loading != nil
        case .post(let entry)?: entry.detail.current.postLoad == .loading || entry.detail.current.contextLoad == .loading
        case nil: false
        }
    }

    /// The row shown as `number` on `entry` — the row printed with that number last, even if it
    /// moved since — or `nil` after saying that it was removed, or which rows exist.
    private func row(_ number: Int, in entry: ListEntry) -> ListRow? {
        switch entry.screen.viewport.lookup(number, in: entry.list.rows) {
        case .row(let row):
            return row
        case .removed(let row):
            refuse("Row \(number) was removed (\(ListScreen.describe(row))); list shows the rows as they are now.")
        case .none:
            refuse("There is no row \(number). " + rangeSentence())
        }
        return nil
    }

    private func rangeSentence() -> String {
        guard case .list(let entry)? = stack.last else { return "This screen has no rows." }
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
                // Every list shows its first screen of rows when they come, the root at start too.
                if !stack.isEmpty || started { entry.screen.owed = options.pageSize }
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
                    if state.failure != nil, entry.screen.state?.failure != state.failure { self.failures += 1 }
                    entry.screen.receive(state)
                    if self.options.live, self.following, self.isTop(entry) { self.flush() }
                }
            }
        }
    }

    private func listChanged(_ entry: ListEntry, _ snapshot: FeedListViewModel.Snapshot) {
        let failure = snapshot.status.failure
        if let failure, entry.lastFailure != failure { failures += 1 }
        entry.lastFailure = failure
        if learn(from: snapshot, all: !entry.learnt) { tellCompletion() }
        entry.learnt = true
        entry.screen.receive(snapshot)
        reportDisplayed(entry)
        if options.live, following, isTop(entry) { flush() }
    }

    /// Tells a list which rows came into view (this drives prefetching).
    private func reportDisplayed(_ entry: ListEntry) {
        for id in entry.screen.takeDisplayed() { entry.list.rowWillDisplay(id) }
    }

    /// Says how live updates arrive when that changes (after the first screen).
    private func streamChanged(_ state: StreamState) {
        defer { lastStream = state }
        guard following, state != lastStream else { return }
        let note: String? = switch state {
        case .off, .connecting: nil
        case .live: lastStream == .connecting || lastStream == .off
            ? "Live: newer posts wait above the rows; newer shows them."
            : "The stream is back; catching up on what came meanwhile."
        case .reconnecting(let after, let attempt):
            "The stream dropped; reconnecting " + (after > .zero ? "in \(Self.seconds(after)) (attempt \(attempt))." : "now.")
        case .polling(let every): "No live stream here; checking for new posts every \(Self.seconds(every))."
        case .refused(let message): message
        }
        guard let note else { return }
        notes.append(note)
        if options.live { flush() }
    }

    /// `2 seconds`, `1 minute`, `5 minutes`, `90 seconds`: words, so that a narrow screen never
    /// wraps a number away from its unit.
    private static func span(_ duration: Duration) -> String {
        let seconds = max(0, Int(duration.components.seconds))
        if seconds >= 60, seconds.isMultiple(of: 60) { return seconds == 60 ? "1 minute" : "\(seconds / 60) minutes" }
        return seconds == 1 ? "1 second" : "\(seconds) seconds"
    }

    /// `5 s`, `1 min`, `90 s`.
    private static func seconds(_ duration: Duration) -> String {
        let seconds = Int(duration.components.seconds)
        return seconds >= 60 && seconds.isMultiple(of: 60) ? "\(seconds / 60) min" : "\(seconds) s"
    }

    /// Remembers a failed interaction on a post no screen on top shows, to say so where the
    /// user is.
    private func postChanged(_ change: PostChange) {
        reportOutbox(change)
        if !reports.isEmpty, options.live, following { flush() }
        guard let failure = change.interaction.failure else {
            knownFailures[change.originalID] = nil
            return
        }
        guard knownFailures[change.originalID] != failure else { return }
        knownFailures[change.originalID] = failure
        failures += 1
        if topShows(change.originalID) { return }
        let author = TextWidth.oneLine(change.post.author.name)
        announcements.append(
            "! On another screen, the post by \(author): \(RowRenderer.sentence(failure.message))" + (failure.isTransient ? " Type retry to try again." : "")
        )
        if options.live, following { flush() }
    }

    private func topShows(_ originalID: PostID) -> Bool {
        switch stack.last {
        case .post(let entry)?:
            return (session.store.originalID(of: entry.detail.id) ?? entry.detail.id) == originalID
        case .list(let entry)?:
            let rows = entry.list.rows
            let shown = min(entry.screen.viewport.shown, rows.count)
            return rows[0..<shown].contains { $0.shownPost?.originalID == originalID }
        case nil:
            return false
        }
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

    /// Remembers the handles and tags of rows a snapshot brought (for Tab completion), shown or
    /// not: every row when `all` (a list's first snapshot replays rows it may already hold, such as
    /// a restored timeline's), else the inserted and updated rows only, so a long list costs
    /// nothing per command. Returns whether a handle or tag was new.
    private func learn(from snapshot: FeedListViewModel.Snapshot, all: Bool) -> Bool {
        let before = (handles: handles.count, tags: tags.count)
        func remember(_ row: ListRow) {
            switch row {
            case .post(let post):
                handles[post.author.id] = post.author.handle
                if let booster = post.boostedBy { handles[booster.id] = booster.handle }
                for tag in post.content.tags { tags.insert(tag) }
            case .notification(let notification):
                for account in notification.group.accounts { handles[account.id] = account.handle }
                for tag in notification.post?.content.tags ?? [] { tags.insert(tag) }
            case .gap: break
            }
        }
        if all {
            for row in snapshot.rows { remember(row) }
            return handles.count != before.handles || tags.count != before.tags
        }
        // An updated row keeps its author and booster (an edit can bring new tags, though).
        for row in snapshot.changes.updates.lazy.map(\.element) {
            for tag in row.post?.content.tags ?? [] { tags.insert(tag) }
        }
        for row in snapshot.changes.insertions.lazy.map(\.element) { remember(row) }
        return handles.count != before.handles || tags.count != before.tags
    }

    /// Hands the completion context to ``Options/completionChanged`` when it differs from what
    /// it was told last.
    private func tellCompletion() {
        guard let completionChanged = options.completionChanged else { return }
        let context = completionContext
        guard context != toldCompletion else { return }
        toldCompletion = context
        completionChanged(context)
    }

    /// In a thread that shows fewer replies than its post counts, says once why.
    private func noteMissingReplies(_ entry: ListEntry) {
        guard case .thread = entry.list.source, !entry.notedMissingReplies, entry.list.status.loading == nil else { return }
        let rows = entry.list.rows.compactMap(\.post)
        guard let focus = rows.first(where: { $0.thread?.isFocus == true }) else { return }
        entry.notedMissingReplies = true
        let shown = rows.count { ($0.thread?.depth ?? 0) > 0 }
        let counted = focus.repliesCount
        guard counted > shown else { return }
        emit(rowRenderer.note(DetailRenderer.missingReplies(counted: counted, shown: shown, reason: options.missingRepliesReason)))
    }

    // MARK: - Names

    private func title(of entry: Entry?) -> String {
        switch entry {
        case .list(let entry)?:
            if let title = entry.title { return title }
            switch entry.list.source {
            case .feed(.home): return "home"
            case .feed(.local): return "local"
            case .feed(.public): return "public"
            case .feed(.tag(let name)): return "#" + name
            case .feed(.account(let id)):
                if let handle = id.handle ?? handles[id.rawValue] { return "@" + (handle.split(separator: "@").first.map(String.init) ?? handle) }
                return "profile"
            case .feed(.bookmarks): return "bookmarks"
            case .feed(.favourites): return "favourites"
            case .feed(.list(let id)): return "list " + id
            case .thread: return "thread"
            case .notifications: return "notifications"
            }
        case .post(let entry)?:
            guard let author = entry.detail.current.post?.content.author else { return "a post" }
            return "@" + (author.handle.split(separator: "@").first.map(String.init) ?? author.handle) + "'s post"
        case nil:
            return "home"
        }
    }

    private func wording(of entry: ListEntry) -> ListWording {
        switch entry.list.source {
        case .feed(.account): ListWording(title: "this profile", loading: "the profile", empty: "No posts on this profile.", end: "profile")
        case .feed(.bookmarks): ListWording(title: "your bookmarks", loading: "your bookmarks", empty: "No bookmarks yet.", end: "bookmarks")
        case .feed(.favourites): ListWording(title: "your favourites", loading: "your favourites", empty: "No favourites yet.", end: "favourites")
        case .feed(.tag(let name)):
            ListWording(title: "#" + name, loading: "#" + name, empty: "No posts with #\(name).", end: "#" + name)
        case .feed: ListWording(title: "the timeline", loading: "the timeline", empty: "The timeline is empty.", end: "timeline")
        case .thread: ListWording(title: "the thread", loading: "the thread", empty: "The thread is empty.", end: "thread")
        case .notifications:
            ListWording(title: "your notifications", loading: "your notifications", empty: "No notifications.", end: "notifications", items: "notifications")
        }
    }

    /// Draws at the terminal's width when following it and it changed.
    private func followTerminal() {
        guard options.followsTerminal else { return }
        let width = max(20, terminalWidth())
        guard width != options.width else { return }
        options.width = width
        rowRenderer = RowRenderer(width: width, style: options.style, clock: session.clock, cache: cache)
        detailRenderer = DetailRenderer(width: width, style: options.style, clock: session.clock, cache: cache, missingRepliesReason: options.missingRepliesReason)
    }

    // MARK: - Output

    private func say(_ line: String) {
        emit(TextWidth.wrap(line, to: options.width))
    }

    /// Says why a command was not carried out, and counts it as failed.
    private func refuse(_ line: String) {
        failures += 1
        say(line)
    }

    private func emit(_ lines: [String]) {
        guard !lines.isEmpty else { return }
        write(lines.joined(separator: "\n") + "\n")
    }
}
