@_spi(FeedService) import Feedline
import Foundation

// Every service slice of `FeedService`, answered from the model through the gates.

extension GatedServer {
    // MARK: - Timelines

    /// A page of `feed` below the post the cursor names (Mastodon's `max_id`; the trending posts
    /// by offset, as Mastodon ranks them); an account's own pinned posts come first on its first
    /// page (`onTop`), as the HTTP client shows a profile (Mastodon serves them apart, `pinned=true`).
    package func page(of feed: Feed, after cursor: PageCursor?) async throws -> Page<Post> {
        try await run(GatedCall(.page, key: feed.description, "\(feed), after: \(cursor?.rawValue ?? "nil")")) { [self] model in
            var posts = model.timeline(feed)
            var pinned = 0
            if case .account(let account) = feed {
                let onTop = posts.filter { $0.pinned && $0.reblog == nil && $0.author.id == account.rawValue }
                posts = onTop + posts.filter { post in !onTop.contains { $0.id == post.id } }
                pinned = cursor == nil ? onTop.count : 0
            }
            let page = feed == .trending ? try page(posts, after: cursor) : try page(posts, below: cursor, listed: model.timelines.feeds[feed] ?? [])
            return Page(posts: page.items, next: page.next, onTop: pinned)
        }
    }

    /// The newest entries of `feed` between `lower` and `upper`, at most a page, as the sandbox
    /// answers: `hasMore` exactly when the range holds more. A bound deleted since still means
    /// what it meant, as Mastodon's ids order it.
    package func newer(in feed: Feed, than lower: PostID, olderThan upper: PostID?) async throws -> NewerPage<Post> {
        try await run(GatedCall(.newer, key: feed.description, "\(feed), than: \(lower), olderThan: \(upper?.rawValue ?? "nil")")) { [self] model in
            let posts = model.timeline(feed)
            let listed = model.timelines.feeds[feed] ?? []
            let end = Self.at(lower, in: posts, listed: listed) ?? posts.count
            let start = upper.flatMap { Self.below($0, in: posts, listed: listed) } ?? 0
            guard start < end else { return NewerPage(posts: [], hasMore: false) }
            return NewerPage(posts: Array(posts[start..<min(end, start + pageSize)]), hasMore: end - start > pageSize)
        }
    }

    package func notifications(of kinds: Set<NotificationGroup.Kind>, after cursor: PageCursor?) async throws -> Page<NotificationGroup> {
        try await run(GatedCall(.notifications, Self.kindsNote(kinds) + "after: \(cursor?.rawValue ?? "nil")")) { [self] model in
            try page(model.timelines.notifications.map(model.current).filter { kinds.accepts($0.kind) }, after: cursor)
        }
    }

    package func newerNotifications(of kinds: Set<NotificationGroup.Kind>, than lower: ItemID, olderThan upper: ItemID?) async throws -> NewerPage<NotificationGroup> {
        try await run(GatedCall(.newerNotifications, Self.kindsNote(kinds) + "than: \(lower), olderThan: \(upper.map { "\($0)" } ?? "nil")")) { model in
            let groups = model.timelines.notifications.map(model.current).filter { kinds.accepts($0.kind) }
            let end = groups.firstIndex { $0.newestID == lower } ?? groups.count
            let start = upper.flatMap { upper in groups.firstIndex { $0.oldestID == upper }.map { $0 + 1 } } ?? 0
            return NewerPage(items: start < end ? Array(groups[start..<end]) : [], hasMore: false)
        }
    }

    package func dismissNotificationGroup(_ key: String) async throws {
        try await run(GatedCall(.dismissNotification, key: key)) { model in model.timelines.notifications.removeAll { $0.id == key } }
    }

    package func clearNotifications() async throws {
        try await run(GatedCall(.clearNotifications)) { model in model.timelines.notifications.removeAll() }
    }

    /// `of: mentions, ` before a filtered notifications call's arguments; nothing for every kind
    /// (so the calls of the plain screen read as before).
    private static func kindsNote(_ kinds: Set<NotificationGroup.Kind>) -> String {
        kinds.isEmpty ? "" : "of: \(NotificationGroup.Kind.filterNames(of: kinds)), "
    }

    package func post(_ id: PostID) async throws -> Post {
        try await run(GatedCall(.post, key: id.rawValue)) { model in
            guard let post = model.entry(id) else { throw RecordNotFound() }
            return post
        }
    }

    /// The thread of `id` as the model's posts make it: the posts it replies to, oldest first,
    /// and every reply below it, oldest first.
    package func context(of id: PostID) async throws -> PostContext {
        try await run(GatedCall(.context, key: id.rawValue)) { model in
            guard let post = model.original(of: id) else { throw RecordNotFound() }
            var ancestors: [Post] = []
            var parent = post.inReplyToID.flatMap { model.original(of: $0) }
            while let above = parent, !ancestors.contains(where: { $0.id == above.id }) {
                ancestors.insert(above, at: 0)
                parent = above.inReplyToID.flatMap { model.original(of: $0) }
            }
            var descendants: [Post] = []
            var parents: Set<PostID> = [post.id]
            let replies = model.originals.values.filter { $0.inReplyToID != nil }.sorted { ($0.createdAt, $0.id.rawValue) < ($1.createdAt, $1.id.rawValue) }
            var added = true
            while added {
                added = false
                for reply in replies where !parents.contains(reply.id) && reply.inReplyToID.map(parents.contains) == true {
                    descendants.append(reply)
                    parents.insert(reply.id)
                    added = true
                }
            }
            return PostContext(ancestors: ancestors, descendants: descendants.sorted { ($0.createdAt, $0.id.rawValue) < ($1.createdAt, $1.id.rawValue) })
        }
    }

    // MARK: - Interactions

    package func set(_ kind: InteractionKind, to value: Bool, postID: PostID) async throws -> Post {
        try await run(GatedCall(.interaction, key: postID.rawValue, value: value, "\(kind) \(value) \(postID)")) { model in
            try model.set(kind, to: value, on: postID)
        }
    }

    // MARK: - Writing

    package func composeSettings() async throws -> ComposeSettings {
        let me = me
        return try await run(GatedCall(.composeSettings)) { _ in ComposeSettings(account: me) }
    }

    package func publish(_ draft: Draft, idempotencyKey: String) async throws -> Post {
        let me = me
        return try await run(GatedCall(
            .publish, key: draft.editing?.rawValue ?? idempotencyKey, "\(draft.editing.map { "edit \($0): " } ?? "")\(draft.text)", editing: draft.editing
        )) { model in
            try model.publish(draft, idempotencyKey: idempotencyKey, by: me, at: draft.createdAt)
        }
    }

    package func delete(_ id: PostID) async throws -> Post {
        let me = me
        return try await run(GatedCall(.delete, key: id.rawValue)) { model in try model.delete(id, by: me) }
    }

    package func source(of id: PostID) async throws -> PostSource {
        try await run(GatedCall(.source, key: id.rawValue)) { model in try model.source(of: id) }
    }

    package func history(of id: PostID) async throws -> [PostVersion] {
        try await run(GatedCall(.history, key: id.rawValue)) { model in try model.history(of: id) }
    }

    package func translate(_ id: PostID) async throws -> PostTranslation {
        try await run(GatedCall(.translate, key: id.rawValue)) { model in try model.translation(of: id) }
    }

    package func schedule(_ draft: Draft, idempotencyKey: String) async throws -> ScheduledPost {
        try await run(GatedCall(.schedule, key: idempotencyKey, draft.text)) { model in try model.schedule(draft, idempotencyKey: idempotencyKey) }
    }

    package func scheduledPosts(after cursor: PageCursor?) async throws -> Page<ScheduledPost> {
        try await run(GatedCall(.scheduledPosts, key: cursor?.rawValue ?? "")) { model in
            // Two a page, so that a screen follows the pages to the end.
            let start = cursor.flatMap { cursor in model.scheduled.firstIndex { $0.id == cursor.rawValue }.map { $0 + 1 } } ?? 0
            let items = Array(model.scheduled.dropFirst(start).prefix(2))
            return Page(items: items, next: start + items.count < model.scheduled.count ? items.last.map { PageCursor($0.id) } : nil)
        }
    }

    package func reschedule(_ id: String, to date: Date) async throws -> ScheduledPost {
        try await run(GatedCall(.reschedule, key: id)) { model in try model.reschedule(id, to: date) }
    }

    package func ownProfile() async throws -> OwnProfile {
        let me = me
        return try await run(GatedCall(.ownProfile)) { model in model.ownProfile ?? OwnProfile(author: me) }
    }

    package func updateProfile(_ edit: ProfileEdit) async throws -> OwnProfile {
        let me = me
        let parts: [String?] = [
            edit.displayName.map { "name=\($0)" }, edit.bio.map { "bio=\($0)" }, edit.fields.map { "fields=\($0.map { "\($0.name)=\($0.value)" })" },
            edit.locked.map { "locked=\($0)" }, edit.bot.map { "bot=\($0)" }, edit.discoverable.map { "discoverable=\($0)" },
        ]
        return try await run(GatedCall(.updateProfile, parts.compactMap { $0 }.joined(separator: " "))) { model in
            let profile = (model.ownProfile ?? OwnProfile(author: me)).applying(edit)
            model.ownProfile = profile
            return profile
        }
    }

    package func cancelScheduled(_ id: String) async throws {
        try await run(GatedCall(.cancelScheduled, key: id)) { model in try model.cancelScheduled(id) }
    }

    package func vote(poll pollID: String, of postID: PostID, choices: [Int]) async throws -> Poll {
        try await run(GatedCall(.vote, key: postID.rawValue, "\(pollID) of \(postID): \(choices)")) { model in
            try model.vote(poll: pollID, of: postID, choices: choices)
        }
    }

    // MARK: - Relationships

    package func profile(of account: AccountID) async throws -> Profile {
        try await run(GatedCall(.profile, key: account.rawValue)) { model in
            guard let profile = model.relationships.profiles[account] else { throw RecordNotFound() }
            return profile
        }
    }

    /// Each account asked, once, in the order asked; `domainBlocking` says whether its handle's
    /// domain is blocked.
    package func relationships(of accounts: [AccountID]) async throws -> [Relationship] {
        try await run(GatedCall(.relationships, key: accounts.map(\.rawValue).joined(separator: ","))) { model in
            var seen = Set<AccountID>()
            return accounts.filter { seen.insert($0).inserted }.map { model.relationship(of: $0) }
        }
    }

    package func setRelationship(_ kind: RelationshipKind, to value: Bool, of account: AccountID, mute: MuteOptions) async throws -> Relationship {
        let call = GatedCall(.setRelationship, key: account.rawValue, value: value, "\(kind.verb(value)) \(account)", relationshipKind: kind, mute: mute)
        return try await run(call) { model in
            _ = try model.relationships.set(kind, to: value, of: account, mute: mute, at: model.now)
            return model.relationship(of: account)
        }
    }

    package func accounts(in list: AccountList, after cursor: PageCursor?) async throws -> Page<Profile> {
        try await run(GatedCall(.accounts, key: list.description)) { [self] model in try page(model.accounts(in: list), after: cursor, size: accountsPageSize) }
    }

    /// What a search for `query` finds, as Mastodon's search answers (see
    /// ``ServerModel/search(_:)``).
    package func search(_ query: String, after cursor: PageCursor?) async throws -> Page<SearchResult> {
        try await run(GatedCall(.search, key: query)) { [self] model in try page(model.search(query), after: cursor) }
    }

    package func answerFollowRequest(from account: AccountID, accept: Bool) async throws -> Relationship {
        try await run(GatedCall(.answerFollowRequest, key: account.rawValue, value: accept, "\(account) \(accept ? "accept" : "reject")")) { model in
            _ = model.relationships.answerFollowRequest(from: account, accept: accept)
            return model.relationship(of: account)
        }
    }

    // MARK: - Domain blocks

    package func domainBlocks(after cursor: PageCursor?) async throws -> Page<String> {
        try await run(GatedCall(.domainBlocks, "after: \(cursor?.rawValue ?? "nil")")) { [self] model in try page(model.domainBlocks.domains, after: cursor) }
    }

    package func setDomainBlock(_ domain: String, to value: Bool) async throws {
        try await run(GatedCall(.setDomainBlock, key: domain, value: value, "\(domain), \(value)")) { model in
            try model.domainBlocks.set(domain, to: value)
        }
    }

    // MARK: - Reports

    package func report(_ report: AccountReport) async throws {
        try await run(GatedCall(.report, key: report.account.rawValue, "\(report.account): \(report.posts.map(\.rawValue))")) { model in
            guard model.relationships.profiles[report.account] != nil else { throw RecordNotFound() }
            model.reports.append(report)
        }
    }

    package func instanceRules() async throws -> [InstanceRule] {
        try await run(GatedCall(.instanceRules)) { model in model.rules }
    }

    // MARK: - Announcements

    package func announcements() async throws -> [Announcement] {
        try await run(GatedCall(.announcements)) { model in model.announcements }
    }

    package func dismissAnnouncement(_ id: String) async throws {
        try await run(GatedCall(.dismissAnnouncement, key: id)) { model in
            guard let index = model.announcements.firstIndex(where: { $0.id == id }) else { throw RecordNotFound() }
            model.announcements[index].read = true
        }
    }

    // MARK: - Notification policy

    package func notificationPolicy() async throws -> NotificationPolicy {
        try await run(GatedCall(.notificationPolicy)) { model in model.notificationPolicy }
    }

    package func setNotificationPolicy(_ field: NotificationPolicy.Field, to handling: NotificationPolicy.Handling) async throws -> NotificationPolicy {
        try await run(GatedCall(.setNotificationPolicy, key: field.name, handling.rawValue)) { model in
            model.notificationPolicy[field] = handling
            return model.notificationPolicy
        }
    }

    package func notificationRequests(after cursor: PageCursor?) async throws -> Page<NotificationRequest> {
        try await run(GatedCall(.notificationRequests, key: cursor?.rawValue ?? "")) { model in
            // Two a page, so that a screen follows the pages to the end.
            let start = cursor.flatMap { cursor in model.notificationRequests.firstIndex { $0.id == cursor.rawValue }.map { $0 + 1 } } ?? 0
            let items = Array(model.notificationRequests.dropFirst(start).prefix(2))
            return Page(items: items, next: start + items.count < model.notificationRequests.count ? items.last.map { PageCursor($0.id) } : nil)
        }
    }

    package func answerNotificationRequest(_ id: String, _ answer: NotificationRequest.Answer) async throws {
        try await run(GatedCall(.answerNotificationRequest, key: id, value: answer == .accept, "\(id), \(answer.rawValue)")) { model in
            guard let index = model.notificationRequests.firstIndex(where: { $0.id == id }) else { throw RecordNotFound() }
            model.notificationRequests.remove(at: index)
        }
    }

    // MARK: - Filters

    package func filters() async throws -> [PostFilter] {
        try await run(GatedCall(.filters)) { model in model.filters.filters }
    }

    package func createFilter(_ filter: PostFilter, expiresIn: Int?) async throws -> PostFilter {
        try await run(GatedCall(.createFilter, key: filter.title, filter.title)) { model in try model.filters.create(filter) }
    }

    package func updateFilter(_ filter: PostFilter, replacing old: PostFilter, expiresIn: Int?) async throws -> PostFilter {
        try await run(GatedCall(.updateFilter, key: filter.id, "\(filter.id) \(filter.title)")) { model in try model.filters.update(filter) }
    }

    package func deleteFilter(_ id: String) async throws {
        try await run(GatedCall(.deleteFilter, key: id, id)) { model in try model.filters.delete(id) }
    }

    // MARK: - Tags

    package func setTagFollow(_ name: String, to value: Bool) async throws -> Hashtag {
        try await run(GatedCall(.setTagFollow, key: name, value: value, "\(name), \(value)")) { model in try model.tags.set(name, to: value) }
    }

    /// The hashtag `name`, with its weekly uses when it trends.
    package func tag(named name: String) async throws -> Hashtag {
        try await run(GatedCall(.tag, key: name)) { model in model.withUses(model.tags.tag(named: try ServerTags.valid(name))) }
    }

    /// The followed hashtags, newest follow first, with their weekly uses when they trend;
    /// without `following` when the model's ``ServerTags/followedListSaysFollowing`` is off.
    package func followedTags(after cursor: PageCursor?) async throws -> Page<Hashtag> {
        try await run(GatedCall(.followedTags, "after: \(cursor?.rawValue ?? "nil")")) { [self] model in
            try page(model.tags.followed.map { name in
                var tag = model.withUses(model.tags.tag(named: name))
                if !model.tags.followedListSaysFollowing { tag.following = nil }
                return tag
            }, after: cursor)
        }
    }

    /// The trends: as the model's ``ServerTags/trending`` names them, or the hashtags its
    /// originals carry, most used first (then by name).
    package func trendingTags(after cursor: PageCursor?) async throws -> Page<Hashtag> {
        try await run(GatedCall(.trendingTags, "after: \(cursor?.rawValue ?? "nil")")) { [self] model in try page(model.trends(), after: cursor) }
    }

    /// The hashtags an account features: as the model's ``ServerRelationships/featuredTags`` has
    /// them (none for an account it does not name).
    package func featuredTags(of account: AccountID) async throws -> [Hashtag] {
        try await run(GatedCall(.featuredTags, key: account.rawValue)) { model in model.relationships.featuredTags[account] ?? [] }
    }

    // MARK: - Lists

    package func lists() async throws -> [UserList] {
        try await run(GatedCall(.lists)) { model in model.lists.lists }
    }

    package func createList(title: String) async throws -> UserList {
        try await run(GatedCall(.createList, key: title)) { model in try model.lists.create(title: title) }
    }

    package func renameList(_ id: String, to title: String) async throws -> UserList {
        try await run(GatedCall(.renameList, key: id, "\(id), to: \(title)")) { model in try model.lists.rename(id, to: title) }
    }

    package func deleteList(_ id: String) async throws {
        try await run(GatedCall(.deleteList, key: id)) { model in try model.lists.delete(id) }
    }

    package func setListMembership(list: String, account: AccountID, to value: Bool) async throws {
        try await run(GatedCall(.setListMembership, key: list, value: value, "\(list), \(account), \(value)")) { model in
            try model.lists.set(account, on: list, to: value, followed: model.relationships.relationship(of: account).following)
        }
    }

    // MARK: - Conversations

    package func conversations(after cursor: PageCursor?) async throws -> Page<Conversation> {
        try await run(GatedCall(.conversations, "after: \(cursor?.rawValue ?? "nil")")) { [self] model in
            try page(model.conversations.conversations.map(model.current), after: cursor)
        }
    }

    package func markConversationRead(_ id: String) async throws -> Conversation {
        try await run(GatedCall(.markConversationRead, key: id)) { model in model.current(try model.conversations.markRead(id)) }
    }

    package func removeConversation(_ id: String) async throws {
        try await run(GatedCall(.removeConversation, key: id)) { model in try model.conversations.remove(id) }
    }
}

extension ServerModel where Entry == Post {
    /// What a search for `query` finds, in Mastodon's sections: the profiles whose handle or name
    /// holds it (any case), by handle; the hashtag named as asked, when it is a hashtag name
    /// (Mastodon puts the exact match first, used or not); the originals whose text holds it,
    /// newest first. A blank query finds nothing.
    package func search(_ query: String) -> [SearchResult] {
        let needle = query.trimmingCharacters(in: .whitespaces).lowercased()
        guard !needle.isEmpty else { return [] }
        let accounts = relationships.profiles.values.filter { profile in
            profile.author.handle.lowercased().contains(needle) || profile.author.displayName.lowercased().contains(needle)
        }
        let hashtag = (try? ServerTags.valid(query)).map { withUses(tags.tag(named: $0)) }
        let posts = originals.values.filter { $0.text.lowercased().contains(needle) }.sorted { ($0.createdAt, $0.id.rawValue) > ($1.createdAt, $1.id.rawValue) }
        return accounts.sorted { $0.author.handle < $1.author.handle }.map(SearchResult.account) + (hashtag.map { [.hashtag($0)] } ?? [])
            + posts.map(SearchResult.post)
    }

    /// Who set `kind` (a favourite or a boost) on the original `id` names: the user first when
    /// they did, then the others the model keeps.
    private func reacted(to id: PostID, _ kind: InteractionKind) -> [AccountID] {
        guard let original = original(of: id) else { return [] }
        let own = original.interactions.isOn(kind) ? [relationships.me] : []
        return own + (relationships.reacted[original.id]?[kind] ?? [])
    }

    /// `group` with its post as the model has it now (a favourite since shows), as Mastodon
    /// renders a notification's status when asked.
    package func current(_ group: NotificationGroup) -> NotificationGroup {
        var group = group
        if let id = group.post?.id, let post = entry(id) { group.post = post }
        return group
    }

    /// `conversation` with its last post as the model has it now (a favourite since shows).
    package func current(_ conversation: Conversation) -> Conversation {
        var conversation = conversation
        if let id = conversation.lastPost?.id, let post = entry(id) { conversation.lastPost = post }
        return conversation
    }

    /// The hashtags the originals carry, most used first (then by name), each with its uses,
    /// its authors and whether the user follows it.
    package func trends() -> [Hashtag] {
        if let named = tags.trending {
            return named.map { trend in
                var trend = trend
                if trend.following != nil { trend.following = tags.isFollowed(trend.name) }
                return trend
            }
        }
        var uses: [String: (name: String, uses: Int, authors: Set<String>)] = [:]
        for post in originals.values.sorted(by: { $0.createdAt < $1.createdAt }) {
            for name in Set(post.tags.map { $0.lowercased() }) {
                let spelled = post.tags.first { $0.lowercased() == name } ?? name
                uses[name, default: (spelled, 0, [])].uses += 1
                uses[name]?.authors.insert(post.author.id)
            }
        }
        return uses.values.sorted { ($1.uses, $0.name) < ($0.uses, $1.name) }.map { use in
            Hashtag(name: use.name, weeklyUses: use.uses, weeklyAccounts: use.authors.count, following: tags.isFollowed(use.name))
        }
    }

    /// `tag` with the weekly uses and accounts of its trend, when it trends.
    package func withUses(_ tag: Hashtag) -> Hashtag {
        guard let trend = trends().first(where: { $0.key == tag.key }) else { return tag }
        var tag = tag
        tag.weeklyUses = trend.weeklyUses
        tag.weeklyAccounts = trend.weeklyAccounts
        return tag
    }

    /// The relationship with `account`, `domainBlocking` on when its handle's domain is blocked.
    package func relationship(of account: AccountID) -> Relationship {
        var relationship = relationships.relationship(of: account)
        let handle = account.handle ?? relationships.profiles[account]?.author.handle
        if let domain = handle?.split(separator: "@").last, handle?.contains("@") == true {
            relationship.domainBlocking = domainBlocks.isBlocked(String(domain))
        }
        return relationship
    }

    /// The profiles of an account list: your mutes, blocks and follow requests, a list's
    /// members, your followers and whom you follow, and those of others the model knows
    /// (``ServerRelationships/followers``), whom an account features
    /// (``ServerRelationships/endorsed``), who favourited or boosted a post (you first when you
    /// did, then ``ServerRelationships/reacted``); an account with no profile is left out.
    package func accounts(in list: AccountList) -> [Profile] {
        let ids: [AccountID]
        switch list {
        case .mutes: ids = relationships.accounts(with: .mute)
        case .blocks: ids = relationships.accounts(with: .block)
        case .requests: ids = relationships.byAccount.values.filter(\.requestedBy).map(\.accountID).sorted { $0.rawValue < $1.rawValue }
        case .members(let id): ids = lists.members[id] ?? []
        case .following(let id) where id == relationships.me: ids = relationships.accounts(with: .follow)
        case .followers(let id) where id == relationships.me:
            ids = relationships.byAccount.values.filter(\.followedBy).map(\.accountID).sorted { $0.rawValue < $1.rawValue }
        case .followers(let id): ids = relationships.followers[id] ?? []
        case .following(let id): ids = relationships.followers.filter { $0.value.contains(id) }.keys.sorted { $0.rawValue < $1.rawValue }
        case .endorsed(let id): ids = relationships.endorsed[id] ?? []
        case .favouritedBy(let id): ids = reacted(to: id, .favourite)
        case .boostedBy(let id): ids = reacted(to: id, .reblog)
        }
        return ids.compactMap { relationships.profiles[$0] }
    }
}
