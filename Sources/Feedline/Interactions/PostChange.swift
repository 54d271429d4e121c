/// A change of one post's shared state, as every row and detail that shows the post must show it.
package struct PostChange: Hashable, Sendable {
    /// The original post's id (the store's key).
    package var originalID: PostID
    /// The latest copy of the original post.
    package var post: Post
    /// Its displayed interaction state.
    package var interaction: PostInteraction

    package init(originalID: PostID, post: Post, interaction: PostInteraction) {
        self.originalID = originalID
        self.post = post
        self.interaction = interaction
    }
}
