/// The outbox as values: what is waiting for the server, to save before quitting and to give
/// back at the next start. The core does no I/O; saving is the front's business.
extension PostStore {
    /// Every post and kind waiting for the server — a request in flight, or a re-send deferred
    /// after a failure for lack of a connection — with the value the user wants. Ordered by post
    /// id (its raw value), then by kind in `InteractionKind.allCases` order. A request in
    /// flight is listed even when the user changed their mind back meanwhile (with the value
    /// they want now), because until it answers the server's value is unknown.
    ///
    /// What a front saves (see ``observeOutbox(_:)``, ``FeedSession/finish(waitingAtMost:)``)
    /// and gives back to ``restore(outbox:)`` at the next start.
    ///
    /// - Complexity: O(p log p) for p posts with something in the outbox.
    package var outbox: [OutboxEntry] {
        outboxPosts.sorted { $0.rawValue < $1.rawValue }.flatMap { id in entries[id]?.state.outbox(postID: id) ?? [] }
    }

    /// Calls `handler` on the main actor with the whole ``outbox`` after every change of it — an
    /// entry added, confirmed, dropped, or its value changed — synchronously, in the order the
    /// changes happen, and before any row or detail is told of the change that caused it: a
    /// front that saves each value it is given has saved an entry before anything shows it as
    /// queued. Lasts as long as the returned token.
    package func observeOutbox(_ handler: @escaping @MainActor @Sendable ([OutboxEntry]) -> Void) -> Subscription {
        outboxObservers.add(handler)
    }

    /// Takes back an outbox an earlier run saved (``outbox``); call it once, at start. Each
    /// entry is wanted again, as a toggle to its value would want it (without clearing a failure):
    /// sent at once when nothing of that post and kind is in flight — still at most one request
    /// per post and kind — and kept in the outbox until confirmed, refused or dropped. Of two
    /// entries for the same post and kind, the later wins.
    ///
    /// A post the store does not know yet needs no copy: the service is asked by id. Until a copy
    /// arrives its server value is taken to be the opposite of the wish (as it was when saved);
    /// when a page or detail brings it, every row and detail shows the wish as pending. While
    /// anything of it is pending the cache never forgets it. A refusal of a post never seen this
    /// run drops its entry without a trace: nothing shows the post to report it on.
    ///
    /// - Complexity: O(e) for e entries, plus the requests they start.
    package func restore(outbox saved: [OutboxEntry]) {
        var order: [PostID] = []
        var wishes: [PostID: [InteractionKind: Bool]] = [:]
        for saved in saved {
            let id = originalID(of: saved.postID) ?? saved.postID
            if wishes[id] == nil { order.append(id) }
            wishes[id, default: [:]][saved.kind] = saved.value
        }
        for id in order {
            guard let wish = wishes[id] else { continue }
            let entry: Entry
            if let known = entries[id] {
                entry = known
            } else {
                entry = Entry(post: nil, contentEpoch: 0, state: InteractionState(restoring: wish))
                entries[id] = entry
            }
            for kind in InteractionKind.allCases {
                guard let value = wish[kind] else { continue }
                handle({ .restored(kind, value: value, at: $0) }, entry: entry, id: id)
            }
        }
    }

    /// Returns once no interaction request is in flight (at once when none is), or when `limit`
    /// has passed on ``retryClock``, or when the calling task is cancelled — whichever is first.
    /// A deferred re-send that starts meanwhile is waited for too.
    func waitForRequests(atMost limit: Duration) async {
        await engine.waitForRequests(atMost: limit)
    }
}
