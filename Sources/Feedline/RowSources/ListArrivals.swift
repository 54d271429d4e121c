/// What reaches a list from outside its own loads: the posts and notifications a stream
/// brought (already in the store), and your own posts — on their way, confirmed, withdrawn.
/// New posts come from the post store, which tells every list (``heard(_:in:)``); the list
/// shows one where ``ListSource/shows(_:showsParent:)`` says. Each becomes one event of the
/// list's loop.
@MainActor
enum ListArrivals {
    /// A post new to the session, as the store tells every list: shown by the lists whose
    /// source the rule names (a thread: when it shows the post yours replies to); your post,
    /// confirmed or withdrawn, also by every list that showed it while it was sent.
    static func heard(_ event: PostStore.HolderEvent, in list: FeedListViewModel) {
        let shows = { (post: NewPost) in list.source.shows(post, showsParent: { !list.rows(showing: $0).isEmpty }) }
        switch event {
        case .arrived(let arrival):
            switch arrival {
            case .streamed(let post, _): if shows(arrival) { streamed([post], into: list) }
            case .own(let post, let parent): if shows(arrival) { ownSending(post, parent: parent, into: list) }
            }
        case .ownConfirmed(let post, let local, let parent):
            if list.rows.contains(.post(local)) {
                // Shown while it was sent: that row becomes the post.
                ownConfirmed(local, post, in: list)
            } else if shows(.own(post, parent: parent)) {
                ownPosted(post, into: list)
            }
        case .ownWithdrawn(let local):
            if list.rows.contains(.post(local)) { ownWithdrawn(local, from: list) }
        case .streamInterrupted:
            list.send(.streamInterrupted)
        default:
            return
        }
    }

    /// Entries a stream brought for `list`'s feed, newest first, less those its filters or a
    /// mute or block keep away.
    static func streamed(_ posts: [Post], into list: FeedListViewModel) {
        let shown = posts.filter { !list.removals.filtersAway($0, in: list) && !list.removals.keepsAway($0, in: list.hidingSource, list.store) }
        guard !shown.isEmpty else { return }
        list.send(.streamed(shown.map(list.make.row)))
    }

    /// A notification a stream brought, merged into its group when `list` knows the group —
    /// by its key, or (a stream that keys groups its own way, as the HTTP stream must without
    /// Mastodon 4.3's `group_key`) a group of the same kind about the same post (follows: any)
    /// whose newest notification is less than ``NotificationGroup/maximumJoinSpan`` from it.
    static func streamed(_ group: NotificationGroup, into list: FeedListViewModel) {
        if group.isAboutMissingPost || group.post.map({ list.removals.filtersAway($0, in: list) }) == true { return }
        if let post = group.post, list.removals.keepsAway(post, in: list.source, list.store) { return }
        if list.removals.keepsAway(group, list.store) { return }
        let id = RowID.notification(group.id)
        let state = list.state
        let known = (state.waiting[id: id] ?? state.rows[id: id])?.notification?.group ?? state.joinable(group)
        list.send(.streamed([list.make.row(known.map { $0.merging(newer: group) } ?? group)]))
    }

    /// The user's own post, just confirmed (already in the store): shown at once in `list` (see
    /// `ListState/ownPosted(_:_:)`) unless its filters hide it.
    private static func ownPosted(_ post: Post, into list: FeedListViewModel) {
        guard !list.removals.filtersAway(post, in: list) else { return }
        list.send(.ownPosted(list.make.row(post)))
    }

    /// The user's own post on its way (a local copy in the store, ``PostID/isSending``), shown
    /// at once in `list` (see `ListState/ownSending(_:parent:_:)`).
    private static func ownSending(_ post: Post, parent: PostID?, into list: FeedListViewModel) {
        list.send(.ownSending(list.make.row(post), parent: parent))
    }

    /// The server confirmed the post `list` shows as `local`: the same row shows `post` from
    /// now on, and hears of its changes (the store tells the row by its identity).
    private static func ownConfirmed(_ local: PostID, _ post: Post, in list: FeedListViewModel) {
        let shown = list.rows.contains(.post(local))
        if shown { list.holder?.hide(local, row: .post(local)) }
        list.send(.ownConfirmed(local: local, list.make.row(post)))
        if shown, list.rows.contains(.post(local)) { list.holder?.show(post.originalID, row: .post(local)) }
    }

    /// The post `list` shows as `local` will not be posted: its row goes.
    private static func ownWithdrawn(_ local: PostID, from list: FeedListViewModel) {
        list.send(.ownWithdrawn(local: local))
    }
}
