import Feedline

extension Post: ServerEntry {
    /// Who the signed-in user is on a ``ServerModel`` of posts: the author of their boosts.
    public static let signedInUser = Author(id: "me", displayName: "Me", handle: "me@server.example")

    public var interactions: ServerInteractions {
        get {
            ServerInteractions(
                favourited: favourited, favourites: favouritesCount, reblogged: reblogged, reblogs: reblogsCount, bookmarked: bookmarked,
                pinned: pinned, muted: muted
            )
        }
        set {
            favourited = newValue.favourited
            favouritesCount = newValue.favourites
            reblogged = newValue.reblogged
            reblogsCount = newValue.reblogs
            bookmarked = newValue.bookmarked
            pinned = newValue.pinned
            muted = newValue.muted
        }
    }

    /// `reblog<number>` by ``signedInUser``, dated as the original.
    public static func userBoost(of original: Post, number: Int) -> Post {
        Post(id: PostID("reblog\(number)"), author: signedInUser, text: "", createdAt: original.createdAt, reblog: original)
    }
}
