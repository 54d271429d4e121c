/// The detail screen's state: the post (loaded if the store did not know it), its shared
/// interaction state, and the thread around it.
public struct PostDetailState: Hashable, Sendable {
    /// Progress of one load.
    public enum Load: Hashable, Sendable {
        case idle
        case loading
        case loaded
        case failed(String)
    }

    /// The id the detail was opened with (an entry or an original id).
    public var id: PostID
    /// The original post, once known.
    public var post: Post?
    /// The shared interaction state, once the post is known.
    public var interaction: PostInteraction?
    public var postLoad: Load
    /// The thread around the post, once loaded.
    public var context: PostContext?
    public var contextLoad: Load

    /// A detail for `id`; `post` when the store already knows it.
    public init(id: PostID, post: Post? = nil, interaction: PostInteraction? = nil) {
        self.id = id
        self.post = post?.content
        self.interaction = interaction
        postLoad = post == nil ? .idle : .loaded
        context = nil
        contextLoad = .idle
    }

    /// A load the detail wants running.
    public enum Request: Hashable, Sendable {
        case post
        case context
    }

    /// What the detail wants running: each load while it is `.loading`.
    public var requests: Set<Request> {
        var wanted: Set<Request> = []
        if postLoad == .loading { wanted.insert(.post) }
        if contextLoad == .loading { wanted.insert(.context) }
        return wanted
    }

    /// The first failure to show, if any.
    public var failure: String? {
        if case .failed(let message) = postLoad { return message }
        if case .failed(let message) = contextLoad { return message }
        return nil
    }
}

/// What can happen on a detail screen.
public enum PostDetailEvent: Hashable, Sendable {
    /// The screen became visible: loads what is missing.
    case appeared
    case contextFailed(String)
    case contextLoaded(PostContext)
    /// The shared interaction state changed.
    case interactionChanged(PostInteraction)
    case postFailed(String)
    case postLoaded(Post)
    /// Retry every load that failed.
    case retryRequested
}

extension PostDetailState {
    /// Applies one event in place. Pure. Loads start on `appeared` (what is missing) and on
    /// `retryRequested` (what failed); a response for a load that is not running is ignored.
    public mutating func reduce(_ event: PostDetailEvent) {
        switch event {
        case .appeared:
            if post == nil, postLoad == .idle { postLoad = .loading }
            if contextLoad == .idle { contextLoad = .loading }
        case .contextFailed(let message):
            if contextLoad == .loading { contextLoad = .failed(message) }
        case .contextLoaded(let loaded):
            if contextLoad == .loading {
                context = loaded
                contextLoad = .loaded
            }
        case .interactionChanged(let value):
            interaction = value
        case .postFailed(let message):
            if postLoad == .loading { postLoad = .failed(message) }
        case .postLoaded(let loaded):
            if postLoad == .loading {
                post = loaded.content
                postLoad = .loaded
            }
        case .retryRequested:
            if case .failed = postLoad { postLoad = .loading }
            if case .failed = contextLoad { contextLoad = .loading }
        }
    }
}
