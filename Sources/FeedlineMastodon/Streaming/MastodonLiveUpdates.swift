@_spi(FeedService) import Feedline
import Foundation

/// Live updates for a ``Feedline/FeedSession`` over a Mastodon server: the user stream
/// (`GET /api/v1/streaming/user`, server-sent events) applied to the session as it arrives, or a
/// poll where there is no stream.
///
/// - **Stream.** New posts of the home timeline wait above its rows, deletes remove rows, edits
///   update them, notifications wait above the notifications list (see
///   ``Feedline/FeedSession/apply(_:)``). Events are applied on the main actor in the order the
///   server sent them. A payload that does not decode is skipped.
/// - **Where.** The server's own `/api/v1/streaming/user`; when that answers 404 or redirects to
///   another host, the streaming host the server's description names (`GET /api/v2/instance`
///   `configuration.urls.streaming`, else `GET /api/v1/instance` `urls.streaming_api`; `https`
///   only), which is then sent the token too.
/// - **Reconnects.** A drop or failure waits 1, 2, 4 … seconds (at most 60, no jitter) on the
///   injected clock, then reconnects; a connection that had lived 60 s starts the waits over.
///   Each time a connection opens, the home and notifications lists catch up on what came
///   while there was none (``Feedline/FeedSession/catchUp(where:)``), so nothing is lost.
/// - **Polling.** Without a token, or when the server has no event stream for Feedline (403,
///   404 everywhere, 405, 501, or an answer that is not `text/event-stream`, as from servers
///   that stream over WebSocket only), every list catches up every 60 s on the clock instead.
///   Lists the user stream does not feed (public, local, hashtags, profiles) are polled so
///   while there is a stream too.
/// - **A refused token.** When the stream (or asking where it lives) answers 401, the session
///   is told at once (``Feedline/StreamState/refused(message:)``, the HTTP layer's sentence for
///   a refused token) and nothing more is asked with that token: no reconnecting, no polling.
/// - **State.** Every change shows in ``Feedline/FeedSession/streamState`` (``Feedline/StreamState``):
///   connecting, live, reconnecting (after, attempt), polling, refused (message), off. It never carries the token,
///   and neither does anything else here.
///
/// Everything runs on the main actor; the connection reads and decodes off it. Running work
/// holds this object only weakly: ``stop()``, or releasing it, cancels everything.
@MainActor
public final class MastodonLiveUpdates {
    /// The session events are applied to.
    public let session: FeedSession
    /// The lifecycle now (for tests).
    package private(set) var lifecycle: StreamLifecycleState
    /// The last payloads skipped because they did not decode, with the reason (at most
    /// ``skippedLimit``; for tests and diagnostics).
    package private(set) var skipped: [String] = []
    package static let skippedLimit = 100
    private let signedIn: Bool
    private var loop: Feedback<StreamLifecycleState.Request, StreamLifecycleEvent>?
    /// Whether this reads the `direct` stream (conversations) rather than the user stream.
    private let direct: Bool
    /// The `direct` stream beside the user stream, started and stopped with it.
    private var conversations: MastodonLiveUpdates?

    /// Live updates for `session` from `service`'s server; waits (backoff, polling) sleep on `clock`.
    /// Nothing happens before ``start()``.
    public convenience init(service: MastodonHTTPService, session: FeedSession, clock: any Clock<Duration> = ContinuousClock()) {
        let policy = StreamPolicy()
        self.init(client: .live(service, idleTimeout: policy.idleTimeout), session: session, clock: clock, policy: policy)
        conversations = MastodonLiveUpdates(
            client: .live(service, idleTimeout: policy.idleTimeout, direct: true), session: session, clock: clock, policy: policy, direct: true
        )
    }

    /// Live updates through `client` (a test double in tests), with `policy`'s numbers.
    ///
    /// With `direct`, the `direct` stream (conversations): only its `conversation` events and
    /// deletes are applied, the session's ``Feedline/FeedSession/streamState`` is the user
    /// stream's alone, each connection reloads the conversations lists on the stack (what
    /// changed while there was none), and where there is no stream nothing is polled: the
    /// conversations load when opened or refreshed, and nothing runs while idle.
    package init(
        client: UserStreamClient, session: FeedSession, clock: any Clock<Duration>, policy: StreamPolicy = StreamPolicy(), direct: Bool = false
    ) {
        self.session = session
        self.direct = direct
        signedIn = client.signedIn
        lifecycle = StreamLifecycleState(policy: policy)
        // In the session's activity: waits and an open stream count as waiting (a stream never
        // settles), asking where the stream lives as work.
        let activity = session.activity
        loop = Feedback(
            activity: activity,
            effect: { [weak self] request in
                await Self.run(request, client: client, clock: clock, activity: activity) { signal in self?.received(signal) }
            },
            handle: { [weak self] event in self?.send(event) }
        )
    }

    /// Starts: connects to the stream with the token, or polls without one. Does nothing when
    /// already running.
    public func start() {
        send(.started(signedIn: signedIn))
        conversations?.start()
    }

    /// Stops: closes the connection, cancels any wait or poll, and sets the session's stream
    /// state to ``Feedline/StreamState/off``. ``start()`` may start again.
    public func stop() {
        send(.stopped)
        conversations?.stop()
    }

    // MARK: - The loop

    /// Reduces `event`, tells the session, catches up where the transition says, and makes what
    /// runs match what the state asks for.
    package func send(_ event: StreamLifecycleEvent) {
        let catchUp = lifecycle.reduce(event)
        guard !direct else {
            if catchUp == .streamedLists { session.reloadConversations() }
            loop?.react(to: lifecycle.requests.filter { if case .poll = $0 { false } else { true } })
            return
        }
        session.streamStateChanged(lifecycle.streamState)
        if let catchUp { session.catchUp(where: catchUp.covers) }
        loop?.react(to: lifecycle.requests)
    }

    /// What an open connection brought, applied as it comes.
    private func received(_ signal: EventStreamSignal) {
        switch signal {
        case .opened:
            send(.connected)
        case .event(let event):
            switch event {
            case .conversation, .deleted: session.apply(event)
            case .posted, .edited, .notified: if !direct { session.apply(event) }
            }
        case .skipped(let type, let reason):
            if skipped.count == Self.skippedLimit { skipped.removeFirst() }
            skipped.append("\(type): \(reason)")
        case .ended:
            break
        }
    }

    /// Runs `request` to its end; returns the event it ends with (`nil` when cancelled). It holds
    /// nothing of the owner: what a connection brings goes to `deliver`.
    private static func run(
        _ request: StreamLifecycleState.Request,
        client: UserStreamClient,
        clock: any Clock<Duration>,
        activity: Activity,
        deliver: @escaping @MainActor @Sendable (EventStreamSignal) -> Void
    ) async -> StreamLifecycleEvent? {
        switch request {
        case .backoff(let wait, _):
            do { try await activity.waiting { try await clock.sleep(for: wait) } } catch { return nil }
            return .backoffElapsed
        case .poll(let interval):
            do { try await activity.waiting { try await clock.sleep(for: interval) } } catch { return nil }
            return .pollDue
        case .discover:
            do {
                return .announced(try await client.discover())
            } catch let error as MastodonHTTPError {
                if case .unauthorized(_, sentToken: true, _) = error { return .unauthorized(message: error.description) }
                return error.isTransient ? .failed : .announced(nil)
            } catch {
                // Cancelled: nobody is waiting for the answer.
                return nil
            }
        case .connect(let endpoint, _):
            let signals = client.open(endpoint)
            let message = client.unauthorizedMessage
            // Listening: what the stream brings is applied as it comes, and starts work of its own.
            return await activity.waiting { await read(signals, clock: clock, unauthorizedMessage: message, deliver: deliver) }
        }
    }

    /// Delivers what a connection brings until it ends; returns how it ended (`nil` when cancelled).
    private static func read<C: Clock<Duration>>(
        _ signals: AsyncStream<EventStreamSignal>,
        clock: C,
        unauthorizedMessage: String,
        deliver: @MainActor @Sendable (EventStreamSignal) -> Void
    ) async -> StreamLifecycleEvent? {
        var openedAt: C.Instant?
        var ended: StreamLifecycleEvent {
            openedAt.map { .dropped(livedFor: $0.duration(to: clock.now)) } ?? .failed
        }
        for await signal in signals {
            guard !Task.isCancelled else { return nil }
            switch signal {
            case .opened:
                openedAt = clock.now
                deliver(signal)
            case .event, .skipped:
                deliver(signal)
            case .ended(.closed), .ended(.failed):
                return ended
            case .ended(.movedElsewhere):
                return .movedElsewhere
            case .ended(.refused):
                return .refused
            case .ended(.unauthorized):
                return .unauthorized(message: unauthorizedMessage)
            }
        }
        // Finished without saying how: treat it as a drop, unless the reading was cancelled.
        return Task.isCancelled ? nil : ended
    }
}
