import Feedline

extension StreamLifecycleState {
    /// Which lists a transition asks the session to catch up (``Feedline/FeedSession/catchUp(where:)``).
    package enum CatchUp: Hashable, Sendable {
        /// The lists the user stream feeds (home and notifications): after a connection opens,
        /// for what came while there was none.
        case streamedLists
        /// The lists the user stream does not feed (public, local, hashtags, profiles, lists):
        /// a poll while there is a stream, or an attempt at one.
        case unstreamedLists
        /// Every list that asks for newer items: a poll where there is no stream.
        case everyList

        /// Whether the user stream feeds lists of `source`.
        package static func isStreamed(_ source: ListSource) -> Bool {
            source == .feed(.home) || source == .notifications
        }

        /// Whether this catch-up is for lists of `source`.
        package func covers(_ source: ListSource) -> Bool {
            switch self {
            case .streamedLists: Self.isStreamed(source)
            case .unstreamedLists: !Self.isStreamed(source)
            case .everyList: true
            }
        }
    }

    /// Moves the lifecycle on `event`; returns the catch-up the transition calls for. Events that
    /// mean nothing in the current phase (a late ``StreamLifecycleEvent/backoffElapsed`` after a
    /// stop, a second start) change nothing.
    ///
    /// - ``StreamLifecycleEvent/started(signedIn:)`` from off: connecting, or polling without a
    ///   token (Mastodon 4.2 and later stream to signed-in users only).
    /// - ``StreamLifecycleEvent/connected``: live; catch up the streamed lists — after a
    ///   reconnection for what came while it was down, after the first connection for what came
    ///   between their first page and the stream opening.
    /// - ``StreamLifecycleEvent/dropped(livedFor:)``: wait before the next attempt — attempt 1
    ///   again when the connection had lived ``StreamPolicy/stableAfter``, else one more than the
    ///   attempt that made it.
    /// - ``StreamLifecycleEvent/failed`` while connecting or discovering: wait before the next attempt.
    /// - ``StreamLifecycleEvent/movedElsewhere``: ask where the stream lives, once; from an
    ///   announced address, poll.
    /// - ``StreamLifecycleEvent/announced(_:)``: connect there (same attempt), or poll.
    /// - ``StreamLifecycleEvent/refused`` while connecting or discovering: poll.
    /// - ``StreamLifecycleEvent/unauthorized(message:)`` while connecting or discovering: stop
    ///   asking — no stream, no poll — with the token the server refused.
    /// - ``StreamLifecycleEvent/pollDue``: catch up every list when polling, else the lists the
    ///   stream does not feed.
    /// - ``StreamLifecycleEvent/stopped``: off, from anywhere (and where to look is forgotten).
    ///
    /// - Complexity: O(1).
    @discardableResult
    package mutating func reduce(_ event: StreamLifecycleEvent) -> CatchUp? {
        switch (phase, event) {
        case (.discovering(let attempt), .announced(let url?)) where endpoint != .announced(url):
            endpoint = .announced(url)
            phase = .connecting(attempt: attempt)
        case (.discovering, .announced):
            phase = .polling
        case (.waiting(let attempt), .backoffElapsed):
            phase = .connecting(attempt: attempt)
        case (.connecting(let attempt), .connected):
            phase = .live(attempt: attempt)
            return .streamedLists
        case (.live(let attempt), .dropped(let livedFor)):
            phase = .waiting(attempt: livedFor >= policy.stableAfter ? 1 : attempt + 1)
        case (.connecting(let attempt), .failed), (.discovering(let attempt), .failed):
            phase = .waiting(attempt: attempt + 1)
        case (.connecting(let attempt), .movedElsewhere):
            phase = endpoint == .sameHost ? .discovering(attempt: attempt) : .polling
        case (.polling, .pollDue):
            return .everyList
        case (.connecting, .pollDue), (.discovering, .pollDue), (.live, .pollDue), (.waiting, .pollDue):
            return .unstreamedLists
        case (.connecting, .refused), (.discovering, .refused):
            phase = .polling
        case (.connecting, .unauthorized(let message)), (.discovering, .unauthorized(let message)):
            phase = .unauthorized(message: message)
        case (.off, .started(let signedIn)):
            phase = signedIn ? .connecting(attempt: 0) : .polling
        case (_, .stopped):
            phase = .off
            endpoint = .sameHost
        default:
            // Everything else means nothing in its phase.
            break
        }
        return nil
    }
}
