/// A change of one post's shared state, as every row and detail that shows the post must show it.
public struct PostChange: Hashable, Sendable {
    /// The original post's id (the store's key).
    public var originalID: PostID
    /// The latest copy of the original post.
    public var post: Post
    /// Its displayed interaction state.
    public var interaction: PostInteraction

    public init(originalID: PostID, post: Post, interaction: PostInteraction) {
        self.originalID = originalID
        self.post = post
        self.interaction = interaction
    }
}
