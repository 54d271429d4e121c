/// Your own profile: reading it as you wrote it and changing it. Part of `FeedService`.
@_spi(FeedService) public protocol ProfileService: Sendable {
    /// Your profile as you wrote it (`GET /api/v1/accounts/verify_credentials`: its
    /// `source.note` and `source.fields` in plain text).
    func ownProfile() async throws -> OwnProfile

    /// Changes what `edit` gives of your profile (`PATCH /api/v1/accounts/update_credentials`)
    /// and returns the profile as the server has it then.
    func updateProfile(_ edit: ProfileEdit) async throws -> OwnProfile
}
