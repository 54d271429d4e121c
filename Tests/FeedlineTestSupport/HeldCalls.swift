import Feedline

/// Calls a test double holds until the test answers or fails them, in any order: the one place
/// the doubles of writes (relationships, domain blocks, hashtags, lists, conversations) keep
/// what waits, so a test can wait for calls to arrive, then answer them out of order.
///
/// Safe from any task; ``waitFor(_:)`` returns as soon as enough calls wait.
public final class HeldCalls<Call: Sendable, Answer: Sendable>: Sendable {
    /// One call taken out of the waiting ones: the test answers or fails it.
    public struct Held: Sendable {
        public let call: Call
        fileprivate let continuation: CheckedContinuation<Answer, any Error>

        /// Answers the call with `answer`.
        public func answer(_ answer: Answer) { continuation.resume(returning: answer) }
        /// Fails the call with `error`.
        public func fail(_ error: any Error) { continuation.resume(throwing: error) }
    }

    private struct Waiting {
        var call: Call
        var continuation: CheckedContinuation<Answer, any Error>
        var token: Int
        /// The effect that made the call (``CurrentEffect``), `nil` outside effects.
        var effect: Int?
        /// What serves the call before it is answered (``serve(at:)``), and whether it did.
        var serve: (@Sendable () -> Void)?
        var served = false
    }

    private struct State {
        var waiting: [Waiting] = []
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        var nextToken = 0
        /// Tokens of callers cancelled before their call was held.
        var cancelled: Set<Int> = []
        /// Every call held so far, in order.
        var held: [Call] = []
    }

    private let state = Locked(State())
    /// Where a call goes among the waiting ones: before the first it precedes (each with the
    /// effect that made it); `nil` keeps them in the order they came.
    private let precedes: (@Sendable (Call, Int?, Call, Int?) -> Bool)?

    /// `precedes`: an order for the waiting calls that does not depend on how calls made at
    /// once happened to arrive (so a seeded run replays); by default the order they came in.
    public init(precedes: (@Sendable (Call, Int?, Call, Int?) -> Bool)? = nil) {
        self.precedes = precedes
    }

    /// The calls waiting, oldest first.
    public var calls: [Call] { state.withLock { $0.waiting.map(\.call) } }

    /// Every call held so far, in the order they were held (a caller cancelled before its
    /// call was held is not among them).
    public var heldSoFar: [Call] { state.withLock { $0.held } }

    /// How many calls wait.
    public var count: Int { state.withLock { $0.waiting.count } }

    /// How many effects wait: one effect may wait for two calls at once (a thread's post and
    /// context), so its calls count once; each call made outside an effect counts alone.
    public var waitingEffects: Int {
        state.withLock { state in Set(state.waiting.compactMap(\.effect)).count + state.waiting.count { $0.effect == nil } }
    }

    /// Holds `call` until the test answers or fails it. With `cancellable`, a cancelled caller
    /// stops waiting at once (`CancellationError`) and the call leaves the waiting ones, as a
    /// request a client gave up on; otherwise it waits for the test whatever happens.
    ///
    /// `serve`, when given, is what ``serve(at:)`` runs: the server doing what the call asks
    /// before its answer is delivered.
    public func hold(_ call: Call, cancellable: Bool = false, serve: (@Sendable () -> Void)? = nil) async throws -> Answer {
        let effect = CurrentEffect.number
        let token = state.withLock { state in
            state.nextToken += 1
            return state.nextToken
        }
        let wait = {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Answer, any Error>) in
                let ready = self.state.withLock { state -> [CheckedContinuation<Void, Never>]? in
                    if state.cancelled.remove(token) != nil { return nil }
                    let waiting = Waiting(call: call, continuation: continuation, token: token, effect: effect, serve: serve)
                    let at = self.precedes.flatMap { precedes in
                        state.waiting.firstIndex { precedes(call, effect, $0.call, $0.effect) }
                    } ?? state.waiting.count
                    state.waiting.insert(waiting, at: at)
                    state.held.append(call)
                    let count = state.waiting.count
                    let ready = state.waiters.filter { $0.count <= count }.map(\.continuation)
                    state.waiters.removeAll { $0.count <= count }
                    return ready
                }
                guard let ready else {
                    continuation.resume(throwing: CancellationError())
                    return
                }
                for waiter in ready { waiter.resume() }
            }
        }
        guard cancellable else { return try await wait() }
        return try await withTaskCancellationHandler(operation: wait) {
            let cancelled = self.state.withLock { state -> CheckedContinuation<Answer, any Error>? in
                guard let index = state.waiting.firstIndex(where: { $0.token == token }) else {
                    state.cancelled.insert(token)
                    return nil
                }
                return state.waiting.remove(at: index).continuation
            }
            cancelled?.resume(throwing: CancellationError())
        }
    }

    /// Returns once at least `count` calls wait.
    public func waitFor(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state in
                if state.waiting.count >= count { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Serves the call waiting at `index` now (see ``hold(_:cancellable:serve:)``); it waits on
    /// for its answer. `false` when none waits there, it has nothing to serve, or it was served.
    @discardableResult
    public func serve(at index: Int) -> Bool {
        let serve = state.withLock { state -> (@Sendable () -> Void)? in
            guard state.waiting.indices.contains(index), !state.waiting[index].served, let serve = state.waiting[index].serve else { return nil }
            state.waiting[index].served = true
            return serve
        }
        serve?()
        return serve != nil
    }

    /// Whether the call waiting at `index` was served (``serve(at:)``).
    public func isServed(at index: Int) -> Bool {
        state.withLock { state in state.waiting.indices.contains(index) && state.waiting[index].served }
    }

    /// The number of the call waiting at `index`: the same for as long as it waits, never another's.
    public func number(at index: Int) -> Int? {
        state.withLock { state in state.waiting.indices.contains(index) ? state.waiting[index].token : nil }
    }

    /// Takes the call waiting at `index` (oldest first) for the test to answer or fail; `nil`
    /// when none waits there.
    public func take(at index: Int) -> Held? {
        state.withLock { state in
            guard state.waiting.indices.contains(index) else { return nil }
            let waiting = state.waiting.remove(at: index)
            return Held(call: waiting.call, continuation: waiting.continuation)
        }
    }

    /// Takes every call waiting now (oldest first) for the test to answer or fail.
    public func takeAll() -> [Held] {
        state.withLock { state in
            let all = state.waiting.map { Held(call: $0.call, continuation: $0.continuation) }
            state.waiting.removeAll()
            return all
        }
    }
}
