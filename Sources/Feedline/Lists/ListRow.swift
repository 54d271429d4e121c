import Foundation

/// The identity of a row in a list.
public enum RowID: Hashable, Sendable, CustomStringConvertible {
    /// A post entry, by its own id (a reblog entry's id, not the original's).
    case post(PostID)
    /// The gap above the item with this id (its lower bound: a post entry's or a
    /// notification's id, as the server names it).
    case gap(below: String)
    /// A notification group, by its key.
    case notification(String)
    /// An account, by its id.
    case account(AccountID)
    /// A hashtag, by its name lower-cased (``Hashtag/key``).
    case tag(String)
    /// A domain, lower-cased.
    case domain(String)
    /// A direct conversation, by the server's id.
    case conversation(String)
    /// One of your lists, by its id (``UserListRow/id``) — or, for a list made in this session, the
    /// provisional id it was first shown with (``UserListRow/rowKey``).
    case list(String)
    /// One of your server filters, by its id.
    case filter(String)
    /// One of the instance's announcements, by its id.
    case announcement(String)
    /// One of your scheduled posts, by the server's id of it.
    case scheduled(String)
    /// A request of filtered notifications, by the server's id of it.
    case notificationRequest(String)

    /// `post:ID`, `gap:ID`, `notification:KEY`, `account:ID`, `tag:NAME`, `domain:NAME`,
    /// `conversation:ID`, `list:ID`, `filter:ID`, `announcement:ID`, `scheduled:ID`, `request:ID`.
    public var description: String {
        switch self {
        case .post(let id): "post:\(id)"
        case .gap(let below): "gap:\(below)"
        case .notification(let key): "notification:\(key)"
        case .account(let id): "account:\(id)"
        case .tag(let name): "tag:\(name)"
        case .domain(let name): "domain:\(name)"
        case .conversation(let id): "conversation:\(id)"
        case .list(let id): "list:\(id)"
        case .filter(let id): "filter:\(id)"
        case .announcement(let id): "announcement:\(id)"
        case .scheduled(let id): "scheduled:\(id)"
        case .notificationRequest(let id): "request:\(id)"
        }
    }

    /// Reads what ``description`` writes; `nil` for anything else.
    public init?(_ text: String) {
        if text.hasPrefix("post:"), text.count > 5 {
            self = .post(PostID(String(text.dropFirst(5))))
        } else if text.hasPrefix("gap:"), text.count > 4 {
            self = .gap(below: String(text.dropFirst(4)))
        } else if text.hasPrefix("notification:"), text.count > 13 {
            self = .notification(String(text.dropFirst(13)))
        } else if text.hasPrefix("account:"), text.count > 8 {
            self = .account(AccountID(String(text.dropFirst(8))))
        } else if text.hasPrefix("tag:"), text.count > 4 {
            self = .tag(String(text.dropFirst(4)).lowercased())
        } else if text.hasPrefix("domain:"), text.count > 7 {
            self = .domain(String(text.dropFirst(7)).lowercased())
        } else if text.hasPrefix("conversation:"), text.count > 13 {
            self = .conversation(String(text.dropFirst(13)))
        } else if text.hasPrefix("list:"), text.count > 5 {
            self = .list(String(text.dropFirst(5)))
        } else if text.hasPrefix("filter:"), text.count > 7 {
            self = .filter(String(text.dropFirst(7)))
        } else if text.hasPrefix("announcement:"), text.count > 13 {
            self = .announcement(String(text.dropFirst(13)))
        } else if text.hasPrefix("scheduled:"), text.count > 10 {
            self = .scheduled(String(text.dropFirst(10)))
        } else if text.hasPrefix("request:"), text.count > 8 {
            self = .notificationRequest(String(text.dropFirst(8)))
        } else {
            return nil
        }
    }
}

/// Items that may be missing between two rows, left by a refresh whose page was full.
public struct Gap: Hashable, Sendable, Identifiable {
    /// Whether the gap's items are being loaded, or why the last load failed.
    package enum Status: Hashable, Sendable {
        case idle
        case loading
        case failed(FeedFailure)
    }

    /// The item right below the gap: the missing items are newer than it (`since_id`).
    package var below: ItemID
    /// The item right above the gap: the missing items are older than it (`max_id`).
    package var above: ItemID
    package var status: Status

    /// A gap between the items `below` and `above`, not loading.
    package init(below: ItemID, above: ItemID) {
        self.init(below: below, above: above, status: .idle)
    }

    package init(below: ItemID, above: ItemID, status: Status) {
        self.below = below
        self.above = above
        self.status = status
    }

    /// Whether the missing items are being loaded.
    public var isLoading: Bool { status == .loading }

    /// Why the last load of the missing items failed, until it is tried again.
    public var failure: FeedFailure? {
        if case .failed(let failure) = status { return failure }
        return nil
    }

    /// Stable while the gap shrinks: it is named for the item below it.
    public var id: RowID { .gap(below: below.rawValue) }
}

/// Where a row stands in a thread (``PostRow/threadDepth``, ``PostRow/isThreadFocus``).
package struct ThreadPlace: Hashable, Sendable {
    /// 0 for the root and the posts above the focus; replies one deeper than what they answer.
    package var depth: Int
    /// Whether this is the post the thread was opened for.
    package var isFocus: Bool

    package init(depth: Int, isFocus: Bool) {
        self.depth = max(0, depth)
        self.isFocus = isFocus
    }
}

/// What a row shows for a post: the entry as the server sent it (with the latest copy of its
/// original) and the post's shared, optimistic interaction state from the session's post store. Equal
/// when every displayed value is equal, so a changed row is always reported as updated.
public struct PostRow: Hashable, Sendable, Identifiable {
    /// The entry (for a reblog entry: the wrapper; ``content`` is the original).
    public var post: Post
    /// The shared interaction state of the original post.
    public var interaction: PostInteraction
    /// Its place in a thread, for rows of a thread list.
    package var thread: ThreadPlace?
    /// Where the row is shown, for the user's filters (`nil`: none applies).
    package var filterContext: FilterContext?
    /// The store's copy of the post this one quotes and its shared state, when the post quotes
    /// one the store knows (a front reads ``quote``).
    package var quoted: QuotedPost?

    /// In a thread list, how deep the row stands: 0 for the root and the posts above the post
    /// the thread was opened for, replies one deeper than what they answer; `nil` elsewhere.
    public var threadDepth: Int? { thread?.depth }
    /// Whether the row is the post its thread was opened for.
    public var isThreadFocus: Bool { thread?.isFocus == true }

    /// A row of `post` (its shared state from the server copy unless `interaction` is given),
    /// where no filter applies.
    public init(post: Post, interaction: PostInteraction? = nil) {
        self.init(post: post, interaction: interaction, thread: nil, filterContext: nil, quoted: nil)
    }

    /// A row of `post`, where no filter applies; `quoted` is the store's copy of the quoted post.
    package init(post: Post, interaction: PostInteraction? = nil, quoted: QuotedPost?) {
        self.init(post: post, interaction: interaction, thread: nil, filterContext: nil, quoted: quoted)
    }

    /// A row of `post` shown where `filterContext` says.
    package init(post: Post, interaction: PostInteraction? = nil, filterContext: FilterContext?, quoted: QuotedPost? = nil) {
        self.init(post: post, interaction: interaction, thread: nil, filterContext: filterContext, quoted: quoted)
    }

    package init(
        post: Post, interaction: PostInteraction? = nil, thread: ThreadPlace?, filterContext: FilterContext? = nil, quoted: QuotedPost? = nil
    ) {
        self.post = post
        self.interaction = interaction ?? PostInteraction(serverCopy: post)
        self.thread = thread
        self.filterContext = filterContext
        self.quoted = quoted
    }

    /// What the row shows of the post its post quotes, `nil` when it quotes none: the quoted
    /// post with its shared state, filtered by the *quoting* row's filter context (hidden or
    /// behind a warning there as it would be on its own row), or why it is not shown.
    public var quote: QuoteDisplay? {
        guard let quote = post.content.quote else { return nil }
        return QuoteDisplay(quote: quote, current: quoted, context: filterContext)
    }

    /// The id of the post its post quotes, when the quote may be shown (the key of the store's
    /// copy of it).
    public var quotedID: PostID? {
        guard let quote = post.content.quote, quote.state == .accepted else { return nil }
        return quote.postID
    }

    /// The filter whose warning the row shows until the post is revealed (``PostInteraction/revealed``):
    /// for `warn`, instead of the text ("Filtered: TITLE"); for `blur`, instead of the media.
    /// `nil` once revealed, and for posts no filter matches here.
    public var warning: PostFilter? {
        guard !interaction.revealed, let filter = post.filter(in: filterContext), filter.action != .hide else { return nil }
        return filter
    }

    /// The entry's id: the row's identity.
    public var id: PostID { key ?? post.id }

    /// The row's identity when it is not its post's id: one's own post shown while it was being
    /// sent keeps the id it was shown with (``PostID/sending(_:)``) after the server confirmed
    /// it, so the confirmation is an update of that row, never a delete and an insert. The list
    /// finds the row by its post's id too.
    package var key: PostID?

    /// Whether the row shows one's own post on its way to the server (not confirmed yet): no
    /// interaction can be made on it, and it bounds no page.
    public var isSending: Bool { post.id.isSending }

    /// Whether the row shows a version in a post's edit history: it takes no interaction.
    public var isVersion: Bool { post.id.isVersion }
    /// The original post's id: the key of the shared state.
    public var originalID: PostID { post.originalID }
    /// The post whose text and author the row shows (the original for a reblog entry).
    public var content: Post { post.content }
    public var author: Author { post.content.author }
    /// Who boosted it, for a reblog entry.
    public var boostedBy: Author? { post.boostedBy }
    public var text: String { post.content.text }
    public var contentWarning: String? { post.content.contentWarning }
    public var mediaSummary: String { post.content.mediaSummary }
    /// When the original was written.
    public var createdAt: Date { post.content.createdAt }
    public var repliesCount: Int { post.content.repliesCount }

    /// The age of the post relative to `clock`'s now: `now`, `5m`, `3h`, `Mar 4` …
    public func relativeTime(_ clock: WallClock) -> String {
        clock.relative(createdAt)
    }

    /// The row with a post change applied: the latest copy of the original and its state.
    func applying(_ change: PostChange) -> PostRow {
        var row = self
        if row.post.reblog != nil {
            row.post.reblog = change.post
            row.post.nameBooster(as: change.ownAuthor)
        } else if row.post.id == change.post.id {
            row.post = change.post
        }
        // A quoted post known to be deleted stays so in a fresher copy of the quoting post.
        if let old = post.content.quote, old.state == .deleted, row.post.content.quote?.postID == old.postID {
            if row.post.reblog != nil { row.post.reblog?.quote?.state = .deleted } else { row.post.quote?.state = .deleted }
        }
        row.interaction = change.interaction
        return row
    }

    /// The row with a change of the post it quotes applied.
    func applyingQuote(_ change: PostChange) -> PostRow {
        guard quotedID == change.originalID else { return self }
        var row = self
        row.quoted = QuotedPost(post: change.post, interaction: change.interaction)
        return row
    }

    /// The row once the post it quotes was deleted: the quote says so.
    func quoteDeleted(_ id: PostID) -> PostRow {
        guard quotedID == id else { return self }
        var row = self
        row.quoted = nil
        if row.post.reblog != nil { row.post.reblog?.quote?.state = .deleted } else { row.post.quote?.state = .deleted }
        return row
    }
}

/// A notification group as a row; a group about a post shows it with the post's shared state.
public struct NotificationRow: Hashable, Sendable, Identifiable {
    public var group: NotificationGroup
    /// The post, with its shared interaction state, when the group is about one.
    public var post: PostRow?

    public init(group: NotificationGroup, post: PostRow? = nil) {
        self.group = group
        self.post = post ?? group.post.map { PostRow(post: $0) }
    }

    public var id: String { group.id }
}

/// An account as a row (followers, mutes, follow requests, search results): who it is and the
/// shared relationship with it, as the session shows it on every screen (``FeedSession/relationship(_:)``).
public struct AccountRow: Hashable, Sendable, Identifiable {
    /// Who the account is.
    public var profile: Profile
    /// The relationship with it, once known (every row and header of the account shows the same).
    public var relationship: RelationshipDisplay?
    /// Your report of it this session, as every row of it shows it (``FeedSession/reportMark(of:)``).
    package var reported: ToggleDisplay?

    public init(profile: Profile, relationship: RelationshipDisplay? = nil) {
        self.profile = profile
        self.relationship = relationship
    }

    package init(profile: Profile, relationship: RelationshipDisplay?, reported: ToggleDisplay?) {
        self.init(profile: profile, relationship: relationship)
        self.reported = reported
    }

    /// The account's id.
    public var id: AccountID { profile.accountID }
    public var author: Author { profile.author }
}

/// One row of a list as fronts show it: a post, a gap where items may be missing, a
/// notification group, an account, a hashtag, a blocked domain or one of your lists.
public indirect enum ListRow: Hashable, Sendable, Identifiable {
    case post(PostRow)
    case gap(Gap)
    case notification(NotificationRow)
    case account(AccountRow)
    case tag(Hashtag)
    /// A domain you blocked (``ListSource/domainBlocks``), lower-cased, and its block as every
    /// screen shows it.
    case domain(String, block: ToggleDisplay)
    case conversation(ConversationRow)
    case userList(UserListRow)
    /// One of your server filters (``ListSource/filters``), as every screen shows it, with whether
    /// a change of it waits for the server and the last refusal (`state.isOn` is always true:
    /// a deleted filter leaves the list).
    case filter(PostFilter, state: ToggleDisplay)
    /// One of the instance's announcements (``ListSource/announcements``), with whether it shows as
    /// read on every screen (`read.isOn`), whether marking it read waits for the server, and the
    /// last refusal.
    @_spi(FeedService) case announcement(Announcement, read: ToggleDisplay)
    /// One of your scheduled posts (``ListSource/scheduled``), as every screen shows it, with
    /// whether a move or cancellation of it waits for the server and the last refusal
    /// (`state.isOn` is always true: a cancelled post leaves the list).
    @_spi(FeedService) case scheduled(ScheduledPost, state: ToggleDisplay)
    /// A request of filtered notifications (``ListSource/notificationRequests``), as every screen
    /// shows it, with whether its answer waits for the server and the last refusal (`state.isOn`
    /// is always true: an accepted or dismissed request leaves the list).
    @_spi(FeedService) case notificationRequest(NotificationRequest, state: ToggleDisplay)

    public var id: RowID {
        switch self {
        case .post(let row): .post(row.id)
        case .gap(let gap): gap.id
        case .notification(let row): .notification(row.id)
        case .account(let row): .account(row.id)
        case .tag(let tag): .tag(tag.key)
        case .domain(let name, _): .domain(name)
        case .conversation(let row): .conversation(row.id)
        case .userList(let row): .list(row.rowKey)
        case .filter(let filter, _): .filter(filter.id)
        case .announcement(let announcement, _): .announcement(announcement.id)
        case .scheduled(let post, _): .scheduled(post.id)
        case .notificationRequest(let request, _): .notificationRequest(request.id)
        }
    }

    /// The announcement and whether it shows as read, when this is an announcement row.
    @_spi(FeedService) public var announcement: (announcement: Announcement, read: ToggleDisplay)? {
        if case .announcement(let announcement, let read) = self { return (announcement, read) }
        return nil
    }

    /// The list row, when this is one.
    public var userList: UserListRow? {
        if case .userList(let row) = self { return row }
        return nil
    }

    /// The filter, when this is a filter row.
    public var filter: PostFilter? {
        if case .filter(let filter, _) = self { return filter }
        return nil
    }

    /// The scheduled post, when this is a scheduled row.
    @_spi(FeedService) public var scheduled: ScheduledPost? {
        if case .scheduled(let post, _) = self { return post }
        return nil
    }

    /// The request of filtered notifications, when this is one.
    @_spi(FeedService) public var notificationRequest: NotificationRequest? {
        if case .notificationRequest(let request, _) = self { return request }
        return nil
    }

    /// The account row, when this is one.
    public var account: AccountRow? {
        if case .account(let row) = self { return row }
        return nil
    }

    /// The domain and its block, when this is a domain row.
    public var domain: (name: String, block: ToggleDisplay)? {
        if case .domain(let name, let block) = self { return (name, block) }
        return nil
    }

    /// The conversation row, when this is one.
    public var conversation: ConversationRow? {
        if case .conversation(let row) = self { return row }
        return nil
    }

    /// The hashtag, when this is a hashtag row.
    public var tag: Hashtag? {
        if case .tag(let tag) = self { return tag }
        return nil
    }

    /// The post row, when this is one.
    public var post: PostRow? {
        if case .post(let row) = self { return row }
        return nil
    }

    /// The gap, when this is one.
    public var gap: Gap? {
        if case .gap(let gap) = self { return gap }
        return nil
    }

    /// The notification row, when this is one.
    public var notification: NotificationRow? {
        if case .notification(let row) = self { return row }
        return nil
    }

    /// The post this row shows with shared state — a post row's, or a notification's post.
    public var shownPost: PostRow? {
        switch self {
        case .post(let row): row
        case .notification(let row): row.post
        case .conversation(let row): row.lastPost
        case .gap, .account, .tag, .domain, .userList, .filter, .announcement, .scheduled, .notificationRequest: nil
        }
    }

    /// The id newer items start above (`since_id`): a post's id, a group's newest notification.
    var newerBound: ItemID? {
        switch self {
        case .post(let row): row.isSending ? nil : ItemID(row.post.id)
        case .notification(let row): row.group.newestID
        case .gap, .account, .tag, .domain, .conversation, .userList, .filter, .announcement, .scheduled, .notificationRequest: nil
        }
    }

    /// The id older items start below (`max_id`): a post's id, a group's oldest notification.
    var olderBound: ItemID? {
        switch self {
        case .post(let row): row.isSending ? nil : ItemID(row.post.id)
        case .notification(let row): row.group.oldestID
        case .gap, .account, .tag, .domain, .conversation, .userList, .filter, .announcement, .scheduled, .notificationRequest: nil
        }
    }

    /// Another id the list finds this row by: its post's, for a row whose identity is not it
    /// (see ``PostRow/key``).
    var alias: RowID? {
        guard case .post(let row) = self, let key = row.key, key != row.post.id else { return nil }
        return .post(row.post.id)
    }

    /// The row with a change of the post its post quotes applied.
    func applyingQuote(_ change: PostChange) -> ListRow {
        mappingShownPost { $0.applyingQuote(change) }
    }

    /// The row once the post its post quotes was deleted.
    func quoteDeleted(_ id: PostID) -> ListRow {
        mappingShownPost { $0.quoteDeleted(id) }
    }

    /// The row with a post change applied to the post it shows.
    func applying(_ change: PostChange) -> ListRow {
        mappingShownPost { $0.applying(change) }
    }

    /// The row with `transform` applied to the post it shows (a post row's, a notification's).
    private func mappingShownPost(_ transform: (PostRow) -> PostRow) -> ListRow {
        switch self {
        case .post(let row):
            return .post(transform(row))
        case .notification(var row):
            row.post = row.post.map(transform)
            return .notification(row)
        case .conversation(var row):
            row.lastPost = row.lastPost.map(transform)
            return .conversation(row)
        case .gap, .account, .tag, .domain, .userList, .filter, .announcement, .scheduled, .notificationRequest:
            return self
        }
    }
}
