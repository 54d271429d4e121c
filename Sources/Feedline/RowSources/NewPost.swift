/// A post new to the session, as every list hears of it through the post store
/// (`PostStore.HolderEvent`): one of yours — its local copy while it is on its way, or the
/// server's post once confirmed — or one a stream brought for a feed. Which lists show it as it
/// arrives is one rule, ``ListSource/shows(_:showsParent:)``; every other list finds it on its
/// next page, where the server puts it.
package enum NewPost: Sendable {
    /// Your own post, replying to `parent` (its draft's reply target; `nil`: a new post).
    case own(Post, parent: PostID?)
    /// A post a stream brought for `feed`.
    case streamed(Post, Feed)
}

extension ListSource {
    /// Whether a list of this source shows `post` as it arrives:
    /// - a post a stream brought: the list of its feed (it waits above the rows);
    /// - your own post: home (unless it is a direct message), your own profile (opened by id,
    ///   or by handle), and a thread that shows the post it replies to (`showsParent` tells
    ///   whether the list shows a post). No other list — a user list, a hashtag, the public
    ///   timelines, the notifications — shows it before its next page.
    ///
    /// Pure. - Complexity: O(1), plus one `showsParent` call for your reply in a thread.
    package func shows(_ post: NewPost, showsParent: (PostID) -> Bool) -> Bool {
        switch post {
        case .streamed(_, let feed):
            return self == .feed(feed)
        case .own(let post, let parent):
            switch self {
            case .feed(.home):
                return post.visibility != .direct
            case .feed(.account(let id)):
                let me = post.content.author
                return id.rawValue == me.id || id.handle?.lowercased() == me.handle.lowercased()
            case .thread:
                return parent.map(showsParent) ?? false
            case .feed(.local), .feed(.public), .feed(.tag), .feed(.bookmarks), .feed(.favourites), .feed(.list), .feed(.trending),
                .notifications, .notificationsOf, .history, .accounts, .search, .domainBlocks, .followedTags, .trendingTags, .conversations, .userLists, .filters, .announcements, .scheduled,
                .notificationRequests:
                return false
            }
        }
    }
}
