@_spi(FeedService) import Feedline

/// One call a ``GatedServer`` received: its kind, what it is about (``key``) and how it was
/// asked, e.g. `setDomainBlock(promo.example, true)`.
package struct GatedCall: Hashable, Sendable, CustomStringConvertible {
    /// Every call of a `FeedService`, one case per requirement.
    package enum Kind: String, Hashable, Sendable, CaseIterable {
        // Timelines
        case page, newer, notifications, newerNotifications, post, context
        // Notifications you control
        case dismissNotification, clearNotifications, notificationPolicy, setNotificationPolicy, notificationRequests, answerNotificationRequest
        // Interactions
        case interaction
        // Writing
        case composeSettings, publish, delete, source, history, vote
        // Translations
        case translate
        // Scheduled posts
        case schedule, scheduledPosts, reschedule, cancelScheduled
        // Your profile
        case ownProfile, updateProfile
        // Relationships
        case profile, relationships, setRelationship, accounts, search, answerFollowRequest
        // Domain blocks
        case domainBlocks, setDomainBlock
        // Reports
        case report, instanceRules
        // Announcements
        case announcements, dismissAnnouncement
        // Filters
        case filters, createFilter, updateFilter, deleteFilter
        // Tags
        case tag, setTagFollow, followedTags, trendingTags, featuredTags
        // Lists
        case lists, createList, renameList, deleteList, setListMembership
        // Conversations
        case conversations, markConversationRead, removeConversation
        // Markers
        case markers, saveMarker

        /// The reads: calls that change nothing on the server.
        package static let reads: Set<Kind> = [
            .page, .newer, .notifications, .newerNotifications, .post, .context, .composeSettings, .source, .history, .translate, .profile, .relationships,
            .accounts, .search, .domainBlocks, .instanceRules, .announcements, .filters, .tag, .followedTags, .trendingTags, .featuredTags, .lists, .conversations, .markers,
            .scheduledPosts, .notificationPolicy, .notificationRequests, .ownProfile,
        ]
        /// The writes: calls that change the server.
        package static var writes: Set<Kind> { Set(allCases).subtracting(reads) }
    }

    package var kind: Kind
    /// What the call is about: the feed, post, account, domain, hashtag, list or conversation
    /// (as the call names it); empty for a call about none.
    package var key: String
    /// What a change asks for: on (`true`) or off, for an interaction, a relationship, a domain
    /// block, a hashtag follow or a list membership; `nil` for other calls.
    package var value: Bool?
    /// What a relationship change changes, and the mute's options it carries; `nil` for other
    /// calls.
    package var relationshipKind: RelationshipKind?
    package var mute: MuteOptions?
    /// The post a publish edits; `nil` for a new post and for other calls.
    package var editing: PostID?
    /// The call as asked, for messages.
    package var description: String

    package init(
        _ kind: Kind, key: String = "", value: Bool? = nil, _ arguments: String = "", relationshipKind: RelationshipKind? = nil, mute: MuteOptions? = nil,
        editing: PostID? = nil
    ) {
        self.kind = kind
        self.key = key
        self.value = value
        self.relationshipKind = relationshipKind
        self.mute = mute
        self.editing = editing
        description = "\(kind.rawValue)(\(arguments.isEmpty ? key : arguments))"
    }
}

/// What a ``GatedServer`` does with a call of a kind (and key): answer it from its model, fail
/// it with an error, or hold it until the test answers or fails it.
package enum Gate: Sendable {
    case answer
    case fail(any Error & Sendable)
    /// The server acts on the call (the model changes as if answered) but the answer is lost on
    /// the way back: the caller gets the error — a timeout after the server committed.
    case lose(any Error & Sendable)
    /// With `cancellable`, a caller that is cancelled stops waiting at once and the call leaves
    /// the held ones, as a request a client gave up on.
    case hold(cancellable: Bool)
    /// The gate `draw` picks for each call when it comes, from the call and the model then
    /// (never another `drawn`): a fate drawn per call, as a seeded model check draws it.
    case drawn(@Sendable (GatedCall, ServerModel<Post>) -> Gate)
}

/// How the test answers a held call: from the model as it is now, or (a read) as it was when
/// the call came.
package enum HeldAnswer: Sendable {
    case now
    case asAsked
}

/// A call a ``GatedServer`` was not told to expect: a refusal, so nothing tries it again.
package struct UnexpectedGatedCall: FeedServiceError, Hashable {
    package var call: GatedCall
    package var expected: [GatedCall.Kind]

    package var isTransient: Bool { false }
    package var errorDescription: String? { message }

    /// e.g. `GatedServer got post(p1), which the test did not expect (it expects page, interaction)`.
    package var message: String {
        "GatedServer got \(call), which the test did not expect (it expects \(expected.isEmpty ? "nothing" : expected.map(\.rawValue).joined(separator: ", ")))"
    }
}
