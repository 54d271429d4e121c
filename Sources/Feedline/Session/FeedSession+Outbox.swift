extension FeedSession {
    /// Ends the session's interactions for quitting: waits, on the store's retry clock, until no
    /// favourite, boost or bookmark request is in flight or `limit` has passed, then returns
    /// what is left to save — the store's ``PostStore/outbox`` (requests still in flight after
    /// the limit, and what waits to be sent again). Give it to ``PostStore/restore(outbox:)`` at
    /// the next start. Deferred re-sends are not hurried; nothing is cancelled.
    ///
    /// Main actor; returns at once when nothing is in flight.
    public func finish(waitingAtMost limit: Duration = .seconds(2)) async -> [OutboxEntry] {
        // Relationship changes on their way are given the same time (they are not saved:
        // ``RelationshipStore/unsent`` says what is left).
        async let relationships: Void = self.relationships.waitForRequests(atMost: limit)
        async let domains: Void = self.domainBlocks.waitForRequests(atMost: limit)
        async let tags: Void = self.tags.waitForRequests(atMost: limit)
        async let lists: Void = self.lists.waitForRequests(atMost: limit)
        await store.waitForRequests(atMost: limit)
        await relationships
        await domains
        await tags
        await lists
        return store.outbox
    }
}
