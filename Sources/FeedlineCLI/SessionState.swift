import Feedline
import FeedlineMastodon
import FeedlineState
import Foundation

/// Where a session keeps its state (issue 14): a directory, or none.
enum StateChoice: Sendable, Equatable {
    /// `$XDG_STATE_HOME/feedline` (default `~/.local/state/feedline`) for an interactive
    /// session; none for a script, piped input or `--jsonl`, so their transcripts never depend on
    /// an earlier run.
    case automatic
    /// `--state DIR`, in every mode.
    case directory(URL)
    /// `--no-state`.
    case none

    /// The default directory the environment names: `XDG_STATE_HOME/feedline` when it is an
    /// absolute path (the XDG Base Directory rule), else `HOME/.local/state/feedline`.
    static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("feedline", isDirectory: true)
        }
        let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0, isDirectory: true) : nil }
            ?? FileManager.default.homeDirectoryForCurrentUser
        return home.appendingPathComponent(".local/state/feedline", isDirectory: true)
    }

    /// The directory to use for a session that is interactive or not.
    func directory(interactive: Bool) -> URL? {
        switch self {
        case .automatic: interactive ? Self.defaultDirectory() : nil
        case .directory(let url): url
        case .none: nil
        }
    }
}

/// A session's saved state, wired: the home timeline restored where the reader left off and
/// saved after every change, the notifications' reading position kept, the outbox of
/// unconfirmed taps restored and saved as it changes, and what is left saved at the end. With a
/// server, the reading positions are also read from and saved to its markers (``MarkerSync``):
/// a marker another device moved further wins at start. Problems with the database are one
/// sentence on standard error, once; the session goes on without state.
@MainActor
final class SessionState {
    /// The key the home timeline is saved under.
    static let homeKey = "home"
    /// The key the notifications' reading position is saved under (a list without entries).
    static let notificationsKey = "notifications"
    /// How long an interactive start waits for the server's markers before showing the saved
    /// rows; a marker that comes later still moves the reading position forward.
    static let interactiveMarkerWait: Duration = .milliseconds(1_500)

    private let store: StateStore
    private let session: FeedSession
    private let markers: MarkerSync?
    /// The server's markers, when the session is on a server.
    private let markerService: (any MarkerService)?
    private var subscriptions: [Subscription] = []
    private var lastSaved: SavedList?
    private var lastOutbox: [OutboxEntry]?
    /// The newest notifications position known: saved, from the marker, or reached in any
    /// notifications list of this session.
    private var notificationsPosition: ReadingPosition?
    private var savedNotificationsPosition: ReadingPosition?
    /// The notifications lists on the stack, watched for their position.
    private var watched: [(list: WeakList, subscription: Subscription)] = []
    /// After a failed write nothing more is tried (the sentence said why).
    private var broken = false

    /// Opens the database of `choice` in `directory` for `session`, or says on standard error
    /// why it cannot and returns `nil`. Only sessions on a home timeline keep state. A session
    /// on a server keeps its markers too.
    static func open(directory: URL, choice: ServiceChoice, session: FeedSession) -> SessionState? {
        guard case .feed(.home) = session.root.source else { return nil }
        let (server, account) = Self.names(of: choice)
        do {
            let store = try StateStore.open(directory: directory, server: server, account: account)
            return SessionState(store: store, session: session, markers: session.service as? any MarkerService)
        } catch {
            say(error.description + " This session runs without saved state.")
            return nil
        }
    }

    init(store: StateStore, session: FeedSession, markers: (any MarkerService)?) {
        self.store = store
        self.session = session
        markerService = markers
        self.markers = markers.map { MarkerSync(service: $0) }
    }

    /// The server and account a database is named for: the sandbox (or a fixture directory) is
    /// a server of its own.
    static func names(of choice: ServiceChoice) -> (server: String, account: String?) {
        switch choice {
        case .sandbox(let fixtures):
            let bundled = FixtureLocator.bundled()?.standardizedFileURL == fixtures.standardizedFileURL
            return (bundled ? "sandbox" : "fixtures-" + fixtures.lastPathComponent, nil)
        case .server(let address, _, _):
            return (URL(string: address.contains("://") ? address : "https://" + address)?.host ?? address, nil)
        case .account(let id, let server, _, _):
            return (server.authority, id)
        }
    }

    /// Shows the saved timeline (call before the front's first screen) — at the server's
    /// marker when another device read further — and restores the outbox; from then on every
    /// change is saved. The markers are waited for at most `markerWait` (`nil`: until they come
    /// or fail, as scripts do, so that their first screen never depends on speed).
    func restore(markerWait: Duration?) async {
        var saved: SavedList?
        do {
            saved = try store.loadList(Self.homeKey)
            savedNotificationsPosition = try store.loadList(Self.notificationsKey)?.position
            notificationsPosition = savedNotificationsPosition
        } catch {
            fail(error)
        }
        lastSaved = saved
        let deadline = markerWait.map { ContinuousClock.now + $0 }
        var fresh: Set<PostID> = []
        if let markers, let found = await readMarkers(markers, waitingAtMost: markerWait) {
            if let marker = found[.home] {
                let kept = saved
                saved = await adopt(marker, into: saved, until: deadline)
                // A list started from the marker's post fetched just now: that copy is the server's.
                if saved != kept, let first = saved?.entries.first, case .post(let post) = first, saved?.entries.count == 1 { fresh.insert(post.id) }
            }
            if let marker = found[.notifications] { adoptNotifications(marker) }
        }
        let root = session.root
        if let saved { root.restore(saved, fresh: fresh) }
        // The markers follow the positions shown (a further local one moves them on): the home
        // position's relay hands over the current one at once, then each move.
        if let position = notificationsPosition { markers?.move(.notifications, to: position.id) }
        subscriptions.append(root.snapshot.observe { [weak self] _ in self?.saveList() })
        subscriptions.append(root.position.observe { [weak self] position in self?.homeMoved(to: position) })
        subscriptions.append(session.navigator.routes.observe { [weak self] _ in self?.watchNotifications() })
        watchNotifications()
        // Taps not confirmed when the last session ended are wanted again (sent at once).
        do {
            let saved = try store.loadOutbox()
            lastOutbox = saved
            if !saved.isEmpty { session.store.restore(outbox: saved) }
        } catch {
            fail(error)
        }
        subscriptions.append(session.store.observeOutbox { [weak self] entries in self?.saveOutbox(entries) })
    }

    // MARK: - Markers

    /// The server's markers, or `nil` when they did not come within `limit` (they are applied
    /// when they come) or could not be read (the session goes on with the saved ones).
    private func readMarkers(_ markers: MarkerSync, waitingAtMost limit: Duration?) async -> [MarkerTimeline: ServerMarker]? {
        await Self.first(within: limit) {
            try? await markers.read()
        } late: { [weak self] found in
            // The saved rows are showing; a further marker still moves the position.
            await self?.applyLate(found)
        }
    }

    /// `operation`'s result, or `nil` when `limit` passes first (`nil`: no limit); a result
    /// that comes after the limit goes to `late`.
    private static func first<Value: Sendable>(
        within limit: Duration?, _ operation: @escaping @MainActor () async -> Value?,
        late: @escaping @MainActor (Value) async -> Void
    ) async -> Value? {
        guard let limit else { return await operation() }
        let race = StartRace<Value>()
        let running = Task { @MainActor in await operation() }
        let deadline = Task { @MainActor in
            try? await Task.sleep(for: max(limit, .zero))
            race.finish(with: nil)
        }
        return await withCheckedContinuation { continuation in
            race.continuation = continuation
            Task { @MainActor in
                let value = await running.value
                deadline.cancel()
                if race.finish(with: value) { return }
                if let value { await late(value) }
            }
        }
    }

    /// The saved list to show given the server's home marker: at the marker's post when it is
    /// further on than the saved position (or nothing was saved), else as saved. A marker post
    /// the save does not hold is asked for, until `deadline` (when it comes later it moves the
    /// position only), and the list starts from it alone.
    private func adopt(_ marker: ServerMarker, into saved: SavedList?, until deadline: ContinuousClock.Instant?) async -> SavedList? {
        if let position = saved?.position, position.id == marker.id { return saved }
        if var saved, let index = saved.entries.firstIndex(where: { $0.rowID == .post(marker.id.post) }),
            case .post(let post) = saved.entries[index]
        {
            let local = saved.position.flatMap { position in saved.entries.firstIndex { $0.rowID == .post(position.id.post) } }
            guard local.map({ index < $0 }) ?? true else { return saved }
            saved.position = ReadingPosition(post)
            return saved
        }
        if let position = saved?.position, let updatedAt = marker.updatedAt, updatedAt <= position.createdAt { return saved }
        let service = session.service
        let fetched = await Self.first(within: deadline.map { $0 - ContinuousClock.now }) {
            try? await service.post(marker.id.post)
        } late: { [weak self] post in
            self?.session.root.restorePosition(ReadingPosition(post))
        }
        guard let post = fetched else { return saved }
        let position = ReadingPosition(post)
        if let local = saved?.position, !position.isNewer(than: local) { return saved }
        return SavedList(entries: [.post(post)], older: PageCursor(post.id.rawValue), position: position)
    }

    /// Takes the notifications marker when it is further on than the saved position. A marker
    /// names only a notification, not when it happened: the position starts from it with no
    /// date, so that any notification displayed moves the list's position, and only those the
    /// server's ids show further on are kept (``notificationsMoved(to:)``).
    private func adoptNotifications(_ marker: ServerMarker) {
        let position = ReadingPosition(id: marker.id, createdAt: .distantPast)
        if let local = notificationsPosition, !isFurther(position, than: local, in: .notifications) { return }
        notificationsPosition = position
        for case .list(let list) in session.navigator.screens where list.source == .notifications { list.restorePosition(position) }
    }

    /// Whether `position` is further on than `other`: by the server's ids when it can tell
    /// (Mastodon's grow with time), else by date.
    private func isFurther(_ position: ReadingPosition, than other: ReadingPosition, in timeline: MarkerTimeline) -> Bool {
        guard position.id != other.id else { return false }
        if let newer = markerService?.isNewer(position.id, than: other.id, in: timeline) { return newer }
        return position.isNewer(than: other)
    }

    /// Markers that came after the saved rows were shown: a further one moves the position
    /// (nothing on screen moves).
    private func applyLate(_ found: [MarkerTimeline: ServerMarker]) async {
        if let marker = found[.notifications] { adoptNotifications(marker) }
        guard let marker = found[.home], marker.id != session.root.state.position?.id else { return }
        let root = session.root
        let known = root.state.rows[id: .post(marker.id.post)]?.post ?? root.state.waiting[id: .post(marker.id.post)]?.post
        if let row = known {
            root.restorePosition(ReadingPosition(row.post))
        } else if let post = try? await session.service.post(marker.id.post) {
            root.restorePosition(ReadingPosition(post))
        }
    }

    /// Saves the home timeline and moves the home marker: the position moved.
    private func homeMoved(to position: ReadingPosition?) {
        saveList()
        if let position { markers?.move(.home, to: position.id) }
    }

    /// Watches the notifications lists on the stack: each starts from the newest position
    /// known, and each position it reaches is saved and sent to the marker.
    private func watchNotifications() {
        let lists = session.navigator.screens.compactMap { screen -> FeedListViewModel? in
            guard case .list(let list) = screen, list.source == .notifications else { return nil }
            return list
        }
        watched.removeAll { entry in !lists.contains { $0 === entry.list.value } }
        for list in lists where !watched.contains(where: { $0.list.value === list }) {
            if let position = notificationsPosition { list.restorePosition(position) }
            let subscription = list.position.observe { [weak self] position in
                guard let position else { return }
                self?.notificationsMoved(to: position)
            }
            watched.append((WeakList(list), subscription))
        }
    }

    private func notificationsMoved(to position: ReadingPosition) {
        if let known = notificationsPosition, !isFurther(position, than: known, in: .notifications) { return }
        notificationsPosition = position
        markers?.move(.notifications, to: position.id)
        saveNotificationsPosition()
    }

    private func saveNotificationsPosition() {
        guard !broken, let position = notificationsPosition, position != savedNotificationsPosition else { return }
        do {
            try store.saveList(SavedList(entries: [], older: nil, position: position), as: Self.notificationsKey)
            savedNotificationsPosition = position
        } catch {
            fail(error)
        }
    }

    // MARK: - Saving

    /// Saves the outbox if it changed: every change is saved as it happens, so an entry the
    /// store reported is on disk before the next input is handled.
    func saveOutbox(_ entries: [OutboxEntry]) {
        guard !broken, entries != lastOutbox else { return }
        do {
            try store.saveOutbox(entries)
            lastOutbox = entries
        } catch {
            fail(error)
        }
    }

    /// Saves the home timeline if it changed since the last save.
    func saveList() {
        guard !broken else { return }
        let value = session.root.saved()
        guard value != lastSaved else { return }
        do {
            try store.saveList(value, as: Self.homeKey)
            lastSaved = value
        } catch {
            fail(error)
        }
    }

    /// The end of the session: waits up to 2 s for taps still on their way and for the
    /// markers' last save, then saves what is left of the outbox and the timeline.
    func finish() async {
        let markers = markers
        async let left = session.finish(waitingAtMost: .seconds(2))
        await markers?.finish(waitingAtMost: .seconds(2))
        saveOutbox(await left)
        saveList()
        saveNotificationsPosition()
        subscriptions.removeAll()
        watched.removeAll()
    }

    private func fail(_ error: StateStoreError) {
        guard !broken else { return }
        broken = true
        Self.say(error.description + " Nothing more is saved in this session.")
    }

    private static func say(_ sentence: String) {
        FileHandle.standardError.write(Data((sentence + "\n").utf8))
    }
}

/// A wait at start: whichever of the answer and the deadline comes first resumes it, once.
@MainActor
private final class StartRace<Value: Sendable> {
    var continuation: CheckedContinuation<Value?, Never>?

    /// Resumes the wait with `found` if it still waits; returns whether this call was late.
    @discardableResult
    func finish(with found: Value?) -> Bool {
        guard let continuation else { return true }
        self.continuation = nil
        continuation.resume(returning: found)
        return false
    }
}

/// A list held weakly: the navigator owns it.
@MainActor
private struct WeakList {
    weak var value: FeedListViewModel?
    init(_ value: FeedListViewModel) { self.value = value }
}
