/// One draft being written and sent: what a compose screen binds to. A thin face on the
/// session's ``Drafts`` — every front editing the same draft sees the same values, and the draft
/// lives on (saved, sendable) when the screen goes away.
///
/// Main actor. ``snapshot`` is current after every call; ``observe(_:)`` hears each change.
@MainActor
public final class ComposeViewModel {
    /// What the screen shows.
    public struct Snapshot: Hashable, Sendable {
        /// The draft (as it was last when it has been sent).
        public var draft: Draft
        public var phase: Submission.Phase
        /// Characters left under the server's limit (negative: over it).
        public var charactersLeft: Int
        /// What stops it from being sent (empty: it can be).
        public var problems: [DraftProblem]
        /// The server's sentence when it refused the last attempt.
        public var refusal: String?

        /// Whether ``ComposeViewModel/send()`` would send it now.
        public var canSend: Bool { phase == .editing && problems.isEmpty }
    }

    public let id: DraftID
    private let drafts: Drafts
    public private(set) var snapshot: Snapshot
    private let handlers = HandlerList<Snapshot>()
    private var subscription: Subscription?

    /// A face on draft `id` of `drafts`; `nil` when there is no such draft.
    public init?(_ id: DraftID, in drafts: Drafts) {
        guard let submission = drafts[id] else { return nil }
        self.id = id
        self.drafts = drafts
        snapshot = Self.snapshot(of: submission, limits: drafts.limits)
        subscription = drafts.observeChanges { [weak self] submission in
            guard let self, submission.id == id else { return }
            self.receive(submission)
        }
    }

    /// Changes the draft while it can change (see ``Drafts/update(_:_:)``).
    @discardableResult
    public func update(_ change: (inout Draft) -> Void) -> Bool {
        drafts.update(id, change)
    }

    /// Sends it when it can be sent; returns what stopped it (empty when it went).
    @discardableResult
    public func send() -> [DraftProblem] {
        drafts.send(id)
    }

    /// Throws the draft away, unless it is on its way.
    @discardableResult
    public func discard() -> Bool {
        drafts.discard(id)
    }

    /// Calls `handler` with each new snapshot. Lasts as long as the token.
    public func observe(_ handler: @escaping @MainActor @Sendable (Snapshot) -> Void) -> Subscription {
        handlers.add(handler)
    }

    private func receive(_ submission: Submission) {
        var next = Self.snapshot(of: submission, limits: drafts.limits)
        if case .sent = submission.phase { next.problems = [] }
        guard next != snapshot else { return }
        snapshot = next
        handlers.notify(next)
    }

    private static func snapshot(of submission: Submission, limits: ComposeLimits) -> Snapshot {
        Snapshot(
            draft: submission.draft, phase: submission.phase, charactersLeft: submission.draft.charactersLeft(limits: limits),
            problems: submission.draft.problems(limits: limits), refusal: submission.refusal
        )
    }
}
