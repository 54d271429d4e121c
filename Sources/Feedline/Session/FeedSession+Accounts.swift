extension FeedSession {
    /// Sets `kind` of your relationship with the account to `value` (a mute with `mute`'s
    /// options) — optimistic, converging, and seen at once on every screen: a mute or block
    /// takes their posts off every list on the stack, an unfollow off home. Nothing happens when
    /// it already shows `value` (after the relationship was loaded; one never loaded is sent).
    /// `account` is a looked-up id (a ``Profile/accountID``, an ``Author/id``), not a handle.
    public func set(_ kind: RelationshipKind, _ value: Bool, account: AccountID, mute: MuteOptions? = nil) {
        relationships.set(kind, value, account, mute: mute)
    }

    /// Toggles `kind` of your relationship with the account (see ``set(_:_:account:mute:)``).
    public func toggle(_ kind: RelationshipKind, account: AccountID, mute: MuteOptions? = nil) {
        relationships.toggle(kind, account, mute: mute)
    }

    /// Loads your relationships with `accounts` in one request (what a screen shows), so
    /// headers and rows can show them; counted in ``settle()``.
    public func loadRelationships(_ accounts: [AccountID]) {
        relationships.load(accounts)
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
