extension FeedSession {
    /// Ends the session's interactions for quitting: waits, on the store's retry clock, until no
    /// favourite, boost or bookmark request is in flight or `limit` has passed, then returns
    /// what is left to save — the ``outbox`` (requests still in flight after the limit, and
    /// what waits to be sent again). Give it to ``restore(outbox:)`` at the next start. Deferred re-sends are not hurried; nothing is cancelled.
    ///
    /// Main actor; returns at once when nothing is in flight.
    public func finish(waitingAtMost limit: Duration = .seconds(2)) async -> [OutboxEntry] {
        // The other changes on their way (relationships, filters, lists…) are given the same
        // time, all at once (they are not saved: each store's `unsent` says what is left).
        await withDiscardingTaskGroup { group in
            for changes in convergingStores {
                group.addTask { await changes.waitForRequests(atMost: limit) }
            }
            await store.waitForRequests(atMost: limit)
        }
        return store.outbox
    }

    /// Stops the session for good, after ``finish(waitingAtMost:)`` when what is left was
    /// saved: every effect the session started is cancelled — a re-send waiting on the retry
    /// clock, a request in flight, a load — and none starts after, so the session sends nothing
    /// more (a front that switched to another account goes on with another session; what this
    /// one left waits in its saved outbox). Idempotent; on the main actor.
    ///
    /// It returns at once, without waiting for the cancelled effects to end, and what it cannot
    /// do: call back a request the server has already received (the server may carry it out;
    /// its answer is dropped), or stop what runs beside the session (live updates, a state
    /// keeper's own tasks), which is the front's to stop.
    public func stop() {
        activity.stop()
    }

    /// Every post and kind waiting for the server — a request in flight, or a re-send deferred
    /// after a failure for lack of a connection — with the value the user wants. Ordered by post
    /// id (its raw value), then by kind in `InteractionKind.allCases` order. A request in
    /// flight is listed even when the user changed their mind back meanwhile (with the value
    /// they want now), because until it answers the server's value is unknown.
    ///
    /// What a front saves (see ``observeOutbox(_:)``, ``finish(waitingAtMost:)``) and gives back
    /// to ``restore(outbox:)`` at the next start.
    ///
    /// - Complexity: O(p log p) for p posts with something in the outbox.
    public var outbox: [OutboxEntry] { store.outbox }

    /// Calls `handler` on the main actor with the whole ``outbox`` after every change of it — an
    /// entry added, confirmed, dropped, or its value changed — synchronously, in the order the
    /// changes happen, and before any row or detail is told of the change that caused it: a
    /// front that saves each value it is given has saved an entry before anything shows it as
    /// queued. Lasts as long as the returned token.
    public func observeOutbox(_ handler: @escaping @MainActor @Sendable ([OutboxEntry]) -> Void) -> Subscription {
        store.observeOutbox(handler)
    }

    /// Takes back an outbox an earlier run saved (``outbox``); call it once, at start, before
    /// the first screen loads. Each entry is wanted again, as a toggle to its value would want
    /// it: sent at once (at most one request per post and kind) and kept in the outbox until
    /// confirmed, refused or dropped. Of two entries for the same post and kind, the later wins.
    /// A post not known yet needs no copy: the service is asked by id, and once a page or
    /// detail brings it every row shows the wish as pending.
    ///
    /// - Complexity: O(e) for e entries, plus the requests they start.
    public func restore(outbox saved: [OutboxEntry]) {
        store.restore(outbox: saved)
    }

    /// The latest copy of the original post that `id` names (an entry or an original id), when
    /// the session knows it: a post a screen shows, or one recently shown.
    public func post(_ id: PostID) -> Post? {
        store.post(id)
    }
}
