import Feedline

/// A test double that implements only the features its test exercises. The library's service
/// protocols have no defaults (a real service answers every feature in its own words); a double
/// that conforms to this refuses the rest: every write with ``WritingUnsupported``, every
/// account, domain, tag, list and conversation call with ``AccountsUnsupported``. What it
/// implements itself wins.
public protocol PartialService: FeedService {}

/// A double's answer to a write it does not offer: a refusal (repeating cannot help).
public struct WritingUnsupported: FeedServiceError, Hashable {
    public init() {}
    public var isTransient: Bool { false }
    public var errorDescription: String? { "This connection only reads: it cannot post, edit or delete." }
}

/// A double's answer to an account, domain, tag, list or conversation call it does not offer.
public struct AccountsUnsupported: FeedServiceError, Hashable {
    public init() {}
    public var isTransient: Bool { false }
    public var errorDescription: String? { "This connection has no profiles or relationships." }
}

extension PartialService {
    public func composeSettings() async throws -> ComposeSettings { throw WritingUnsupported() }
    public func publish(_ draft: Draft, idempotencyKey: String) async throws -> Post { throw WritingUnsupported() }
    public func delete(_ id: PostID) async throws -> Post { throw WritingUnsupported() }
    public func source(of id: PostID) async throws -> PostSource { throw WritingUnsupported() }
    public func history(of id: PostID) async throws -> [PostVersion] { throw WritingUnsupported() }
    public func vote(poll pollID: String, of postID: PostID, choices: [Int]) async throws -> Poll { throw WritingUnsupported() }

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
    public func tag(named name: String) async throws -> Hashtag { throw AccountsUnsupported() }
    public func followedTags(after cursor: PageCursor?) async throws -> Page<Hashtag> { throw AccountsUnsupported() }
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
