import Foundation

/// A change of one conversation, as every conversations screen must show it.
package enum ConversationChange: Hashable, Sendable {
    /// What the conversation shows changed (unread, its last post, a refusal). `moved`: it has
    /// a new post — it goes to the top of every conversations list (and onto one that did not
    /// show it).
    case updated(id: String, moved: Bool)
    /// Its removal was asked for: it leaves every conversations list at once.
    case removing(id: String)
    /// The server confirmed its removal.
    case removed(id: String)
    /// The server refused its removal: it comes back where it was, with the reason.
    case removalRefused(id: String)
}

/// The session's direct conversations (Mastodon's `/api/v1/conversations`), shared by every
/// screen: what each shows (participants, unread, last post id — the post itself lives in the
/// `PostStore`), and the two changes a user makes to one.
///
/// A configuration of the convergence engine (`Convergence`): each change of a conversation —
/// marking it read, removing it — is a `PendingChange` of a mark "read (or removed) as of its
/// last post then", so a newer post makes a read conversation unread again and brings a removed
/// one back, as Mastodon does, whatever the answer to the change.
///
/// - Marking read (`markRead(_:)`, done by opening one) clears unread at once on every
///   screen, sends one request, and on refusal shows it unread again with the reason (unless a
///   newer post came meanwhile: it is unread for that post).
/// - Removing (`remove(_:)`) takes it off every screen at once; on refusal it comes back
///   where it was, with the reason. A new post that comes meanwhile brings it back on top once
///   the server answered. A conversation removed stays away from later pages begun
///   before the removal; a new post in it (the stream, your reply) brings it back, as Mastodon does.
/// - A change the server could not be reached for stays shown and is sent again after a backoff
///   on the retry clock (``FeedSession/retry()`` sends it at once); a refusal is not sent again.
/// - A new post in a conversation (the `direct` stream, or your own direct reply to its last
///   post) moves it to the top of every conversations list.
/// - Fetches take an epoch (`beginFetch()`): a page begun before a local change does not undo it.
///
/// Main actor only. Changes are delivered synchronously, in the order they happen.
@MainActor
package final class ConversationStore: OneEngineStore {
    /// A change asked of one conversation: at most one of each is on its way per conversation.
    package struct Asked: Hashable, Sendable {
        enum Action: Hashable, Sendable { case read, remove }

        var id: String
        var action: Action
    }

    /// Whether a conversation is marked (read, or removed) as of the last post it showed then
    /// (`nil` when none): a newer post is not marked.
    package struct Mark: Hashable, Sendable {
        var lastPost: PostID?
        var postedAt: Date?
        var isOn: Bool

        init(_ lastPost: Post?, isOn: Bool) {
            self.lastPost = lastPost?.id
            postedAt = lastPost?.createdAt
            self.isOn = isOn
        }

        /// Whether `post` is newer than the one marked (a different post, not older).
        func isBefore(_ post: Post?) -> Bool {
            guard let post else { return false }
            guard let postedAt else { return true }
            return post.id != lastPost && post.createdAt >= postedAt
        }
    }

    /// The changes asked and their requests (set at the end of `init`, so its handlers can hold
    /// the store weakly).
    package private(set) var engine: Convergence<Asked, PendingChange<Mark>>!
    private let observers = HandlerList<ConversationChange>()
    /// Each conversation as the server last sent it (unread as the changes show it: see
    /// ``conversation(_:)``).
    private var known: [String: Conversation] = [:]
    /// The conversation whose last post each post id was: a direct reply to it belongs there.
    private var owner: [PostID: String] = [:]
    /// When the server's copy of each conversation was last learnt from the stream or a reply:
    /// a page begun before keeps that copy's last post and unread.
    private var changedAt: [String: StoreEpoch] = [:]
    /// The posts of yours `posts` confirms (see ``ownPosted(_:)``).
    private var ownPosts: Subscription?

    /// A store that sends reads and removals to `service`, counted in `activity`, re-sends what
    /// failed for lack of a connection on `retryClock`, and tells `outcomes` what the server did;
    /// your posts that `posts` confirms reach their conversations.
    package init(
        service: any FeedService, posts: PostStore, activity: Activity, retryClock: any Clock<Duration>, outcomes: Outcomes? = nil
    ) {
        engine = Convergence(
            activity: activity, retryClock: retryClock,
            send: { asked, request in
                switch asked.action {
                case .read: _ = try await service.markConversationRead(asked.id)
                case .remove: try await service.removeConversation(asked.id)
                }
                return request.value
            },
            changed: { [weak self] asked, before, after in self?.changed(asked, before: before, after: after) },
            outcomes: outcomes,
            outcome: { asked, report, _ in
                report.outcome { mark in
                    switch asked.action {
                    case .read: .conversationRead(asked.id, read: mark.isOn)
                    case .remove: .conversationRemoval(asked.id)
                    }
                }
            }
        )
        ownPosts = posts.observeOwnPosted { [weak self] post in self?.ownPosted(post) }
    }

    // MARK: - Reading

    /// The conversation as shown now (unread as the user last made it), or `nil` when the store
    /// does not know it or it is removed (or being removed).
    package func conversation(_ id: String) -> Conversation? {
        guard var conversation = known[id], !isRemoved(conversation) else { return nil }
        // A read of the post it shows, wanted (or refused: back to unread).
        if let read = engine[Asked(id: id, action: .read)], read.wanted.lastPost == conversation.lastPost?.id {
            conversation.unread = !read.wanted.isOn
        }
        return conversation
    }

    /// Who takes part in the conversation ("@ana and @bo"), removed or not; `nil` when the store
    /// never knew it.
    package func participantHandles(of id: String) -> String? {
        known[id].map { Conversation.handles(of: $0.participants) }
    }

    /// The last refusal of a change to the conversation, until the next change.
    package func failure(_ id: String) -> String? {
        let name = known[id].map { Self.name($0) } ?? "this conversation"
        if let refusal = engine[Asked(id: id, action: .remove)]?.refusal { return "Could not remove \(name): \(refusal.message)" }
        if let refusal = engine[Asked(id: id, action: .read)]?.refusal { return "Could not mark \(name) read: \(refusal.message)" }
        return nil
    }

    /// Whether a change to the conversation waits for the server.
    package func isPending(_ id: String) -> Bool {
        engine[Asked(id: id, action: .read)]?.isPending == true || engine[Asked(id: id, action: .remove)]?.isPending == true
    }

    /// Calls `handler` on the main actor after every change, in order. Lasts as long as the token.
    package func observe(_ handler: @escaping @MainActor @Sendable (ConversationChange) -> Void) -> Subscription {
        observers.add(handler)
    }

    // MARK: - Input

    /// Marks the start of a fetch of conversations; pass its answer to ``ingest(_:fetchedAt:)``.
    package func beginFetch() -> StoreEpoch {
        engine.beginFetch()
    }

    /// Records what a fetch begun at `fetchedAt` brought and returns the conversations to show,
    /// as the store shows them: those removed (or being removed) since the fetch began are left
    /// out, and a conversation marked read since keeps showing read.
    package func ingest(_ fetched: [Conversation], fetchedAt: StoreEpoch) -> [Conversation] {
        var shown: [Conversation] = []
        for conversation in fetched {
            let id = conversation.id
            let before = self.conversation(id)
            // What the server had then; the changes keep what was learnt since.
            receive(conversation, fetchedAt: fetchedAt, removal: true)
            var merged = conversation
            if (changedAt[id] ?? 0) > fetchedAt, let copy = known[id] {
                merged.unread = copy.unread
                // A newer last post learnt since (the stream, a reply) stays.
                if copy.lastPost != nil { merged.lastPost = copy.lastPost }
            }
            record(merged)
            guard let now = self.conversation(id) else { continue }
            shown.append(now)
            if let before, before != now { observers.notify(.updated(id: id, moved: false)) }
        }
        return shown
    }

    /// A conversation as the server sends it on the `direct` stream — after a new post in it,
    /// but also after it was read (here or on another client) or a post of it was deleted. Only
    /// a newer last post moves it to the top of every conversations list (and brings a removed
    /// conversation back); otherwise its row changes in place.
    package func updated(_ conversation: Conversation) {
        let id = conversation.id
        let copy = known[id]
        let before = self.conversation(id)
        let newPost = copy == nil || Self.isNewer(conversation.lastPost, than: copy?.lastPost)
        let fetchedAt = engine.beginFetch()
        changedAt[id] = fetchedAt
        receive(conversation, fetchedAt: fetchedAt, removal: false)
        record(conversation)
        guard let now = self.conversation(id) else { return }
        if newPost {
            observers.notify(.updated(id: id, moved: true))
        } else if let before, before != now {
            observers.notify(.updated(id: id, moved: false))
        }
    }

    /// The post `id`, the last post of the conversation `conversation` as this store knows it,
    /// was deleted: the conversation stays (the server keeps it, with its post before as the
    /// last), showing no post until the server's next copy of it says which. A conversation
    /// removed (or being removed) is left as it is: no screen shows it.
    package func lastPostDeleted(_ id: PostID, of conversation: String) {
        // As shown (read as the user made it): no read of the post it shows applies any more.
        guard var copy = self.conversation(conversation), copy.lastPost?.id == id || copy.lastPost?.originalID == id else { return }
        copy.lastPost = nil
        changedAt[conversation] = engine.beginFetch()
        record(copy)
        observers.notify(.updated(id: conversation, moved: false))
    }

    /// Whether `post` is newer than `known` (a different post, not older): what moves a
    /// conversation to the top.
    private static func isNewer(_ post: Post?, than known: Post?) -> Bool {
        guard let post else { return false }
        guard let known else { return true }
        return post.id != known.id && post.createdAt >= known.createdAt
    }

    /// The user's own post, just confirmed (the post store says so): a direct reply to the last post of a conversation
    /// becomes its last post (read: you wrote it) and the conversation moves to the top.
    private func ownPosted(_ post: Post) {
        guard post.visibility == .direct, let parent = post.inReplyToID, let id = owner[parent], var conversation = known[id] else { return }
        guard conversation.lastPost?.id != post.id else { return }
        conversation.lastPost = post
        conversation.unread = false
        updated(conversation)
    }

    /// Marks the conversation read: at once on every screen, one request, back to unread with
    /// the reason on refusal. Returns `false` (nothing happens) when it is unknown, read already
    /// or being read.
    @discardableResult
    package func markRead(_ id: String) -> Bool {
        let asked = Asked(id: id, action: .read)
        guard let conversation = conversation(id), conversation.unread, engine[asked]?.isPending != true else { return false }
        want(asked, Mark(conversation.lastPost, isOn: true), unless: Asked(id: id, action: .remove))
        observers.notify(.updated(id: id, moved: false))
        return true
    }

    /// Removes the conversation: off every screen at once, one request, back where it was with
    /// the reason on refusal. Returns `false` (nothing happens) when it is unknown or being removed.
    @discardableResult
    package func remove(_ id: String) -> Bool {
        guard let conversation = conversation(id) else { return false }
        want(Asked(id: id, action: .remove), Mark(conversation.lastPost, isOn: true), unless: Asked(id: id, action: .read))
        observers.notify(.removing(id: id))
        return true
    }

    // MARK: - Changes

    /// Wants `mark` for `asked` (the conversation as shown now is the one it is not marked on),
    /// and forgets the refusal of the conversation's other change: the last refusal shows
    /// until the next change.
    private func want(_ asked: Asked, _ mark: Mark, unless other: Asked) {
        engine.update(other) { change, _ in
            change.acknowledge()
            return []
        }
        var unmarked = mark
        unmarked.isOn = false
        engine.want(mark, for: asked, orMake: { PendingChange(confirmed: unmarked) })
    }

    /// Gives the changes of the conversation the server's `copy` fetched at `fetchedAt`: marked
    /// read unless unread; not removed, when `removal` (a page brings only what is not removed).
    private func receive(_ copy: Conversation, fetchedAt: StoreEpoch, removal: Bool) {
        engine.update(Asked(id: copy.id, action: .read)) { change, _ in
            change.receive(Mark(copy.lastPost, isOn: !copy.unread), fetchedAt: fetchedAt).map { [$0] } ?? []
        }
        guard removal else { return }
        engine.update(Asked(id: copy.id, action: .remove)) { change, _ in
            change.receive(Mark(copy.lastPost, isOn: false), fetchedAt: fetchedAt).map { [$0] } ?? []
        }
    }

    /// A change's machine changed: an answer (or a refusal) is told; the store tells its own
    /// changes as it makes them.
    private func changed(_ asked: Asked, before: PendingChange<Mark>?, after: PendingChange<Mark>?) {
        let id = asked.id
        guard let before, before.isPending, let after, !after.isPending else { return }
        switch asked.action {
        case .read:
            if after.refusal != nil, conversation(id) != nil { observers.notify(.updated(id: id, moved: false)) }
        case .remove:
            observers.notify(after.wanted.isOn ? .removed(id: id) : .removalRefused(id: id))
            // A new post came while the removal was on its way: the conversation is back, on top.
            if before.wanted.isBefore(known[id]?.lastPost), conversation(id) != nil { observers.notify(.updated(id: id, moved: true)) }
        }
    }

    /// Whether the conversation is off the screens: its removal waits for the server, or the
    /// server removed it as of the post it shows (a newer post brings it back).
    private func isRemoved(_ conversation: Conversation) -> Bool {
        guard let removal = engine[Asked(id: conversation.id, action: .remove)], removal.wanted.isOn else { return false }
        return removal.isPending || !removal.wanted.isBefore(conversation.lastPost)
    }

    private func record(_ conversation: Conversation) {
        known[conversation.id] = conversation
        if let post = conversation.lastPost {
            owner[post.id] = conversation.id
            owner[post.originalID] = conversation.id
        }
    }

    /// "the conversation with @kemi, @ode".
    nonisolated static func name(_ conversation: Conversation) -> String {
        conversation.participants.isEmpty
            ? "the conversation with yourself" : "the conversation with " + conversation.participants.map { "@\($0.handle)" }.joined(separator: ", ")
    }
}
