@_spi(FeedService) import Feedline
import Foundation

/// A session's saved state, kept: the home timeline restored where the reader left off and
/// saved after every change, the notifications' reading position kept, the outbox of
/// unconfirmed taps restored and saved as it changes, and what is left saved at the end. With a
/// server, the reading positions are also read from and saved to its markers (``MarkerSync``);
/// where to start is the core's rule (``StartPositions``).
///
/// Every effect (reading the markers, fetching a marker's post, saving markers) counts in the
/// session's ``Activity``; every wait runs on the injected clock. Main actor.
///
/// **When the file cannot be written** (a full disk, a read-only file or directory, an I/O
/// error), one sentence says so through `say`, once, and the session goes on: what was not
/// written stays in the session and the next change of the drafts or the outbox tries again
/// (the lists follow once a write succeeds); when one does, one sentence says everything is
/// saved again. A file that cannot be read (damaged, another program's) is one sentence too, and
/// nothing more is saved in that session. ``unwritten()`` tells a front whether everything is on
/// disk before it says so.
@MainActor
public final class SessionKeeper {
    /// The key the home timeline is saved under.
    public static let homeKey = "home"
    /// The key the notifications' reading position is saved under (a list without entries).
    public static let notificationsKey = "notifications"
    /// How long an interactive start waits for the server's markers before showing the saved
    /// rows; a marker that comes later still moves the reading position forward.
    public static let interactiveMarkerWait: Duration = .milliseconds(1_500)

    private let store: StateStore
    private let session: FeedSession
    private let markers: MarkerSync?
    private let markerService: (any MarkerService)?
    private let clock: any Clock<Duration>
    private let say: @MainActor (String) -> Void
    private var positions = StartPositions()
    private var subscriptions: [Subscription] = []
    private var lastSaved: SavedList?
    private var lastOutbox: [OutboxEntry]?
    private var lastDrafts: [Submission]?
    /// The notifications lists on the stack, watched for their position.
    private var watched: [(list: WeakList, subscription: Subscription)] = []
    /// After a file that cannot be read nothing more is tried (the sentence said why).
    private var broken = false
    /// The last write failed (said once): drafts and the outbox try again at their next change,
    /// the lists only once one of those succeeded.
    private var failing: StateStoreError?

    /// Keeps `session`'s state in `store`; with `markerService`, the reading positions go to the
    /// server's markers too. Waits (the markers at start, their saving windows) run on `clock`.
    /// `say` gets the one sentence about a database problem.
    package init(
        store: StateStore, session: FeedSession, markerService: (any MarkerService)?, clock: any Clock<Duration>,
        say: @escaping @MainActor (String) -> Void
    ) {
        self.store = store
        self.session = session
        self.markerService = markerService
        self.clock = clock
        self.say = say
        markers = markerService.map { MarkerSync(service: $0, clock: clock, activity: session.activity) }
    }

    /// The server's id order, for ``StartPositions``.
    private func isNewer(_ timeline: MarkerTimeline) -> (ItemID, ItemID) -> Bool? {
        let service = markerService
        return { id, other in service?.isNewer(id, than: other, in: timeline) }
    }

    private func send(_ event: StartEvent, _ timeline: MarkerTimeline = .home) {
        positions.reduce(event, isNewer: isNewer(timeline))
    }

    /// Shows the saved timeline (call before the front's first screen) — at the server's marker
    /// when another device read further — and restores the outbox; from then on every change is
    /// saved. The markers (and a marker's post) are waited for at most `markerWait` on the
    /// clock (`nil`: until they come or fail, as scripts do, so their first screen never
    /// depends on speed); what comes later only moves reading positions.
    public func restore(markerWait: Duration?) async {
        var saved: SavedList?
        var notifications: ReadingPosition?
        do {
            saved = try store.loadList(Self.homeKey)
            notifications = try store.loadList(Self.notificationsKey)?.position
        } catch {
            fail(error)
        }
        lastSaved = saved
        send(.loaded(home: saved, notifications: notifications))
        if let markers {
            // One deadline for both: the markers, then the post a home marker names.
            var found: [MarkerTimeline: ServerMarker]?
            let elapsed = await clock.measure {
                found = await first(within: markerWait) { try? await markers.read() } late: { [weak self] late in self?.markersRead(late) }
            }
            if let found {
                markersRead(found)
                if let wanted = positions.wantedPost { await fetchMarkerPost(wanted, within: markerWait.map { $0 - elapsed }) }
            }
        }
        let root = session.root
        if let home = positions.home { root.restore(home, fresh: positions.fresh) }
        send(.homeShown)
        // The markers follow the positions shown (a further local one moves them on): the home
        // position's relay hands over the current one at once, then each move.
        if let position = positions.notifications { markers?.move(.notifications, to: position.id) }
        subscriptions.append(root.snapshot.observe { [weak self] _ in self?.saveList() })
        subscriptions.append(root.position.observe { [weak self] position in self?.homeMoved(to: position) })
        subscriptions.append(session.navigator.routes.observe { [weak self] _ in self?.watchNotifications() })
        watchNotifications()
        // Taps not confirmed when the last session ended are wanted again (sent at once).
        do {
            let outbox = try store.loadOutbox()
            lastOutbox = outbox
            if !outbox.isEmpty { session.store.restore(outbox: outbox) }
        } catch {
            fail(error)
        }
        subscriptions.append(session.store.observeOutbox { [weak self] entries in self?.saveOutbox(entries) })
        // Drafts and submissions on their way: written before anything shows them as sending;
        // the ones on their way at the end of the last session are sent again with their keys.
        do {
            let drafts = try store.loadDrafts()
            lastDrafts = drafts
            if !drafts.isEmpty { session.drafts.restore(drafts) }
        } catch {
            fail(error)
        }
        subscriptions.append(session.drafts.observe { [weak self] submissions in self?.saveDrafts(submissions) })
    }

    // MARK: - Markers

    /// The markers came (in time, or late): positions follow, the lists are told.
    private func markersRead(_ found: [MarkerTimeline: ServerMarker]) {
        let root = session.root
        let known = found[.home].flatMap { marker in
            (root.rows[id: .post(marker.id.post)] ?? root.waiting[id: .post(marker.id.post)])?.post?.post
        }
        if let marker = found[.notifications] { send(.markersRead([.notifications: marker], homeKnown: nil), .notifications) }
        if let marker = found[.home] { send(.markersRead([.home: marker], homeKnown: known)) }
        applyPositions()
        // A marker that came after the rows were shown, naming a post they do not have: asked
        // for; when it comes it moves the position only.
        if positions.homeShown, let wanted = positions.wantedPost {
            Task { [weak self] in await self?.fetchMarkerPost(wanted, within: nil) }
        }
    }

    /// Asks for the home marker's post, for at most `limit` (when it comes later it moves the
    /// position only).
    private func fetchMarkerPost(_ id: PostID, within limit: Duration?) async {
        let service = session.service
        let activity = session.activity
        let fetched = await first(within: limit) {
            await activity.perform { try? await service.post(id) }
        } late: { [weak self] post in
            self?.send(.markerPostFetched(post))
            self?.applyPositions()
        }
        send(fetched.map { .markerPostFetched($0) } ?? .markerPostFailed)
        applyPositions()
    }

    /// Hands the lists what the positions say: a late home position to the root, the newest
    /// notifications position to every notifications list.
    private func applyPositions() {
        if let late = positions.lateHome {
            session.root.restorePosition(late)
            send(.lateHomeTaken)
        }
        if let position = positions.notifications {
            for case .list(let list) in session.navigator.screens where list.source == .notifications { list.restorePosition(position) }
        }
    }

    /// `operation`'s result, or `nil` when `limit` passes first on the clock (no limit: waits
    /// for it); a result that comes after the limit goes to `late`. The wait counts as waiting
    /// in the session's activity.
    private func first<Value: Sendable>(
        within limit: Duration?, _ operation: @escaping @MainActor () async -> Value?, late: @escaping @MainActor (Value) -> Void
    ) async -> Value? {
        guard let limit else { return await operation() }
        let race = StartRace<Value>()
        let clock = clock
        let activity = session.activity
        let running = Task { @MainActor in await operation() }
        let timer = Task { @MainActor in
            try? await activity.waiting { try await clock.sleep(for: max(limit, .zero)) }
            race.finish(with: nil)
        }
        return await withCheckedContinuation { continuation in
            race.continuation = continuation
            Task { @MainActor in
                let value = await running.value
                timer.cancel()
                if race.finish(with: value), let value { late(value) }
            }
        }
    }

    /// Saves the home timeline and moves the home marker: the position moved.
    private func homeMoved(to position: ReadingPosition?) {
        saveList()
        if let position { markers?.move(.home, to: position.id) }
    }

    /// Watches the notifications lists on the stack: each starts from the newest position
    /// known, and each position it reaches is kept, saved and sent to the marker.
    private func watchNotifications() {
        let lists = session.navigator.screens.compactMap { screen -> FeedListViewModel? in
            guard case .list(let list) = screen, list.source == .notifications else { return nil }
            return list
        }
        watched.removeAll { entry in !lists.contains { $0 === entry.list.value } }
        for list in lists where !watched.contains(where: { $0.list.value === list }) {
            if let position = positions.notifications { list.restorePosition(position) }
            let subscription = list.position.observe { [weak self] position in
                guard let self, let position else { return }
                let before = self.positions.notifications
                self.send(.notificationsReached(position), .notifications)
                guard let now = self.positions.notifications, now != before else { return }
                self.markers?.move(.notifications, to: now.id)
                self.saveNotificationsPosition()
            }
            watched.append((WeakList(list), subscription))
        }
    }

    // MARK: - Saving

    /// Saves the drafts if they changed: every change is saved as it happens, before the session
    /// shows it.
    public func saveDrafts(_ submissions: [Submission]) {
        attempt { () throws(StateStoreError) in try writeDrafts(submissions) }
    }

    /// Saves the outbox if it changed: every change is saved as it happens, so an entry the
    /// store reported is on disk before the next input is handled.
    public func saveOutbox(_ entries: [OutboxEntry]) {
        attempt { () throws(StateStoreError) in try writeOutbox(entries) }
    }

    /// Saves the home timeline if it changed since the last save (after a failed write, only
    /// once a save of the drafts or the outbox succeeded).
    public func saveList() {
        guard failing == nil else { return }
        attempt { () throws(StateStoreError) in try writeList() }
    }

    private func saveNotificationsPosition() {
        guard failing == nil else { return }
        attempt { () throws(StateStoreError) in try writeNotificationsPosition() }
    }

    /// Why something the session keeps is not written to the file now — after trying once more
    /// to write the drafts and the outbox — as a sentence part ("PATH could not be written (said
    /// above)"); `nil` when everything is written. What a front asks before it says "kept".
    public func unwritten() -> String? {
        saveDrafts(session.drafts.all)
        saveOutbox(session.store.outbox)
        guard broken || failing != nil else { return nil }
        return "\(store.file.path) could not be written (said above)"
    }

    private func writeDrafts(_ submissions: [Submission]) throws(StateStoreError) {
        guard submissions != lastDrafts else { return }
        try store.saveDrafts(submissions)
        lastDrafts = submissions
    }

    private func writeOutbox(_ entries: [OutboxEntry]) throws(StateStoreError) {
        guard entries != lastOutbox else { return }
        try store.saveOutbox(entries)
        lastOutbox = entries
    }

    private func writeList() throws(StateStoreError) {
        let value = session.root.saved()
        guard value != lastSaved else { return }
        try store.saveList(value, as: Self.homeKey)
        lastSaved = value
    }

    private func writeNotificationsPosition() throws(StateStoreError) {
        guard let position = positions.notifications, position != positions.savedNotifications else { return }
        try store.saveList(SavedList(entries: [], older: nil, position: position), as: Self.notificationsKey)
        send(.notificationsSaved(position))
    }

    /// Runs one write, unless the file was given up on; after a failure, a write that succeeds
    /// writes everything else that waited.
    private func attempt(_ write: () throws(StateStoreError) -> Void) {
        guard !broken else { return }
        do {
            try write()
        } catch {
            failed(error)
            return
        }
        guard let failure = failing else { return }
        failing = nil
        do {
            try writeDrafts(session.drafts.all)
            try writeOutbox(session.store.outbox)
            try writeList()
            try writeNotificationsPosition()
            say("Saved to \(store.file.path) again: nothing kept in this session is lost.")
        } catch {
            // Still failing: said already, unless the file turned out damaged.
            failing = failure
            if case .corrupt = error.kind { fail(error) }
        }
    }

    /// The end of the session: waits up to 2 s (on the clocks) for taps still on their way and
    /// for the markers' last save, then saves what is left of the outbox and the timeline.
    public func finish() async {
        let markers = markers
        async let left = session.finish(waitingAtMost: .seconds(2))
        await markers?.finish(waitingAtMost: .seconds(2))
        saveOutbox(await left)
        saveDrafts(session.drafts.all)
        saveList()
        saveNotificationsPosition()
        subscriptions.removeAll()
        watched.removeAll()
    }

    /// A load failed: the file cannot be used; nothing more is saved in this session.
    private func fail(_ error: StateStoreError) {
        guard !broken else { return }
        broken = true
        say(error.description + " Nothing more is saved in this session.")
    }

    /// A write failed: said once (until a write succeeds again); what was not written stays
    /// in the session and is tried again at the next change. A file found damaged while
    /// writing is given up on, as at a load.
    private func failed(_ error: StateStoreError) {
        switch error.kind {
        case .corrupt, .foreign, .newerSchema:
            fail(error)
        case .full, .readOnly, .io:
            guard failing == nil else { return }
            failing = error
            say(error.unwrittenDescription)
        }
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
