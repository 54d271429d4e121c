import Foundation

/// Every draft and submission of a session, and the one loop that sends them: a new post, a
/// reply, an edit — each a ``Submission`` keyed by its ``DraftID``, several at once.
///
/// - **Exactly one post per submission.** A send mints one idempotency key (from the injected
///   generator) and every attempt of that submission carries it, across failures and restarts.
///   A failure for lack of a connection (a timeout, 5xx, 429) queues the next attempt after a
///   backoff on ``retryClock`` (a 429 waits for its reset); a refusal (422, 401, 403) returns the
///   draft to editing with the server's sentence. Past the key's hour, a submission whose answer
///   may have been lost looks at the account's newest posts before sending again.
/// - **Saved before shown.** ``observe(_:)`` hears of every change synchronously, before the
///   session shows anything of it: a front that saves there has saved a submission before the
///   user sees "sending"; ``restore(_:)`` takes it back at the next start.
/// - **One's own post everywhere.** A post on its way, its answer or its refusal, and an edit
///   and its answer, go to the session's post store, which tells every screen that should
///   show it (see `Drafts+Showing.swift`).
///
/// Main actor. Changes are delivered in the order they happen.
@MainActor
public final class Drafts {
    /// The server's settings once loaded (``load(then:)``); `nil` before. A front reads
    /// ``account`` and ``limits``.
    package private(set) var settings: ComposeSettings?
    /// The signed-in account, once the settings loaded (``load(then:)``); `nil` before.
    public var account: Author? { settings?.account }
    /// Why the settings could not be loaded, when they could not.
    public private(set) var settingsFailure: FeedFailure?
    /// Every submission by draft id.
    private var submissions: [DraftID: Submission] = [:]
    private let service: any FeedService
    let clock: WallClock
    /// Where a post or edit on its way shows, and what the server answered.
    let store: PostStore
    /// What queued submissions wait on before their next attempt.
    public let retryClock: any Clock<Duration>
    private let makeDraftID: (@MainActor () -> DraftID)?
    /// The last number the default draft ids used.
    private var lastDraftNumber = 0
    private let makeKey: @MainActor () -> String
    private let observers = HandlerList<[Submission]>()
    private let changes = HandlerList<Submission>()
    private var effects: Feedback<Effect, Reply>?
    /// Sources asked of the server (``loadSource(of:then:)``): one request per post at a time.
    private var sources: Feedback<PostID, (PostID, Result<PostSource, FeedFailure>)>?
    /// Who waits for the source of each post asked for.
    private var sourceWaiters: [PostID: [@MainActor (Result<PostSource, FeedFailure>) -> Void]] = [:]
    private var waits: Feedback<Effect, Reply>?
    private var whenLoaded: [@MainActor () -> Void] = []
    private let activity: Activity
    /// Where the person hears of drafts made of posts (``startEdit(of:)``) and of edits queued.
    let outcomes: Outcomes?
    /// Drafts started before the account's settings were known, with what they were started as:
    /// when the settings come, the defaults they were given are replaced by the account's (see
    /// ``rebase(_:)``).
    private var startedWithoutSettings: [DraftID: Post?] = [:]
    /// Where a post a submission scheduled goes (the session's scheduled store), shown at once.
    var scheduledPosts: ScheduledStore?
    /// The draft ``adopt(_:)`` made last.
    private(set) var lastAdopted: DraftID?

    /// Drafts sent to `service`, shown on the way through `store`; dates from `clock`; queued
    /// attempts wait on `retryClock`; ids and idempotency keys from the generators (by default:
    /// draft ids numbered 1, 2, 3 … past every restored one, so that they sort in the order
    /// drafts were started and a script replays byte for byte; keys random UUIDs). Drafts made
    /// of posts (``startEdit(of:)``) and edits queued are told to `outcomes`.
    package init(
        service: any FeedService, store: PostStore, activity: Activity, clock: WallClock, retryClock: any Clock<Duration>,
        makeDraftID: (@MainActor () -> DraftID)? = nil, makeKey: (@MainActor () -> String)? = nil, outcomes: Outcomes? = nil
    ) {
        self.outcomes = outcomes
        self.store = store
        self.service = service
        self.activity = activity
        self.clock = clock
        self.retryClock = retryClock
        self.makeDraftID = makeDraftID
        self.makeKey = makeKey ?? { UUID().uuidString.lowercased() }
        effects = Feedback(
            activity: activity,
            effect: { effect in await Self.answer(effect, from: service) },
            handle: { [weak self] reply in self?.handle(reply) }
        )
        sources = Feedback(
            activity: activity,
            effect: { id in
                do { return (id, .success(try await service.source(of: id))) } catch { return (id, .failure(FeedFailure(error))) }
            },
            handle: { [weak self] id, source in
                for then in self?.sourceWaiters.removeValue(forKey: id) ?? [] { then(source) }
            }
        )
        waits = Feedback(
            activity: activity,
            effect: { effect in
                guard case .submission(.wait(let id, let token, let delay)) = effect else { return nil }
                do {
                    try await activity.waiting { try await retryClock.sleep(for: delay) }
                    return .waited(id, token: token)
                } catch {
                    return nil
                }
            },
            handle: { [weak self] reply in self?.handle(reply) }
        )
    }

    // MARK: - Reading

    /// Every submission — drafts being written, on their way, refused — ordered by draft id
    /// (the order they were started in, for generated ids). Sent ones leave the list.
    public var all: [Submission] {
        submissions.values.sorted { $0.id < $1.id }
    }

    /// The submission of draft `id`.
    public subscript(id: DraftID) -> Submission? { submissions[id] }

    /// The server's limits: the loaded ones, else Mastodon's defaults.
    public var limits: ComposeLimits { settings?.limits ?? .mastodonDefaults }

    /// Calls `handler` with ``all`` after every change of any submission — synchronously, in
    /// order, before the change is shown anywhere: what a front saves. Lasts as long as the token.
    public func observe(_ handler: @escaping @MainActor @Sendable ([Submission]) -> Void) -> Subscription {
        observers.add(handler)
    }

    /// Calls `handler` with each submission after it changed (a sent one last with its
    /// ``Submission/Phase/sent(_:)`` phase), after ``observe(_:)``'s handlers. Lasts as long as the token.
    public func observeChanges(_ handler: @escaping @MainActor @Sendable (Submission) -> Void) -> Subscription {
        changes.add(handler)
    }

    // MARK: - Settings

    /// Loads the signed-in account, its defaults and the server's limits, once (again after a
    /// failure); `then` runs once they are known or failed to load — at once when they are known.
    public func load(then: (@MainActor () -> Void)? = nil) {
        if settings != nil {
            then?()
            return
        }
        if let then { whenLoaded.append(then) }
        effects?.react(to: [.settings] + (effects?.requests.filter { $0 != .settings } ?? []))
    }

    // MARK: - Writing

    /// Starts an empty post with the account's defaults (Mastodon's defaults until ``load(then:)``).
    public func startPost() -> DraftID {
        let preferences = settings?.preferences ?? ComposePreferences()
        let draft = Draft(
            id: nextDraftID(), sensitive: preferences.sensitive, visibility: preferences.visibility, language: preferences.language,
            createdAt: clock.now()
        )
        if settings == nil { startedWithoutSettings[draft.id] = .some(nil) }
        insert(Submission(draft: draft))
        return draft.id
    }

    /// Starts a reply to `post` (a boost: its original) as Mastodon's own clients start one: it
    /// mentions the original's author and everyone the original mentions (never you), takes the
    /// stricter of your default visibility and the original's, and carries the original's content
    /// warning and your default language and sensitivity. Another draft, even another reply to the
    /// same post, is left alone.
    public func startReply(to post: Post) -> DraftID {
        let draft = Draft.reply(
            to: post, by: settings?.account, preferences: settings?.preferences ?? ComposePreferences(), id: nextDraftID(), createdAt: clock.now()
        )
        if settings == nil { startedWithoutSettings[draft.id] = .some(post) }
        insert(Submission(draft: draft))
        return draft.id
    }

    /// Starts an edit of `post` (one's own; a boost row's original): the server's source of it
    /// (`GET …/source`) fills the draft, with its attachments, poll, visibility and reply target
    /// (which an edit cannot change). An edit of a post that already has one being written or
    /// on its way reuses that draft. The person hears the draft's id as an ``Outcome``
    /// (``Outcome/Subject/editDraft(post:draft:)``, done) — at once when it exists — or why the
    /// source could not be loaded (refused; no draft is made then).
    public func startEdit(of post: Post) {
        let original = post.content
        if let existing = submissions.values.first(where: { $0.draft.editing == original.id }) {
            editDraftMade(of: original.id, .success(existing.id))
            return
        }
        loadSource(of: original.id) { [weak self] source in
            guard let self else { return }
            switch source {
            case .success(let source):
                if let existing = self.submissions.values.first(where: { $0.draft.editing == original.id }) {
                    self.editDraftMade(of: original.id, .success(existing.id))
                    return
                }
                let draft = Draft.edit(of: original, source: source, id: self.nextDraftID(), createdAt: self.clock.now())
                self.insert(Submission(draft: draft))
                self.editDraftMade(of: original.id, .success(draft.id))
            case .failure(let failure):
                self.editDraftMade(of: original.id, .failure(failure))
            }
        }
    }

    /// Tells the outcome of ``startEdit(of:)`` of the post `id`: the draft, or why none was made.
    private func editDraftMade(of id: PostID, _ result: Result<DraftID, FeedFailure>) {
        switch result {
        case .success(let draft): outcomes?.emit(.done(.editDraft(post: id, draft: draft)))
        case .failure(let failure): outcomes?.emit(.refused(.editDraft(post: id, draft: nil), sentence: failure.message))
        }
    }

    /// Asks the server for the source of the post `id` (its text as typed, for an edit or a
    /// redraft): one request per post at a time, whoever asks; `then` hears it on the main actor.
    func loadSource(of id: PostID, then: @escaping @MainActor (Result<PostSource, FeedFailure>) -> Void) {
        sourceWaiters[id, default: []].append(then)
        sources?.run(id)
    }

    /// Keeps `draft` (a redraft, made by the session) as a new draft to write and send.
    func adopt(_ draft: Draft) {
        let draft = Draft(
            id: nextDraftID(), text: draft.text, contentWarning: draft.contentWarning, sensitive: draft.sensitive, visibility: draft.visibility,
            language: draft.language, poll: draft.poll, media: draft.media, inReplyTo: draft.inReplyTo, quoting: draft.quoting,
            quotePolicy: draft.quotePolicy, scheduledAt: draft.scheduledAt, createdAt: clock.now()
        )
        insert(Submission(draft: draft))
        lastAdopted = draft.id
    }

    /// Changes draft `id` with `change` while it is editable; returns `false` (changing nothing)
    /// when there is no such draft or it is on its way. The draft's id, reply and edit targets,
    /// and what it quotes (see ``quote(_:in:)``), cannot change here.
    @discardableResult
    public func update(_ id: DraftID, _ change: (inout Draft) -> Void) -> Bool {
        guard var submission = submissions[id], submission.isEditable else { return false }
        var draft = submission.draft
        change(&draft)
        draft = Draft(
            id: id, text: draft.text, contentWarning: draft.contentWarning, sensitive: draft.sensitive, visibility: draft.visibility,
            language: draft.language, poll: draft.poll, media: draft.media, inReplyTo: submission.draft.inReplyTo,
            editing: submission.draft.editing, quoting: submission.draft.quoting, quotePolicy: draft.quotePolicy,
            scheduledAt: submission.draft.editing == nil ? draft.scheduledAt : nil, createdAt: submission.draft.createdAt
        )
        if submission.draft.editing != nil { draft.visibility = submission.draft.visibility }
        guard draft != submission.draft else { return true }
        submission.reduce(.edited(draft))
        commit(submission)
        return true
    }

    /// Makes draft `id` quote `post` (a boost: its original), or quote nothing (`nil`); returns
    /// why not, as one sentence, when the quoted post's policy does not let the account quote it
    /// (see ``Post/quoteRefusal(by:)``), when the draft is an edit (an edit cannot change a quote)
    /// or is not being written. Quoting a followers-only post makes the draft followers-only at
    /// least, as the server would.
    @discardableResult
    public func quote(_ post: Post?, in id: DraftID) -> String? {
        guard var submission = submissions[id], submission.isEditable else { return "That draft is on its way or gone; it cannot change now." }
        guard submission.draft.editing == nil else { return "An edit cannot change what a post quotes." }
        var draft = submission.draft
        if let post {
            if let refusal = post.quoteRefusal(by: settings?.account) { return refusal }
            let original = post.content
            draft.quoting = original.id
            if original.visibility == .private, draft.visibility < .private { draft.visibility = .private }
        } else {
            draft.quoting = nil
        }
        guard draft != submission.draft else { return nil }
        submission.reduce(.edited(draft))
        commit(submission)
        return nil
    }

    /// Schedules draft `id` for the time `text` names, read by the session's clock in its time
    /// zone (see the forms in `ScheduleTime`: `2026-12-01T09:00` or `in 30m`, `in 2h`,
    /// `in 1d`), or posts it at once again (`nil`). Returns the time. Throws a sentence (and
    /// changes nothing) for a time it cannot read, one not more than 5 minutes ahead, an edit
    /// (Mastodon schedules new posts only) or a draft on its way.
    @discardableResult
    public func schedule(_ id: DraftID, at text: String?) throws(FeedFailure) -> Date? {
        guard let submission = submissions[id], submission.isEditable else {
            throw FeedFailure(message: "That draft is on its way or gone; it cannot change now.", isTransient: false)
        }
        guard let text else {
            update(id) { $0.scheduledAt = nil }
            return nil
        }
        guard submission.draft.editing == nil else { throw FeedFailure(message: "An edit cannot be scheduled: it goes at once.", isTransient: false) }
        let date = try ScheduleTime.parse(text, now: clock.now(), timeZone: clock.timeZone)
        update(id) { $0.scheduledAt = date }
        return date
    }

    /// What stops draft `id` from being sent under the server's limits (empty: it can be sent).
    public func problems(_ id: DraftID) -> [DraftProblem] {
        submissions[id]?.draft.problems(limits: limits) ?? []
    }

    /// Sends draft `id` when it has no problems: a new submission with a new key, saved (see
    /// ``observe(_:)``) before it is sent. Returns the problems that stopped it (empty when it
    /// went, or when it was on its way already).
    @discardableResult
    public func send(_ id: DraftID) -> [DraftProblem] {
        guard var submission = submissions[id], submission.isEditable else { return [] }
        var problems = submission.draft.problems(limits: limits)
        if let post = submission.draft.editing, submissions.values.contains(where: { $0.id != id && $0.draft.editing == post && $0.isInFlight }) {
            problems.append(.editInFlight)
        }
        if submission.draft.isScheduled, let at = submission.draft.scheduledAt, ScheduleTime.tooSoon(at, now: clock.now()) != nil {
            problems.append(.scheduledTooSoon)
        }
        guard problems.isEmpty else { return problems }
        submission.reduce(.submitted(key: makeKey(), at: clock.now()))
        commit(submission)
        showStarted(submission.draft)
        return []
    }

    /// Throws draft `id` away; one on its way is not (returns `false`): a post may be made of it.
    @discardableResult
    public func discard(_ id: DraftID) -> Bool {
        guard let submission = submissions[id], submission.isEditable else { return false }
        submissions[id] = nil
        observers.notify(all)
        return true
    }

    /// Sends every queued submission again at once. Returns how many.
    @discardableResult
    public func retry() -> Int {
        var count = 0
        for var submission in all {
            guard case .queued = submission.phase else { continue }
            submission.reduce(.retryRequested(at: clock.now()))
            commit(submission)
            count += 1
        }
        return count
    }

    /// Takes back what an earlier run saved (``all``, as ``observe(_:)`` gave it); call once, at
    /// start. Drafts come back as they were; submissions on their way are sent again with their
    /// keys (one that was being sent when the run ended may have reached the server: the key
    /// makes the server answer with that post rather than make a second).
    public func restore(_ saved: [Submission]) {
        for var submission in saved where submissions[submission.id] == nil {
            if case .sent = submission.phase { continue }
            if case .scheduled = submission.phase { continue }
            submission.reduce(.restarted(at: clock.now()))
            submissions[submission.id] = submission
        }
        observers.notify(all)
        react()
    }

    /// Whether any submission is on its way (sending, queued or checking).
    public var hasSubmissionsInFlight: Bool { submissions.values.contains(where: \.isInFlight) }

    // MARK: - Effects

    private func nextDraftID() -> DraftID {
        if let makeDraftID { return makeDraftID() }
        repeat { lastDraftNumber += 1 } while submissions[DraftID(String(lastDraftNumber))] != nil
        return DraftID(String(lastDraftNumber))
    }

    private func insert(_ submission: Submission) {
        submissions[submission.id] = submission
        observers.notify(all)
        changes.notify(submission)
        load()
    }

    /// Records `submission`, tells the savers first, then the watchers, then starts or stops
    /// what its phase asks for.
    private func commit(_ submission: Submission) {
        if case .sent = submission.phase {
            submissions[submission.id] = nil
        } else if case .scheduled = submission.phase {
            submissions[submission.id] = nil
        } else {
            submissions[submission.id] = submission
        }
        observers.notify(all)
        changes.notify(submission)
        react()
    }

    private func react() {
        let wanted = submissions.values.flatMap(\.requests)
        let work = wanted.filter { !$0.isWait }.map(Effect.submission)
        let settingsLoading = effects?.requests.contains(.settings) == true
        effects?.react(to: work + (settingsLoading ? [.settings] : []))
        waits?.react(to: wanted.filter(\.isWait).map(Effect.submission))
    }

    private func handle(_ reply: Reply) {
        let now = clock.now()
        switch reply {
        case .settings(.success(let loaded)):
            let limitsChanged = loaded.limits != limits
            settings = loaded
            settingsFailure = nil
            rebase(loaded)
            // Drafts were counted against Mastodon's defaults until now: their faces recount.
            if limitsChanged { for submission in all { changes.notify(submission) } }
            runWhenLoaded()
        case .settings(.failure(let failure)):
            settingsFailure = failure
            runWhenLoaded()
        case .answered(let id, let token, let post):
            guard var submission = submissions[id], submission.token == token else { return }
            submission.reduce(.answered(token: token, post.id))
            commit(submission)
            showPublished(post, submission.draft)
        case .failed(let id, let token, let failure):
            guard var submission = submissions[id] else { return }
            let before = submission.token
            submission.reduce(.failed(token: token, failure, at: now))
            commit(submission)
            showFailed(submission, token: before)
        case .scheduled(let id, let token, let post):
            guard var submission = submissions[id], submission.token == token else { return }
            submission.reduce(.scheduled(token: token, post.id))
            commit(submission)
            scheduledPosts?.learn(post)
        case .checkedScheduled(let id, let token, let found):
            guard var submission = submissions[id], submission.token == token else { return }
            if let found {
                submission.reduce(.scheduled(token: token, found.id))
                commit(submission)
                scheduledPosts?.learn(found)
            } else {
                submission.reduce(.checked(token: token, found: nil, at: now))
                commit(submission)
            }
        case .checked(let id, let token, let found):
            guard var submission = submissions[id], submission.token == token else { return }
            submission.reduce(.checked(token: token, found: found?.id, at: now))
            commit(submission)
            if let found { showPublished(found, submission.draft) }
        case .waited(let id, let token):
            guard var submission = submissions[id] else { return }
            submission.reduce(.waited(token: token, at: now))
            commit(submission)
        }
    }

    /// Drafts started before `loaded` was known take the account's defaults where they still
    /// hold the ones they were started with: a post its visibility, sensitivity and language; a
    /// reply also its mentions (never the account itself) in front of what was typed after them.
    private func rebase(_ loaded: ComposeSettings) {
        let started = startedWithoutSettings
        startedWithoutSettings.removeAll()
        for (id, parent) in started {
            guard let submission = submissions[id], submission.isEditable else { continue }
            let blank = ComposePreferences()
            let before: Draft
            let after: Draft
            if let parent {
                before = Draft.reply(to: parent, by: nil, preferences: blank, id: id, createdAt: submission.draft.createdAt)
                after = Draft.reply(to: parent, by: loaded.account, preferences: loaded.preferences, id: id, createdAt: submission.draft.createdAt)
            } else {
                before = Draft(id: id, createdAt: submission.draft.createdAt)
                after = Draft(
                    id: id, sensitive: loaded.preferences.sensitive, visibility: loaded.preferences.visibility,
                    language: loaded.preferences.language, createdAt: submission.draft.createdAt
                )
            }
            update(id) { draft in
                if draft.text.hasPrefix(before.text) { draft.text = after.text + draft.text.dropFirst(before.text.count) }
                if draft.visibility == before.visibility { draft.visibility = after.visibility }
                if draft.sensitive == before.sensitive { draft.sensitive = after.sensitive }
                if draft.language == before.language { draft.language = after.language }
            }
        }
    }

    private func runWhenLoaded() {
        let waiting = whenLoaded
        whenLoaded.removeAll()
        for action in waiting { action() }
    }
}
