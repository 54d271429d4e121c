@_spi(FeedService) import Feedline
import Foundation

/// A test double that implements only the features its test exercises. The library's service
/// protocols have no defaults (a real service answers every feature in its own words); a double
/// that conforms to this refuses the rest: every write with ``WritingUnsupported``, every
/// account, domain, tag, list and conversation call with ``AccountsUnsupported``. What it
/// implements itself wins.
package protocol PartialService: FeedService {}

/// A double's answer to a write it does not offer: a refusal (repeating cannot help).
package struct WritingUnsupported: FeedServiceError, Hashable {
    package init() {}
    package var isTransient: Bool { false }
    package var errorDescription: String? { "This connection only reads: it cannot post, edit or delete." }
}

/// A double's answer to an account, domain, tag, list or conversation call it does not offer.
package struct AccountsUnsupported: FeedServiceError, Hashable {
    package init() {}
    package var isTransient: Bool { false }
    package var errorDescription: String? { "This connection has no profiles or relationships." }
}

extension PartialService {
    package func composeSettings() async throws -> ComposeSettings { throw WritingUnsupported() }
    package func publish(_ draft: Draft, idempotencyKey: String) async throws -> Post { throw WritingUnsupported() }
    package func delete(_ id: PostID) async throws -> Post { throw WritingUnsupported() }
    package func source(of id: PostID) async throws -> PostSource { throw WritingUnsupported() }
    package func history(of id: PostID) async throws -> [PostVersion] { throw WritingUnsupported() }
    package func vote(poll pollID: String, of postID: PostID, choices: [Int]) async throws -> Poll { throw WritingUnsupported() }
    package func translate(_ id: PostID) async throws -> PostTranslation { throw WritingUnsupported() }
    package func schedule(_ draft: Draft, idempotencyKey: String) async throws -> ScheduledPost { throw WritingUnsupported() }
    package func scheduledPosts(after cursor: PageCursor?) async throws -> Page<ScheduledPost> { throw WritingUnsupported() }
    package func reschedule(_ id: String, to date: Date) async throws -> ScheduledPost { throw WritingUnsupported() }
    package func cancelScheduled(_ id: String) async throws { throw WritingUnsupported() }
    package func notificationPolicy() async throws -> NotificationPolicy { throw WritingUnsupported() }
    package func setNotificationPolicy(_ field: NotificationPolicy.Field, to handling: NotificationPolicy.Handling) async throws -> NotificationPolicy {
        throw WritingUnsupported()
    }
    package func notificationRequests(after cursor: PageCursor?) async throws -> Page<NotificationRequest> { throw WritingUnsupported() }
    package func answerNotificationRequest(_ id: String, _ answer: NotificationRequest.Answer) async throws { throw WritingUnsupported() }
    package func ownProfile() async throws -> OwnProfile { throw AccountsUnsupported() }
    package func updateProfile(_ edit: ProfileEdit) async throws -> OwnProfile { throw WritingUnsupported() }

    package func profile(of account: AccountID) async throws -> Profile { throw AccountsUnsupported() }
    package func relationships(of accounts: [AccountID]) async throws -> [Relationship] { throw AccountsUnsupported() }
    package func setRelationship(_ kind: RelationshipKind, to value: Bool, of account: AccountID, mute: MuteOptions) async throws -> Relationship {
        throw AccountsUnsupported()
    }
    package func accounts(in list: AccountList, after cursor: PageCursor?) async throws -> Page<Profile> { throw AccountsUnsupported() }
    package func search(_ query: String, after cursor: PageCursor?) async throws -> Page<SearchResult> { throw AccountsUnsupported() }
    package func answerFollowRequest(from account: AccountID, accept: Bool) async throws -> Relationship { throw AccountsUnsupported() }
    package func domainBlocks(after cursor: PageCursor?) async throws -> Page<String> { throw AccountsUnsupported() }
    package func setDomainBlock(_ domain: String, to value: Bool) async throws { throw AccountsUnsupported() }
    package func report(_ report: AccountReport) async throws { throw AccountsUnsupported() }
    package func instanceRules() async throws -> [InstanceRule] { throw AccountsUnsupported() }
    package func announcements() async throws -> [Announcement] { throw AccountsUnsupported() }
    package func dismissAnnouncement(_ id: String) async throws { throw AccountsUnsupported() }
    package func filters() async throws -> [PostFilter] { throw AccountsUnsupported() }
    package func createFilter(_ filter: PostFilter, expiresIn: Int?) async throws -> PostFilter { throw AccountsUnsupported() }
    package func updateFilter(_ filter: PostFilter, replacing old: PostFilter, expiresIn: Int?) async throws -> PostFilter { throw AccountsUnsupported() }
    package func deleteFilter(_ id: String) async throws { throw AccountsUnsupported() }
    package func setTagFollow(_ name: String, to value: Bool) async throws -> Hashtag { throw AccountsUnsupported() }
    package func tag(named name: String) async throws -> Hashtag { throw AccountsUnsupported() }
    package func followedTags(after cursor: PageCursor?) async throws -> Page<Hashtag> { throw AccountsUnsupported() }
    package func trendingTags(after cursor: PageCursor?) async throws -> Page<Hashtag> { throw AccountsUnsupported() }
    package func featuredTags(of account: AccountID) async throws -> [Hashtag] { throw AccountsUnsupported() }
    package func conversations(after cursor: PageCursor?) async throws -> Page<Conversation> { throw AccountsUnsupported() }
    package func markConversationRead(_ id: String) async throws -> Conversation { throw AccountsUnsupported() }
    package func removeConversation(_ id: String) async throws { throw AccountsUnsupported() }
    package func lists() async throws -> [UserList] { throw AccountsUnsupported() }
    package func createList(title: String) async throws -> UserList { throw AccountsUnsupported() }
    package func renameList(_ id: String, to title: String) async throws -> UserList { throw AccountsUnsupported() }
    package func deleteList(_ id: String) async throws { throw AccountsUnsupported() }
    package func setListMembership(list: String, account: AccountID, to value: Bool) async throws { throw AccountsUnsupported() }
}
