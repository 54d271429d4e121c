extension FeedSession {
    /// Changes your profile by `edit` (`PATCH /api/v1/accounts/update_credentials`): at once on
    /// your profile's header and your name on your posts, on every screen; a refusal puts it back
    /// with the server's sentence, a lost connection sends it again later (``retry()`` at once).
    /// The outcome is ``Outcome/Subject/profile``. Before your profile is known it is loaded
    /// first (`verify_credentials`). Throws why (nothing is sent) for an edit that changes
    /// nothing or has more fields than a profile keeps.
    @_spi(FeedService)
    public func editProfile(_ edit: ProfileEdit) throws(FeedFailure) {
        do { try ownProfile.edit(edit) } catch { throw error.failure }
    }

    /// Your profile as shown now (a change on its way included), once loaded (``loadOwnProfile()``
    /// or an edit loads it); `nil` before.
    @_spi(FeedService)
    public var shownOwnProfile: OwnProfile? { ownProfile.profile }

    /// Loads your profile as you wrote it, unless it is known or loading (what an editor of it
    /// starts from); ``settle()`` waits for it.
    public func loadOwnProfile() {
        ownProfile.load()
    }

    /// Calls `done` with your profile as shown — at once when it is known, else once it is
    /// loaded (or with why it could not be).
    @_spi(FeedService)
    public func loadOwnProfile(then done: @escaping @MainActor (Result<OwnProfile, FeedFailure>) -> Void) {
        ownProfile.load(then: done)
    }
}
