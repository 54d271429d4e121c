/// A logical time in a ``PostStore``: it grows with every event the store handles and every
/// fetch it is told about, so replies and fetched copies can be ordered against each other.
public typealias StoreEpoch = UInt64

/// The interaction state machine of one post: for each kind (favourite, boost, bookmark), what
/// the server last confirmed, what the user wants, and the request in flight. A value; change it
/// with ``reduce(_:)``.
///
/// Invariants (``checkInvariants()``): with no request in flight the desired value equals the
/// confirmed one; counts are never negative.
public struct InteractionState: Hashable, Sendable {
    /// One kind's track.
    public struct Track: Hashable, Sendable {
        /// The flag the server last confirmed.
        public package(set) var confirmed: Bool
        /// The count that goes with `confirmed` (always 0 for bookmarks).
        public package(set) var count: Int
        /// What the user wants now; the display shows it.
        public package(set) var desired: Bool
        /// The request in flight, if any. At most one per kind.
        public package(set) var inFlight: InteractionRequest?
        /// When the server's value was last learnt (a reply or a fetched copy): copies fetched
        /// before this are older than what is known and are ignored.
        public package(set) var knownSince: StoreEpoch

        public init(confirmed: Bool, count: Int, desired: Bool? = nil, inFlight: InteractionRequest? = nil, knownSince: StoreEpoch = 0) {
            self.confirmed = confirmed
            self.count = max(0, count)
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

    public package(set) var favourite: Track
    public package(set) var reblog: Track
    public package(set) var bookmark: Track
    /// The last failure, cleared by the next toggle or retry.
    public package(set) var failure: InteractionFailure?

    public init(favourite: Track, reblog: Track, bookmark: Track = Track(confirmed: false, count: 0), failure: InteractionFailure? = nil) {
        self.favourite = favourite
        self.reblog = reblog
        self.bookmark = bookmark
        self.failure = failure
    }

    /// The state for a post first seen in a server copy fetched at `epoch`.
    public init(serverCopy post: Post, fetchedAt epoch: StoreEpoch) {
        favourite = Track(confirmed: post.isOn(.favourite), count: post.count(.favourite), knownSince: epoch)
        reblog = Track(confirmed: post.isOn(.reblog), count: post.count(.reblog), knownSince: epoch)
        bookmark = Track(confirmed: post.isOn(.bookmark), count: 0, knownSince: epoch)
        failure = nil
    }

    public subscript(kind: InteractionKind) -> Track {
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
    public var display: PostInteraction {
        PostInteraction(
            favourited: favourite.desired,
            favouritesCount: favourite.displayedCount,
            reblogged: reblog.desired,
            reblogsCount: reblog.displayedCount,
            bookmarked: bookmark.desired,
            pending: Set(InteractionKind.allCases.filter { self[$0].inFlight != nil }),
            failure: failure
        )
    }

    /// Whether any kind has a request in flight.
    public var isBusy: Bool { InteractionKind.allCases.contains { self[$0].inFlight != nil } }

    /// Checks the invariants; returns a description of each one broken (empty when sound).
    public func checkInvariants() -> [String] {
        var broken: [String] = []
        for kind in InteractionKind.allCases {
            let track = self[kind]
            if track.inFlight == nil, track.desired != track.confirmed {
                broken.append("\(kind): desired \(track.desired) ≠ confirmed \(track.confirmed) with nothing in flight")
            }
            if track.count < 0 { broken.append("\(kind): negative count \(track.count)") }
            if !kind.isCounted, track.count != 0 { broken.append("\(kind): a count of \(track.count) for an uncounted kind") }
            if let request = track.inFlight, request.kind != kind { broken.append("\(kind): a \(request.kind) request in its track") }
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
