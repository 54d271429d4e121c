extension FeedSession {
    /// Your relationship with the account as every screen shows it now — the values you want,
    /// which kinds wait for the server, the last refusal, your answer to its follow request — or
    /// `nil` when no fetch or change has told the session about it yet. An account row
    /// (``AccountRow/relationship``) and a profile header show the same value.
    public func relationship(_ account: AccountID) -> RelationshipDisplay? {
        relationships.relationship(account)
    }

    /// Sets `kind` of your relationship with the account to `value` — optimistic, converging,
    /// and seen at once on every screen: a mute or block takes their posts off every list on the
    /// stack, an unfollow off home. Nothing happens when it already shows `value` (after the
    /// relationship was loaded; one never loaded is sent). A mute made here is Mastodon's
    /// default, without end and hiding their notifications too
    /// (``mute(account:for:notifications:)`` chooses). `account` is a looked-up id (a
    /// ``Profile/accountID``, an ``Author/id``), not a handle.
    ///
    /// Returns why nothing happened when the change is refused without asking the server
    /// (``relationshipRefusal(_:_:account:)``: following, muting or blocking yourself), else `nil`.
    @discardableResult
    public func set(_ kind: RelationshipKind, _ value: Bool, account: AccountID) -> FeedFailure? {
        if let refusal = relationshipRefusal(kind, value, account: account) { return refusal }
        relationships.set(kind, value, account)
        return nil
    }

    /// Mutes the account for `duration` (`nil`: until unmuted), hiding their notifications too
    /// unless `notifications` is `false` — as ``set(_:_:account:)`` sets any kind: optimistic,
    /// on every screen at once. A mute already shown is left as it is (unmute first to change
    /// its options). Returns why nothing happened when the account is you, else `nil`.
    @discardableResult
    public func mute(account: AccountID, for duration: Duration? = nil, notifications: Bool = true) -> FeedFailure? {
        if let refusal = relationshipRefusal(.mute, true, account: account) { return refusal }
        relationships.set(.mute, true, account, mute: MuteOptions(duration: duration, notifications: notifications))
        return nil
    }

    /// Toggles `kind` of your relationship with the account (see ``set(_:_:account:)``; a mute
    /// made here is without end and hides their notifications); returns why nothing happened
    /// when the toggle would follow, mute or block yourself.
    @discardableResult
    public func toggle(_ kind: RelationshipKind, account: AccountID) -> FeedFailure? {
        let turningOn = !(relationships.relationship(account)?.relationship.isOn(kind) ?? false)
        if let refusal = relationshipRefusal(kind, turningOn, account: account) { return refusal }
        relationships.toggle(kind, account)
        return nil
    }

    /// Why setting `kind` to `value` for `account` is refused without asking the server: you
    /// cannot follow, mute or block yourself (a block of yourself would take every post of yours
    /// off every screen). Known once the session knows who you are — ``Drafts/account``, which
    /// ``Drafts/load(then:)`` loads; `nil` before that (the server has the last word), for the
    /// other kinds, for undoing (`value` false), and for anyone else.
    public func relationshipRefusal(_ kind: RelationshipKind, _ value: Bool, account: AccountID) -> FeedFailure? {
        guard value, let me = drafts.account else { return nil }
        let isMe = account.rawValue == me.id || account.handle.map { $0.lowercased() == me.handle.lowercased() } == true
        guard isMe else { return nil }
        let verb: String
        switch kind {
        case .follow: verb = "follow"
        case .mute: verb = "mute"
        case .block: verb = "block"
        case .notify, .boosts: return nil
        }
        return FeedFailure(message: "You cannot \(verb) yourself.", isTransient: false)
    }

    /// Loads your relationships with `accounts` in one request (what a screen shows), so
    /// headers and rows can show them; counted in ``settle()``.
    public func loadRelationships(_ accounts: [AccountID]) {
        relationships.load(accounts)
    }

    /// Your block of `domain` (any case) as every screen shows it now — blocked or not as you
    /// want it, whether that waits for the server, the last refusal — or `nil` when nothing told
    /// the session about it yet.
    public func domainBlock(_ domain: String) -> ToggleDisplay? {
        domainBlocks.block(domain)
    }

    /// Whether you follow the hashtag `name` (`#` optional, any case) as every screen shows it
    /// now, whether that waits for the server, the last refusal — or `nil` when nothing told the
    /// session about it yet.
    public func tagFollow(_ name: String) -> ToggleDisplay? {
        tags.follow(name)
    }

    /// Blocks (`true`) or unblocks `domain` (`host`, as in `user@host`) — optimistic,
    /// converging, and seen at once on every screen: every post by an account of the domain,
    /// their boosts and notifications from them leave every list. Returns `false` (nothing
    /// happens) for something that is not a domain name.
    @discardableResult
    public func setDomainBlock(_ domain: String, _ value: Bool) -> Bool {
        domainBlocks.set(domain, value)
    }

    /// Follows (`true`) or unfollows the hashtag `name` (`#` optional) — optimistic, converging,
    /// and seen at once on every screen that shows it. Returns `false` (nothing happens) for
    /// something that cannot be a hashtag.
    @discardableResult
    public func setTagFollow(_ name: String, _ value: Bool) -> Bool {
        tags.set(name, value)
    }
}
