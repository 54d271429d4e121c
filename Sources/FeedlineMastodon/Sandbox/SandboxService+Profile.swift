@_spi(FeedService) import Feedline

/// Your own profile on the sandbox, as Mastodon's `verify_credentials` and
/// `update_credentials` answer it (its checks in ``SandboxAccounts``): the edit applies to the
/// scenario's signed-in account, whose profile then shows it. Reading is
/// ``SandboxScenario/Request/ownProfile``, changing ``SandboxScenario/Request/profileChange``
/// (their faults apply: a lost answer changes the profile and then fails).
extension SandboxService {
    /// Your profile as you wrote it.
    @_spi(FeedService) public func ownProfile() async throws -> OwnProfile {
        try await performOnAccounts(.ownProfile) { state, _ throws(SandboxError) in state.accounts.ownProfile }
    }

    /// Changes what `edit` gives of your profile.
    @_spi(FeedService) public func updateProfile(_ edit: ProfileEdit) async throws -> OwnProfile {
        try await performOnAccounts(.profileChange) { state, _ throws(SandboxError) in try state.accounts.updateOwnProfile(edit) }
    }
}
