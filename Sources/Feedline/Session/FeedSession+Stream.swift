extension FeedSession {
    /// Applies something a stream pushed, through the same store and list machines as pages:
    ///
    /// - a new post waits above the rows of every list of its feed (nothing moves under the
    ///   reader; ``FeedListViewModel/showWaiting()`` shows it): the store tells every list, and
    ///   the lists of that feed take it (`ListSource.shows(_:showsParent:)`);
    /// - a deleted post leaves every list (an original takes its boosts and notifications with
    ///   it) and every open detail of it says it was deleted; a page on its way does not bring it
    ///   back (see ``post(_:)``);
    /// - an edit reaches every row and detail of the post through the store's freshness rules
    ///   (it never undoes a pending toggle);
    /// - a notification waits above every notifications list, merged into its group;
    /// - a conversation with a new post moves to the top of every conversations list.
    ///
    /// Lists released (popped, and kept by no front) learn nothing: they load fresh when opened.
    /// A list a front keeps off the stack hears posts and drops (``streamStateChanged(_:)``) as
    /// the stack's lists do; only ``catchUp(where:)`` is for the stack's.
    ///
    /// - Complexity: O(lists) for a new post or notification; O(rows of the post) for a delete or
    ///   an edit.
    @_spi(FeedService) public func apply(_ event: StreamEvent) {
        switch event {
        case .posted(let post, let feed):
            // The store tells every list; the lists of that feed take it.
            store.streamed(post, for: feed)
        case .deleted(let id):
            // The store tells every row and detail that shows it, as it does of a change.
            store.deleted(id)
        case .edited(let post):
            store.ingest([post], fetchedAt: store.beginFetch())
        case .notified(let group):
            if let post = group.post { store.ingest([post], fetchedAt: store.beginFetch()) }
            notifications.streamed(group)
            // Every notifications screen whose kinds take the group: the plain one, a filtered one of its kind.
            for case .list(let list) in navigator.screens where list.source.notificationKinds?.accepts(group.kind) == true {
                ListArrivals.streamed(group, into: list)
            }
        case .conversation(let conversation):
            if let post = conversation.lastPost { store.ingest([post], fetchedAt: store.beginFetch()) }
            conversations.updated(conversation)
        }
    }

    /// Asks every list on the stack that `covers` for what is newer than everything it knows,
    /// to wait above its rows: after a stream reconnected (nothing it missed is lost), or as a
    /// poll where there is no stream. Lists that reload instead of asking for newer items (a
    /// thread, bookmarks) are left alone.
    public func catchUp(where covers: (ListSource) -> Bool = { _ in true }) {
        for case .list(let list) in navigator.screens where covers(list.source) { list.catchUp() }
    }

    /// Records how live updates arrive now (for fronts to show). Transports call it. When the
    /// stream drops (``StreamState/reconnecting(after:attempt:)`` after another state), every
    /// live list — on the stack or kept by a front, as every one hears what the stream brings —
    /// learns that posts may go missing until a catch-up, so that answers coming meanwhile and
    /// the waiting rows keep their order (a list off the stack is caught up by its next refresh).
    public func streamStateChanged(_ state: StreamState) {
        guard streamRelay.value != state else { return }
        let dropped: Bool
        switch (streamRelay.value, state) {
        case (.reconnecting, _): dropped = false
        case (_, .reconnecting): dropped = true
        default: dropped = false
        }
        streamRelay.set(state)
        if dropped {
            store.streamInterrupted()
        }
    }
}
