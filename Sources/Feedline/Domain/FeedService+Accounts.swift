import Foundation

/// What a service that keeps no accounts answers profile and relationship calls with: a
/// refusal (repeating cannot help).
public struct AccountsUnsupported: FeedServiceError, Hashable {
    public init() {}
    public var isTransient: Bool { false }
    public var errorDescription: String? { "This connection has no profiles or relationships." }
}

/// Defaults for a service without accounts (an archive, a test double): every call is refused
/// with ``AccountsUnsupported``.
extension FeedService {
    public func profile(of account: AccountID) async throws -> Profile { throw AccountsUnsupported() }
    public func relationships(of accounts: [AccountID]) async throws -> [Relationship] { throw AccountsUnsupported() }
    public func setRelationship(_ kind: RelationshipKind, to value: Bool, of account: AccountID, mute: MuteOptions) async throws -> Relationship {
        throw AccountsUnsupported()
    }
    public func accounts(in list: AccountList, after cursor: PageCursor?) async throws -> Page<Profile> { throw AccountsUnsupported() }
    public func search(_ query: String, after cursor: PageCursor?) async throws -> Page<SearchResult> { throw AccountsUnsupported() }
    public func answerFollowRequest(from account: AccountID, accept: Bool) async throws -> Relationship { throw AccountsUnsupported() }
    public func domainBlocks(after cursor: PageCursor?) async throws -> Page<String> { throw AccountsUnsupported() }
    public func setDomainBlock(_ domain: String, to value: Bool) async throws { throw AccountsUnsupported() }
    public func setTagFollow(_ name: String, to value: Bool) async throws -> Hashtag { throw AccountsUnsupported() }
    public func followedTags(after cursor: PageCursor?) async throws -> Page<Hashtag> { throw AccountsUnsupported() }
    public func tag(named name: String) async throws -> Hashtag { throw AccountsUnsupported() }
    public func trendingTags(after cursor: PageCursor?) async throws -> Page<Hashtag> { throw AccountsUnsupported() }
    public func conversations(after cursor: PageCursor?) async throws -> Page<Conversation> { throw AccountsUnsupported() }
    public func markConversationRead(_ id: String) async throws -> Conversation { throw AccountsUnsupported() }
    public func removeConversation(_ id: String) async throws { throw AccountsUnsupported() }
    public func lists() async throws -> [UserList] { throw AccountsUnsupported() }
    public func createList(title: String) async throws -> UserList { throw AccountsUnsupported() }
    public func renameList(_ id: String, to title: String) async throws -> UserList { throw AccountsUnsupported() }
    public func deleteList(_ id: String) async throws { throw AccountsUnsupported() }
    public func setListMembership(list: String, account: AccountID, to value: Bool) async throws { throw AccountsUnsupported() }
}
