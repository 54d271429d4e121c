/// A value machine the convergence engine (``Convergence``) drives, one per key: it says which
/// requests should be running and which re-sends should be waiting, and takes their answers.
/// ``PendingChange`` is one; a store whose key carries several values (a post's favourite,
/// boost and bookmark; an account's follow, mute and block) composes its machine from several
/// and conforms itself, adding its own rules in its transitions.
///
/// Conformers are values: every transition is a pure function of the machine and its arguments,
/// so each can be tested event by event, in every phase, without an engine.
package protocol ConvergingMachine: Hashable, Sendable {
    /// A request the machine wants sent, with what tells it apart from any other (a token).
    associatedtype Request: Hashable & Sendable
    /// A re-send the machine waits for, with what tells it apart (a token).
    associatedtype Resend: Hashable & Sendable
    /// What the service answers to a request.
    associatedtype Answer: Sendable
    /// What an answer, a failure or a copy did, for the person who asked (see ``Outcome``).
    associatedtype Report: Hashable & Sendable

    /// The requests that should be running now.
    var requests: [Request] { get }
    /// The re-sends that should be waiting now.
    var resends: [Resend] { get }
    /// Whether anything waits for the server: a request in flight or a re-send deferred.
    var isPending: Bool { get }
    /// Whether a re-send waits that ``retry(at:)`` would send at once.
    var isDeferred: Bool { get }
    /// How long `resend` waits.
    static func delay(of resend: Resend) -> Duration

    /// `request` was answered with `answer` (the engine's epoch is `epoch`).
    mutating func answered(_ request: Request, with answer: Answer, at epoch: StoreEpoch) -> [Report]
    /// `request` failed with `failure`.
    mutating func failed(_ request: Request, with failure: FeedFailure, at epoch: StoreEpoch) -> [Report]
    /// The wait of `resend` is over.
    mutating func elapsed(_ resend: Resend, at epoch: StoreEpoch)
    /// Sends what is deferred at once. Returns whether anything was.
    mutating func retry(at epoch: StoreEpoch) -> Bool
}

extension PendingChange: ConvergingMachine {
    package typealias Answer = Value
    package typealias Report = ChangeOutcome<Value>

    package var requests: [Request] { inFlight.map { [$0] } ?? [] }
    package var resends: [Resend] { resend.map { [$0] } ?? [] }
    package var isDeferred: Bool { resend != nil }
    package static func delay(of resend: Resend) -> Duration { resend.delay }

    package mutating func answered(_ request: Request, with answer: Value, at epoch: StoreEpoch) -> [Report] {
        succeeded(token: request.token, value: answer, at: epoch).map { [$0] } ?? []
    }

    package mutating func failed(_ request: Request, with failure: FeedFailure, at epoch: StoreEpoch) -> [Report] {
        failed(token: request.token, failure: failure, at: epoch).map { [$0] } ?? []
    }

    package mutating func elapsed(_ resend: Resend, at epoch: StoreEpoch) {
        backoffElapsed(token: resend.token, at: epoch)
    }
}

/// A machine made of one ``PendingChange`` (`change`) and what its answers bring beside it
/// (one's own delete, one's own vote): the engine's questions, failures, waits and retries go to
/// the change as they are; the conformer takes the answers, its own kind.
package protocol PendingChangeComposite: ConvergingMachine
where Request == PendingChange<Wanted>.Request, Resend == PendingChange<Wanted>.Resend, Report == ChangeOutcome<Wanted> {
    associatedtype Wanted: Hashable & Sendable
    /// The value wanted, confirmed, in flight and waited for.
    var change: PendingChange<Wanted> { get set }
}

extension PendingChangeComposite {
    package var requests: [Request] { change.requests }
    package var resends: [Resend] { change.resends }
    package var isPending: Bool { change.isPending }
    package var isDeferred: Bool { change.isDeferred }
    package static func delay(of resend: Resend) -> Duration { resend.delay }

    package mutating func failed(_ request: Request, with failure: FeedFailure, at epoch: StoreEpoch) -> [Report] {
        change.failed(request, with: failure, at: epoch)
    }

    package mutating func elapsed(_ resend: Resend, at epoch: StoreEpoch) {
        change.elapsed(resend, at: epoch)
    }

    package mutating func retry(at epoch: StoreEpoch) -> Bool {
        change.retry(at: epoch)
    }
}
