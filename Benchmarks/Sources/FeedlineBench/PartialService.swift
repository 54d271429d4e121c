@_spi(FeedService) import Feedline
import Foundation

/// A benchmark's service that serves only what its scenario measures: the library's service
/// protocols have no defaults, so every other call is refused here, once for all the doubles.
protocol PartialService: FeedService {}

/// What a benchmark's service answers a call its scenario never makes: a refusal, not a lost
/// connection, so a change the scenario asks and the service refuses (the block and mute
/// scenarios) is rolled back at once instead of waiting to be sent again.
struct NotMeasured: FeedServiceError {
    var isTransient: Bool { false }
    var errorDescription: String? { "Not served by this benchmark." }
}

extension PartialService {
    func composeSettings() async throws -> ComposeSettings { throw NotMeasured() }
    func publish(_ draft: Draft, idempotencyKey: String) async throws -> Post { throw NotMeasured() }
    func delete(_ id: PostID) async throws -> Post { throw NotMeasured() }
    func source(of id: PostID) async throws -> PostSource { throw NotMeasured() }
    func history(of id: PostID) async throws -> [PostVersion] { throw NotMeasured() }
    func vote(poll pollID: String, of postID: PostID, choices: [Int]) async throws -> Poll { throw NotMeasured() }
    func translate(_ id: PostID) async throws -> PostTranslation { throw NotMeasured() }
    func schedule(_ draft: Draft, idempotencyKey: String) async throws -> ScheduledPost { throw NotMeasured() }
    func scheduledPosts(after cursor: PageCursor?) async throws -> Page<ScheduledPost> { throw NotMeasured() }
    func reschedule(_ id: String, to date: Date) async throws -> ScheduledPost { throw NotMeasured() }
    func cancelScheduled(_ id: String) async throws { throw NotMeasured() }
    func notificationPolicy() async throws -> NotificationPolicy { throw NotMeasured() }
    func setNotificationPolicy(_ field: NotificationPolicy.Field, to handling: NotificationPolicy.Handling) async throws -> NotificationPolicy {
        throw NotMeasured()
    }
    func ownProfile() async throws -> OwnProfile { throw NotMeasured() }
    func updateProfile(_ edit: ProfileEdit) async throws -> OwnProfile { throw NotMeasured() }
    func notificationRequests(after cursor: PageCursor?) async throws -> Page<NotificationRequest> { throw NotMeasured() }
    func answerNotificationRequest(_ id: String, _ answer: NotificationRequest.Answer) async throws { throw NotMeasured() }
    func profile(of account: AccountID) async throws -> Profile { throw NotMeasured() }
    func relationships(of accounts: [AccountID]) async throws -> [Relationship] { throw NotMeasured() }
    func setRelationship(_ kind: RelationshipKind, to value: Bool, of account: AccountID, mute: MuteOptions) async throws -> Relationship {
        throw NotMeasured()
    }
    func accounts(in list: AccountList, after cursor: PageCursor?) async throws -> Page<Profile> { throw NotMeasured() }
    func search(_ query: String, after cursor: PageCursor?) async throws -> Page<SearchResult> { throw NotMeasured() }
    func answerFollowRequest(from account: AccountID, accept: Bool) async throws -> Relationship { throw NotMeasured() }
    func domainBlocks(after cursor: PageCursor?) async throws -> Page<String> { throw NotMeasured() }
    func setDomainBlock(_ domain: String, to value: Bool) async throws { throw NotMeasured() }
    func report(_ report: AccountReport) async throws { throw NotMeasured() }
    func instanceRules() async throws -> [InstanceRule] { throw NotMeasured() }
    func announcements() async throws -> [Announcement] { throw NotMeasured() }
    func dismissAnnouncement(_ id: String) async throws { throw NotMeasured() }
    func filters() async throws -> [PostFilter] { throw NotMeasured() }
    func createFilter(_ filter: PostFilter, expiresIn: Int?) async throws -> PostFilter { throw NotMeasured() }
    func updateFilter(_ filter: PostFilter, replacing old: PostFilter, expiresIn: Int?) async throws -> PostFilter { throw NotMeasured() }
    func deleteFilter(_ id: String) async throws { throw NotMeasured() }
    func setTagFollow(_ name: String, to value: Bool) async throws -> Hashtag { throw NotMeasured() }
    func tag(named name: String) async throws -> Hashtag { throw NotMeasured() }
    func followedTags(after cursor: PageCursor?) async throws -> Page<Hashtag> { throw NotMeasured() }
    func trendingTags(after cursor: PageCursor?) async throws -> Page<Hashtag> { throw NotMeasured() }
    func featuredTags(of account: AccountID) async throws -> [Hashtag] { throw NotMeasured() }
    func conversations(after cursor: PageCursor?) async throws -> Page<Conversation> { throw NotMeasured() }
    func markConversationRead(_ id: String) async throws -> Conversation { throw NotMeasured() }
    func removeConversation(_ id: String) async throws { throw NotMeasured() }
    func lists() async throws -> [UserList] { throw NotMeasured() }
    func createList(title: String) async throws -> UserList { throw NotMeasured() }
    func renameList(_ id: String, to title: String) async throws -> UserList { throw NotMeasured() }
    func deleteList(_ id: String) async throws { throw NotMeasured() }
    func setListMembership(list: String, account: AccountID, to value: Bool) async throws { throw NotMeasured() }
}
