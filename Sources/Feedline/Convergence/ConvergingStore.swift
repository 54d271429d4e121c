/// One of a session's stores of changes that converge with the server (filters, lists, the
/// notification policy…): what the session asks of every one of them alike — whether a change
/// waits for a connection, sending those again, and waiting for the requests on their way. The
/// session keeps them in one list (``FeedSession/convergingStores``), so a new store is one
/// entry there, not a line in each of ``FeedSession/hasFailures``, ``FeedSession/retry()`` and
/// ``FeedSession/finish(waitingAtMost:)``.
///
/// Main actor only.
@MainActor
package protocol ConvergingStore: AnyObject, Sendable {
    /// Whether a change waits to be sent again (the server could not be reached).
    var hasFailures: Bool { get }

    /// Sends every change that waits for a connection at once. Returns whether there was any.
    @discardableResult
    func retryFailed() -> Bool

    /// Returns once no request of the store is in flight (at once when none is), or after
    /// `limit` on the store's retry clock.
    func waitForRequests(atMost limit: Duration) async
}

/// A converging store whose every change runs through one engine: whether a change waits, the
/// re-sending and the waiting are the engine's, so the store declares only the engine.
///
/// Main actor only.
@MainActor
package protocol OneEngineStore: ConvergingStore {
    associatedtype EngineKey: Hashable & Sendable
    associatedtype EngineMachine: ConvergingMachine
    /// The store's engine, made once when the store is (it hears the store's own rules, so it
    /// is set after `self` exists).
    var engine: Convergence<EngineKey, EngineMachine>! { get }
}

extension OneEngineStore {
    /// Whether a change waits for a connection to be sent again.
    package var hasFailures: Bool { engine.hasDeferred }

    /// Sends every change that waits for a connection at once. Returns whether there was any.
    @discardableResult
    package func retryFailed() -> Bool { engine.retry() }

    /// Returns once no change is in flight (at once when none is), or after `limit` on the
    /// engine's retry clock.
    package func waitForRequests(atMost limit: Duration) async {
        await engine.waitForRequests(atMost: limit)
    }

    /// The changes sent and not answered yet.
    package var requestsInFlight: Int { engine.requestsInFlight.count }

    /// Returns once at most `count` changes wait for an answer (at once when that is so). For tests.
    package func waitForRequests(atMost count: Int) async {
        await engine.waitForRequests(atMost: count)
    }
}
