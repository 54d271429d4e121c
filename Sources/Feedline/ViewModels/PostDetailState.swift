/// The detail screen's state: the post (loaded if the store did not know it), its shared
/// interaction state, and the thread around it. A value the detail view model publishes.
public struct PostDetailState: Hashable, Sendable {
    /// Progress of one load (a front reads ``isLoading`` and ``failure``).
    package enum Load: Hashable, Sendable {
        case idle
        case loading
        case loaded
        case failed(FeedFailure)
    }

    /// The id the detail was opened with (an entry or an original id).
    public let id: PostID
    /// The latest copy of the original post, once known.
    public package(set) var post: Post?
    /// The shared interaction state, once the post is known.
    public package(set) var interaction: PostInteraction?
    /// The store's copy of the post it quotes and its shared state, when it quotes one the
    /// store knows (a front reads ``quote``).
    package var quoted: QuotedPost?
    package var postLoad: Load
    /// The thread around the post, once loaded (the text fronts print it under the post; an app
    /// shows the ``ListSource/thread(_:)`` list).
    @_spi(FeedService) public package(set) var context: PostContext?
    package var contextLoad: Load
    /// Whether the post was deleted while the detail was open (toggles are ignored then).
    public package(set) var deleted = false
    /// A fresh copy of a post the store already knew when the detail opened, asked for once as
    /// it appears, so an edit no stream reported shows. Quiet: the known copy is shown
    /// meanwhile, and neither its loading nor its failure is a load the screen reports.
    package var recheck: Load = .idle

    /// A detail for `id`; `known` is the store's copy when it already knows the post.
    package init(id: PostID, known: PostChange? = nil) {
        self.id = id
        post = known?.post
        interaction = known?.interaction
        postLoad = known == nil ? .idle : .loaded
        context = nil
        contextLoad = .idle
    }

    /// The filter whose warning the detail shows until the post is revealed (a detail is in the
    /// `thread` filter context; see ``PostRow/warning``). A detail shows a post its filter hides
    /// elsewhere behind a warning too: the user opened it on purpose.
    public var warning: PostFilter? {
        guard let post, interaction?.revealed != true, let filter = post.filter(in: .thread) else { return nil }
        return filter
    }

    /// What the detail shows of the post it quotes, `nil` when it quotes none: the quoted post
    /// (filtered as the detail is, in the `thread` context), or why it is not shown.
    public var quote: QuoteDisplay? {
        guard let quote = post?.quote else { return nil }
        return QuoteDisplay(quote: quote, current: quoted, context: .thread)
    }

    /// Whether the post or the thread around it is on its way. (A fresh copy of a post known
    /// already is asked for quietly: the known copy shows meanwhile.)
    public var isLoading: Bool { postLoad == .loading || contextLoad == .loading }

    /// The first failure to show, if any: the post's load, then the thread's.
    /// ``PostDetailViewModel/retry()`` loads what failed again.
    public var failure: FeedFailure? {
        if case .failed(let failure) = postLoad { return failure }
        if case .failed(let failure) = contextLoad { return failure }
        return nil
    }
}

/// What can happen on a detail screen.
package enum PostDetailEvent: Hashable, Sendable {
    /// The screen became visible: loads what is missing, and a fresh copy of a post known
    /// already (``PostDetailState/recheck``).
    case appeared
    case contextFailed(FeedFailure)
    case contextLoaded(PostContext)
    /// A post of the thread has a fresher copy (an edit): it replaces the one shown.
    case contextPostChanged(Post)
    /// Posts of the thread were deleted: they leave it.
    case contextPostsRemoved(Set<PostID>)
    /// One's own reply to the post or to a reply of its thread (on its way, or confirmed:
    /// `replacing` the copy shown while it was sent): it goes under what it answers, after the
    /// replies there, as the server lists it. A reply the thread shows already is updated in
    /// place (the copy shown while it was sent then goes); one to a post the thread does not
    /// show is no part of it.
    case contextReplied(Post, replacing: PostID?)
    /// The post's shared state changed (its latest copy, its interactions).
    case postChanged(PostChange)
    /// The post it quotes, as the store has it now (its latest copy and shared state).
    case quoteChanged(QuotedPost?)
    /// The post it quotes was deleted: the quote says so.
    case quoteDeleted
    case postFailed(FeedFailure)
    /// The post arrived; `current` is the store's copy after taking it in.
    case postLoaded(PostChange)
    /// Retry every load that failed.
    case retryRequested
    /// The post was deleted: loads stop, nothing more is asked.
    case deleted
    /// A delete the server refused: the post is not deleted after all; it and its thread load
    /// again (whatever of the thread the delete took away comes back with it).
    case undeleted
}

/// A load the detail wants running.
package enum PostDetailRequest: Hashable, Sendable {
    case post
    case context
}

extension PostDetailState {
    /// Applies one event in place. Pure. Loads start on `appeared` (what is missing) and on
    /// `retryRequested` (what failed); a response for a load that is not running is ignored.
    package mutating func reduce(_ event: PostDetailEvent) {
        switch event {
        case .appeared:
            guard !deleted else { return }
            if post == nil, postLoad == .idle { postLoad = .loading }
            if post != nil, recheck == .idle { recheck = .loading }
            if contextLoad == .idle { contextLoad = .loading }
        case .contextFailed(let failure):
            if contextLoad == .loading { contextLoad = .failed(failure) }
        case .contextLoaded(let loaded):
            if contextLoad == .loading {
                context = loaded
                contextLoad = .loaded
            }
        case .contextPostChanged(let post):
            guard var thread = context else { return }
            for index in thread.ancestors.indices where thread.ancestors[index].id == post.id { thread.ancestors[index] = post }
            for index in thread.descendants.indices where thread.descendants[index].id == post.id { thread.descendants[index] = post }
            context = thread
        case .contextPostsRemoved(let ids):
            guard var thread = context else { return }
            thread.ancestors.removeAll { ids.contains($0.id) }
            thread.descendants.removeAll { ids.contains($0.id) }
            context = thread
        case .contextReplied(let reply, let local):
            guard var thread = context else { return }
            let shownLocal = local.flatMap { local in thread.descendants.firstIndex { $0.id == local } }
            if let shown = thread.descendants.firstIndex(where: { $0.id == reply.id }) {
                thread.descendants[shown] = reply
                if let shownLocal { thread.descendants.remove(at: shownLocal) }
            } else if let shownLocal {
                thread.descendants[shownLocal] = reply
            } else if let place = replyPlace(of: reply, in: thread) {
                thread.descendants.insert(reply, at: place)
            } else {
                return
            }
            context = thread
        case .postChanged(let change):
            guard post != nil else { return }
            let deleted = post?.quote?.state == .deleted ? post?.quote?.postID : nil
            post = change.post
            if let deleted, post?.quote?.postID == deleted { post?.quote?.state = .deleted }
            interaction = change.interaction
        case .quoteChanged(let current):
            quoted = current
        case .quoteDeleted:
            quoted = nil
            if post?.quote != nil { post?.quote?.state = .deleted }
        case .postFailed(let failure):
            if postLoad == .loading { postLoad = .failed(failure) }
            if recheck == .loading { recheck = .failed(failure) }
        case .postLoaded(let current):
            if postLoad == .loading || recheck == .loading {
                post = current.post
                interaction = current.interaction
            }
            if postLoad == .loading { postLoad = .loaded }
            if recheck == .loading { recheck = .loaded }
        case .retryRequested:
            guard !deleted else { return }
            if case .failed = postLoad { postLoad = .loading }
            if case .failed = contextLoad { contextLoad = .loading }
        case .deleted:
            deleted = true
            if postLoad == .loading { postLoad = .idle }
            if recheck == .loading { recheck = .idle }
            if contextLoad == .loading { contextLoad = .idle }
        case .undeleted:
            guard deleted else { return }
            deleted = false
            if post == nil { postLoad = .loading } else { recheck = .loading }
            contextLoad = .loading
        }
    }

    /// Whether a reply to `id` belongs in this detail's thread: `id` is its post or a reply shown
    /// in its thread (a reply to a post above it is in another branch).
    package func threadAnswers(_ id: PostID) -> Bool {
        guard let context else { return false }
        return post?.id == id || context.descendants.contains { $0.id == id }
    }

    /// Where `reply` goes among the thread's replies (depth first, oldest first): after the last
    /// reply in the branch of what it answers; `nil` when it answers nothing the thread shows.
    private func replyPlace(of reply: Post, in thread: PostContext) -> Int? {
        guard let parent = reply.inReplyToID else { return nil }
        if parent == post?.id { return thread.descendants.count }
        guard let parentIndex = thread.descendants.firstIndex(where: { $0.id == parent }) else { return nil }
        var branch: Set<PostID> = [parent]
        var end = parentIndex + 1
        while end < thread.descendants.count, let answered = thread.descendants[end].inReplyToID, branch.contains(answered) {
            branch.insert(thread.descendants[end].id)
            end += 1
        }
        return end
    }

    /// What the detail wants running: each load while it is `.loading`.
    package var requests: Set<PostDetailRequest> {
        var wanted: Set<PostDetailRequest> = []
        if postLoad == .loading || recheck == .loading { wanted.insert(.post) }
        if contextLoad == .loading { wanted.insert(.context) }
        return wanted
    }
}
