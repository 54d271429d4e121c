import Foundation

/// Your own profile as every screen shows it: your profile's header and your name on your posts
/// on every list.
///
/// A configuration of the convergence engine (`Convergence`): the profile is one
/// `PendingChange` of the whole ``OwnProfile`` — shown at once, one change in flight (one asked
/// meanwhile is sent after its answer, as what differs from what the server then has), rolled
/// back with the server's sentence on refusal, queued and sent again after a backoff when the
/// server cannot be reached (``FeedSession/retry()`` sends it at once). An edit asked before the
/// profile is known loads it first (`verify_credentials`), then applies.
///
/// Main actor only. Changes are delivered synchronously, in the order they happen.
@MainActor
package final class OwnProfileStore: OneEngineStore {
    /// The engine's one key.
    private static let key = "profile"
    private let observers = HandlerList<OwnProfile>()
    private let posts: PostStore
    private let outcomes: Outcomes?
    package private(set) var engine: Convergence<String, PendingChange<OwnProfile>>!
    /// The load of the profile an edit waits for.
    private var loads: Feedback<Int, (Result<OwnProfile, FeedFailure>, StoreEpoch)>?
    private var attempt = 0
    /// Edits asked while the profile loads, in order.
    private var waiting: [ProfileEdit] = []
    /// Who waits for the load (an editor of the profile), in order.
    private var loadWaiters: [@MainActor (Result<OwnProfile, FeedFailure>) -> Void] = []

    /// A store that loads and sends your profile through `service`, counted in `activity`,
    /// re-sends a change that failed for lack of a connection on `retryClock`, shows your name on
    /// `posts`, and says what the server did in `outcomes`.
    package init(service: any FeedService, posts: PostStore, activity: Activity, retryClock: any Clock<Duration>, outcomes: Outcomes? = nil) {
        self.posts = posts
        self.outcomes = outcomes
        engine = Convergence(
            activity: activity, retryClock: retryClock,
            send: { [weak self] _, request in
                let old = await self?.confirmed ?? request.value
                return try await service.updateProfile(ProfileEdit(from: old, to: request.value))
            },
            changed: { [weak self] _, before, after in
                guard let self, let after, before?.wanted != after.wanted else { return }
                self.show(after.wanted)
            },
            outcomes: outcomes,
            outcome: { _, report, _ in
                // A file sent comes back as the server's address for it: the same profile, done.
                if case .notApplied(let asked, now: let saved) = report, asked.withoutImages == saved.withoutImages { return .done(.profile) }
                return report.outcome { _ in .profile }
            }
        )
        loads = Feedback(
            activity: activity,
            prepare: { [weak self] _ in self?.engine.beginFetch() ?? 0 },
            effect: { _, fetchedAt in
                do { return (.success(try await service.ownProfile()), fetchedAt) } catch { return (.failure(FeedFailure(error)), fetchedAt) }
            },
            handle: { [weak self] answer in self?.loaded(answer.0, fetchedAt: answer.1) }
        )
    }

    isolated deinit {
        loads?.cancelAll()
    }

    // MARK: - Reading

    /// Your profile as shown now (with a change on its way), or `nil` until it is known.
    package var profile: OwnProfile? { engine[Self.key]?.wanted }

    /// Whether a change waits for the server.
    package var isPending: Bool { engine[Self.key]?.isPending == true || !waiting.isEmpty }

    /// Why the last load of your profile failed, until the next load.
    package private(set) var loadFailure: FeedFailure?

    /// The server's sentence for the last change it refused, until the next change.
    package var refusal: String? { engine[Self.key]?.refusal?.message }

    private var confirmed: OwnProfile? { engine[Self.key]?.confirmed }

    /// Calls `handler` with your profile as shown after every change. Lasts as long as the token.
    package func observe(_ handler: @escaping @MainActor @Sendable (OwnProfile) -> Void) -> Subscription {
        observers.add(handler)
    }

    /// The change the server has not confirmed, as a sentence.
    package var unsent: [String] { engine.unsent.isEmpty ? [] : ["change your profile"] }

    // MARK: - Input

    /// Your profile as a fetch begun at `fetchedAt` brought it (a change asked since stands).
    package func ingest(_ fetched: OwnProfile, fetchedAt: StoreEpoch) {
        engine.update(Self.key, orMake: { PendingChange(confirmed: fetched) }) { change, _ in
            change.receive(fetched, fetchedAt: fetchedAt).map { [$0] } ?? []
        }
    }

    /// Changes your profile by `edit`: at once on every screen; rolled back with the server's
    /// sentence on refusal. Before the profile is known, it loads first. Throws why (nothing is
    /// sent) for an edit that changes nothing or that the server could not keep.
    package func edit(_ edit: ProfileEdit) throws(ProfileProblem) {
        try Self.check(edit)
        guard let shown = profile else {
            waiting.append(edit)
            attempt += 1
            loads?.react(to: [attempt])
            return
        }
        let wanted = shown.applying(edit)
        guard wanted != shown else { throw .nothingChanged }
        engine.want(wanted, for: Self.key)
    }

    /// Starts loading your profile (for an editor's first text) unless it is known or loading.
    package func load() {
        guard profile == nil, loads?.requests.isEmpty ?? false else { return }
        loadFailure = nil
        attempt += 1
        loads?.react(to: [attempt])
    }

    /// Calls `done` with your profile as shown — at once when it is known, else once it loaded
    /// (or with why it could not be).
    package func load(then done: @escaping @MainActor (Result<OwnProfile, FeedFailure>) -> Void) {
        if let profile {
            done(.success(profile))
            return
        }
        loadWaiters.append(done)
        load()
    }

    private func loaded(_ result: Result<OwnProfile, FeedFailure>, fetchedAt: StoreEpoch) {
        loads?.react(to: [])
        let edits = waiting
        waiting = []
        let waiters = loadWaiters
        loadWaiters = []
        defer {
            let answer = profile.map { Result<OwnProfile, FeedFailure>.success($0) } ?? result
            for waiter in waiters { waiter(answer) }
        }
        switch result {
        case .success(let fetched):
            ingest(fetched, fetchedAt: fetchedAt)
            guard let shown = profile, !edits.isEmpty else { return }
            let wanted = edits.reduce(shown) { $0.applying($1) }
            guard wanted != shown else {
                outcomes?.emit(.notApplied(.profile))
                return
            }
            engine.want(wanted, for: Self.key)
        case .failure(let failure):
            loadFailure = failure
            for _ in edits { outcomes?.emit(.refused(.profile, sentence: "Could not load your profile: \(failure.message)")) }
        }
    }

    /// Tells the posts and the observers what your profile shows now.
    private func show(_ profile: OwnProfile) {
        posts.showOwnAuthor(profile.author)
        observers.notify(profile)
    }

    // MARK: - Rules

    /// Why `edit` cannot be sent, or nothing.
    nonisolated static func check(_ edit: ProfileEdit) throws(ProfileProblem) {
        guard let fields = edit.fields else { return }
        if fields.count > ProfileProblem.fieldLimit { throw .tooManyFields(fields.count) }
        if fields.contains(where: { $0.name.trimmingCharacters(in: .whitespaces).isEmpty }) { throw .blankFieldName }
    }
}
