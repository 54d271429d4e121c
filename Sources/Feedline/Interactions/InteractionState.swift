/// A logical time in a ``PostStore``: it grows with every event the store handles and every
/// fetch it is told about, so replies and fetched copies can be ordered against each other.
public typealias StoreEpoch = UInt64

/// The interaction state machine of one post: for each kind, what the server last confirmed,
/// what the user wants, and the request in flight.
///
/// Invariants (``checkInvariants()``): with no request in flight the desired value equals the
/// confirmed one; counts are never negative.
public struct InteractionState: Hashable, Sendable {
    /// One kind's track.
    public struct Track: Hashable, Sendable {
        /// The flag the server last confirmed.
        public var confirmed: Bool
        /// The count that goes with `confirmed`.
        public var count: Int
        /// What the user wants now; the display shows it.
        public var desired: Bool
        /// The request in flight, if any. At most one per kind.
        public var inFlight: InteractionRequest?
        /// When the server's value was last learnt (a reply or a fetched copy): copies fetched
        /// before this are older than what is known and are ignored.
        public var knownSince: StoreEpoch

        public init(confirmed: Bool, count: Int, desired: Bool? = nil, inFlight: InteractionRequest? = nil, knownSince: StoreEpoch = 0) {
            self.confirmed = confirmed
            self.count = count
            self.desired = desired ?? confirmed
            self.inFlight = inFlight
            self.knownSince = knownSince
        }

        /// The count shown: the confirmed one adjusted by the pending change.
        public var displayedCount: Int {
            guard desired != confirmed else { return count }
            return max(0, count + (desired ? 1 : -1))
        }
    }

    public var favourite: Track
    public var reblog: Track
    /// The last failure, cleared by the next toggle.
    public var failure: InteractionFailure?

    public init(favourite: Track, reblog: Track, failure: InteractionFailure? = nil) {
        self.favourite = favourite
        self.reblog = reblog
        self.failure = failure
    }

    /// The state for a post first seen in a server copy fetched at `epoch`.
    public init(serverCopy post: Post, fetchedAt epoch: StoreEpoch) {
        let original = post.content
        favourite = Track(confirmed: original.favourited, count: max(0, original.favouritesCount), knownSince: epoch)
        reblog = Track(confirmed: original.reblogged, count: max(0, original.reblogsCount), knownSince: epoch)
        failure = nil
    }

    public subscript(kind: InteractionKind) -> Track {
        get { kind == .favourite ? favourite : reblog }
        set {
            if kind == .favourite { favourite = newValue } else { reblog = newValue }
        }
    }

    /// What rows and details show.
    public var display: PostInteraction {
        PostInteraction(
            favourited: favourite.desired,
            favouritesCount: favourite.displayedCount,
            reblogged: reblog.desired,
            reblogsCount: reblog.displayedCount,
            pending: Set(InteractionKind.allCases.filter { self[$0].inFlight != nil }),
            failure: failure
        )
    }

    /// Checks the invariants; returns a description of each one broken (empty when sound).
    public func checkInvariants() -> [String] {
        var broken: [String] = []
        for kind in InteractionKind.allCases {
            let track = self[kind]
            if track.inFlight == nil, track.desired != track.confirmed {
                broken.append("\(kind): desired \(track.desired) ≠ confirmed \(track.confirmed) with nothing in flight")
            }
            if track.count < 0 { broken.append("\(kind): negative count \(track.count)") }
        }
        return broken
    }
}

/// A request the interaction machine wants running: set `kind` to `value`.
/// The token tells its reply apart from any other.
public struct InteractionRequest: Hashable, Sendable {
    public var kind: InteractionKind
    public var value: Bool
    public var token: StoreEpoch

    public init(kind: InteractionKind, value: Bool, token: StoreEpoch) {
        self.kind = kind
        self.value = value
        self.token = token
    }
}
