@_spi(FeedService) import Feedline
import Foundation
import Testing

/// The one test double of a `FeedService`: every service slice answers from one
/// ``ServerModel`` of posts by its laws, and the test says, per kind of call (and per key),
/// whether a call is answered, failed or held until the test answers or fails it. Any call the
/// test did not open a gate for fails the test with an `Issue` pointing at the line that made
/// the server, and fails the call itself with ``UnexpectedGatedCall`` — at once, never left
/// waiting.
///
/// A held call changes the model only when the test answers it (``answerHeld(at:)``), as a
/// server acts when the request arrives; a failed one changes nothing.
///
/// Safe from any task.
package final class GatedServer: FeedService, Sendable {
    private struct State {
        var model: ServerModel<Post>
        var gates: [GatedCall.Kind: Gate] = [:]
        var keyed: [KeyedKind: Gate] = [:]
        /// Gates for the next calls of a kind, one call each, before the kind's own gate.
        var next: [GatedCall.Kind: [Gate]] = [:]
        var calls: [GatedCall] = []
        var callWaiters: [(kind: GatedCall.Kind, count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private struct KeyedKind: Hashable {
        var kind: GatedCall.Kind
        var key: String
    }

    private let state: Locked<State>
    /// The calls held until the test answers or fails them (``hold(_:key:cancellable:)``).
    package let held: HeldCalls<GatedCall, HeldAnswer>
    /// The signed-in user: the author of what the server publishes.
    package let me: Author
    /// How many items a page holds.
    package let pageSize: Int
    /// How many profiles a page of accounts holds.
    package let accountsPageSize: Int
    private let sourceLocation: SourceLocation

    /// The calls answered from the model unless a test opens another gate for them (and left out
    /// of what an unexpected call says the test expects): a profile's featured hashtags, asked
    /// with every profile, so that tests about profiles need not.
    static let answeredByDefault: Set<GatedCall.Kind> = [.featuredTags]

    /// A server of `model`, answering the calls of `answering` (and ``answeredByDefault``)
    /// from it; every other call is unexpected until ``answer(_:key:)``, ``fail(_:key:with:)`` or ``hold(_:key:cancellable:)``
    /// opens a gate for it. With `heldInOrder`, held calls wait in an order that does not depend
    /// on how calls made at once happened to arrive — by what they ask, then by the effect that
    /// asks (effects are numbered as they start) — so a seeded run replays; else as they came.
    package init(
        _ model: ServerModel<Post> = ServerModel(), me: Author = Post.signedInUser, pageSize: Int = 20, accountsPageSize: Int? = nil,
        answering: Set<GatedCall.Kind> = [], heldInOrder: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        held = HeldCalls(precedes: heldInOrder ? Self.precedes : nil)
        var model = model
        model.relationships.me = AccountID(me.id)
        var state = State(model: model)
        for kind in Self.answeredByDefault { state.gates[kind] = .answer }
        for kind in answering { state.gates[kind] = .answer }
        self.state = Locked(state)
        self.me = me
        self.pageSize = pageSize
        self.accountsPageSize = accountsPageSize ?? pageSize
        self.sourceLocation = sourceLocation
    }

    /// Whether `call` (made by `effect`) waits before `other` (made by `otherEffect`): by what
    /// they ask, then by the effect that asks.
    @Sendable
    private static func precedes(_ call: GatedCall, _ effect: Int?, _ other: GatedCall, _ otherEffect: Int?) -> Bool {
        if call.description != other.description { return call.description < other.description }
        return (effect ?? .max) < (otherEffect ?? .max)
    }

    /// A server whose feeds list `posts` (home, newest first, unless `feeds` says otherwise),
    /// answering `answering`.
    package convenience init(
        posts: [Post], feeds: [Feed] = [.home], notifications: [NotificationGroup] = [], me: Author = Post.signedInUser, pageSize: Int = 20,
        answering: Set<GatedCall.Kind> = [], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var model = ServerModel(posts)
        for feed in feeds { model.timelines.feeds[feed] = posts.map(\.id) }
        model.timelines.notifications = notifications
        self.init(model, me: me, pageSize: pageSize, answering: answering, sourceLocation: sourceLocation)
    }

    // MARK: - Gates

    /// Answers calls of `kinds` (about `key` only, when given) from the model.
    package func answer(_ kinds: GatedCall.Kind..., key: String? = nil) { open(kinds, key, .answer) }

    /// Fails calls of `kinds` (about `key` only, when given) with `error`; the model stays.
    package func fail(_ kinds: GatedCall.Kind..., key: String? = nil, with error: any Error & Sendable) { open(kinds, key, .fail(error)) }

    /// Lets calls of `kinds` (about `key` only, when given) change the model, then fails them with
    /// `error`: the server did it, the client never heard.
    package func lose(_ kinds: GatedCall.Kind..., key: String? = nil, with error: any Error & Sendable) { open(kinds, key, .lose(error)) }

    /// Holds calls of `kinds` (about `key` only, when given) until the test answers or fails them.
    package func hold(_ kinds: GatedCall.Kind..., key: String? = nil, cancellable: Bool = false) {
        open(kinds, key, .hold(cancellable: cancellable))
    }

    /// Lets `draw` pick the gate of each call of `kinds` (about `key` only, when given) when it
    /// comes, from the call and the model as they are then.
    package func decide(_ kinds: GatedCall.Kind..., key: String? = nil, by draw: @escaping @Sendable (GatedCall, ServerModel<Post>) -> Gate) {
        open(kinds, key, .drawn(draw))
    }

    /// Fails the next `count` calls of `kind` with `error` (the model stays), whatever its gate
    /// says; the calls after them go through the gate.
    package func failNext(_ count: Int, _ kind: GatedCall.Kind, with error: any Error & Sendable) {
        state.withLock { state in state.next[kind, default: []] += Array(repeating: .fail(error), count: count) }
    }

    /// Makes calls of `kinds` (about `key` only, when given) unexpected again.
    package func close(_ kinds: GatedCall.Kind..., key: String? = nil) {
        state.withLock { state in
            for kind in kinds {
                if let key { state.keyed[KeyedKind(kind: kind, key: key)] = nil } else { state.gates[kind] = nil }
            }
        }
    }

    private func open(_ kinds: [GatedCall.Kind], _ key: String?, _ gate: Gate) {
        state.withLock { state in
            for kind in kinds {
                if let key { state.keyed[KeyedKind(kind: kind, key: key)] = gate } else { state.gates[kind] = gate }
            }
        }
    }

    // MARK: - The model and the calls

    /// The model as it is now.
    package var model: ServerModel<Post> { state.withLock { $0.model } }

    /// Changes the model, telling nobody (as a change no stream reported).
    @discardableResult
    package func update<Result: Sendable>(_ change: (inout ServerModel<Post>) throws -> Result) rethrows -> Result {
        try state.withLock { state in try change(&state.model) }
    }

    /// Every call received so far, in order (unexpected ones too).
    package var calls: [GatedCall] { state.withLock { $0.calls } }

    /// The calls of `kind` received so far, in order.
    package func calls(_ kind: GatedCall.Kind) -> [GatedCall] { calls.filter { $0.kind == kind } }

    /// Returns once at least `count` calls are held.
    package func waitForHeld(_ count: Int) async { await held.waitFor(count) }

    /// Returns once at least `count` calls of `kind` were received (held, answered or failed).
    package func waitForCalls(_ count: Int, of kind: GatedCall.Kind) async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state in
                if state.calls.count(where: { $0.kind == kind }) >= count { return true }
                state.callWaiters.append((kind, count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Answers the held call at `index` (oldest first) from the model as it is now — or, with
    /// `asAsked`, a read from the model as it was when the call came (the server read it then
    /// and its answer was slow on the way back; a write asked so is an issue of the test, and
    /// answered now); `false` when none is held there.
    @discardableResult
    package func answerHeld(at index: Int, asAsked: Bool = false) -> Bool {
        guard let call = held.take(at: index) else { return false }
        let read = GatedCall.Kind.reads.contains(call.call.kind)
        if asAsked, !read {
            Issue.record(Comment(rawValue: "\(call.call) is not a read: only a read is answered as asked (it is answered now)"), sourceLocation: sourceLocation)
        }
        call.answer(asAsked && read ? .asAsked : .now)
        return true
    }

    /// Serves the held call at `index` now: the model does what it asks (a read is read) as it
    /// is now, and the answer waits until the test answers (delivers) it, or fails it — lost on
    /// its way back; `false` when none is held there or it was served already.
    @discardableResult
    package func serveHeld(at index: Int) -> Bool { held.serve(at: index) }

    /// Whether the held call at `index` was served (``serveHeld(at:)``).
    package func isServedHeld(at index: Int) -> Bool { held.isServed(at: index) }

    /// Fails the held call at `index` (oldest first) with `error`; `false` when none is held there.
    @discardableResult
    package func failHeld(at index: Int, with error: any Error) -> Bool {
        guard let call = held.take(at: index) else { return false }
        call.fail(error)
        return true
    }

    /// Runs `call` through its gate, then (answered) `body` on the model.
    func run<Result: Sendable>(_ call: GatedCall, _ body: @escaping @Sendable (inout ServerModel<Post>) throws -> Result) async throws -> Result {
        let (gate, asked, ready) = state.withLock { state in
            state.calls.append(call)
            let count = state.calls.count(where: { $0.kind == call.kind })
            let ready = state.callWaiters.filter { $0.kind == call.kind && $0.count <= count }.map(\.continuation)
            state.callWaiters.removeAll { $0.kind == call.kind && $0.count <= count }
            var gate: Gate? =
                if let next = state.next[call.kind]?.first {
                    next
                } else {
                    state.keyed[KeyedKind(kind: call.kind, key: call.key)] ?? state.gates[call.kind]
                }
            if case .drawn(let draw)? = gate { gate = draw(call, state.model) }
            if state.next[call.kind]?.isEmpty == false { state.next[call.kind]?.removeFirst() }
            return (gate, state.model, ready)
        }
        for waiter in ready { waiter.resume() }
        switch gate {
        case nil:
            let expected = state.withLock { state in
                Set(state.gates.keys).union(state.keyed.keys.map(\.kind)).subtracting(Self.answeredByDefault)
            }
            let unexpected = UnexpectedGatedCall(call: call, expected: GatedCall.Kind.allCases.filter(expected.contains))
            Issue.record(Comment(rawValue: unexpected.message), sourceLocation: sourceLocation)
            throw unexpected
        case .fail(let error)?:
            throw error
        case .lose(let error)?:
            _ = try state.withLock { state in try body(&state.model) }
            throw error
        case .hold(let cancellable)?:
            let served = ServedAnswer<Result>()
            let answer = try await held.hold(call, cancellable: cancellable) { [self] in
                served.keep(state.withLock { state in Swift.Result { try body(&state.model) } })
            }
            if let result = served.result { return try result.get() }
            if answer == .asAsked {
                var snapshot = asked
                return try body(&snapshot)
            }
        case .answer?, .drawn?:
            break
        }
        return try state.withLock { state in try body(&state.model) }
    }

    /// A page of `items` after `cursor`, `size` (or ``pageSize``) at a time.
    func page<Item>(_ items: [Item], after cursor: PageCursor?, size: Int? = nil) throws -> Page<Item> {
        let (range, next) = try ServerModel<Post>.slice(items.count, after: cursor, size: size ?? pageSize)
        return Page(items: Array(items[range]), next: next)
    }
}

/// A held call's answer once the test served it (``GatedServer/serveHeld(at:)``): computed
/// then, delivered when the test answers the call.
private final class ServedAnswer<Value: Sendable>: Sendable {
    private let kept = Locked<Swift.Result<Value, any Error>?>(nil)

    var result: Swift.Result<Value, any Error>? { kept.withLock { $0 } }

    func keep(_ result: Swift.Result<Value, any Error>) { kept.withLock { $0 = result } }
}
