/// A change of whether one announcement is read, as every screen that shows it must show it.
package struct AnnouncementReadChange: Hashable, Sendable {
    /// The announcement's id.
    package var id: String
    /// Whether it shows as read, whether that waits for the server, and the last refusal.
    package var display: ToggleDisplay

    package init(id: String, display: ToggleDisplay) {
        self.id = id
        self.display = display
    }
}

/// The instance's announcements and which you read, shared by every announcements screen and
/// the session's count of unread ones.
///
/// Marking one read (Mastodon's `POST /api/v1/announcements/:id/dismiss`) is a configuration of
/// the engine's keyed toggle store, keyed by the announcement's id: optimistic (every screen
/// shows it read at once), one request per announcement, rolled back with the server's sentence
/// on refusal, and kept and sent again after a backoff on the session's retry clock when the
/// server cannot be reached. Mastodon has no way to make one unread again: the store only ever
/// wants `true`. A fetch begun before a change was answered does not undo it.
///
/// Main actor only. Changes are delivered synchronously, in the order they happen.
@MainActor
package final class AnnouncementStore: ConvergingStore {
    /// Set at the end of `init`, so its handlers can hold the store weakly.
    private var reads: KeyedToggleStore<AnnouncementReadChange>!
    /// The announcements the last fetch brought, in the server's order.
    package private(set) var announcements: [Announcement] = []
    /// Whether a fetch has brought them (the count of unread ones means nothing before).
    package private(set) var isLoaded = false

    /// A store that sends reads to `service`, counted in `activity`, re-sends what failed for
    /// lack of a connection on `retryClock`; what the server did with each goes to `outcomes`.
    package init(service: any FeedService, activity: Activity, retryClock: any Clock<Duration>, outcomes: Outcomes? = nil) {
        reads = KeyedToggleStore(
            activity: activity, retryClock: retryClock, key: { $0 }, isValid: { !$0.isEmpty }, change: AnnouncementReadChange.init,
            send: { id, value in
                guard value else { return value }
                try await service.dismissAnnouncement(id)
                return true
            },
            describe: { [weak self] id, _ in "mark \(self?.name(id) ?? "the announcement \(id)") read" },
            outcomes: outcomes, subject: { id, _ in .announcementRead(id) }
        )
    }

    // MARK: - Reading

    /// Whether the announcement shows as read (the server's word until you changed it), whether
    /// that waits for the server, and the last refusal; `nil` for one the store does not know.
    package func read(_ id: String) -> ToggleDisplay? {
        if let shown = reads.state(id) { return shown }
        return announcements.first { $0.id == id }.map { ToggleDisplay(isOn: $0.read) }
    }

    /// The announcements as the announcements screen shows them, in the server's order.
    package var rows: [ListRow] {
        announcements.map { .announcement($0, read: read($0.id) ?? ToggleDisplay(isOn: $0.read)) }
    }

    /// The ids of the announcements shown as unread, in the server's order.
    package var unread: [String] {
        announcements.filter { read($0.id)?.isOn != true }.map(\.id)
    }

    /// `the announcement "Maintenance tonight…"`: how sentences name it.
    package func name(_ id: String) -> String {
        guard let text = announcements.first(where: { $0.id == id })?.text else { return "the announcement \(id)" }
        let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? text
        let cut = line.count > 40 ? String(line.prefix(39)) + "…" : line
        return "the announcement \"\(cut)\""
    }

    /// Calls `handler` on the main actor after every change of an announcement's read state, in
    /// order. Lasts as long as the returned token.
    package func observe(_ handler: @escaping @MainActor @Sendable (AnnouncementReadChange) -> Void) -> Subscription {
        reads.observe(handler)
    }

    /// Whether a change failed and waits to be sent again.
    package var hasFailures: Bool { reads.hasFailures }

    /// The reads sent and not answered yet, as (id, read). For tests.
    package var requestsInFlight: [(String, Bool)] { reads.requestsInFlight }

    /// Returns once no request is in flight, or after `limit` on the retry clock.
    package func waitForRequests(atMost limit: Duration) async {
        await reads.waitForRequests(atMost: limit)
    }

    /// Every read the server has not confirmed, by id.
    package var unsent: [String] { reads.unsentChanges.filter { $0.value }.map { $0.key } }

    // MARK: - Input

    /// Marks the start of a fetch; pass what it says to ``ingest(_:fetchedAt:)``.
    package func beginFetch() -> StoreEpoch { reads.beginFetch() }

    /// Records what a fetch begun at `fetchedAt` brought: the announcements, and whether each is
    /// read (a change asked since wins).
    package func ingest(_ fetched: [Announcement], fetchedAt: StoreEpoch) {
        announcements = fetched
        isLoaded = true
        for announcement in fetched { reads.ingest(announcement.id, announcement.read, fetchedAt: fetchedAt) }
    }

    /// Marks the announcement `id` read: optimistic, converging. Returns why nothing is sent:
    /// the store does not know it, or it is read already (or being marked).
    package func markRead(_ id: String) -> String? {
        guard announcements.contains(where: { $0.id == id }) else { return "There is no announcement \(id)." }
        if let shown = read(id), shown.isOn {
            return shown.pending ? "\(name(id).capitalizedFirst) is being marked read." : "\(name(id).capitalizedFirst) is read already."
        }
        reads.set(id, true)
        return nil
    }

    /// Marks every unread announcement read; returns their ids. Throws why nothing is sent when
    /// every one is read already.
    package func markAllRead() throws(FeedFailure) -> [String] {
        let ids = unread
        guard !ids.isEmpty else { throw FeedFailure(message: "Every announcement is read already.", isTransient: false) }
        for id in ids { reads.set(id, true) }
        return ids
    }

    /// Wants again every change that rolled back, and sends every deferred one at once.
    @discardableResult
    package func retryFailed() -> Bool { reads.retryFailed() }
}

extension String {
    /// The text with its first letter upper-cased.
    fileprivate var capitalizedFirst: String {
        guard let first else { return self }
        return first.uppercased() + dropFirst()
    }
}
