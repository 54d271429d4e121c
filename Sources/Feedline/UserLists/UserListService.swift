/// The signed-in user's lists on a server: reading, making, renaming and deleting them, and
/// their members. Part of `FeedService`.
@_spi(FeedService) public protocol UserListService: Sendable {
    /// The signed-in user's lists, all of them, in the server's order (`GET /api/v1/lists`).
    func lists() async throws -> [UserList]

    /// Makes a list titled `title` and returns it (`POST /api/v1/lists`).
    func createList(title: String) async throws -> UserList

    /// Renames the list `id` and returns it afterwards (`PUT /api/v1/lists/:id`).
    func renameList(_ id: String, to title: String) async throws -> UserList

    /// Deletes the list `id` (`DELETE /api/v1/lists/:id`).
    func deleteList(_ id: String) async throws

    /// Adds (`true`) or removes `account` to or from the list `list` (`POST` / `DELETE
    /// /api/v1/lists/:id/accounts` with `account_ids[]`). A list's accounts are paged by
    /// `RelationshipService.accounts(in:after:)` of ``AccountList/members(_:)``.
    func setListMembership(list: String, account: AccountID, to value: Bool) async throws
}
