/// One way to hear results: what you asked, answered.
extension FeedSession {
    /// Calls `handler` with the ``Outcome`` of every change asked through this session — post
    /// interactions, relationships, follow-request answers, domain blocks, followed hashtags,
    /// lists and their members, conversation reads and removals, your posts' deletes, edits and
    /// votes, drafts made to edit or redraft a post — as the server answers it. No call of the
    /// session takes a completion closure: this is how a front hears how each went.
    ///
    /// Guarantees:
    /// - **Main actor, in order.** Handlers run on the main actor, synchronously, in the order
    ///   the answers arrived; each subscriber hears every outcome once, in subscription order.
    /// - **Before the screens.** An outcome is heard before the stores tell their observers and
    ///   screens, which follow in the same main-actor turn: a front says the result, then the
    ///   rows it settles. The relationship, domain block, hashtag, list and conversation stores
    ///   already read as the answer left it (their `failure` sentences included); a post's
    ///   ``FeedSession/post(_:)`` follows with the screens.
    /// - **One final outcome per answered wish.** Done, refused (with the server's sentence) or
    ///   not applied ends it; queued (with the delay after which it is sent again) is followed by
    ///   another outcome of the same subject. A wish taken back before its answer is not heard of.
    /// - **Ownership.** The subscription lasts as long as the returned token.
    public func observeOutcomes(_ handler: @escaping @MainActor @Sendable (Outcome) -> Void) -> Subscription {
        outcomes.observe(handler)
    }
}
