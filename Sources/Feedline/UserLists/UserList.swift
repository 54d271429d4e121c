/// One of the signed-in user's lists (Mastodon's `List`): a named set of accounts whose posts
/// make a timeline of their own (``Feed/list(_:)``). A service's value: a front reads a list as
/// its row, ``UserListRow``.
@_spi(FeedService) public struct UserList: Hashable, Sendable, Codable {
    /// The server's id — or, while the server has not made the list yet, a provisional one
    /// (``isProvisional``) that the server's list replaces.
    public var id: String
    /// The name the user gave it.
    public var title: String

    public init(id: String, title: String) {
        self.id = id
        self.title = title
    }

    /// Whether the list is shown before the server made it (its id is the session's, not the
    /// server's): nothing can be done with it until the server's list replaces it.
    public var isProvisional: Bool { id.hasPrefix(Self.provisionalPrefix) }

    /// The prefix of provisional ids (`new-1`, `new-2` …): no server id starts with it.
    package static let provisionalPrefix = "new-"
}

/// A list as every screen shows it: the list, whether a change of it waits for the server, and
/// the last refusal of a change.
public struct UserListRow: Hashable, Sendable, Identifiable {
    /// The list as shown: the title wanted while a rename waits for the server.
    package var list: UserList
    /// Whether it waits for the server (being made, renamed, or — sent again after a lost
    /// connection — deleted).
    public var pending: Bool
    /// The last refusal of a rename or a delete ("Could not rename the list Birders to Birds: …",
    /// "Could not delete the list Birders: …"), until the next change.
    public var failure: String?
    /// The provisional id a list made in this session was first shown with: its row keeps it as
    /// its identity (``rowKey``), so the server's list replacing it is an update of that row.
    package var shownAs: String?

    package init(list: UserList, pending: Bool = false, failure: String? = nil) {
        self.list = list
        self.pending = pending
        self.failure = failure
    }

    package init(list: UserList, pending: Bool, failure: String?, shownAs: String?) {
        self.init(list: list, pending: pending, failure: failure)
        self.shownAs = shownAs
    }

    /// The list's id (the server's once it made the list).
    public var id: String { list.id }
    /// The row's identity (``RowID/list(_:)``): the provisional id it was first shown with, for
    /// a list made in this session, else its id.
    public var rowKey: String { shownAs ?? list.id }
    /// The name the user gave it (the one wanted while a rename waits for the server).
    public var title: String { list.title }
    /// Whether the list is shown before the server made it (its id is the session's, not the
    /// server's): nothing can be done with it until the server's list replaces it.
    public var isProvisional: Bool { list.isProvisional }
}

/// What changed in the lists: every list as shown now, in order. (How an answered change
/// ended is an ``Outcome``.)
package struct UserListsChange: Hashable, Sendable {
    package var lists: [UserListRow]

    package init(lists: [UserListRow]) {
        self.lists = lists
    }
}

/// A change of whether one account is on one list.
package struct ListMembershipChange: Hashable, Sendable {
    package var list: String
    package var account: AccountID
    package var display: ToggleDisplay

    package init(list: String, account: AccountID, display: ToggleDisplay) {
        self.list = list
        self.account = account
        self.display = display
    }
}
