/// A change of a post's interaction (``InteractionKind``) or of a relationship
/// (``RelationshipKind``) that did not take, shown with the post or account until the user acts
/// on it again: the display shows the value from before meanwhile.
public struct ToggleFailure<Kind: Hashable & Sendable>: Hashable, Sendable {
    /// What was changed: favourite, boost … for a post; follow, mute … for an account.
    public var kind: Kind
    /// The value the user wanted (what a retry asks for again).
    public var value: Bool
    /// One sentence for the user, e.g. "Could not favourite this post: The server is unavailable."
    public var message: String
    /// Whether sending it again later may succeed (the server was unreachable or busy), as
    /// opposed to a refusal that a retry would only repeat (see ``FeedFailure/isTransient``).
    public var isTransient: Bool

    public init(kind: Kind, value: Bool, message: String, isTransient: Bool = true) {
        self.kind = kind
        self.value = value
        self.message = message
        self.isTransient = isTransient
    }
}
