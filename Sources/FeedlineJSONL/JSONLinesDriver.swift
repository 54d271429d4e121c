@_spi(FeedService) import Feedline
import Foundation

/// The JSON-lines front: reads one command per line, writes one message per line.
///
/// A thin front over a ``FeedSession``: commands become view-model calls; the route stack, every
/// list screen's snapshots (each its own chain of `changes`, tagged with its `screen` index), every
/// post's shared state and the detail on top are written as they change — including changes that
/// arrive later (a page, a rollback). All work happens on the main actor, so messages come out in
/// the order things happened.
@MainActor
public final class JSONLinesDriver {
    /// A list screen followed since it was pushed: its first snapshot is written whole, later
    /// ones as changes.
    private final class FollowedList {
        let list: FeedListViewModel
        var subscription: Subscription?
        /// The profile header's, for a list of `account:…` (see ``followProfile(of:)``), or the
        /// hashtag header's, for a list of `tag:…` (see ``followTagHeader(of:)``).
        var profileSubscription: Subscription?
        var sawSnapshot = false

        init(_ list: FeedListViewModel) { self.list = list }
    }

    let session: FeedSession
    /// Whether the session keeps state for the next start (what `bye` says of unsent taps).
    private let keepsState: Bool
    /// Whether what the session keeps is written now (asked at the end; `nil`: always).
    private let written: (@MainActor @Sendable () -> Bool)?
    private let write: @MainActor (String) -> Void
    private var subscriptions: [Subscription] = []
    /// The outcome stream: followed until `bye`, past the other subscriptions, so a change
    /// answered while the session ends is still heard.
    private var outcomeSubscription: Subscription?
    private var lists: [FollowedList] = []
    private var detailSubscription: Subscription?
    private var started = false
    /// Resolves the name `switchAccount` gives (``JSONLAccountSwitching/resolve``); `nil`: the
    /// session cannot switch.
    var resolveAccount: (@MainActor @Sendable (String) -> Result<String, JSONLAccountSwitching.Refusal>)?
    /// The account `switchAccount` asked for: the loop closes this driver (``leave()``) and goes
    /// on with the session the front opens.
    public internal(set) var accountAsked: String?
    private var streamState: StreamState?
    /// The submissions that changed while a command was changing drafts (`nil` the rest of the
    /// time): the command writes them as its reply instead (see ``holdingDraftChanges(_:)``).
    var heldDraftChanges: [Submission]?
    /// While `editPost` or `redraft` waits for the server: the drafts there were before it
    /// (`nil` the rest of the time). A draft that appears meanwhile is the command's: its changes
    /// are kept in ``heldNewDrafts`` and written as the reply.
    var draftsBeforeWait: Set<DraftID>?
    /// The changes of drafts that appeared while ``draftsBeforeWait`` was set, in order.
    var heldNewDrafts: [Submission] = []
    /// The id of the command that asked each change whose outcome has not come (see
    /// `JSONLinesDriver+Outcomes.swift`), by its topic.
    var askedBy: [String: JSONLValue] = [:]
    /// Commands waiting for the outcome of a topic (`delete`, `vote`, `editPost`, `redraft`).
    var outcomeWaiters: [String: [CheckedContinuation<Result<Outcome, FeedFailure>, Never>]] = [:]

    /// A driver over `session` that hands each output line (without newline) to `write`;
    /// `keepsState` says whether taps left unsent at the end are kept for the next start, and
    /// `written`, asked then, whether they are on disk (`bye`'s `kept` is true only when both hold).
    public init(
        session: FeedSession, keepsState: Bool = false, written: (@MainActor @Sendable () -> Bool)? = nil,
        write: @escaping @MainActor (String) -> Void
    ) {
        self.session = session
        self.keepsState = keepsState
        self.written = written
        self.write = write
    }

    /// Writes the greeting, the routes and the bottom list's first snapshot, starts following
    /// every change, and makes the bottom list appear (which loads its first page).
    public func start() {
        emit(JSONLMessage.hello())
        started = true
        subscriptions.append(session.navigator.routes.observe { [weak self] routes in
            self?.routesChanged(routes)
        })
        subscriptions.append(session.store.observe { [weak self] change in
            self?.emit(JSONLMessage.post(change))
        })
        // Relationships, blocked domains and followed hashtags: every change as every screen shows it.
        subscriptions.append(followRelationships())
        subscriptions.append(followDomainBlocks())
        subscriptions.append(followTags())
        subscriptions.append(contentsOf: followLists())
        // What you asked, answered: every outcome, with the id of the command that asked it —
        // also those answered while quit waits, up to bye.
        outcomeSubscription = session.observeOutcomes { [weak self] outcome in self?.outcomeHeard(outcome) }
        // Live updates: written when they change (nothing while there are none).
        subscriptions.append(session.streamState.observe { [weak self] state in
            guard let self else { return }
            if state == .off, self.streamState == nil { return }
            guard state != self.streamState else { return }
            self.streamState = state
            self.emit(JSONLMessage.stream(state))
        })
        // Submissions: every change as it happens (sending, queued, sent…).
        subscriptions.append(session.drafts.observeChanges { [weak self] submission in
            self?.submissionChanged(submission)
        })
        // Drafts kept from an earlier run (a session that keeps state): what there is at start.
        if !session.drafts.all.isEmpty { emit(JSONLMessage.drafts(session.drafts.all, limits: session.drafts.limits)) }
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
        let topics = asked(by: command.action, id: id)
        if let problem = await carryOut(command.action, id: id) {
            for topic in topics where askedBy[topic] == id { askedBy[topic] = nil }
            emit(JSONLMessage.error(problem, id: id))
            return true
        }
        switch command.action {
        case .wait:
            await session.settle()
            emit(JSONLMessage.idle(id: id))
        case .quit:
            emit(JSONLMessage.ok("quit", id: id))
            // After quit's ok come only the outcomes of what is answered while it waits, then
            // bye: what still loads is not followed any more.
            stopFollowing()
            await close()
            return false
        default: break
        }
        emit(JSONLMessage.ok(command.name, id: id))
        return true
    }

    /// Carries out every action but `wait` and `quit`; the error's sentence when it cannot.
    /// Only `draft` (which waits for the account's settings, the first time), `delete`,
    /// `editPost`, `redraft` (which wait for them and for the server's answer), `vote` and
    /// `history` (which wait for the server) suspend.
    private func carryOut(_ action: JSONLCommand.Action, id: JSONLValue?) async -> String? {
        let navigator = session.navigator
        switch action {
        case .timeline(let screen):
            switch list(screen) {
            case .failure(let problem): return problem.message
            case .success(let (index, list)): emit(JSONLMessage.timeline(list.current, clock: session.clock, screen: index, id: id))
            }
        case .display(let rows, let screen):
            switch list(screen) {
            case .failure(let problem): return problem.message
            case .success(let (_, list)):
                let unknown = rows.filter { list.rows.index(of: $0) == nil }
                for row in rows where list.rows.index(of: row) != nil { list.rowWillDisplay(row) }
                if !unknown.isEmpty {
                    // At most ten, each cut short: the message never grows with what was sent.
                    let named = unknown.prefix(10).map { JSONLCommand.echo($0.description) }.joined(separator: ", ")
                    return "Unknown rows: \(named)\(unknown.count > 10 ? " and \(unknown.count - 10) more" : "")."
                }
            }
        case .loadMore(let screen), .refresh(let screen), .reload(let screen):
            switch list(screen) {
            case .failure(let problem): return problem.message
            case .success(let (_, list)):
                switch action {
                case .loadMore: list.loadMore()
                case .reload: list.reload()
                default: list.refresh()
                }
            }
        case .showWaiting(let screen):
            switch list(screen) {
            case .failure(let problem): return problem.message
            case .success(let (index, list)):
                guard list.status.waiting > 0 else { return "Nothing waits above screen \(index)." }
                list.showWaiting()
            }
        case .openGap(let row, let screen):
            switch list(screen) {
            case .failure(let problem): return problem.message
            case .success(let (index, list)):
                guard list.rows.index(of: row) != nil else { return "There is no gap \(JSONLCommand.echo(row.description)) on screen \(index)." }
                list.openGap(row)
            }
        case .retry:
            // Everything still failed, on every screen (pages, refreshes, gaps, detail loads,
            // interactions that rolled back or wait in the outbox, queued posts).
            let sending = session.store.retryableInteractions
            let queued = session.drafts.all.filter { if case .queued = $0.phase { true } else { false } }.map(\.id)
            session.retry()
            if !sending.isEmpty || !queued.isEmpty { emit(JSONLMessage.retrying(sending, drafts: queued, id: id)) }
        case .push(let route):
            navigator.push(route)
        case .pop:
            guard navigator.pop() else { return "Already at the bottom screen." }
        case .top:
            guard navigator.depth > 1 else { return "Already at the bottom screen." }
            navigator.popToRoot()
        case .root(let feed):
            navigator.replaceRoot(feed)
        case .toggle(let kind, let post, let value):
            // A pin or a mute of a conversation is checked first by the core's rules (your own
            // post, a conversation you take part in), once the account is known.
            if kind == .pin || kind == .muteThread {
                let wanted = value ?? !(session.store.interaction(post)?.isOn(kind) ?? false)
                if wanted, session.drafts.settingsFailure == nil { await loadAccount() }
                if let refusal = session.interactionRefusal(kind, wanted, post: post) { return refusal.message }
            }
            let known = value.map { session.set(kind, $0, post: post) } ?? session.toggle(kind, post: post)
            guard known else { return "Unknown post \(JSONLCommand.echo(post.rawValue)): no screen on the stack shows it." }
        case .show(let post):
            guard session.shows(post: post) else { return "Unknown post \(JSONLCommand.echo(post.rawValue)): no screen on the stack shows it." }
            guard session.reveal(post: post) else { return "No filter hides anything of post \(JSONLCommand.echo(post.rawValue))." }
        case .translate(let post):
            guard session.shows(post: post), let known = session.store.post(post) else {
                return "Unknown post \(JSONLCommand.echo(post.rawValue)): no screen on the stack shows it."
            }
            let session = session
            switch await outcome(of: .translation(post: known.content.id), after: { session.translate(post: post) }) {
            case .failure(let refusal): return refusal.message
            case .success(.refused(_, let sentence)): return "Could not translate post \(JSONLCommand.echo(post.rawValue)): \(sentence)"
            case .success: break
            }
        case .report(let account, let posts, let comment, let forward, let category, let rules):
            let report = AccountReport(
                account: account, posts: posts, comment: comment, forward: forward, category: ReportCategory(rawValue: category) ?? .other, rules: rules
            )
            return session.report(report, handle: nil)
        case .switchAccount(let name):
            guard let resolveAccount else { return "This session cannot switch accounts." }
            switch resolveAccount(name) {
            case .success(let account): accountAsked = account
            case .failure(let refusal): return refusal.message
            }
        case .rules:
            switch await session.instanceRules() {
            case .success(let rules): emit(JSONLMessage.rules(rules, id: id))
            case .failure(let failure): return "Could not read the server's rules: \(failure.message)"
            }
        case .original(let post):
            guard session.shows(post: post) else { return "Unknown post \(JSONLCommand.echo(post.rawValue)): no screen on the stack shows it." }
            guard session.showOriginal(post: post) else { return "No translation of post \(JSONLCommand.echo(post.rawValue)) shows." }
        case .draft, .editDraft, .send, .discard, .drafts, .delete, .editPost, .redraft, .vote, .history:
            return await carryOut(writing: action, id: id)
        case .relationship(let kind, let account, let value, _):
            // A mute or block of yourself would take every post of yours off every list: the
            // account first (as delete's check), then the core's rule.
            if value, kind == .mute || kind == .block, session.drafts.settingsFailure == nil { await loadAccount() }
            if let refusal = session.relationshipRefusal(kind, value, account: account) { return refusal.message }
            carryOut(accounts: action)
        case .relationships:
            carryOut(accounts: action)
        case .answerRequest(let row, let accept, let screen):
            switch list(screen) {
            case .failure(let problem): return problem.message
            case .success(let (index, list)): return answer(row, accept: accept, on: list, screen: index)
            }
        case .domainBlock(.domain(let domain), let value, _):
            return setDomainBlock(domain, value)
        case .domainBlock(.row(let row), let value, let screen):
            switch list(screen) {
            case .failure(let problem): return problem.message
            case .success(let (index, list)): return setDomainBlock(of: row, on: list, screen: index, value)
            }
        case .tagFollow(let tag, let value):
            return setTagFollow(tag, value)
        case .conversation(let action, let id):
            return conversation(action, id)
        case .notifications(let action):
            return notifications(action)
        case .listChange(let change):
            return carryOut(list: change, id: id)
        case .filterChange(let change):
            return carryOut(filter: change, id: id)
        case .readAnnouncement(let announcement):
            return readAnnouncement(announcement, command: id)
        case .scheduledChange(let scheduled, let at):
            do {
                if let at { try session.reschedule(scheduled, at: at) } else { try session.cancelScheduled(scheduled) }
            } catch {
                return error.message
            }
        case .notificationPolicy(let field, let value):
            return await notificationPolicy(field: field, value: value, id: id)
        case .notificationRequest(let request, let accept):
            guard let request else {
                guard !session.notificationRequestList.isEmpty else {
                    return "There are no filtered notifications to \(accept ? "accept" : "dismiss"): push {\"route\":\"notificationRequests\"} to load them."
                }
                do {
                    // Each request's outcome answers this command.
                    for request in try session.answerAllNotificationRequests(accept ? .accept : .dismiss) {
                        if let id { askedBy[Self.topic(of: .notificationRequest(request, accept: accept))] = id }
                    }
                } catch {
                    return error.message
                }
                break
            }
            do { try session.answerNotificationRequest(request, accept ? .accept : .dismiss) } catch { return error.message }
        case .profileEdit(let change):
            for (role, path) in [("avatar", change.edit.avatar), ("header image", change.edit.header)] {
                guard let path else { continue }
                let bytes: [UInt8]? = FileHandle(forReadingAtPath: path).map { handle in
                    defer { try? handle.close() }
                    return [UInt8]((try? handle.read(upToCount: 12)) ?? Data())
                }
                if let problem = ProfileImage.problem(path, for: role, exists: FileManager.default.fileExists(atPath: path), firstBytes: bytes) { return problem }
            }
            do { try session.editProfile(change.edit) } catch { return error.message }
        case .wait, .quit:
            break
        }
        return nil
    }

    /// Stops following changes and writes `bye` with the taps not sent yet (``close()`` waits
    /// for those on their way first) and the posts still on their way.
    public func finish() {
        guard started else { return }
        started = false
        stopFollowing()
        outcomeSubscription = nil
        let drafts = session.drafts
        emit(JSONLMessage.bye(unsent: session.store.outbox, submissions: drafts.all.filter(\.isInFlight), limits: drafts.limits, kept: keepsState && (written?() ?? true)))
    }

    private func stopFollowing() {
        subscriptions.removeAll()
        lists.removeAll()
        detailSubscription = nil
    }

    /// The end of this account's session before a switch: as `quit` ends it (what still loads
    /// is not followed any more), then ``close()``, which writes `bye`.
    public func leave() async {
        stopFollowing()
        await close()
    }

    /// The end of the session — `quit`, or the end of input: waits up to 2 s (on the session's
    /// retry clock) for favourites, boosts and bookmarks on their way, then ``finish()``.
    public func close() async {
        guard started else { return }
        _ = await session.finish(waitingAtMost: .seconds(2))
        finish()
    }

    private struct Problem: Error {
        var message: String
    }

    /// The list screen `index` names, or the top-most list screen.
    private func list(_ index: Int?) -> Result<(Int, FeedListViewModel), Problem> {
        let screens = session.navigator.screens
        if let index {
            guard index < screens.count else {
                return .failure(Problem(message: "There is no screen \(index); the stack has \(screens.count) (0–\(screens.count - 1))."))
            }
            guard let list = screens[index].list else { return .failure(Problem(message: "Screen \(index) is a post, not a list.")) }
            return .success((index, list))
        }
        // The root is always a list, so there is one.
        let top = screens.lastIndex { $0.list != nil } ?? 0
        return .success((top, screens[top].list ?? session.root))
    }

    /// Writes the stack, follows list screens that are new on it (a list pushed twice is two
    /// screens), drops those that left, and follows the detail on top.
    private func routesChanged(_ routes: [Route]) {
        emit(JSONLMessage.routes(routes))
        let screens = session.navigator.screens
        let shown = screens.compactMap(\.list)
        lists.removeAll { followed in !shown.contains { $0 === followed.list } }
        for list in shown where !lists.contains(where: { $0.list === list }) {
            let followed = FollowedList(list)
            lists.append(followed)
            let clock = session.clock
            followed.subscription = list.snapshot.observe { [weak self, weak followed] snapshot in
                guard let self, let followed else { return }
                // A list that left the stack has no index and no chain any more.
                guard let index = self.session.navigator.screens.firstIndex(where: { $0.list === followed.list }) else { return }
                if followed.sawSnapshot {
                    self.emit(JSONLMessage.changes(snapshot, clock: clock, screen: index, confirmed: snapshot.confirmed))
                } else {
                    followed.sawSnapshot = true
                    self.emit(JSONLMessage.timeline(snapshot, clock: clock, screen: index))
                }
            }
            followed.profileSubscription = followProfile(of: list) ?? followTagHeader(of: list)
        }
        detailSubscription = nil
        guard case .post(let detail) = session.navigator.top else { return }
        let clock = session.clock
        var last: String?
        detailSubscription = detail.state.observe { [weak self] state in
            // Every change the message shows (not the detail's quiet bookkeeping, such as a
            // fresh copy that brought nothing new).
            let message = JSONLMessage.detail(state, clock: clock).json
            guard message != last else { return }
            last = message
            self?.write(message)
        }
    }

    func emit(_ message: JSONLValue) {
        write(message.json)
    }
}
