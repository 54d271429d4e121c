/// A setting of yours that is on or off, as every screen shows it — a domain you block
/// (``FeedSession/domainBlock(_:)``), a hashtag you follow (``FeedSession/tagFollow(_:)``), an account on
/// one of your lists (``FeedSession/listMembership(list:account:)``), your answer to a follow request
/// (``RelationshipDisplay/requestAnswer``, on: accept): the value you want, whether it waits for
/// the server, and the last refusal.
public struct ToggleDisplay: Hashable, Sendable {
    /// Whether it is on (blocked, followed, a member): the value you want, shown at once.
    public var isOn: Bool
    /// Whether the change waits for the server (a request in flight, or a re-send after a lost
    /// connection).
    public var pending: Bool
    /// The last refusal, e.g. "Could not block the domain promo.example: …", until the next change.
    public var failure: String?

    public init(isOn: Bool, pending: Bool = false, failure: String? = nil) {
        self.isOn = isOn
        self.pending = pending
        self.failure = failure
    }

    /// Whether the server took the value: not waiting, not refused (an answered follow request is
    /// gone from every list of requests).
    public var isSettled: Bool { !pending && failure == nil }
}
