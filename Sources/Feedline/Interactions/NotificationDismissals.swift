import Foundation

/// A change of the notifications you asked for, as every notifications screen must show it.
package enum NotificationDismissalChange: Hashable, Sendable {
    /// Its dismissal was asked for: the group (or, for a clear, every notification shown) leaves
    /// every notifications screen at once.
    case dismissing(NotificationDismissals.Key)
    /// The server confirmed it.
    case dismissed(NotificationDismissals.Key)
    /// The server refused it: what it took comes back where it was, with the server's sentence.
    case refused(NotificationDismissals.Key)
}

/// The notifications you dismissed — one group (Mastodon's `POST
/// /api/v2/notifications/:group_key/dismiss`) or all of them (`POST /api/v1/notifications/clear`)
/// — shared by every notifications screen, the plain one and those of some kinds.
///
/// A configuration of the convergence engine (`Convergence`): a `PendingChange` of "dismissed"
/// per group key, and one for the clear (``Key/all``).
///
/// - Dismissing takes the group off every notifications screen at once; a clear takes every
///   notification they show. On refusal what it took comes back where it was, with the server's
///   sentence (unless another dismissal still hides it); a change the server could not be
///   reached for stays shown and is sent again after a backoff on the retry clock
///   (``FeedSession/retry()`` sends it at once).
/// - Pages begun before the server answered (or while it has not) leave out what was dismissed:
///   a refresh racing a dismissal does not bring the group back. A page begun after the answer
///   is the server's truth: a group it still brings (a new notification joined it) shows.
/// - A notification the stream brings shows whatever was dismissed before: it is new.
///
/// Main actor only. Changes are delivered synchronously, in the order they happen.
@MainActor
package final class NotificationDismissals: OneEngineStore {
    /// What a dismissal takes: one group, or every notification (a clear).
    package enum Key: Hashable, Sendable {
        /// The group with this key (``NotificationGroup/id``).
        case group(String)
        /// Every notification: a clear.
        case all
    }

    /// The dismissals asked and their requests (set at the end of `init`, so its handlers can
    /// hold the store weakly).
    package private(set) var engine: Convergence<Key, PendingChange<Bool>>!
    private let observers = HandlerList<NotificationDismissalChange>()
    /// The group keys pages and the stream brought: what a clear covers when asked.
    private var known: Set<String> = []
    /// The group keys the clear covers (those known when it was asked), until a page or the
    /// stream brings one again after its answer.
    private var cleared: Set<String> = []

    /// A store that sends dismissals to `service`, counted in `activity`, re-sends what failed for
    /// lack of a connection on `retryClock`, and tells `outcomes` what the server did.
    package init(service: any FeedService, activity: Activity, retryClock: any Clock<Duration>, outcomes: Outcomes? = nil) {
        engine = Convergence(
            activity: activity, retryClock: retryClock,
            send: { key, request in
                switch key {
                case .group(let group): try await service.dismissNotificationGroup(group)
                case .all: try await service.clearNotifications()
                }
                return request.value
            },
            changed: { [weak self] key, before, after in self?.changed(key, before: before, after: after) },
            outcomes: outcomes,
            outcome: { key, report, _ in
                report.outcome { _ in
                    switch key {
                    case .group(let group): .notificationDismissal(group: group)
                    case .all: .notificationsCleared
                    }
                }
            }
        )
    }

    // MARK: - Reading

    /// Whether the group `key` is off the notifications screens: its dismissal (or a clear that
    /// covers it) is wanted.
    package func isHidden(_ key: String) -> Bool {
        if engine[.group(key)]?.wanted == true { return true }
        return engine[.all]?.wanted == true && cleared.contains(key)
    }

    /// Whether the dismissal `key` waits for the server.
    package func isPending(_ key: Key) -> Bool {
        engine[key]?.isPending == true
    }

    /// The server's sentence for the last refusal of `key`, until it is asked again.
    package func refusal(_ key: Key) -> String? {
        engine[key]?.refusal?.message
    }

    /// Calls `handler` on the main actor after every change, in order. Lasts as long as the token.
    package func observe(_ handler: @escaping @MainActor @Sendable (NotificationDismissalChange) -> Void) -> Subscription {
        observers.add(handler)
    }

    // MARK: - Input

    /// Marks the start of a fetch of notifications; pass its answer to ``shown(_:fetchedAt:)``.
    package func beginFetch() -> StoreEpoch {
        engine.beginFetch()
    }

    /// The groups of a fetch begun at `fetchedAt` that the screens show: those dismissed (or
    /// cleared) since it began, or still on their way to the server, are left out. A group a
    /// fetch begun after a dismissal's answer still brings is the server's: it shows again.
    ///
    /// - Complexity: O(g) for g groups (O(1) each when none was dismissed).
    package func shown(_ groups: [NotificationGroup], fetchedAt: StoreEpoch) -> [NotificationGroup] {
        let clear = engine[.all]
        let clearHides = clear.map { $0.wanted && ($0.isPending || fetchedAt < $0.knownSince) } ?? false
        return groups.filter { group in
            known.insert(group.id)
            if clear != nil, !clearHides, clear?.isPending != true { cleared.remove(group.id) }
            if engine[.group(group.id)] != nil {
                engine.update(.group(group.id)) { change, _ in change.receive(false, fetchedAt: fetchedAt).map { [$0] } ?? [] }
            }
            return !clearHides && engine[.group(group.id)]?.wanted != true
        }
    }

    /// A group the stream brought: it is new, and shows whatever was dismissed before.
    package func streamed(_ group: NotificationGroup) {
        known.insert(group.id)
        cleared.remove(group.id)
        let fetchedAt = engine.beginFetch()
        if engine[.group(group.id)] != nil {
            engine.update(.group(group.id)) { change, _ in change.receive(false, fetchedAt: fetchedAt).map { [$0] } ?? [] }
        }
    }

    /// Dismisses the group `key`: off every notifications screen at once, one request, back
    /// where it was with the server's sentence on refusal. Returns `false` (nothing happens) when
    /// it is off the screens already.
    @discardableResult
    package func dismiss(_ key: String) -> Bool {
        guard !isHidden(key) else { return false }
        known.insert(key)
        want(.group(key))
        return true
    }

    /// Dismisses every notification: off every notifications screen at once, one request, back
    /// with the server's sentence on refusal. Returns `false` (nothing happens) when a clear is
    /// on its way already.
    @discardableResult
    package func clear() -> Bool {
        guard engine[.all]?.isPending != true else { return false }
        cleared = known
        want(.all)
        return true
    }

    // MARK: - Changes

    /// Wants `key` dismissed, from a settled machine that is not (a dismissal confirmed before,
    /// whose group came back, starts over from "not dismissed"); the screens hear it first.
    private func want(_ key: Key) {
        engine.update(key, orMake: { PendingChange(confirmed: false) }) { change, epoch in
            if !change.isPending, change.wanted {
                change = PendingChange(confirmed: false, knownSince: change.knownSince)
            }
            change.want(true, at: epoch)
            return []
        }
        observers.notify(.dismissing(key))
    }

    /// A dismissal's machine changed: an answer (or a refusal) is told; the store tells its own
    /// changes as it makes them.
    private func changed(_ key: Key, before: PendingChange<Bool>?, after: PendingChange<Bool>?) {
        guard let before, before.isPending, let after, !after.isPending else { return }
        observers.notify(after.wanted ? .dismissed(key) : .refused(key))
    }
}
