@_spi(FeedService) import Feedline

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
        /// Where the session keeps its state for the next start (drafts and the outbox among
        /// it): what ``close()`` says of drafts and taps not sent yet.
        public var keeping = Keeping.nothing
        /// Whether the session keeps its state in a file (``keeping`` is ``Keeping/file(unwritten:)``).
        public var keepsState: Bool {
            if case .file = keeping { return true }
            return false
        }
        /// Called on the main actor with ``REPLDriver/completionContext`` whenever it changed: rows
        /// that arrive on any screen (shown or not yet) bring handles and tags, a command changes
        /// the screen on top. An interactive front hands it to its line editor.
        public var completionChanged: (@MainActor @Sendable (CompletionContext) -> Void)?
        /// Opens the user's editor on a draft's text, with context lines to show below it, and
        /// returns the text left (or why not). An interactive front with `$VISUAL` or `$EDITOR`
        /// sets it; without it, `post` and `reply` take the draft's lines inline.
        /// Told the prompt when it changes other than by a command's return (a draft that
        /// starts taking lines once the account is known). An interactive front shows it.
        public var promptChanged: (@MainActor @Sendable (TerminalText) -> Void)?
        public var editor: (@MainActor (_ text: String, _ context: [String], _ name: String) -> Result<String, DraftEditor.EditorFailure>)?
        /// Opens a web address in the user's browser and names the program that does (or says
        /// why not). An interactive front sets it (``Browser``); without it, `browse` refuses
        /// and prints the address.
        public var openURL: (@MainActor (String) -> Result<String, Browser.Failure>)?
        /// Ask the server for its announcements at the start and, when some are unread, say how
        /// many and the command that shows them (once; the first page does not wait for it).
        public var announcesUnread = false
        /// The stored accounts `account` lists, completes and switches between (by default
        /// none: the sandbox's sentence).
        public var accounts = AccountChoices.sandbox
        /// Opens the session of the account `account NAME` chose, beside the one in use, and
        /// returns it with its driver's options (made from the options given) and the hook that
        /// finishes the one in use (``AccountSwitch/begin``); or why it could not be opened (the
        /// session in use goes on). A runner calls it; without it, `account NAME` is refused.
        public var openAccount: (@MainActor @Sendable (_ account: String, _ options: Options) async -> Result<AccountSwitch, AccountRefusal>)?

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

    /// Where a session keeps its state, for what ``close()`` says is kept.
    public enum Keeping: Sendable {
        /// No state is kept (`--no-state`; a script without `--state`).
        case nothing
        /// State was asked for, but its file could not be opened (said at start): nothing is kept.
        case unavailable
        /// Kept in a file. `unwritten` says, when asked (after trying once more), why something
        /// is not written there — a sentence part — or `nil` when everything is.
        case file(unwritten: @MainActor @Sendable () -> String?)
    }

    /// What `help` depends on: its text is computed once per key.
    struct HelpKey: Hashable {
        var topic: CommandName?
        var group: CommandGroup?
        var traits: Set<ScreenTrait>?
        var screen: ScreenKind
        var atBottom: Bool
        var title: String
        var width: Int
    }

    var helpCache: [HelpKey: [String]] = [:]

    /// The REPL's side of one list screen.
    final class ListEntry {
        let list: FeedListViewModel
        var screen = ListScreen()
        var subscription: Subscription?
        /// Follows the profile header (a profile list only).
        var headerSubscription: Subscription?
        /// How the prompt and `where` name it, when the driver knows better than the feed.
        var title: String?
        /// The thread's note about replies not available here was printed.
        var notedMissingReplies = false
        /// The failure its status showed last, to count new ones.
        var lastFailure: ListStatus.Failure?
        /// The handles and tags of its rows were learnt (all of them from its first snapshot, a
        /// replay that may already hold rows; from each later one what it inserted or updated).
        var learnt = false
        /// The profile's header was printed (a profile list only).
        var headerShown = false
        /// Who the header said the account is when it was last printed (an edit of your own
        /// profile prints it again).
        var headerProfile: Profile?
        /// The relationship line printed last under it.
        var relationshipLine: String?
        /// A reload runs: when it lands, the screen starts over from its first rows.
        var reloading = false
        /// The person typed `reload` here (a reload that was not asked for says why it came).
        var reloadAsked = false
        /// It was loaded again by itself (an unmute or unblock): said before its rows next show.
        var reloadedUnasked = false

        init(_ list: FeedListViewModel) { self.list = list }
    }

    /// The REPL's side of one post screen.
    final class PostEntry {
        let detail: PostDetailViewModel
        var screen = DetailScreen()
        var subscription: Subscription?

        init(_ detail: PostDetailViewModel) { self.detail = detail }
    }

    enum Entry {
        case list(ListEntry)
        case post(PostEntry)
    }

    let session: FeedSession
    var options: Options
    let write: @MainActor (TerminalText) -> Void
    let cache = RenderCache()
    var rowRenderer: RowRenderer
    var detailRenderer: DetailRenderer
    var stack: [Entry] = []
    var subscriptions: [Subscription] = []
    var started = false
    /// Set once the root list has appeared: live flushes wait for it, so the greeting is not
    /// followed by the empty list's status.
    var following = false
    /// Lines about other screens (a favourite that failed there), printed with the next flush.
    var announcements: [String] = []
    /// Lines about the outbox (a tap queued, what a retry sent and how it went), printed after
    /// the screen's changes at the next flush.
    var reports: [String] = []
    /// The failed attempts last reported per queued post and kind.
    var reportedQueued: [PostID: [InteractionKind: Int]] = [:]
    /// What `retry` sent and has not answered yet, per post: reported once it has.
    var retried: [PostID: Set<InteractionKind>] = [:]
    /// Set at `quit` (or the end of input): nothing more is written but the farewell.
    var ended = false
    /// Notes about the session (the stream's state), written after the screen's changes.
    var notes: [String] = []
    var lastStream = StreamState.off
    var knownFailures: [PostID: InteractionFailure] = [:]
    /// Handles by account id and the hashtags seen, for titles and Tab completion.
    var handles: [String: String] = [:]
    /// The instance's rules, once read this session (`rules`, `report --rules`).
    var instanceRules: [InstanceRule]?
    /// How a change on a post typed here named it ("row 3's post", an excerpt), and the text
    /// typed with it, for the sentence its ``Outcome`` says (see `REPLDriver+Outcomes.swift`).
    var askedOnPosts: [AskedOnPost: (what: String, text: String?)] = [:]
    /// How each notification group dismissed here was named ("row 3's notification (…)"), for
    /// the sentence its ``Outcome`` says; `asked clear` for a clear typed here.
    var dismissedNotifications: [String: String] = [:]
    /// How each request of filtered notifications answered here was named ("@ana's filtered
    /// notifications", or one of `accept --all`), by its id, for the sentence its ``Outcome`` says.
    var answeredRequests: [String: AskedByName] = [:]
    var askedClear = false
    /// How each announcement marked read here was named ("row 2's announcement “…”", or one of
    /// `announcements read --all`), by its id, for the sentence its ``Outcome`` says.
    var readAnnouncements: [String: AskedByName] = [:]
    /// A `lists` command that names a list by name, waiting for the lists to load.
    var listsCommandWaiting: ListsCommand?
    var tags: Set<String> = []
    /// The draft whose lines are being typed (after `post` or `reply` alone). It may start after
    /// the command returned (a reply waits for the account): the front hears the new prompt.
    var writing: Writing? {
        didSet {
            guard (oldValue == nil) != (writing == nil) else { return }
            options.promptChanged?(prompt)
            tellCompletion()
        }
    }
    /// A question asked in a live session (`notifications clear`, `report`), answered by the next
    /// line (see `REPLDriver+Confirmation.swift`).
    var confirming: Confirmation? {
        didSet {
            guard (oldValue == nil) != (confirming == nil) else { return }
            options.promptChanged?(prompt)
        }
    }
    /// Set while a scripted command runs, from ``handle(_:)`` until the ``flush()`` after its
    /// effects settled: what is said once per command waits for that flush.
    var commandOpen = false
    /// What commands said they started ("Muting @kemi…"), waiting for the command's last flush:
    /// written there only if still on its way, so a change the server answered within the
    /// command is one line (its outcome).
    var progressLines: [(line: String, isPending: () -> Bool)] = []
    /// Accounts whose relationship change was reported in the output being gathered: a profile
    /// header on top does not print its relationship line again for it.
    var relationshipsReported: Set<AccountID> = []
    /// Refusals already printed once (see `REPLDriver+Refusals.swift`), and those printed in
    /// the output being gathered.
    var seenRefusals: Set<Refusal> = []
    var refusalsShown: Set<Refusal> = []
    /// What ``Options/completionChanged`` was last told.
    var toldCompletion: CompletionContext?
    /// Width of the terminal when following it.
    let terminalWidth: () -> Int

    /// The account `account NAME` asked to switch to: the runner opens it
    /// (``Options/openAccount``), closes this driver (``leave(for:)``) and goes on with it.
    public internal(set) var accountAsked: String?

    /// How many commands failed so far: lines that are not commands, commands refused (a row
    /// that does not exist, a command for another screen), and requests they started that failed
    /// (a page, a load, a favourite rolled back) — what `--bail` stops at.
    public internal(set) var failures = 0

    /// A driver over `session` that hands each chunk of output (whole lines, each ending in a
    /// newline, made safe for a terminal: ``TerminalText``) to `write`. With
    /// `options.followsTerminal`, `terminalWidth` is asked for the width before each command and
    /// flush.
    public init(
        session: FeedSession, options: Options = Options(), terminalWidth: @escaping () -> Int = { 80 },
        write: @escaping @MainActor (TerminalText) -> Void
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
    /// (a handle or a hashtag the server chose, made safe), after the account's name when the
    /// session is signed in to a stored account (`kemi@mastodon.social home> `) or on another
    /// identity of the sandbox (`kemi@sandbox home> `, ``AccountChoices/promptName``).
    public var prompt: TerminalText {
        if let writing { return TerminalText(composePrompt(writing)) }
        if confirming != nil { return "[y/N]> " }
        let account = options.accounts.promptName.map { $0 + " " } ?? ""
        if case .post? = stack.last { return TerminalText(account + "post> ") }
        return TerminalText(account + title(of: stack.last) + "> ")
    }

    /// The stack as a breadcrumb: `home › @kemi › post 1176… › thread` (made safe).
    public var breadcrumb: TerminalText { TerminalText(stack.map(title).joined(separator: " › ")) }

    /// What Tab completes now: the screen's commands, and the hashtags and handles of every row
    /// received so far on any screen of the stack, shown or not (``Options/completionChanged``
    /// is told each change); while a draft takes lines, its words, and what the server
    /// suggested (``lookUp(_:)``).
    ///
    /// - Complexity: O(h log h + t log t) for h handles and t tags seen (they are sorted).
    public var completionContext: CompletionContext {
        let commands = CommandTable.commands(on: screen, atBottom: stack.count <= 1, traits: screenTraits).map(\.name.rawValue).sorted()
        var context = CompletionContext(commands: commands, tags: tags.sorted(), handles: Set(handles.values).sorted())
        context.lists = session.lists.lists.filter { !$0.isProvisional }.map(\.title)
        if options.accounts.unavailable == nil { context.accounts = options.accounts.names }
        let suggestions = session.suggestions
        context.writing = writing != nil
        context.foundHandles = suggestions.handles
        context.searched = suggestions.searched
        context.moreTags = suggestions.tags
        context.emoji = suggestions.emoji
        return context
    }

    /// Asks the server what completes a word (see ``Completion/lookup(line:word:context:)``):
    /// once it answers, ``Options/completionChanged`` hears the new context.
    package func lookUp(_ request: ComposeSuggestions.Request) {
        session.suggestions.load(request) { [weak self] in self?.tellCompletion() }
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
        subscriptions.append(session.observeOutcomes { [weak self] outcome in self?.outcomeHeard(outcome) })
        subscriptions.append(session.lists.observe { [weak self] change in self?.listsChanged(change) })
        subscriptions.append(session.streamState.observe { [weak self] state in self?.streamChanged(state) })
        followDrafts()
        session.root.appeared()
        if options.announcesUnread { countUnreadAnnouncements() }
        following = true
        flush()
        tellCompletion()
    }

    /// Handles one line: runs the command and writes its immediate output. Returns `false` after
    /// `quit`. A line that is not a command writes one line saying why (and what was meant).
    @discardableResult
    public func handle(_ line: String) -> Bool {
        followTerminal()
        if takeConfirmation(line) {
            flush()
            return true
        }
        if takeDraftLine(line) {
            flush()
            return true
        }
        switch CommandParser.parse(line) {
        case .failure(let error):
            var message = error.message
            if case .rowTooLarge = error { message += " " + rangeSentence() }
            refuse(message)
            return true
        case .success(let command):
            commandOpen = !options.live
            let goOn = run(command)
            if command != .nothing, goOn { options.afterCommand?() }
            flush(final: !commandOpen)
            tellCompletion()
            return goOn
        }
    }

    /// Writes what changed since the last flush on the screen on top, then what failed elsewhere
    /// — the last output of a command whose effects settled (a script runner calls it after
    /// ``FeedSession/settle()``), or of something that arrived by itself.
    public func flush() {
        commandOpen = false
        flush(final: true)
    }

    /// Writes what changed since the last flush. Only a `final` flush says what is said once
    /// per command: that rows moved, and what a command started that is still on its way.
    func flush(final: Bool) {
        guard !ended else { return }
        followTerminal()
        if final, !progressLines.isEmpty {
            emit(progressLines.filter { $0.isPending() }.flatMap { TextWidth.wrap($0.line, to: options.width) })
            progressLines.removeAll()
        }
        if !notes.isEmpty {
            emit(notes.flatMap(wrapped).map(options.style.dim))
            notes.removeAll()
        }
        if let top = stack.last {
            switch top {
            case .list(let entry):
                if entry.reloadedUnasked {
                    entry.reloadedUnasked = false
                    emit(rowRenderer.note("\(title(of: top)) loaded again from the top: posts it had left out are back (of an account you unmuted or unblocked, boosts you show again, or what a filter you changed no longer hides)."))
                }
                emit(profileLines(entry))
                emit(tagHeaderLines(entry))
                // An account row whose change the person asked for is printed once, as it settles
                // (live, the outcome is reported just before the row hears of it).
                var holding = Set(session.relationships.unsent.lazy.map { RowID.account($0.account) })
                if options.live { holding.formUnion(relationshipsReported.lazy.map(RowID.account)) }
                emit(entry.screen.flush(
                    rows: entry.list.rows, renderer: rowRenderer, wording: wording(of: entry), final: final, holding: holding, present: present
                ))
                noteMissingReplies(entry)
            case .post(let entry):
                emit(entry.screen.flush(detailRenderer))
            }
        }
        if !reports.isEmpty {
            emit(reports.flatMap(wrapped))
            reports.removeAll()
        }
        if !announcements.isEmpty {
            emit(announcements.flatMap(wrapped).map(options.style.red))
            announcements.removeAll()
        }
        relationshipsReported.removeAll()
        markRefusalsSeen()
    }

    /// Says what a command started: at once in a live session; in a script at the command's
    /// last flush, and only if `isPending` still holds there (else its outcome says it all).
    func progress(_ line: String, while isPending: @escaping () -> Bool) {
        if options.live || !commandOpen {
            say(line)
        } else {
            progressLines.append((line, isPending))
        }
    }

    /// Ends the session's output at `quit` or the end of input: waits (up to 2 s, on the
    /// session's retry clock) for favourites, boosts and bookmarks still on their way, then says
    /// which were not sent and what becomes of them — sent at the next start when the session
    /// keeps state (``Options/keepsState``), dropped otherwise. Nothing is written after it.
    public func close() async {
        await close(nextTime: "at the next start")
    }

    /// Ends the session's output before the runner switches to `account`: as ``close()``, but
    /// what is kept waits for this account to be opened again.
    public func leave(for account: String) async {
        await close(nextTime: "when \(options.accounts.current.map(options.accounts.spoken) ?? "this account") is opened again")
    }

    private func close(nextTime: String) async {
        guard !ended else { return }
        if let current = writing {
            // A draft being written is kept as typed (each line already is), unless nothing was.
            writing = nil
            if nothingWritten(current) { session.drafts.discard(current.draft) }
        }
        flush()
        ended = true
        let left = await session.finish(waitingAtMost: .seconds(2))
        let posts = session.drafts.all.filter(\.isInFlight)
        let items = left.map(phrase) + posts.map { "the post \(Self.excerpt($0.draft.text)), \(Self.closingPhrase($0.phase))" }
        // Asked once, after trying to write once more: "kept" only for what is written.
        var unwritten: String?
        if case .file(let ask) = options.keeping { unwritten = ask() }
        if !items.isEmpty {
            let them = items.count == 1 ? "it" : "them"
            let next: String
            switch options.keeping {
            case .file where unwritten == nil:
                next = "\(items.count == 1 ? "It is" : "They are") sent \(nextTime)\(posts.isEmpty ? "" : ", each post with its own key, so none is posted twice")."
            case .file:
                next = "\(unwritten ?? ""), so \(items.count == 1 ? "it is" : "they are") not kept for the next start."
            case .unavailable:
                next = "The state file could not be used (said at the start), so \(items.count == 1 ? "it is" : "they are") not kept for the next start."
            case .nothing:
                next = "This session keeps no state (--state DIR would keep \(them)), so \(items.count == 1 ? "it is" : "they are") dropped."
            }
            emit(wrapped("Not sent yet: \(items.joined(separator: "; ")). \(next)"))
        }
        let relationships = session.relationships.unsent.map { change in
            "\(change.kind.verb(change.value)) @\(handles[change.account.rawValue] ?? change.account.rawValue)"
        }
        if !relationships.isEmpty {
            emit(wrapped(
                "Not confirmed by the server: \(relationships.joined(separator: "; ")). Relationship changes are not kept between sessions: check the profile\(relationships.count == 1 ? "" : "s") next time."))
        }
        let domains = session.domainBlocks.unsent.map { "\($0.blocked ? "block" : "unblock") the domain \($0.domain)" }
        let tags = session.tags.unsent.map { "\($0.following ? "follow" : "unfollow") #\($0.tag)" }
        if !domains.isEmpty || !tags.isEmpty {
            let check = [domains.isEmpty ? nil : "domains", tags.isEmpty ? nil : "tags"].compactMap { $0 }.joined(separator: " and ")
            emit(wrapped(
                "Not confirmed by the server: \((domains + tags).joined(separator: "; ")). They are not kept between sessions: \(check) shows where they stand next time."))
        }
        // Each store's changes the server has not confirmed, and where to see where they stand.
        let unconfirmed: [(changes: [String], next: String)] = [
            (session.lists.unsent, "List changes are not kept between sessions: lists shows where they stand next time."),
            (session.filters.unsent, "Filter changes are not kept between sessions: filters shows where they stand next time."),
            (
                session.announcements.unsent.map { "mark \(session.announcements.name($0)) read" },
                "They are not kept between sessions: announcements shows where they stand next time."
            ),
            (session.notificationRequests.unsent, "They are not kept between sessions: notifications filtered shows what waits next time."),
            (session.notificationPolicies.unsent, "They are not kept between sessions: notifications policy shows where it stands next time."),
            (session.scheduled.unsent, "They are not kept between sessions: scheduled shows where they stand next time."),
            (session.ownProfile.unsent, "It is not kept between sessions: profile shows where it stands next time."),
        ]
        for (changes, next) in unconfirmed where !changes.isEmpty {
            emit(wrapped("Not confirmed by the server: \(changes.joined(separator: "; ")). \(next)"))
        }
        let drafts = session.drafts.all.filter(\.isEditable).count
        if drafts > 0 {
            let which = drafts == 1 ? "1 draft" : "\(drafts) drafts"
            let sentence = switch options.keeping {
            case .file where unwritten == nil: "\(which) kept: drafts lists \(drafts == 1 ? "it" : "them") \(nextTime)."
            case .file: "\(which) not kept: \(unwritten ?? "the state file could not be written")."
            case .unavailable: "\(which) not kept: the state file could not be used (said at the start)."
            case .nothing: "\(which) not kept: this session keeps no state (--state DIR would)."
            }
            emit(TextWidth.wrap(sentence, to: options.width))
        }
    }

    /// Where a post on its way stands as the session ends: as ``phrase(_:refusal:)`` says it,
    /// but a queued post's reason without when it is tried next (this session will not try).
    static func closingPhrase(_ phase: Submission.Phase) -> String {
        guard case .queued(let why, _, _) = phase else { return phrase(phase, refusal: nil) }
        var reason = TextWidth.oneLine(why).trimmingCharacters(in: .whitespaces)
        while let last = reason.last, ".!".contains(last) { reason.removeLast() }
        return reason.isEmpty ? "queued" : "queued (\(reason))"
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
            help(HelpKey(topic: topic, traits: screenTraits, screen: screen, atBottom: stack.count <= 1, title: title(of: stack.last), width: options.width))
        case .helpGroup(let group):
            help(HelpKey(group: group, traits: screenTraits, screen: screen, atBottom: stack.count <= 1, title: title(of: stack.last), width: options.width))
        case .list(let range):
            switch stack.last {
            case .list(let entry)?:
                emit(entry.screen.redraw(range, pageSize: options.pageSize, rows: entry.list.rows, renderer: rowRenderer, wording: wording(of: entry), present: present))
                markRefusalsSeen()
            case .post(let entry)?:
                // list all: the whole text of a long post, every line.
                var renderer = detailRenderer
                if range == .all { renderer.textLineLimit = nil }
                emit(entry.screen.redraw(renderer))
            case nil: break
            }
        case .back:
            if !navigator.pop() { refuse("Already at the bottom screen (\(title(of: stack.first))).") }
        case .top:
            if navigator.depth == 1 { refuse("Already at the bottom screen (\(title(of: stack.first))).") }
            navigator.popToRoot()
        case .whereAmI: say(breadcrumb.text)
        case .post(let text): post(text)
        case .reply(let row, let text): reply(row: row, text: text)
        case .quotePost(let row, let text): quotePost(row: row, text: text)
        case .delete(let row, let confirmed): delete(row: row, confirmed: confirmed)
        case .drafts: listDrafts()
        case .draft(let number): reopenDraft(number)
        case .deleteDraft(let number): deleteDraft(number)
        case .edit(let row, let text): editPost(row: row, text: text)
        case .history(let row): showHistory(row: row)
        case .reactedBy(let kind, let row): showReactedBy(kind, row: row)
        case .redraft(let row): redraft(row: row)
        case .vote(let row, let choices): vote(row: row, choices: choices)
        case .favourite(let row): interact(.favourite, row: row, name: .fav)
        case .boost(let row): interact(.reblog, row: row, name: .boost)
        case .bookmark(let row): interact(.bookmark, row: row, name: .bookmark)
        case .undo(let kind, let row): interact(kind, undo: true, row: row, name: Command.undoName(kind))
        case .set(let kind, let value, let row): setInteraction(kind, value, row: row)
        case .show(let row): reveal(row: row)
        case .translate(let row): translate(row: row)
        case .original(let row): showOriginal(row: row)
        case .retry: retry()
        case .thread(let row): openThread(row)
        case .quote(let row): openQuote(row)
        case .profile(let target): openProfile(target)
        case .tag(let name):
            tags.insert(name)
            navigator.push(.list(.feed(.tag(name))))
        case .screen(let name): openScreen(name)
        case .notificationsOf(let kinds): session.navigator.push(.list(.notificationsOf(kinds)))
        case .relationship(let command): setRelationship(command)
        case .search(let query): openSearch(query)
        case .accountList(let kind, let target): openAccountList(kind, target)
        case .answer(let number, let accept): answerRequest(row: number, accept: accept)
        case .domainBlock(let command): setDomainBlock(command)
        case .removeConversation(let number): removeConversation(row: number)
        case .dismissNotification(let number): dismissNotification(row: number)
        case .answerAllNotificationRequests(let accept): answerAllNotificationRequests(accept ? .accept : .dismiss)
        case .clearNotifications(let confirmed): clearNotifications(confirmed: confirmed)
        case .notificationPolicy(let field, let value): runNotificationPolicy(field: field, value: value)
        case .notificationRequests: navigator.push(.list(.notificationRequests))
        case .followTag(let tag, let value): followTag(tag, value)
        case .trends(let tags): navigator.push(.list(tags ? .trendingTags : .feed(.trending)))
        case .lists(let command): runLists(command)
        case .filters(let command): runFilters(command)
        case .report(let command): report(command)
        case .rules: showRules()
        case .account(let name): runAccount(name)
        case .readAnnouncement(let number): readAnnouncement(row: number)
        case .readAllAnnouncements: readAllAnnouncements()
        case .scheduled(let command): runScheduled(command)
        case .profileEdit(let command): runProfileEdit(command)
        case .link(let row): printLinks(row: row)
        case .browse(let row, let item): browse(row: row, item: item)
        case .more, .refresh, .reload, .open, .gap, .new:
            guard case .list(let entry)? = stack.last else {
                refuse("\(command.text.split(separator: " ").first ?? "That command") works on a list; type back first.")
                return true
            }
            runOnList(command, entry)
        }
        return true
    }

    /// Writes help for `key`, made once per key.
    private func help(_ key: HelpKey) {
        if helpCache[key] == nil {
            helpCache[key] = if let group = key.group {
                HelpText.lines(group: group, screen: key.screen, atBottom: key.atBottom, title: key.title, width: key.width, traits: key.traits)
            } else {
                HelpText.lines(topic: key.topic, screen: key.screen, atBottom: key.atBottom, title: key.title, width: key.width, traits: key.traits)
            }
        }
        emit(helpCache[key] ?? [])
    }

    /// What the list on top holds, as commands care (`nil` on a post): which commands help
    /// lists and Tab completes there.
    var screenTraits: Set<ScreenTrait>? {
        guard case .list(let entry)? = stack.last else { return nil }
        switch entry.list.source {
        case .feed(.bookmarks), .feed(.favourites), .feed(.trending), .thread: return [.posts]
        case .feed: return [.posts, .newer]
        case .notifications, .notificationsOf: return [.notifications, .newer]
        case .history: return [.versions]
        case .accounts(.requests): return [.accounts, .requests]
        case .accounts: return [.accounts]
        case .search: return [.accounts, .hashtags, .posts]
        case .domainBlocks: return [.domains]
        case .followedTags, .trendingTags: return [.hashtags]
        case .conversations: return [.conversations]
        case .userLists: return [.userLists]
        case .filters: return [.filters]
        case .announcements: return [.announcements]
        case .scheduled: return [.scheduled]
        case .notificationRequests: return [.notificationRequests]
        }
    }

    var isLoading: Bool {
        switch stack.last {
        case .list(let entry)?: entry.list.status.loading != nil
        case .post(let entry)?: entry.detail.current.isLoading
        case nil: false
        }
    }

    // MARK: - Output

    func say(_ line: String) {
        emit(wrapped(line))
    }

    /// `text` made safe and wrapped to the width: what a sentence that may quote the server
    /// prints as, measured as it prints. A line break in it (a server's, in a name it quotes) is a
    /// space, so quoted text cannot start a line that looks like the REPL's own.
    func wrapped(_ text: String) -> [String] {
        TextWidth.wrap(TextWidth.sanitize(text), to: options.width)
    }

    /// Says why a command was not carried out, and counts it as failed.
    func refuse(_ line: String) {
        failures += 1
        say(line)
    }

    /// Writes `lines`: the one way out of the driver.
    func emit(_ lines: [TerminalText]) {
        guard !lines.isEmpty else { return }
        write(TerminalText(lines: lines))
    }

    /// Writes `lines`, each made safe (``TerminalText``).
    func emit(_ lines: [String]) {
        emit(lines.map { TerminalText($0) })
    }
}
