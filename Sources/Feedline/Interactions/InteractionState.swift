/// A logical time in a `PostStore`: it grows with every event the store handles and every
/// fetch it is told about, so replies and fetched copies can be ordered against each other.
package typealias StoreEpoch = UInt64

/// The interaction state machine of one post: for each kind (favourite, boost, bookmark, pin,
/// muted conversation), what
/// the server last confirmed, what the user wants, and the request in flight. A value; change it
/// with ``reduce(_:)``.
///
/// Each kind's track is in one of three phases:
/// - **settled**: nothing in flight, nothing waiting; the desired value is the confirmed one;
/// - **sending**: one request in flight (``Track/inFlight``);
/// - **deferred** (the outbox): its last request failed for lack of a connection, so the desired
///   value is kept and a re-send waits for its backoff (``Track/resend``).
///
/// Invariants (``checkInvariants()``): the desired value differs from the confirmed one with
/// nothing in flight only while deferred; a deferred track has nothing in flight and a failed
/// attempt counted; a settled track counts no failed attempts; counts are never negative.
package struct InteractionState: Hashable, Sendable {
    /// One kind's track: the shared toggle machine (see ``ToggleTrack``).
    package typealias Track = ToggleTrack<InteractionKind>

    package var favourite: Track
    package var reblog: Track
    package var bookmark: Track
    package var pin: Track
    package var muteThread: Track
    /// The last failure, cleared by the next toggle or retry.
    package var failure: InteractionFailure?

    package init(
        favourite: Track, reblog: Track, bookmark: Track = Track(confirmed: false, count: 0), pin: Track = Track(confirmed: false, count: 0),
        muteThread: Track = Track(confirmed: false, count: 0), failure: InteractionFailure? = nil
    ) {
        self.favourite = favourite
        self.reblog = reblog
        self.bookmark = bookmark
        self.pin = pin
        self.muteThread = muteThread
        self.failure = failure
    }

    /// The state for a post first seen in a server copy fetched at `epoch`.
    package init(serverCopy post: Post, fetchedAt epoch: StoreEpoch) {
        // The original's fields, read from one copy (each `Post/isOn(_:)` takes its own).
        let original = post.content
        favourite = Track(confirmed: original.favourited, count: original.favouritesCount, knownSince: epoch)
        reblog = Track(confirmed: original.reblogged, count: original.reblogsCount, knownSince: epoch)
        bookmark = Track(confirmed: original.bookmarked, count: 0, knownSince: epoch)
        pin = Track(confirmed: original.pinned, count: 0, knownSince: epoch)
        muteThread = Track(confirmed: original.muted, count: 0, knownSince: epoch)
        failure = nil
    }

    /// The state of a post known only from a saved outbox, before any copy of it arrived: each
    /// kind with a wish is taken to be the opposite on the server (as it was when the wish was
    /// saved) with a count of 0, learnt never (``Track/knownSince`` 0), so the first copy or reply
    /// sets it. Reduce `InteractionEvent/restored(_:value:at:)` for each wish to send it.
    package init(restoring wishes: [InteractionKind: Bool]) {
        func track(_ kind: InteractionKind) -> Track { Track(confirmed: wishes[kind].map { !$0 } ?? false, count: 0) }
        self.init(
            favourite: track(.favourite), reblog: track(.reblog), bookmark: track(.bookmark), pin: track(.pin), muteThread: track(.muteThread)
        )
    }

    package subscript(kind: InteractionKind) -> Track {
        get {
            switch kind {
            case .favourite: favourite
            case .reblog: reblog
            case .bookmark: bookmark
            case .pin: pin
            case .muteThread: muteThread
            }
        }
        set {
            switch kind {
            case .favourite: favourite = newValue
            case .reblog: reblog = newValue
            case .bookmark: bookmark = newValue
            case .pin: pin = newValue
            case .muteThread: muteThread = newValue
            }
        }
    }

    /// What rows and details show.
    package var display: PostInteraction {
        // Every track at rest (almost every post): nothing pending or queued to collect.
        guard favourite.isAtRest, reblog.isAtRest, bookmark.isAtRest, pin.isAtRest, muteThread.isAtRest else { return waitingDisplay }
        return PostInteraction(
            favourited: favourite.desired, favouritesCount: favourite.displayedCount, reblogged: reblog.desired,
            reblogsCount: reblog.displayedCount, bookmarked: bookmark.desired, pinned: pin.desired, muted: muteThread.desired,
            failure: failure
        )
    }

    /// ``display`` of a state some of whose tracks wait: one pass over the five tracks, in
    /// ``InteractionKind``'s order (the order of ``PostInteraction/queuedChanges``).
    private var waitingDisplay: PostInteraction {
        var pending = Set<InteractionKind>()
        var queued = Set<InteractionKind>()
        var queuedChanges: [QueuedChange] = []
        func collect(_ track: Track, _ kind: InteractionKind) {
            guard !track.isAtRest else { return }
            if track.isPending {
                pending.insert(kind)
                if track.failedAttempts > 0 { queued.insert(kind) }
            }
            if let change = track.queued(kind) { queuedChanges.append(change) }
        }
        collect(favourite, .favourite)
        collect(reblog, .reblog)
        collect(bookmark, .bookmark)
        collect(pin, .pin)
        collect(muteThread, .muteThread)
        return PostInteraction(
            favourited: favourite.desired,
            favouritesCount: favourite.displayedCount,
            reblogged: reblog.desired,
            reblogsCount: reblog.displayedCount,
            bookmarked: bookmark.desired,
            pinned: pin.desired,
            muted: muteThread.desired,
            pending: pending,
            queued: queued,
            queuedChanges: queuedChanges,
            failure: failure
        )
    }

    /// Whether any kind has a request in flight.
    package var isBusy: Bool {
        favourite.inFlight != nil || reblog.inFlight != nil || bookmark.inFlight != nil || pin.inFlight != nil || muteThread.inFlight != nil
    }

    /// Whether any kind waits for the server (a request in flight or a deferred re-send).
    package var isPending: Bool {
        favourite.isPending || reblog.isPending || bookmark.isPending || pin.isPending || muteThread.isPending
    }

    /// Whether any kind is deferred, waiting to be sent again.
    package var isDeferred: Bool {
        favourite.resend != nil || reblog.resend != nil || bookmark.resend != nil || pin.resend != nil || muteThread.resend != nil
    }

    /// How long a deferred track waits before it sends again (see ``ToggleTrack/resendDelay(afterFailures:retryAfter:)``).
    package static func resendDelay(afterFailures failures: Int, retryAfter: Duration? = nil) -> Duration {
        Track.resendDelay(afterFailures: failures, retryAfter: retryAfter)
    }

    /// Checks the invariants of every kind's track (``ToggleTrack/brokenInvariants(_:counted:)``);
    /// returns a description of each one broken (empty when sound).
    package func checkInvariants() -> [String] {
        InteractionKind.allCases.flatMap { self[$0].brokenInvariants($0, counted: $0.isCounted) }
    }
}

extension ToggleTrack<InteractionKind> {
    /// What a front shows of this track while it is queued (``failedAttempts`` > 0).
    func queued(_ kind: InteractionKind) -> QueuedChange? {
        guard failedAttempts > 0, isPending else { return nil }
        return QueuedChange(kind: kind, value: desired, reason: queuedReason ?? "", failedAttempts: failedAttempts, retryAfter: resend?.delay)
    }
}

/// A re-send the interaction machine waits for (see ``ToggleResend``).
package typealias InteractionResend = ToggleResend<InteractionKind>

/// A request the interaction machine wants running (see ``ToggleRequest``).
package typealias InteractionRequest = ToggleRequest<InteractionKind>
