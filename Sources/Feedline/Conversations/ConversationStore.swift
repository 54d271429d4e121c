import Foundation

/// A change of one conversation, as every conversations screen must show it.
public enum ConversationChange: Hashable, Sendable {
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
/// ``PostStore``), and the two changes a user makes to one.
///
/// - Marking read (`markRead(_:)`, done by opening one) clears unread at once on every
///   screen, sends one request, and on refusal shows it unread again with the reason.
/// - Removing (`remove(_:)`) takes it off every screen at once; on refusal it comes back
///   where it was, with the reason. A new post that comes meanwhile brings it back on top once
///   the server answered. A conversation removed stays away from later pages begun
///   before the removal; a new post in it (the stream, your reply) brings it back, as Mastodon does.
/// - A new post in a conversation (the `direct` stream, or your own direct reply to its last
///   post) moves it to the top of every conversations list.
/// - Fetches take an epoch (`beginFetch()`): a page begun before a local change does not undo it.
///
/// Main actor only. Changes are delivered synchronously, in the order they happen.
@MainActor
public final class ConversationStore {
    private enum Action: Hashable, Sendable { case read, remove }

    /// A change sent: at most one of each action per conversation is on its way.
    private struct Sent: Hashable, Sendable {
        var id: String
        var action: Action
    }

    /// The changes on their way and their answers (set at the end of `init`, so its handler can
    /// hold the store weakly).
    private var sending: Feedback<Sent, (Sent, Result<Void, FeedFailure>)>?
    private let observers = HandlerList<ConversationChange>()
    private var known: [String: Conversation] = [:]
    /// The conversation whose last post each post id was: a direct reply to it belongs there.
    private var owner: [PostID: String] = [:]
    private var reading: Set<String> = []
    private var removing: Set<String> = []
    private var removed: Set<String> = []
    /// Conversations with a new post while their removal was on its way: they stay (at the top).
    private var revived: Set<String> = []
    /// The last failure of a change of each conversation; `retry` sends again only those the
    /// server could not be reached for (`transient`), not refusals.
    private var failures: [String: (message: String, action: Action, transient: Bool)] = [:]
    /// The epoch of the last local change of each conversation.
    private var changedAt: [String: StoreEpoch] = [:]
    /// When each read on its way began: a refusal puts `unread` back only if nothing changed
    /// the conversation since.
    private var readStartedAt: [String: StoreEpoch] = [:]
    /// The last post each read on its way marks read: a copy of the conversation that the
    /// server made before it took the read in, with that same last post, says nothing new.
    private var readPost: [String: PostID] = [:]
    private var epoch: StoreEpoch = 0
    private var requestWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    package init(service: any FeedService, activity: Activity) {
        sending = Feedback(
            activity: activity,
            effect: { sent in
                do {
                    switch sent.action {
                    case .read: _ = try await service.markConversationRead(sent.id)
                    case .remove: try await service.removeConversation(sent.id)
                    }
                    return (sent, .success(()))
                } catch {
                    return (sent, .failure(FeedFailure(error)))
                }
            },
            handle: { [weak self] sent, result in
                switch sent.action {
                case .read: self?.readAnswered(sent.id, result)
                case .remove: self?.removeAnswered(sent.id, result)
                }
            }
        )
    }

    // MARK: - Reading

    /// The conversation as shown now (unread as the user last made it), or `nil` when the store
    /// does not know it or it is removed (or being removed).
    public func conversation(_ id: String) -> Conversation? {
        guard !removing.contains(id), !removed.contains(id) else { return nil }
        return known[id]
    }

    /// The last refusal of a change to the conversation, until the next change.
    public func failure(_ id: String) -> String? { failures[id]?.message }

    /// Whether a change to the conversation waits for the server.
    public func isPending(_ id: String) -> Bool { reading.contains(id) || removing.contains(id) }

    /// Whether a change was refused and not retried.
    public var hasFailures: Bool { failures.values.contains(where: \.transient) }

    /// The changes sent and not answered yet.
    package var requestsInFlight: Int { reading.count + removing.count }

    /// Returns once at most `count` changes wait for an answer (at once when that is so). For tests.
    package func waitForRequests(atMost count: Int) async {
        guard requestsInFlight > count else { return }
        await withCheckedContinuation { requestWaiters.append((count, $0)) }
    }

    private func resumeWaiters() {
        let ready = requestWaiters.filter { requestsInFlight <= $0.count }
        requestWaiters.removeAll { requestsInFlight <= $0.count }
        for waiter in ready { waiter.continuation.resume() }
    }

    /// Calls `handler` on the main actor after every change, in order. Lasts as long as the token.
    public func observe(_ handler: @escaping @MainActor @Sendable (ConversationChange) -> Void) -> Subscription {
        observers.add(handler)
    }

    // MARK: - Input

    /// Marks the start of a fetch of conversations; pass its answer to ``ingest(_:fetchedAt:)``.
    package func beginFetch() -> StoreEpoch {
        epoch += 1
        return epoch
    }

    /// Records what a fetch begun at `fetchedAt` brought and returns the conversations to show,
    /// as the store shows them: those removed (or being removed) since the fetch began are left
    /// out, and a conversation marked read since keeps showing read.
    package func ingest(_ fetched: [Conversation], fetchedAt: StoreEpoch) -> [Conversation] {
        var shown: [Conversation] = []
        for conversation in fetched {
            let id = conversation.id
            let changedSince = (changedAt[id] ?? 0) > fetchedAt
            if removing.contains(id) { continue }
            if removed.contains(id) {
                if changedSince { continue }
                removed.remove(id)
            }
            var merged = conversation
            if changedSince, let before = known[id] {
                merged.unread = before.unread
                // A newer last post learnt since (the stream, a reply) stays.
                if before.lastPost != nil { merged.lastPost = before.lastPost }
            }
            // A read on its way: a page the server answered before taking it in says nothing
            // new unless it brings a newer post.
            if isBeingRead(id, lastPost: merged.lastPost) { merged.unread = false }
            let before = known[id]
            record(merged)
            shown.append(merged)
            if let before, before != merged { observers.notify(.updated(id: id, moved: false)) }
        }
        return shown
    }

    /// A conversation as the server sends it on the `direct` stream — after a new post in it,
    /// but also after it was read (here or on another client) or a post of it was deleted. Only
    /// a newer last post moves it to the top of every conversations list (and brings a removed
    /// conversation back); otherwise its row changes in place.
    package func updated(_ conversation: Conversation) {
        let id = conversation.id
        let before = known[id]
        let newPost = before == nil || Self.isNewer(conversation.lastPost, than: before?.lastPost)
        var conversation = conversation
        // Our read on its way, and the server's copy says nothing newer: it stays read.
        if isBeingRead(id, lastPost: conversation.lastPost) { conversation.unread = false }
        epoch += 1
        changedAt[id] = epoch
        guard newPost else {
            record(conversation)
            if !removing.contains(id), !removed.contains(id), before != conversation { observers.notify(.updated(id: id, moved: false)) }
            return
        }
        removed.remove(id)
        record(conversation)
        guard !removing.contains(id) else {
            // Removed or not, the new post brings it back once the server answers.
            revived.insert(id)
            return
        }
        observers.notify(.updated(id: id, moved: true))
    }

    /// The post `id`, the last post of the conversation `conversation` as this store knows it,
    /// was deleted: the conversation stays (the server keeps it, with its post before as the
    /// last), showing no post until the server's next copy of it says which.
    package func lastPostDeleted(_ id: PostID, of conversation: String) {
        guard var known = known[conversation], known.lastPost?.id == id || known.lastPost?.originalID == id else { return }
        known.lastPost = nil
        epoch += 1
        changedAt[conversation] = epoch
        record(known)
        if self.conversation(conversation) != nil { observers.notify(.updated(id: conversation, moved: false)) }
    }

    /// Whether a read of the conversation `id` is on its way for the post `lastPost`.
    private func isBeingRead(_ id: String, lastPost: Post?) -> Bool {
        guard reading.contains(id), let read = readPost[id] else { return false }
        return lastPost?.id == read
    }

    /// Whether `post` is newer than `known` (a different post, not older): what moves a
    /// conversation to the top.
    private static func isNewer(_ post: Post?, than known: Post?) -> Bool {
        guard let post else { return false }
        guard let known else { return true }
        return post.id != known.id && post.createdAt >= known.createdAt
    }

    /// The user's own post, just confirmed: a direct reply to the last post of a conversation
    /// becomes its last post (read: you wrote it) and the conversation moves to the top.
    package func ownPosted(_ post: Post) {
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
        guard var conversation = conversation(id), conversation.unread, !reading.contains(id) else { return false }
        conversation.unread = false
        known[id] = conversation
        reading.insert(id)
        failures[id] = nil
        epoch += 1
        changedAt[id] = epoch
        readStartedAt[id] = epoch
        readPost[id] = conversation.lastPost?.id
        observers.notify(.updated(id: id, moved: false))
        sending?.run(Sent(id: id, action: .read))
        return true
    }

    /// Removes the conversation: off every screen at once, one request, back where it was with
    /// the reason on refusal. Returns `false` (nothing happens) when it is unknown or being removed.
    @discardableResult
    package func remove(_ id: String) -> Bool {
        guard conversation(id) != nil else { return false }
        removing.insert(id)
        failures[id] = nil
        epoch += 1
        changedAt[id] = epoch
        observers.notify(.removing(id: id))
        sending?.run(Sent(id: id, action: .remove))
        return true
    }

    /// Sends again every change that failed for lack of a connection (a refusal is not sent
    /// again: the server would refuse it again). Returns whether anything was.
    @discardableResult
    package func retryFailed() -> Bool {
        let failed = failures
        var retried = false
        for (id, failure) in failed.sorted(by: { $0.key < $1.key }) where failure.transient {
            failures[id] = nil
            switch failure.action {
            case .read: if markRead(id) { retried = true }
            case .remove: if remove(id) { retried = true }
            }
        }
        return retried
    }

    // MARK: - Answers

    private func readAnswered(_ id: String, _ result: Result<Void, FeedFailure>) {
        reading.remove(id)
        let startedAt = readStartedAt.removeValue(forKey: id) ?? 0
        readPost[id] = nil
        defer { resumeWaiters() }
        guard case .failure(let failure) = result else { return }
        let name = known[id].map { Self.name($0) } ?? "this conversation"
        failures[id] = ("Could not mark \(name) read: \(failure.message)", .read, failure.isTransient)
        // Unread again, unless something changed it since the read began (a newer post, your
        // reply, the server's copy): that says what is right.
        if (changedAt[id] ?? 0) <= startedAt, var conversation = known[id] {
            conversation.unread = true
            known[id] = conversation
        }
        if conversation(id) != nil { observers.notify(.updated(id: id, moved: false)) }
    }

    private func removeAnswered(_ id: String, _ result: Result<Void, FeedFailure>) {
        removing.remove(id)
        defer { resumeWaiters() }
        let back = revived.remove(id) != nil
        switch result {
        case .success:
            if !back { removed.insert(id) }
            observers.notify(.removed(id: id))
        case .failure(let failure):
            let name = known[id].map { Self.name($0) } ?? "this conversation"
            failures[id] = ("Could not remove \(name): \(failure.message)", .remove, failure.isTransient)
            observers.notify(.removalRefused(id: id))
        }
        // A new post came while the removal was on its way: the conversation is back, on top.
        if back { observers.notify(.updated(id: id, moved: true)) }
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
