/// Whose posts lists do not take in, as the post store was told: accounts muted, blocked or
/// unfollowed (and how, see ``AccountHiding``), accounts whose notifications are hidden, and
/// blocked domains (lower-cased). A value: the store changes it and asks it; every question is O(1).
struct PostHidings {
    private var accounts: [AccountID: AccountHiding] = [:]
    private var notificationsHidden: Set<AccountID> = []
    private var domains: Set<String> = []

    /// The account is hidden so (`notifications`: a mute that hides their notifications too; a
    /// block always does). An unfollow keeps nothing off later pages.
    mutating func hide(_ id: AccountID, _ hiding: AccountHiding, notifications: Bool) {
        if hiding != .unfollow { accounts[id] = hiding }
        if hiding == .block || (hiding == .mute && notifications) { notificationsHidden.insert(id) }
    }

    /// The account's posts and notifications may show again.
    mutating func show(_ id: AccountID) {
        accounts[id] = nil
        notificationsHidden.remove(id)
    }

    mutating func hide(domain: String) {
        domains.insert(domain)
    }

    mutating func show(domain: String) {
        domains.remove(domain)
    }

    /// Whether `post` must stay off a list of `source`: it is by, or a boost by, an account
    /// muted or blocked there (``AccountHiding/applies(to:account:handle:)``), or of a blocked domain.
    func isHidden(_ post: Post, in source: ListSource) -> Bool {
        if !domains.isEmpty, isFromHiddenDomain(post.author) || isFromHiddenDomain(post.content.author) { return true }
        guard !accounts.isEmpty else { return false }
        for author in [post.author, post.content.author] {
            let account = AccountID(author.id)
            guard let hiding = accounts[account], hiding.hides(post, of: account),
                hiding.applies(to: source, account: account, handle: author.handle)
            else { continue }
            // A mute that keeps their notifications keeps the notifications about their posts too.
            if source.notificationKinds != nil, hiding == .mute, !notificationsHidden.contains(account) { continue }
            return true
        }
        return false
    }

    /// Whether notifications from the account are kept off the notifications screen.
    func hidesNotifications(from id: AccountID) -> Bool {
        notificationsHidden.contains(id)
    }

    /// Whether every account a notification group is from has its notifications hidden (a
    /// group with others in it stays). O(accounts of the group).
    func isFromHiddenAccounts(_ group: NotificationGroup) -> Bool {
        guard !notificationsHidden.isEmpty || !domains.isEmpty, !group.accounts.isEmpty else { return false }
        return group.accounts.allSatisfy { notificationsHidden.contains(AccountID($0.id)) || isFromHiddenDomain($0) }
    }

    /// Whether the author's account is on a blocked domain.
    func isFromHiddenDomain(_ author: Author) -> Bool {
        guard !domains.isEmpty, let domain = DomainBlockStore.domain(ofHandle: author.handle) else { return false }
        return domains.contains(domain)
    }

    /// Why quotes of `post` are not shown, as its author is hidden now (muted, blocked, or of a
    /// blocked domain); `nil` when they are.
    func authorHiding(of post: Post) -> QuoteState? {
        switch accounts[AccountID(post.author.id)] {
        case .block?: return .blockedAccount
        case .mute?: return .mutedAccount
        case .unfollow?, .boosts?, nil: return isFromHiddenDomain(post.author) ? .blockedDomain : nil
        }
    }
}
