/// A logical time in a ``PostStore``: it grows with every event the store handles and every
/// fetch it is told about, so replies and fetched copies can be ordered against each other.
package typealias StoreEpoch = UInt64

/// The interaction state machine of one post: for each kind (favourite, boost, bookmark), what
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
    /// One kind's track.
    package struct Track: Hashable, Sendable {
        /// The flag the server last confirmed.
        package var confirmed: Bool
        /// The count that goes with `confirmed` (always 0 for bookmarks).
        package var count: Int
        /// What the user wants now; the display shows it.
        package var desired: Bool
        /// The request in flight, if any. At most one per kind.
        package var inFlight: InteractionRequest?
        /// When the server's value was last learnt (a reply or a fetched copy): copies fetched
        /// before this are older than what is known and are ignored. 0 when it was never learnt
        /// (a post restored from the outbox before any copy of it arrived).
        package var knownSince: StoreEpoch
        /// How many requests for the current wish failed in a row for lack of a connection; 0
        /// once the wish is confirmed or dropped. Sets the backoff of the next re-send.
        package var failedAttempts: Int
        /// The re-send this track waits for (the deferred phase), if any.
        package var resend: InteractionResend?
        /// Why the last of the ``failedAttempts`` failed (one sentence); `nil` when none failed.
        package var queuedReason: String?

        package init(
            confirmed: Bool, count: Int, desired: Bool? = nil, inFlight: InteractionRequest? = nil, knownSince: StoreEpoch = 0,
            failedAttempts: Int = 0, resend: InteractionResend? = nil, queuedReason: String? = nil
        ) {
            self.confirmed = confirmed
            self.count = max(0, count)
            self.desired = desired ?? confirmed
            self.inFlight = inFlight
            self.knownSince = knownSince
            self.failedAttempts = failedAttempts
            self.resend = resend
            self.queuedReason = queuedReason ?? (failedAttempts > 0 ? "" : nil)
        }

        /// What a front shows of this track while it is queued (``failedAttempts`` > 0).
        func queued(_ kind: InteractionKind) -> QueuedChange? {
            guard failedAttempts > 0, isPending else { return nil }
            return QueuedChange(kind: kind, value: desired, reason: queuedReason ?? "", failedAttempts: failedAttempts, retryAfter: resend?.delay)
        }

        /// Whether it waits for the server: a request in flight or a re-send deferred.
        package var isPending: Bool { inFlight != nil || resend != nil }

        /// The count shown: the confirmed one adjusted by the pending change.
        package var displayedCount: Int {
            guard desired != confirmed else { return count }
            return max(0, count + (desired ? 1 : -1))
        }
    }

    package var favourite: Track
    package var reblog: Track
    package var bookmark: Track
    /// The last failure, cleared by the next toggle or retry.
    package var failure: InteractionFailure?

    package init(favourite: Track, reblog: Track, bookmark: Track = Track(confirmed: false, count: 0), failure: InteractionFailure? = nil) {
        self.favourite = favourite
        self.reblog = reblog
        self.bookmark = bookmark
        self.failure = failure
    }

    /// The state for a post first seen in a server copy fetched at `epoch`.
    package init(serverCopy post: Post, fetchedAt epoch: StoreEpoch) {
        favourite = Track(confirmed: post.isOn(.favourite), count: post.count(.favourite), knownSince: epoch)
        reblog = Track(confirmed: post.isOn(.reblog), count: post.count(.reblog), knownSince: epoch)
        bookmark = Track(confirmed: post.isOn(.bookmark), count: 0, knownSince: epoch)
        failure = nil
    }

    /// The state of a post known only from a saved outbox, before any copy of it arrived: each
    /// kind with a wish is taken to be the opposite on the server (as it was when the wish was
    /// saved) with a count of 0, learnt never (``Track/knownSince`` 0), so the first copy or reply
    /// sets it. Reduce `InteractionEvent/restored(_:value:at:)` for each wish to send it.
    package init(restoring wishes: [InteractionKind: Bool]) {
        func track(_ kind: InteractionKind) -> Track { Track(confirmed: wishes[kind].map { !$0 } ?? false, count: 0) }
        self.init(favourite: track(.favourite), reblog: track(.reblog), bookmark: track(.bookmark))
    }

    package subscript(kind: InteractionKind) -> Track {
        get {
            switch kind {
            case .favourite: favourite
            case .reblog: reblog
            case .bookmark: bookmark
            }
        }
        set {
            switch kind {
            case .favourite: favourite = newValue
            case .reblog: reblog = newValue
            case .bookmark: bookmark = newValue
            }
        }
    }

    /// What rows and details show.
    package var display: PostInteraction {
        PostInteraction(
            favourited: favourite.desired,
            favouritesCount: favourite.displayedCount,
            reblogged: reblog.desired,
            reblogsCount: reblog.displayedCount,
            bookmarked: bookmark.desired,
            pending: Set(InteractionKind.allCases.filter { self[$0].isPending }),
            queued: Set(InteractionKind.allCases.filter { self[$0].isPending && self[$0].failedAttempts > 0 }),
            queuedChanges: InteractionKind.allCases.compactMap { self[$0].queued($0) },
            failure: failure
        )
    }

    /// Whether any kind has a request in flight.
    package var isBusy: Bool { InteractionKind.allCases.contains { self[$0].inFlight != nil } }

    /// Whether any kind waits for the server (a request in flight or a deferred re-send).
    package var isPending: Bool { InteractionKind.allCases.contains { self[$0].isPending } }

    /// Whether any kind is deferred, waiting to be sent again.
    package var isDeferred: Bool { InteractionKind.allCases.contains { self[$0].resend != nil } }

    /// How long a deferred track waits before it sends again after `failures` failed attempts
    /// in a row: 2 s, 4 s, 8 s … doubling, at most 60 s — or as long as the server asked
    /// (`retryAfter`: a rate limit's reset), when that is longer.
    package static func resendDelay(afterFailures failures: Int, retryAfter: Duration? = nil) -> Duration {
        let doublings = min(max(failures, 1) - 1, 5)
        let backoff = min(Duration.seconds(2 << doublings), .seconds(60))
        return max(backoff, retryAfter ?? .zero)
    }

    /// Checks the invariants; returns a description of each one broken (empty when sound).
    package func checkInvariants() -> [String] {
        var broken: [String] = []
        for kind in InteractionKind.allCases {
            let track = self[kind]
            if track.inFlight == nil, track.resend == nil, track.desired != track.confirmed {
                broken.append("\(kind): desired \(track.desired) ≠ confirmed \(track.confirmed) with nothing in flight or deferred")
            }
            if let resend = track.resend {
                if track.inFlight != nil { broken.append("\(kind): deferred with a request in flight") }
                if track.desired == track.confirmed { broken.append("\(kind): deferred with nothing to send") }
                if resend.kind != kind { broken.append("\(kind): a \(resend.kind) re-send in its track") }
                if track.failedAttempts < 1 { broken.append("\(kind): deferred without a failed attempt") }
                if resend.delay < Self.resendDelay(afterFailures: track.failedAttempts) {
                    broken.append("\(kind): a re-send after \(resend.delay) for \(track.failedAttempts) failed attempts")
                }
            }
            if !track.isPending, track.failedAttempts != 0 { broken.append("\(kind): settled with \(track.failedAttempts) failed attempts") }
            if (track.failedAttempts > 0) != (track.queuedReason != nil) {
                broken.append("\(kind): \(track.failedAttempts) failed attempts with reason \(track.queuedReason ?? "nil")")
            }
            if track.count < 0 { broken.append("\(kind): negative count \(track.count)") }
            if !kind.isCounted, track.count != 0 { broken.append("\(kind): a count of \(track.count) for an uncounted kind") }
            if let request = track.inFlight, request.kind != kind { broken.append("\(kind): a \(request.kind) request in its track") }
        }
        return broken
    }
}

/// A re-send the interaction machine waits for (its deferred phase): after `delay`, the track's
/// desired value is sent again (`InteractionEvent/backoffElapsed(_:token:at:)`). The token
/// tells this wait apart from any other.
package struct InteractionResend: Hashable, Sendable {
    package var kind: InteractionKind
    package var token: StoreEpoch
    package var delay: Duration

    package init(kind: InteractionKind, token: StoreEpoch, delay: Duration) {
        self.kind = kind
        self.token = token
        self.delay = delay
    }
}

/// A request the interaction machine wants running: set `kind` to `value`.
/// The token tells its reply apart from any other.
package struct InteractionRequest: Hashable, Sendable {
    package var kind: InteractionKind
    package var value: Bool
    package var token: StoreEpoch

    package init(kind: InteractionKind, value: Bool, token: StoreEpoch) {
        self.kind = kind
        self.value = value
        self.token = token
    }
}
