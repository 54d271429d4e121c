import Foundation

/// What a profile's header shows: who the account is and how you relate, as one value.
public struct ProfileHeader: Hashable, Sendable {
    /// The account as the profile was opened (an id, or a handle not looked up yet).
    public var requested: AccountID
    /// Who it is, once loaded.
    public var profile: Profile?
    /// How you relate, as the relationship store shows it (the values you want).
    public var relationship: RelationshipDisplay?
    /// The hashtags the account features, in the server's order, each with
    /// ``Hashtag/accountPosts`` and ``Hashtag/lastUsed`` when the server says; empty until the
    /// profile is loaded, and when the server could not say (the header shows without them).
    public var featuredTags: [Hashtag]
    /// Why the profile could not be loaded (``ProfileViewModel/retry()`` loads it again).
    public var failure: FeedFailure?

    public init(
        requested: AccountID, profile: Profile? = nil, relationship: RelationshipDisplay? = nil, featuredTags: [Hashtag] = [], failure: FeedFailure? = nil
    ) {
        self.requested = requested
        self.profile = profile
        self.relationship = relationship
        self.featuredTags = featuredTags
        self.failure = failure
    }

    /// Whether the profile is still on its way.
    public var isLoading: Bool { profile == nil && failure == nil }
}

extension RelationshipDisplay {
    /// One line for a header or an account row: "you follow them · follows you", "requested",
    /// "asks to follow you", "accepting their request…", "muted until 27 Nov 2026", "blocked";
    /// pending kinds end in "…"; `nil` when nothing relates you.
    /// `format` writes the end of a mute.
    public func line(formattingDates format: (Date) -> String) -> String? {
        let r = relationship
        func mark(_ kind: RelationshipKind) -> String { pending.contains(kind) ? "…" : "" }
        var parts: [String] = []
        if r.blocking { parts.append("blocked" + mark(.block)) }
        if r.blockedBy { parts.append("blocks you") }
        if r.domainBlocking { parts.append("domain blocked") }
        if r.requested {
            parts.append("requested" + mark(.follow))
        } else if r.following {
            parts.append("you follow them" + mark(.follow))
        } else if pending.contains(.follow) {
            parts.append("unfollowing…")
        }
        if r.followedBy { parts.append("follows you") }
        if let answer = requestAnswer, answer.pending {
            parts.append(answer.isOn ? "accepting their request…" : "rejecting their request…")
        } else if r.requestedBy, requestAnswer?.isSettled != true {
            parts.append("asks to follow you")
        }
        if r.muting {
            var muted = "muted" + mark(.mute)
            if let until = r.mutingUntil { muted += " until \(format(until))" }
            if !r.mutingNotifications { muted += " (notifications shown)" }
            parts.append(muted)
        }
        if r.following, r.notifying { parts.append("notified of posts" + mark(.notify)) }
        if r.following, !r.showingBoosts { parts.append("boosts hidden" + mark(.boosts)) }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }
}

/// The header of a profile screen: loads who the account is (`RelationshipService.profile(of:)`),
/// the hashtags it features (`TagService.featuredTags(of:)`) and how you relate (through the
/// session's one relationship store, shared with every screen), and sets follow, mute, block,
/// notify and boosts for it. A list of `Feed.account` owns one
/// (``FeedListViewModel/profile``).
///
/// Main actor only; ``header`` publishes after every change.
@MainActor
public final class ProfileViewModel {
    private let relay: Relay<ProfileHeader>
    private let relationships: RelationshipStore
    /// Your own profile as edited here: your header shows it.
    private let ownProfile: OwnProfileStore?
    private var ownSubscription: Subscription?
    /// A load: the profile, then the relationship with it and its featured hashtags (one
    /// effect, so what a front hears of a profile comes in one order every time).
    private enum Loaded: Sendable {
        case loaded(Profile, [Relationship]?, [Hashtag], fetchedAt: StoreEpoch)
        case failed(FeedFailure)
    }

    private var loads: Feedback<Int, Loaded>?
    /// Whether a load has settled (loaded or failed) at least once.
    public private(set) var isSettled = false
    /// Opens when the first load settles (or the view model goes): what ``waitUntilSettled()``
    /// waits for, from any executor.
    private let settled = Latch()
    private var attempt = 0
    private var subscription: Subscription?

    package init(
        account: AccountID, service: any FeedService, relationships: RelationshipStore, ownProfile: OwnProfileStore? = nil, activity: Activity
    ) {
        relay = Relay(ProfileHeader(requested: account))
        self.relationships = relationships
        self.ownProfile = ownProfile
        loads = Feedback(
            activity: activity,
            prepare: { _ in relationships.beginFetch() },
            effect: { _, fetchedAt in
                let profile: Profile
                do {
                    profile = try await service.profile(of: account)
                } catch {
                    return .failed(FeedFailure(error))
                }
                // A relationship or featured hashtags that cannot be fetched leave the header
                // without them. Both are asked at once.
                async let relationship = try? service.relationships(of: [profile.accountID])
                async let featured = try? service.featuredTags(of: profile.accountID)
                return .loaded(profile, await relationship, await featured ?? [], fetchedAt: fetchedAt)
            },
            handle: { [weak self] result in self?.loaded(result) }
        )
        subscription = relationships.observe { [weak self] change in
            guard let self, change.accountID == self.current.profile?.accountID else { return }
            var header = self.current
            header.relationship = change.display
            self.relay.set(header)
        }
        ownSubscription = ownProfile?.observe { [weak self] own in
            guard let self, let profile = self.current.profile, profile.author.id == own.author.id else { return }
            var header = self.current
            header.profile = own.shown(on: profile)
            if header != self.current { self.relay.set(header) }
        }
    }

    isolated deinit {
        loads?.cancelAll()
        // Nothing will settle now: whoever waits goes on.
        settled.open()
    }

    /// Returns once the first load settled (loaded or failed), or when the view model goes —
    /// the profile's list answers its loads only then, so its rows come after the header. The
    /// list's effects call it from their tasks, which may prefer a task executor: the wait is a
    /// ``Latch``, so a load that settles while the call is on its way is never missed.
    package func waitUntilSettled() async {
        await settled.wait()
    }

    /// The header, published after every change (on the main actor).
    public var header: ReadOnlyRelay<ProfileHeader> { relay.readOnly }

    /// The header now.
    public var current: ProfileHeader { relay.value }

    /// The account's id once the profile is loaded (a handle is looked up by then).
    public var accountID: AccountID? { current.profile?.accountID }

    /// Loads the profile when it is not loaded or loading.
    public func appeared() {
        guard current.profile == nil, loads?.requests.isEmpty ?? false else { return }
        load()
    }

    /// Starts the first load if nothing has started it (a list that loads before it appeared).
    package func startIfNeverLoaded() {
        guard !isSettled, current.failure == nil, loads?.requests.isEmpty ?? false else { return }
        load()
    }

    /// Loads the profile again after a failure.
    public func retry() {
        guard current.failure != nil else { return }
        load()
    }

    /// Sets `kind` to `value` for this account (a mute without end that hides their
    /// notifications too; ``mute(for:notifications:)`` chooses): optimistic, on every screen at
    /// once. Returns `false` (nothing happens) until the profile is loaded.
    @discardableResult
    public func set(_ kind: RelationshipKind, _ value: Bool) -> Bool {
        guard let id = accountID else { return false }
        relationships.set(kind, value, id)
        return true
    }

    /// Mutes this account for `duration` (`nil`: until unmuted), hiding their notifications
    /// too unless `notifications` is `false` (see ``FeedSession/mute(account:for:notifications:)``).
    /// Returns `false` (nothing happens) until the profile is loaded.
    @discardableResult
    public func mute(for duration: Duration? = nil, notifications: Bool = true) -> Bool {
        guard let id = accountID else { return false }
        relationships.set(.mute, true, id, mute: MuteOptions(duration: duration, notifications: notifications))
        return true
    }

    private func load() {
        attempt += 1
        relay.update { $0.failure = nil }
        loads?.react(to: [attempt])
    }

    private func loaded(_ result: Loaded) {
        var header = current
        switch result {
        case .loaded(let profile, let fetched, let featured, let fetchedAt):
            // Your own profile shows your edit on its way (and what the server confirmed since).
            if let own = ownProfile?.profile, own.author.id == profile.author.id {
                header.profile = own.shown(on: profile)
            } else {
                header.profile = profile
            }
            header.featuredTags = featured
            header.relationship = relationships.relationship(profile.accountID)
            relay.set(header)
            // The store tells the header (through its observer) what the fetch changed.
            if let fetched { relationships.ingest(fetched, fetchedAt: fetchedAt) }
        case .failed(let failure):
            header.failure = failure
            relay.set(header)
        }
        if !isSettled {
            isSettled = true
            settled.open()
        }
    }
}
