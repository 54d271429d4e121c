@_spi(FeedService) import Feedline
import Foundation

/// Profiles and relationships on the sandbox, as Mastodon's `GET /api/v1/accounts/:id`,
/// `GET /api/v1/accounts/relationships` and `POST /api/v1/accounts/:id/{follow,unfollow,mute,
/// unmute,block,unblock}` answer them (rules in ``SandboxAccounts``).
///
/// An account is named by its id or, with ``Feedline/AccountID/init(handle:)``, by its handle
/// (`user`, `user@host`; a local account also by its full handle), looked up first. Every
/// request draws its latency and faults from the scenario like the others, under its own kind
/// (``SandboxScenario/Request/profile``, ``SandboxScenario/Request/relationships``, `follow` …;
/// notify and boosts are follows, as Mastodon sends them); ``SandboxScenario/Failure/lostAnswer``
/// makes the change and then fails as a timeout. Mute ends are dated on the sandbox's wall clock.
/// Lists of accounts, search and answers to follow requests are in
/// `SandboxService+AccountLists.swift`.
extension SandboxService {
    /// The profile of `account`: names, bio and field values as text, counts (following moves
    /// them), when it joined, its bot, locked and group markers, and where it moved. An account
    /// the server had not seen is resolved by its full handle, and known from then on.
    ///
    /// - Throws: ``SandboxError/unknownAccount(_:)`` for an account the sandbox does not know,
    ///   or a scheduled fault.
    public func profile(of account: AccountID) async throws -> Profile {
        try await performOnAccounts(.profile) { state, _ throws(SandboxError) in
            let id = try state.accountID(account)
            guard let profile = state.accounts.profile(of: id) else { throw .unknownAccount(account.handle ?? account.rawValue) }
            state.accounts.see(id)
            return profile
        }
    }

    /// The user's relationship with each account of `accounts` the sandbox knows, in the order
    /// asked, each once, named by its id (also when asked by handle); unknown accounts are left out.
    ///
    /// - Throws: a scheduled fault only.
    @_spi(FeedService) public func relationships(of accounts: [AccountID]) async throws -> [Relationship] {
        try await performOnAccounts(.relationships) { state, now throws(SandboxError) in
            var seen = Set<String>()
            return accounts.compactMap { account in
                guard let id = try? state.accountID(account), seen.insert(id).inserted else { return nil }
                return state.accounts.relationship(of: id, at: now)
            }
        }
    }

    /// Sets `kind` of the relationship with `account` to `value` (`mute` says how a mute is
    /// made) and returns the relationship afterwards. Idempotent: asking for what already holds
    /// returns the relationship unchanged.
    ///
    /// - Throws: ``SandboxError/unknownAccount(_:)``, ``SandboxError/refused(_:)`` for what
    ///   Mastodon refuses (see ``SandboxAccounts/set(_:to:of:mute:at:)``), or a scheduled fault.
    @_spi(FeedService) public func setRelationship(_ kind: RelationshipKind, to value: Bool, of account: AccountID, mute: MuteOptions) async throws -> Relationship {
        try await performOnAccounts(Self.request(kind, value)) { state, now throws(SandboxError) in
            let id = try state.accountID(account)
            return try state.accounts.set(kind, to: value, of: id, mute: mute, at: now)
        }
    }

    /// The accounts asking to follow the user, in the order they asked (a fixture's
    /// `requested_by`); ``answerFollowRequest(from:accept:)`` answers them, and
    /// ``accounts(in:after:)`` of ``Feedline/AccountList/requests`` pages them.
    package func followRequests() -> [Author] {
        withState { $0.accounts.followRequests.map(Author.init) }
    }

    /// The scenario's name for the request that sets `kind` to `value`.
    static func request(_ kind: RelationshipKind, _ value: Bool) -> SandboxScenario.Request {
        switch kind {
        case .follow: value ? .follow : .unfollow
        case .mute: value ? .mute : .unmute
        case .block: value ? .block : .unblock
        case .notify, .boosts: .follow
        }
    }

    /// Runs `body` as a `request` (latency, faults) with the sandbox's wall-clock time when it
    /// is answered; a lost answer acts and then fails, a validation fault fails before acting.
    func performOnAccounts<Result: Sendable>(
        _ request: SandboxScenario.Request, _ body: @Sendable (inout State, Date) throws(SandboxError) -> Result
    ) async throws -> Result {
        let wallClock = wallClock
        return try await perform(request) { state, failure, _ throws(SandboxError) in
            if failure == .validationFailed { throw .fault(.validationFailed, request: request) }
            let result = try body(&state, wallClock.now())
            if failure == .lostAnswer { throw .fault(.lostAnswer, request: request) }
            return result
        }
    }
}

extension SandboxService.State {
    /// The id of the account `account` names: looked up by handle (among the statuses' authors,
    /// then the whole directory), or an id the directory holds.
    ///
    /// - Throws: ``SandboxError/unknownAccount(_:)``.
    func accountID(_ account: AccountID) throws(SandboxError) -> String {
        if let handle = account.handle {
            guard let found = store.account(named: handle) ?? accounts.account(named: handle) else { throw .unknownAccount(handle) }
            return found.id
        }
        guard accounts.contains(account.rawValue) else { throw .unknownAccount(account.rawValue) }
        return account.rawValue
    }

    /// `feed` with an account named by handle replaced by its id, when the directory knows an
    /// account that wrote no status (a profile with no posts is empty, not unknown).
    ///
    /// - Throws: ``SandboxError/unknownAccount(_:)``.
    func resolved(_ feed: Feed) throws(SandboxError) -> Feed {
        guard case .account(let id) = feed, let handle = id.handle, store.account(named: handle) == nil else { return feed }
        return .account(AccountID(try accountID(id)))
    }
}
