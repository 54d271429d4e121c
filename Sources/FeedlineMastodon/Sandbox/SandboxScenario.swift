@_spi(FeedService) import Feedline
import Foundation

/// How the sandbox behaves besides answering: latency, scheduled faults and delays, seeded
/// random faults, posts that arrive later, and Mastodon's lagging counts.
///
/// A value: build one in code, or load it from a fixture directory's `scenario.json` with
/// ``FixtureLoader`` (the file format is described in `Fixtures/README.md`). Everything random
/// is drawn from generators seeded here, one draw per request in the order the sandbox receives
/// them, so a run is reproducible given the seeds and the order of requests.
public struct SandboxScenario: Hashable, Sendable {
    /// The kinds of request the sandbox answers, named as in scenario files.
    public enum Request: String, CaseIterable, Hashable, Sendable {
        /// ``SandboxService/page(of:after:)`` of any feed.
        case page
        /// ``SandboxService/newer(in:than:olderThan:)`` of any feed.
        case newer
        /// ``SandboxService/post(_:)``.
        case post
        /// ``SandboxService/context(of:)``.
        case context
        /// ``SandboxService/set(_:to:postID:)`` of a favourite to `true`.
        case favourite
        /// … of a favourite to `false`.
        case unfavourite
        /// … of a boost to `true`.
        case reblog
        /// … of a boost to `false`.
        case unreblog
        /// … of a bookmark to `true`.
        case bookmark
        /// … of a bookmark to `false`.
        case unbookmark
        /// … of a pin to `true`.
        case pin
        /// … of a pin to `false`.
        case unpin
        /// … of a muted conversation to `true`.
        case muteThread = "mute_thread"
        /// … of a muted conversation to `false`.
        case unmuteThread = "unmute_thread"
        /// ``SandboxService/notifications(of:after:)`` and ``SandboxService/newerNotifications(of:than:olderThan:)``.
        case notifications
        /// ``SandboxService/dismissNotificationGroup(_:)`` and ``SandboxService/clearNotifications()``.
        case notificationDismiss = "notification_dismiss"
        /// ``SandboxService/account(named:)``.
        case account
        /// ``SandboxService/publish(_:idempotencyKey:)``: a new post or an edit.
        case publish
        /// ``SandboxService/delete(_:)``.
        case delete
        /// ``SandboxService/vote(poll:of:choices:)``.
        case vote
        /// ``SandboxService/profile(of:)``.
        case profile
        /// ``SandboxService/translate(_:)``.
        case translate
        /// ``SandboxService/relationships(of:)``.
        case relationships
        /// ``SandboxService/setRelationship(_:to:of:mute:)`` of a follow to `true`, and of
        /// notify or boosts (which Mastodon sends as a follow with `notify` / `reblogs`).
        case follow
        /// … of a follow to `false`.
        case unfollow
        /// … of a mute to `true`.
        case mute
        /// … of a mute to `false`.
        case unmute
        /// … of a block to `true`.
        case block
        /// … of a block to `false`.
        case unblock
        /// ``SandboxService/accounts(in:after:)``: followers, following, mutes, blocks, requests.
        case accounts
        /// ``SandboxService/search(_:after:)``.
        case search
        /// ``SandboxService/answerFollowRequest(from:accept:)`` accepting.
        case authorize
        /// … rejecting.
        case reject
        /// ``SandboxService/domainBlocks(after:)``: a page of the blocked domains.
        case domainBlocks = "domain_blocks"
        /// ``SandboxService/setDomainBlock(_:to:)``, blocking or unblocking.
        case domainBlock = "domain_block"
        /// ``SandboxService/followedTags(after:)``: a page of the hashtags the user follows.
        case followedTags = "followed_tags"
        /// ``SandboxService/trendingTags(after:)``: a page of the trending hashtags. (The
        /// trending posts are a feed: their pages are `page` requests.)
        case trendingTags = "trending_tags"
        /// ``SandboxService/setTagFollow(_:to:)``, following or unfollowing a hashtag.
        case tagFollow = "tag_follow"
        /// ``SandboxService/tag(named:)``: one hashtag, for a hashtag screen's header.
        case tag
        /// ``SandboxService/featuredTags(of:)``.
        case featuredTags = "featured_tags"
        /// ``SandboxService/conversations(after:)``: a page of the user's conversations.
        case conversations = "conversations"
        /// ``SandboxService/markConversationRead(_:)``.
        case conversationRead = "conversation_read"
        /// ``SandboxService/removeConversation(_:)``.
        case conversationRemove = "conversation_remove"
        /// ``SandboxService/lists()``, and pages of a list's accounts.
        case lists
        /// ``SandboxService/createList(title:)``, ``SandboxService/renameList(_:to:)`` and
        /// ``SandboxService/deleteList(_:)``.
        case listChange = "list_change"
        /// ``SandboxService/setListMembership(list:account:to:)``, adding or removing.
        case listMembership = "list_membership"
        /// ``SandboxService/report(_:)``.
        case report
        /// ``SandboxService/instanceRules()``.
        case rules
        /// ``SandboxService/announcements()``.
        case announcements
        /// ``SandboxService/dismissAnnouncement(_:)``.
        case announcementDismiss = "announcement_dismiss"
        /// ``SandboxService/filters()``: the user's server filters.
        case filters
        /// ``SandboxService/createFilter(_:expiresIn:)``, ``SandboxService/updateFilter(_:replacing:expiresIn:)``
        /// and ``SandboxService/deleteFilter(_:)``.
        case filterChange = "filter_change"
        /// ``SandboxService/customEmoji()``: the server's custom emoji.
        case customEmojis = "custom_emojis"
        /// ``SandboxService/scheduledPosts(after:)``: a page of the scheduled posts.
        case scheduled
        /// ``SandboxService/reschedule(_:to:)`` and ``SandboxService/cancelScheduled(_:)``.
        case scheduledChange = "scheduled_change"
        /// ``SandboxService/notificationPolicy()``: the notification policy.
        case notificationPolicy = "notification_policy"
        /// ``SandboxService/setNotificationPolicy(_:to:)``.
        case notificationPolicyChange = "notification_policy_change"
        /// ``SandboxService/notificationRequests(after:)``: a page of the requests of filtered notifications.
        case notificationRequests = "notification_requests"
        /// ``SandboxService/answerNotificationRequest(_:_:)``: accepting or dismissing one.
        case notificationRequestAnswer = "notification_request_answer"
        /// ``SandboxService/ownProfile()``: your profile as you wrote it.
        case ownProfile = "own_profile"
        /// ``SandboxService/updateProfile(_:)``: a change of your profile.
        case profileChange = "profile_change"
    }

    /// How a failing request fails; each has the one sentence the error shows.
    public enum Failure: String, CaseIterable, Hashable, Sendable {
        /// The server is down or overloaded (HTTP 503).
        case unavailable
        /// No answer in time.
        case timeout
        /// Too many requests (HTTP 429).
        case rateLimited = "rate_limited"
        /// The server failed (HTTP 500).
        case serverError = "server_error"
        /// Mastodon's 404, "Record not found".
        case notFound = "not_found"
        /// The action is refused (HTTP 403 or 422).
        case forbidden
        /// The server did what was asked, but the answer never came back (the connection broke
        /// after the commit): the request fails as a timeout does.
        case lostAnswer = "lost_answer"
        /// The server refused what it was sent as invalid (HTTP 422, Mastodon's sentence).
        case validationFailed = "validation_failed"

        /// When a scheduled rate limit resets: five minutes, as Mastodon's windows.
        public static let rateLimitReset: Duration = .seconds(300)

        /// The sentence a user sees.
        public var message: String {
            switch self {
            case .unavailable: "The server is unavailable right now; try again in a moment."
            case .timeout: "The request timed out; try again."
            case .rateLimited: "Too many requests; the server allows more in 5 minutes."
            case .serverError: "The server hit an internal error; try again later."
            case .notFound: "Record not found"
            case .forbidden: "This action is not allowed."
            case .lostAnswer: "The request timed out; try again."
            case .validationFailed: "Validation failed: Text can't be blank"
            }
        }
    }

    /// A response time: fixed, or drawn uniformly (whole milliseconds) from a range.
    public struct Latency: Hashable, Sendable {
        /// The range of milliseconds; a single value for a fixed latency.
        public var milliseconds: ClosedRange<Int>

        /// A latency drawn from `milliseconds` (a one-value range is fixed).
        public init(milliseconds: ClosedRange<Int>) { self.milliseconds = milliseconds }

        /// Always `milliseconds`.
        public static func fixed(_ milliseconds: Int) -> Latency { Latency(milliseconds: milliseconds...milliseconds) }

        /// No waiting at all: the request does not touch the clock.
        public static let none = Latency.fixed(0)
    }

    /// Which requests a fault or delay applies to. Every field that is set must match; a request
    /// that matches is counted, and the rule applies to matching requests number `occurrence`
    /// through `occurrence + times - 1` (every one from `occurrence` on when `times` is `nil`).
    public struct Match: Hashable, Sendable {
        /// The kind of request.
        public var request: Request
        /// For `page` requests: only the page that starts after this cursor (Mastodon's `max_id`:
        /// the id of the entry above the page).
        public var cursor: String?
        /// For requests about a post (`post`, `context`, the four interactions; `newer` by its
        /// lower bound): only this id, as the caller passed it.
        public var postID: PostID?
        /// The first matching request the rule applies to, counting from 1.
        public var occurrence: Int
        /// How many matching requests it applies to; `nil` for all of them from `occurrence` on.
        public var times: Int?

        /// A match of `request` kind, narrowed by `cursor` and `postID` when given.
        public init(_ request: Request, cursor: String? = nil, postID: PostID? = nil, occurrence: Int = 1, times: Int? = nil) {
            self.request = request
            self.cursor = cursor
            self.postID = postID
            self.occurrence = occurrence
            self.times = times
        }

        func matches(_ request: Request, cursor: PageCursor?, postID: PostID?) -> Bool {
            request == self.request
                && (self.cursor == nil || self.cursor == cursor?.rawValue)
                && (self.postID == nil || self.postID == postID)
        }

        /// Whether the `count`-th matching request is one the rule applies to.
        func covers(_ count: Int) -> Bool {
            count >= occurrence && (times.map { count < occurrence + $0 } ?? true)
        }
    }

    /// Matching requests fail with `failure` after their latency.
    public struct Fault: Hashable, Sendable {
        /// Which requests it applies to.
        public var match: Match
        /// How they fail.
        public var failure: Failure

        /// Matching requests fail with `failure`.
        public init(_ match: Match, failure: Failure = .unavailable) {
            self.match = match
            self.failure = failure
        }
    }

    /// Matching requests take `extra` longer than their latency (a page that arrives late).
    public struct Delay: Hashable, Sendable {
        /// Which requests it applies to.
        public var match: Match
        /// How much longer they take.
        public var extra: Duration

        /// Matching requests take `extra` longer.
        public init(_ match: Match, extra: Duration) {
            self.match = match
            self.extra = extra
        }
    }

    /// Each request of the listed kinds fails with `probability`, drawn from a generator seeded
    /// with `seed` (one draw per such request, whether or not another rule already fails it).
    public struct RandomFaults: Hashable, Sendable {
        /// The chance, 0…1, that a listed request fails.
        public var probability: Double
        /// Seeds the draws.
        public var seed: UInt64
        /// The kinds of request that may fail.
        public var requests: Set<Request>
        /// How they fail.
        public var failure: Failure

        /// Random faults with these values; all kinds of request by default.
        public init(probability: Double, seed: UInt64, requests: Set<Request> = Set(Request.allCases), failure: Failure = .unavailable) {
            self.probability = probability
            self.seed = seed
            self.requests = requests
            self.failure = failure
        }
    }

    /// Statuses held back and added to the timeline once `afterPages` page requests have been
    /// answered (so they appear at the top for a refresh to find, when they are newer).
    public struct Arrival: Hashable, Sendable {
        /// How many answered page requests release them (at least 1).
        public var afterPages: Int
        /// The statuses to add, in any order.
        public var statuses: [Mastodon.Status]

        /// Statuses released after `afterPages` answered page requests.
        public init(afterPages: Int = 1, statuses: [Mastodon.Status]) {
            self.afterPages = afterPages
            self.statuses = statuses
        }
    }

    /// Another account reacting to one of the user's posts (or following the user), released
    /// like an ``Arrival``: the post's count goes up and a notification arrives.
    public struct Reaction: Hashable, Sendable {
        /// What the account does.
        public enum Kind: String, Hashable, Sendable, CaseIterable {
            case favourite, reblog, follow
        }

        /// How many answered page requests release it (at least 1).
        public var afterPages: Int
        public var kind: Kind
        /// The acting account's handle (`user` or `user@host`), one of the fixtures' authors.
        public var account: String
        /// The user's post it is about (required for favourite and reblog, absent for follow).
        public var postID: String?
        /// When it happens (the notification's date).
        public var date: Date

        public init(afterPages: Int = 1, kind: Kind, account: String, postID: String?, date: Date) {
            self.afterPages = afterPages
            self.kind = kind
            self.account = account
            self.postID = postID
            self.date = date
        }
    }

    /// Something the sandbox's stream delivers once the front has handled `afterCommands`
    /// commands (see ``SandboxService/streamMessages(afterCommands:)``): scripted sessions with
    /// live events stay byte-identical.
    public struct StreamItem: Hashable, Sendable {
        public enum Kind: Hashable, Sendable {
            /// New statuses in the home timeline (held back until then), delivered oldest first.
            case update([Mastodon.Status])
            /// The status `postID` edited: `text` is its new content, edited at `date` (`nil`:
            /// the sandbox's wall clock when it is delivered).
            case edit(postID: String, text: String, date: Date?)
            /// The status `postID` deleted.
            case delete(postID: String)
            /// Another account acts on the user (see ``Reaction``), which sends a notification.
            case notification(Reaction)
            /// The stream drops: what happens until `reconnect` is not delivered (it is missed,
            /// and found again by the front's catch-up).
            case disconnect
            /// The stream is back.
            case reconnect
        }

        /// How many handled commands release it (at least 1).
        public var afterCommands: Int
        public var kind: Kind

        public init(afterCommands: Int = 1, _ kind: Kind) {
            self.afterCommands = afterCommands
            self.kind = kind
        }
    }

    /// The page size when the service is not given one; `nil` for the default (20).
    public var pageSize: Int?
    /// Latency per kind of request; kinds not listed use ``defaultLatency``.
    public var latency: [Request: Latency]
    /// The latency of kinds not listed in ``latency``.
    public var defaultLatency: Latency
    /// Seeds the generator that draws latencies from ranges.
    public var latencySeed: UInt64
    /// Checked in order; the first that applies decides the failure (every matching one counts).
    public var faults: [Fault]
    /// Every delay that applies adds its extra time.
    public var delays: [Delay]
    /// Seeded random faults, if any.
    public var randomFaults: RandomFaults?
    /// Statuses held back until pages have been answered.
    public var arrivals: [Arrival]
    /// Reactions to the user's posts, held back until pages have been answered.
    public var reactions: [Reaction]
    /// What the sandbox's stream delivers, by commands handled.
    public var stream: [StreamItem]
    /// Replies to `unfavourite` / `unreblog` carry the count from before the change (the flag
    /// is already off), as Mastodon's real replies can; the stored count is right.
    public var laggingCounts: Bool
    /// The signed-in account: the author of the boosts the sandbox creates.
    public var account: Mastodon.Account
    /// The domains the user blocks at the start, newest block first (Mastodon's order): any
    /// case, a leading `@` dropped; never the sandbox's own (the host of ``account``'s `url`).
    public var domainBlocks: [String]
    /// The hashtags the user follows at the start, newest follow first (Mastodon's order):
    /// names without `#` (a leading one is dropped), any case; each must be a hashtag name
    /// (letters, digits, underscores).
    public var followedTags: [String]
    /// The user's direct conversations at the start (see ``ConversationSeed``).
    public var conversations: [ConversationSeed] = []
    /// The user's lists at the start, in order (ids `1`, `2` … in that order).
    public var lists: [ListFixture]
    /// The server's custom emoji (`GET /api/v1/custom_emojis`), in the order given.
    public var customEmojis: [Mastodon.CustomEmoji] = []
    /// The user's server filters at the start, as Mastodon's `/api/v2/filters` sends them (ids
    /// `1`, `2` … where one is empty).
    public var filters: [Mastodon.Filter] = []
    /// The translations the sandbox serves (`POST /api/v1/statuses/:id/translate`), by the
    /// original's status id, shaped as Mastodon's `Translation`. A post without one is refused
    /// with a sentence saying so.
    public var translations: [String: Mastodon.Translation] = [:]
    /// The instance's rules (`GET /api/v1/instance/rules`), in order, shaped as Mastodon's `Rule`.
    public var rules: [Mastodon.Rule] = []
    /// The instance's announcements (`GET /api/v1/announcements`), in order, shaped as Mastodon's
    /// `Announcement` (`read` as the user starts with it).
    public var announcements: [Mastodon.Announcement] = []
    /// The user's scheduled posts at the start, shaped as Mastodon's `ScheduledStatus`.
    public var scheduled: [Mastodon.ScheduledStatus] = []
    /// The user's notification policy at the start, shaped as Mastodon's v2
    /// `NotificationPolicy`; `nil`: Mastodon's defaults (``defaultNotificationPolicy``).
    public var notificationPolicy: Mastodon.NotificationPolicy?
    /// The user's requests of filtered notifications at the start, shaped as Mastodon's
    /// `NotificationRequest`.
    public var notificationRequests: [Mastodon.NotificationRequest] = []
    /// The sandbox's other identities (`account NAME` switches to one), each a fixture
    /// directory of its own, read only when switched to (see ``Identity``).
    public var identities: [Identity] = []

    /// Mastodon 4.3's default policy: private mentions and moderated accounts filtered, the rest
    /// accepted, nothing waiting.
    @_spi(FeedService) public static let defaultNotificationPolicy = NotificationPolicy([.privateMentions: .filter, .limitedAccounts: .filter])

    /// One of the user's lists at the start: its title and its accounts by handle (each one the
    /// user follows, as Mastodon requires).
    public struct ListFixture: Hashable, Sendable {
        public var title: String
        public var accounts: [String]

        public init(title: String, accounts: [String] = []) {
            self.title = title
            self.accounts = accounts
        }
    }

    /// A scenario with no latency, no faults and no arrivals: the sandbox answers at once.
    public init(
        pageSize: Int? = nil,
        latency: [Request: Latency] = [:],
        defaultLatency: Latency = .none,
        latencySeed: UInt64 = 0,
        faults: [Fault] = [],
        delays: [Delay] = [],
        randomFaults: RandomFaults? = nil,
        arrivals: [Arrival] = [],
        reactions: [Reaction] = [],
        stream: [StreamItem] = [],
        laggingCounts: Bool = false,
        account: Mastodon.Account = SandboxScenario.defaultAccount,
        domainBlocks: [String] = [],
        followedTags: [String] = [],
        lists: [ListFixture] = []
    ) {
        self.pageSize = pageSize
        self.latency = latency
        self.defaultLatency = defaultLatency
        self.latencySeed = latencySeed
        self.faults = faults
        self.delays = delays
        self.randomFaults = randomFaults
        self.arrivals = arrivals
        self.reactions = reactions
        self.stream = stream
        self.laggingCounts = laggingCounts
        self.account = account
        self.domainBlocks = domainBlocks
        self.followedTags = followedTags
        self.lists = lists
    }

    /// `@you` on `sandbox.example`, the signed-in account unless a scenario names another.
    public static let defaultAccount = Mastodon.Account(
        id: "1", username: "you", acct: "you", displayName: "You", url: "https://sandbox.example/@you"
    )

    /// The latency for a kind of request.
    public func latency(for request: Request) -> Latency {
        latency[request] ?? defaultLatency
    }

    /// The first thing wrong with the scenario, as a phrase naming the field, or `nil` when it
    /// is usable.
    public var problem: String? {
        if let pageSize, !(1...SandboxService.maximumPageSize).contains(pageSize) {
            return "page_size must be between 1 and \(SandboxService.maximumPageSize), not \(pageSize)"
        }
        for (name, latency) in [("default", defaultLatency)] + latency.map({ ($0.key.rawValue, $0.value) })
        where latency.milliseconds.lowerBound < 0 {
            return "latency.\(name) must not be negative"
        }
        for (index, fault) in faults.enumerated() {
            if let problem = fault.match.problem { return "faults[\(index)].\(problem)" }
        }
        for (index, delay) in delays.enumerated() {
            if let problem = delay.match.problem { return "delays[\(index)].\(problem)" }
            if delay.extra < .zero { return "delays[\(index)].ms must not be negative" }
        }
        if let randomFaults, !(0...1).contains(randomFaults.probability) {
            return "random_faults.probability must be between 0 and 1, not \(randomFaults.probability)"
        }
        for (index, arrival) in arrivals.enumerated() where arrival.afterPages < 1 {
            return "arrivals[\(index)].after_pages must be at least 1, not \(arrival.afterPages)"
        }
        for (index, reaction) in reactions.enumerated() {
            if reaction.afterPages < 1 { return "reactions[\(index)].after_pages must be at least 1, not \(reaction.afterPages)" }
            if let problem = reaction.problem { return "reactions[\(index)].\(problem)" }
        }
        for (index, item) in stream.enumerated() {
            if item.afterCommands < 1 { return "stream[\(index)].after_commands must be at least 1, not \(item.afterCommands)" }
            if case .notification(let reaction) = item.kind, let problem = reaction.problem { return "stream[\(index)].\(problem)" }
            if case .update(let statuses) = item.kind, statuses.isEmpty { return "stream[\(index)]: an update needs at least one status" }
        }
        let own = account.url.flatMap { URL(string: $0)?.host }.map { SandboxAccounts.domainKey($0) }
        for (index, domain) in domainBlocks.enumerated() {
            let key = SandboxAccounts.domainKey(domain)
            if !SandboxAccounts.isDomainName(key) { return "domain_blocks[\(index)]: \"\(domain)\" is not a domain name" }
            if key == own { return "domain_blocks[\(index)]: \(key) is the sandbox's own domain" }
        }
        for (index, name) in followedTags.enumerated() where !SandboxTags.isName(SandboxTags.name(name)) {
            return "followed_tags[\(index)]: \"\(name)\" is not a hashtag name (letters, digits and underscores)"
        }
        if let problem = Self.problem(of: conversations) { return problem }
        if let problem = problem(of: identities) { return problem }
        for (index, list) in lists.enumerated() where list.title.trimmingBlanks(newlines: false).isEmpty {
            return "lists[\(index)]: a list needs a title"
        }
        return nil
    }
}

extension SandboxScenario.Match {
    fileprivate var problem: String? {
        if occurrence < 1 { return "occurrence must be at least 1, not \(occurrence)" }
        if let times, times < 1 { return "times must be at least 1, not \(times)" }
        if cursor != nil, request != .page { return "max_id only applies to page requests" }
        if postID != nil, request == .page { return "post does not apply to page requests" }
        return nil
    }
}

extension SandboxScenario.Reaction {
    /// What is wrong with the reaction's fields, as a phrase naming the field.
    var problem: String? {
        switch (kind, postID) {
        case (.follow, _?): "post does not apply to a follow"
        case (.favourite, nil), (.reblog, nil): "post is required for a \(kind.rawValue)"
        default: nil
        }
    }
}
