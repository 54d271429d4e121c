/// The entries of each account the post store keeps — originals by their author, boosts by who
/// boosted — and each such account's handle: what a mute, block or unfollow takes off the
/// lists, found in O(posts of the account). An account with no entry left leaves the index
/// (and its handle with it).
struct AccountPostIndex {
    private var postsOfAccount: [AccountID: Set<PostID>] = [:]
    /// The handle of each account indexed (a profile opened by handle is told apart by it).
    private(set) var handles: [AccountID: String] = [:]

    /// The entries of `account`.
    subscript(account: AccountID) -> Set<PostID> { postsOfAccount[account] ?? [] }

    /// Counts `id` among the entries of `account`.
    mutating func insert(_ id: PostID, of account: AccountID, handle: String) {
        postsOfAccount[account, default: []].insert(id)
        handles[account] = handle
    }

    /// Takes `id` out of the entries of `account`.
    mutating func remove(_ id: PostID, of account: AccountID) {
        postsOfAccount[account]?.remove(id)
        if postsOfAccount[account]?.isEmpty == true {
            postsOfAccount[account] = nil
            handles[account] = nil
        }
    }

    /// Every entry of the accounts of `domain` (lower-cased).
    func posts(ofDomain domain: String) -> [PostID] {
        handles.filter { DomainBlockStore.domain(ofHandle: $0.value) == domain }.flatMap { self[$0.key] }
    }
}
