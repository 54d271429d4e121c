extension FeedSession {
    /// Makes a list titled `title`: on every lists screen at once with a provisional id,
    /// replaced by the server's list; a refusal takes it off and says why (an ``Outcome``,
    /// ``Outcome/Subject/list(_:title:was:)``, under the provisional id of the row returned).
    /// Throws why (nothing happens) for an empty title or one another list shows already.
    @discardableResult
    public func createList(title: String) throws(FeedFailure) -> UserListRow {
        do {
            let made = try lists.create(title: title)
            return lists.list(made.id) ?? UserListRow(list: made, pending: true)
        } catch {
            throw error.failure
        }
    }

    /// Renames the list `id`: every screen showing it shows `title` at once; a refusal brings
    /// the title back, with the reason on its row. Returns `false` when it shows `title`
    /// already. Throws why (nothing happens) for an empty title, one another list shows already,
    /// an unknown list or one still being made.
    @discardableResult
    public func renameList(_ id: String, to title: String) throws(FeedFailure) -> Bool {
        do { return try lists.rename(id, to: title) } catch { throw error.failure }
    }

    /// Deletes the list `id`: off every lists screen at once; back where it was on refusal.
    /// Throws why (nothing happens) for an unknown list or one still being made.
    public func deleteList(_ id: String) throws(FeedFailure) {
        do { try lists.delete(id) } catch { throw error.failure }
    }

    /// Adds (`true`) or removes the account `profile` names to or from the list `list`:
    /// optimistic, converging, and seen at once on every screen of the list's accounts.
    /// Throws why (nothing happens) for an unknown list or one still being made.
    public func setListMembership(list: String, account profile: Profile, _ value: Bool) throws(FeedFailure) {
        do { try lists.setMembership(list: list, account: profile, value) } catch { throw error.failure }
    }

    /// Loads your lists when no screen has yet (``areListsLoaded``): ``userLists`` has them
    /// once they came, or ``listsLoadFailure`` says why not; counted in ``settle()``.
    public func loadLists() {
        lists.load()
    }

    /// Every one of your lists as every screen shows it now, in order (the server's, then lists
    /// made since): a list being made shows under its provisional id, one being renamed under
    /// its new title, each with its pending state and last refusal.
    public var userLists: [UserListRow] { lists.lists }

    /// The list `id` as shown now (a provisional id works while the list is being made), or
    /// `nil`.
    public func userList(_ id: String) -> UserListRow? { lists.list(id) }

    /// Whether a fetch has told the session what your lists are.
    public var areListsLoaded: Bool { lists.isLoaded }

    /// Why the last load of your lists failed, until they load.
    public var listsLoadFailure: String? { lists.loadFailure }

    /// Whether the account is on the list as every screen shows it now — pending, and the last
    /// refusal, included — or `nil` when no fetch or change has told the session.
    public func listMembership(list: String, account: AccountID) -> ToggleDisplay? {
        lists.membership(list: list, account: account)
    }

    /// How messages and prompts name `feed`: a list by its title when the session knows it
    /// ("the list Birders"), otherwise ``Feed/title``.
    public func title(of feed: Feed) -> String {
        if case .list(let id) = feed, let title = lists.title(of: id) { return "the list \(title)" }
        return feed.title
    }
}
