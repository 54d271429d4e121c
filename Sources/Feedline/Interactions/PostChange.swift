/// A change of one post's shared state, as every row and detail that shows the post must show it.
package struct PostChange: Hashable, Sendable {
    /// The original post's id (the store's key).
    package var originalID: PostID
    /// The latest copy of the original post.
    package var post: Post
    /// Its displayed interaction state.
    package var interaction: PostInteraction
    /// You, as your profile shows you now, once you changed it this session: a row of your boost
    /// of the post names you so ("boosted by …"), whatever the page it came on said.
    package var ownAuthor: Author?

    package init(originalID: PostID, post: Post, interaction: PostInteraction, ownAuthor: Author? = nil) {
        self.originalID = originalID
        self.post = post
        self.interaction = interaction
        self.ownAuthor = ownAuthor
    }
}

extension Post {
    /// A boost by `own`'s account names its booster as `own` does (your name as your profile
    /// shows it now); any other post is left as it is.
    package mutating func nameBooster(as own: Author?) {
        guard let own, reblog != nil, author.id == own.id, author.displayName != own.displayName else { return }
        author.displayName = own.displayName
    }
}
