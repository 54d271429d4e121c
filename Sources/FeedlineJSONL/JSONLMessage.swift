@_spi(FeedService) import Feedline
import Foundation

/// Builds the protocol's output messages, one JSON object per line, `type` first.
/// Every message a driver writes comes from here, so the protocol lives in one file.
public enum JSONLMessage {
    /// The protocol's version: 2 since routes of every screen, `screen` indices and bookmarks.
    public static let protocolVersion = 2

    /// `{"type":"hello","protocol":2,"commands":[…]}`: the first line of a session.
    public static func hello() -> JSONLValue {
        .object([("type", "hello"), ("protocol", .int(protocolVersion)), ("commands", .array(JSONLCommand.names.map(JSONLValue.string)))])
    }

    /// `{"type":"routes","routes":[{"route":"feed","feed":"home"},{"route":"post","post":"123"}]}`,
    /// bottom first.
    public static func routes(_ routes: [Route]) -> JSONLValue {
        .object([("type", "routes"), ("routes", .array(routes.map(route)))])
    }

    /// A full snapshot of the list on screen `screen` (its index on the stack): every row and
    /// the status.
    public static func timeline(_ snapshot: FeedListViewModel.Snapshot, clock: WallClock, screen: Int = 0, id: JSONLValue? = nil) -> JSONLValue {
        var fields: [(String, JSONLValue)] = [("type", "timeline")]
        if let id { fields.append(("id", id)) }
        fields.append(("screen", .int(screen)))
        fields.append(("count", .int(snapshot.rows.count)))
        let unconfirmed = snapshot.unconfirmed
        fields.append(("rows", .array(snapshot.rows.map { row($0, clock: clock, unconfirmed: unconfirmed.contains($0.id)) })))
        fields.append(("status", status(snapshot.status)))
        return .object(fields)
    }

    /// How the rows changed since the previous timeline or changes message. Applying `deleted`
    /// (old indices), `inserted` (new indices), `moved` and `updated` to the previous rows, UIKit
    /// batch-update style, yields the rows now; `count` is the new number of rows. `screen` is
    /// the list's index on the stack: each list screen has its own chain. `confirmed` names the
    /// rows restored from an earlier run that a server answer has now confirmed (the field is
    /// left out when there are none).
    public static func changes(
        _ snapshot: FeedListViewModel.Snapshot, clock: WallClock, screen: Int = 0, confirmed: [RowID] = []
    ) -> JSONLValue {
        let changes = snapshot.changes
        let unconfirmed = snapshot.unconfirmed
        func row(_ value: ListRow) -> JSONLValue { Self.row(value, clock: clock, unconfirmed: unconfirmed.contains(value.id)) }
        var fields: [(String, JSONLValue)] = [
            ("type", "changes"),
            ("screen", .int(screen)),
            ("count", .int(snapshot.rows.count)),
            ("deleted", .array(changes.deletions.map(JSONLValue.int))),
            ("inserted", .array(changes.insertions.map { .object([("index", .int($0.index)), ("row", row($0.element))]) })),
            ("moved", .array(changes.moves.map { .object([("from", .int($0.from)), ("to", .int($0.to))]) })),
            ("updated", .array(changes.updates.map {
                .object([("from", .int($0.oldIndex)), ("index", .int($0.newIndex)), ("row", row($0.element))])
            })),
        ]
        if !confirmed.isEmpty { fields.append(("confirmed", .array(confirmed.map { .string($0.description) }))) }
        fields.append(("status", status(snapshot.status)))
        return .object(fields)
    }

    /// A post's shared interaction state changed (from any screen).
    package static func post(_ change: PostChange) -> JSONLValue {
        .object([("type", "post"), ("post", .string(change.originalID.rawValue))] + interaction(change.interaction))
    }

    /// The detail screen on top changed.
    public static func detail(_ state: PostDetailState, clock: WallClock) -> JSONLValue {
        var fields: [(String, JSONLValue)] = [("type", "detail"), ("post", .string(state.id.rawValue))]
        fields.append(("loading", .bool(state.isLoading)))
        fields.append(("content", state.post.map { content($0, clock: clock) } ?? .null))
        fields.append(("interaction", state.interaction.map { .object(interaction($0)) } ?? .null))
        if let display = state.quote, let quote = state.post?.quote { fields.append(("quote", self.quote(display, of: quote, clock: clock))) }
        if let context = state.context {
            fields.append(("context", .object([
                ("ancestors", .array(context.ancestors.map { content($0, clock: clock) })),
                ("descendants", .array(context.descendants.map { content($0, clock: clock) })),
            ])))
        } else {
            fields.append(("context", .null))
        }
        fields.append(("error", .optional(state.failure?.message)))
        fields.append(("deleted", .bool(state.deleted)))
        if let warning = state.warning { fields.append(("filtered", filtered(warning))) }
        return .object(fields)
    }

    /// The command was handled; its replies (if any) came before this line.
    public static func ok(_ command: String, id: JSONLValue?) -> JSONLValue {
        .object([("type", "ok"), ("cmd", .string(command))] + (id.map { [("id", $0)] } ?? []))
    }

    /// Nothing is running any more (the reply to `wait`).
    public static func idle(id: JSONLValue?) -> JSONLValue {
        .object([("type", "idle")] + (id.map { [("id", $0)] } ?? []))
    }

    /// A line that could not be carried out; the session goes on.
    public static func error(_ message: String, id: JSONLValue?) -> JSONLValue {
        .object([("type", "error"), ("message", .string(message))] + (id.map { [("id", $0)] } ?? []))
    }

    /// How live updates arrive now: `{"type":"stream","state":"live"}`; `"reconnecting"` adds
    /// `"after"` (seconds) and `"attempt"`, `"polling"` adds `"every"` (seconds), `"refused"`
    /// (the server refused the token; nothing more is asked) adds `"message"`; also
    /// `"connecting"` and `"off"`.
    public static func stream(_ state: StreamState) -> JSONLValue {
        var fields: [(String, JSONLValue)] = [("type", "stream")]
        switch state {
        case .off: fields.append(("state", "off"))
        case .connecting: fields.append(("state", "connecting"))
        case .live: fields.append(("state", "live"))
        case .reconnecting(let after, let attempt):
            fields += [("state", "reconnecting"), ("after", .number(seconds(after))), ("attempt", .int(attempt))]
        case .polling(let every):
            fields += [("state", "polling"), ("every", .number(seconds(every)))]
        case .refused(let message):
            fields += [("state", "refused"), ("message", .string(message))]
        }
        return .object(fields)
    }

    static func seconds(_ duration: Duration) -> Double {
        let (whole, fraction) = duration.components
        return Double(whole) + Double(fraction) / 1e18
    }

    /// The last line of a session. `unsent` lists the favourites, boosts and bookmarks not sent
    /// yet (after waiting up to 2 s for those on their way), each `{"post","kind","value"}`;
    /// `submissions` (only when there are some) the posts still on their way — sending, queued
    /// or checking — as `drafts` lists them, checked under `limits`; `kept` says whether all of
    /// them are kept and sent at the next start (the session keeps state) or dropped.
    public static func bye(
        unsent: [OutboxEntry] = [], submissions: [Submission] = [], limits: ComposeLimits = .mastodonDefaults, kept: Bool = false
    ) -> JSONLValue {
        var fields: [(String, JSONLValue)] = [("type", "bye"), ("unsent", .array(unsent.map(outboxEntry)))]
        if !submissions.isEmpty { fields.append(("submissions", .array(submissions.map { .object(draftFields($0, limits: limits)) }))) }
        fields.append(("kept", .bool(kept)))
        return .object(fields)
    }

    /// What `retry` sent again of the favourites, boosts and bookmarks, and which queued posts
    /// it sent again (its other work shows in the screens' messages):
    /// `{"type":"retrying","interactions":[{"post","kind","value"}],"drafts":["1"]}`. How each
    /// went follows as `post` and `draft` messages.
    public static func retrying(_ sent: [OutboxEntry], drafts: [DraftID] = [], id: JSONLValue?) -> JSONLValue {
        .object(
            [("type", "retrying")] + (id.map { [("id", $0)] } ?? [])
                + [("interactions", .array(sent.map(outboxEntry))), ("drafts", .array(drafts.map { .string($0.rawValue) }))]
        )
    }

    static func outboxEntry(_ entry: OutboxEntry) -> JSONLValue {
        .object([("post", .string(entry.postID.rawValue)), ("kind", .string(entry.kind.rawValue)), ("value", .bool(entry.value))])
    }

    // MARK: - Payloads

    /// A route object, as `push` reads it back.
    static func route(_ route: Route) -> JSONLValue {
        switch route {
        case .post(let id): .object([("route", "post"), ("post", .string(id.rawValue))])
        case .list(let source):
            switch source {
            case .feed(let feed): .object([("route", "feed"), ("feed", .string(feed.description))])
            case .thread(let id): .object([("route", "thread"), ("post", .string(id.rawValue))])
            case .notifications: .object([("route", "notifications")])
            case .notificationsOf(let kinds): .object([("route", "notifications"), ("kinds", .string(NotificationGroup.Kind.filterNames(of: kinds)))])
            case .history(let id): .object([("route", "history"), ("post", .string(id.rawValue))])
            case .accounts(let list): .object([("route", "accounts"), ("list", .string(list.description))])
            case .search(let query): .object([("route", "search"), ("query", .string(query))])
            case .domainBlocks: .object([("route", "domainBlocks")])
            case .followedTags: .object([("route", "followedTags")])
            case .trendingTags: .object([("route", "trendingTags")])
            case .conversations: .object([("route", "conversations")])
            case .userLists: .object([("route", "lists")])
            case .filters: .object([("route", "filters")])
            case .announcements: .object([("route", "announcements")])
            case .scheduled: .object([("route", "scheduled")])
            case .notificationRequests: .object([("route", "notificationRequests")])
            }
        }
    }

    /// A row: `{"id":"post:1","kind":"post",…}` or `{"id":"gap:1","kind":"gap",…}`. A post row
    /// restored from an earlier run that no server answer has confirmed yet has
    /// `"unconfirmed":true` (the field is left out otherwise).
    public static func row(_ row: ListRow, clock: WallClock, unconfirmed: Bool = false) -> JSONLValue {
        switch row {
        case .post(let post):
            var fields: [(String, JSONLValue)] = [("id", .string(row.id.description)), ("kind", "post")]
            fields += postFields(post, clock: clock)
            if unconfirmed { fields.append(("unconfirmed", true)) }
            return .object(fields)
        case .notification(let notification):
            var fields: [(String, JSONLValue)] = [("id", .string(row.id.description)), ("kind", "notification")]
            let group = notification.group
            fields.append(("type", .string(group.kind.apiName)))
            fields.append(("summary", .string(group.summary)))
            fields.append(("count", .int(group.count)))
            fields.append(("accounts", .array(group.accounts.map(author))))
            fields.append(("latestAt", .string(ISO8601DateFormatter().string(from: group.latestAt))))
            fields.append(("relativeTime", .string(clock.relative(group.latestAt))))
            fields.append(("status", notification.post.map { .object(postFields($0, clock: clock)) } ?? .null))
            return .object(fields)
        case .gap(let gap):
            let status: (String, String?) = gap.isLoading ? ("loading", nil) : gap.failure.map { ("failed", $0.message) } ?? ("idle", nil)
            return .object([
                ("id", .string(row.id.description)), ("kind", "gap"), ("below", .string(gap.below.rawValue)),
                ("above", .string(gap.above.rawValue)), ("status", .string(status.0)), ("error", .optional(status.1)),
            ])
        case .account(let account):
            return .object([("id", .string(row.id.description)), ("kind", "account")] + accountFields(account))
        case .domain(let domain, let block):
            return .object([("id", .string(row.id.description)), ("kind", "domain")] + domainBlockFields(domain, block))
        case .tag(let tag):
            return .object([
                ("id", .string(row.id.description)), ("kind", "tag"), ("name", .string(tag.name)),
                ("weeklyUses", tag.weeklyUses.map(JSONLValue.int) ?? .null), ("weeklyAccounts", tag.weeklyAccounts.map(JSONLValue.int) ?? .null),
                ("following", tag.following.map(JSONLValue.bool) ?? .null),
            ])
        case .conversation(let conversation):
            return .object([("id", .string(row.id.description)), ("kind", "conversation")] + conversationFields(conversation, clock: clock))
        case .userList(let list):
            return .object([("id", .string(row.id.description)), ("kind", "list")] + userListFields(list))
        case .filter(let filter, let state):
            return .object([("id", .string(row.id.description)), ("kind", "filter")] + filterFields(filter, state))
        case .announcement(let announcement, let read):
            return .object([("id", .string(row.id.description)), ("kind", "announcement")] + announcementFields(announcement, read))
        case .scheduled(let post, let state):
            return .object([
                ("id", .string(row.id.description)), ("kind", "scheduled"), ("scheduled", .string(post.id)), ("at", .string(timestamp(post.scheduledAt))),
                ("text", .string(post.text)), ("cw", .optional(post.contentWarning)), ("visibility", .string(post.visibility.rawValue)),
                ("replyTo", .optional(post.inReplyTo?.rawValue)), ("media", .int(post.mediaCount)), ("poll", .array(post.pollOptions.map(JSONLValue.string))),
                ("pending", .bool(state.pending)), ("failure", .optional(state.failure)),
            ])
        case .notificationRequest(let request, let state):
            return .object([
                ("id", .string(row.id.description)), ("kind", "notificationRequest"), ("request", .string(request.id)), ("account", author(request.account)),
                ("notifications", .int(request.notificationsCount)), ("lastPost", request.lastPost.map { content($0, clock: clock) } ?? .null),
                ("updated", .string(timestamp(request.updatedAt))), ("pending", .bool(state.pending)), ("failure", .optional(state.failure)),
            ])
        }
    }

    /// A post row's fields: its entry and original ids, who boosted it, its content and its state.
    static func postFields(_ post: PostRow, clock: WallClock) -> [(String, JSONLValue)] {
        var fields: [(String, JSONLValue)] = []
        fields.append(("post", .string(post.post.id.rawValue)))
        fields.append(("original", .string(post.originalID.rawValue)))
        fields.append(("boostedBy", post.boostedBy.map(author) ?? .null))
        if case .object(let body) = content(post.content, clock: clock) {
            fields += body.filter { $0.0 != "id" }
        }
        fields += interaction(post.interaction)
        if let depth = post.threadDepth {
            fields.append(("thread", .object([("depth", .int(depth)), ("focus", .bool(post.isThreadFocus))])))
        }
        if let warning = post.warning { fields.append(("filtered", filtered(warning))) }
        if let display = post.quote, let quote = post.content.quote { fields.append(("quote", self.quote(display, of: quote, clock: clock))) }
        return fields
    }

    /// The post a post quotes, there only when it quotes one: `{"state":"accepted",
    /// "post":"ID","shown":"shown","reason":null,"content":{…},"favourited":…,"filtered":null}`.
    /// `shown` is `shown`, `warned` (a filter of the quoting post's context warns: `filtered`
    /// names it), `filtered` (a filter hides it there), `unavailable` (`reason` says why:
    /// pending, refused, withdrawn, deleted…) or `loading`; `content` and the interaction fields
    /// (the quoted post's own, shared with its rows) come with `shown` and `warned`.
    static func quote(_ display: QuoteDisplay, of quote: Quote, clock: WallClock) -> JSONLValue {
        var fields: [(String, JSONLValue)] = [("state", .string(quote.state.rawValue)), ("post", .optional(quote.postID?.rawValue))]
        let shown: String
        var filter: PostFilter?
        switch display {
        case .shown: shown = "shown"
        case .warned(_, _, let warning):
            shown = "warned"
            filter = warning
        case .filtered(let hiding):
            shown = "filtered"
            filter = hiding
        case .unavailable: shown = "unavailable"
        case .loading: shown = "loading"
        }
        fields.append(("shown", .string(shown)))
        let reason: String? = if case .unavailable(let state) = display { state.notShownReason } else { nil }
        fields.append(("reason", .optional(reason)))
        if let post = display.post, let shared = display.interaction {
            fields.append(("content", content(post, clock: clock)))
            fields += interaction(shared)
        } else {
            fields.append(("content", .null))
        }
        fields.append(("filtered", filter.map(filtered) ?? .null))
        return .object(fields)
    }

    /// `{"title":"Spoilers","action":"warn"}`: the filter whose warning stands in for a post's
    /// text (`warn`) or media (`blur`) until `show`.
    static func filtered(_ filter: PostFilter) -> JSONLValue {
        .object([("title", .string(filter.title)), ("action", .string(filter.action.rawValue))])
    }

    /// A post's content. `poll` is there only when the post has a poll, and `visibility` only
    /// when it is not `public` (so payloads of public posts without polls are as they were in
    /// earlier versions of protocol 2).
    static func content(_ post: Post, clock: WallClock) -> JSONLValue {
        var fields: [(String, JSONLValue)] = [
            ("id", .string(post.id.rawValue)),
            ("author", author(post.author)),
            ("text", .string(post.text)),
            ("contentWarning", .optional(post.contentWarning)),
            ("media", .array(post.media.map { .string($0.summary) })),
            ("createdAt", .string(ISO8601DateFormatter().string(from: post.createdAt))),
            ("relativeTime", .string(clock.relative(post.createdAt))),
            ("editedAt", .optional(post.editedAt.map { ISO8601DateFormatter().string(from: $0) })),
            ("replies", .int(post.repliesCount)),
            ("inReplyTo", .optional(post.inReplyToID?.rawValue)),
        ]
        if let poll = post.poll { fields.append(("poll", self.poll(poll, now: clock.now()))) }
        if post.visibility != .public { fields.append(("visibility", .string(post.visibility.rawValue))) }
        // Where a browser opens it, and what it links to (numbered from 1 as `link N` numbers them).
        if let url = post.webAddress { fields.append(("url", .string(url))) }
        let targets = post.linkTargets
        if !targets.isEmpty { fields.append(("links", .array(targets.map(link)))) }
        return .object(fields)
    }

    /// `{"url":"https://…","kind":"link"}` — `kind` is `link` (in the text), `card` (its link
    /// preview, with `title`) or `media` (an attachment, with `media`: its `[image: …]` summary).
    static func link(_ target: PostLink) -> JSONLValue {
        var fields: [(String, JSONLValue)] = [("url", .string(target.url))]
        switch target {
        case .link: fields.append(("kind", "link"))
        case .card(let card, _): fields += [("kind", "card"), ("title", .string(card.title))]
        case .media(let media, _): fields += [("kind", "media"), ("media", .string(media.summary))]
        }
        return .object(fields)
    }

    /// `{"options":[{"title":"Tea","votes":3,"chosen":false}],"votes":3,"multiple":false,
    /// "expiresAt":"…","ended":false,"voted":false}`: a post's poll as the user sees it now.
    /// Choices are numbered from 1 in the order of `options` (what `vote` takes); `votes` of an
    /// option is `null` while the server hides the results; `chosen` marks the user's own
    /// votes; `ended` says whether it can still take a vote (expired, or past `expiresAt` by `now`).
    static func poll(_ poll: Poll, now: Date) -> JSONLValue {
        let ended = poll.expired || (poll.expiresAt.map { $0 <= now } ?? false)
        return .object([
            ("options", .array(poll.options.enumerated().map { index, option in
                .object([
                    ("title", .string(option.title)), ("votes", option.votes.map(JSONLValue.int) ?? .null),
                    ("chosen", .bool(poll.ownVotes.contains(index))),
                ])
            })),
            ("votes", .int(poll.votesCount)),
            ("multiple", .bool(poll.multiple)),
            ("expiresAt", .optional(poll.expiresAt.map { ISO8601DateFormatter().string(from: $0) })),
            ("ended", .bool(ended)),
            ("voted", .bool(poll.voted)),
        ])
    }

    static func author(_ author: Author) -> JSONLValue {
        .object([("name", .string(author.name)), ("handle", .string("@" + author.handle))])
    }

    static func interaction(_ value: PostInteraction) -> [(String, JSONLValue)] {
        [
            ("favourited", .bool(value.favourited)), ("favourites", .int(value.favouritesCount)),
            ("reblogged", .bool(value.reblogged)), ("reblogs", .int(value.reblogsCount)), ("bookmarked", .bool(value.bookmarked)),
            ("pinned", .bool(value.pinned)), ("muted", .bool(value.muted)),
            ("pending", .array(InteractionKind.allCases.filter(value.pending.contains).map { .string($0.rawValue) })),
            ("queued", .array(InteractionKind.allCases.filter(value.queued.contains).map { .string($0.rawValue) })),
            // Why each queued kind waits and when it is sent again (null while it is being sent).
            ("queue", .array(value.queuedChanges.map { queued in
                .object([
                    ("kind", .string(queued.kind.rawValue)), ("value", .bool(queued.value)), ("reason", .string(queued.reason)),
                    ("failedAttempts", .int(queued.failedAttempts)),
                    ("retryInSeconds", queued.retryAfter.map { .int(Int($0.components.seconds)) } ?? .null),
                ])
            })),
            ("error", .optional(value.failure?.message)),
        ] + translation(value) + reported(value.reported)
    }

    /// `"reported"` on a post attached to a report you made this session (absent otherwise, so
    /// other posts read as before): `{"pending":true}` while it waits for the server,
    /// `{"pending":false}` once filed.
    static func reported(_ display: ToggleDisplay?) -> [(String, JSONLValue)] {
        guard let display, display.isOn else { return [] }
        return [("reported", .object([("pending", .bool(display.pending))]))]
    }

    /// `"translation"` while a translation is asked or shown (absent otherwise, so a post no one
    /// translated reads as before): `{"state":"translating"}`, or `{"state":"shown","text":…,
    /// "contentWarning":…,"from":"de","by":"DeepL.com"}` — the server's text, cleaned as every
    /// string of a line is.
    static func translation(_ value: PostInteraction) -> [(String, JSONLValue)] {
        if value.isTranslating { return [("translation", .object([("state", "translating")]))] }
        guard let text = value.translatedText else { return [] }
        return [
            (
                "translation",
                .object([
                    ("state", "shown"), ("text", .string(text)), ("contentWarning", .optional(value.translatedContentWarning)),
                    ("from", .optional(value.translatedFrom)), ("by", .optional(value.translatedBy)),
                ])
            )
        ]
    }

    static func status(_ status: ListStatus) -> JSONLValue {
        let loading: JSONLValue = switch status.loading {
        case .firstPage: "firstPage"
        case .olderPage: "olderPage"
        case .refresh: "refresh"
        case .reload: "reload"
        case .gap(let id): .string(id.description)
        case .catchUp: "catchUp"
        // Confirming saved rows is quiet (the status never shows it as loading).
        case .confirm, nil: .null
        }
        let failure: JSONLValue = status.failure.map { failure in
            let retry: String = switch failure.intent {
            case .firstPage, .olderPage: "loadMore"
            case .refresh: "refresh"
            case .reload: "reload"
            case .gap: "openGap"
            case .catchUp, .confirm: "retry"
            }
            return .object([("message", .string(failure.message)), ("fix", .string(retry))])
        } ?? .null
        var fields: [(String, JSONLValue)] = [
            ("loading", loading), ("failure", failure), ("olderFailure", .optional(status.olderFailure?.message)),
            ("end", .bool(status.reachedEnd)), ("waiting", .int(status.waiting)),
        ]
        // Only when a flood let rows go (a refresh loads them): the usual status stays as it was.
        if status.waitingBeyond > 0 { fields.append(("waitingBeyond", .int(status.waitingBeyond))) }
        // Only when the server sent entries that could not be read (left out of the rows).
        if status.skipped > 0 { fields.append(("skipped", .int(status.skipped))) }
        return .object(fields)
    }
}
