/// One of the signed-in user's lists (Mastodon's `List`): a named set of accounts whose posts
/// make a timeline of their own (``Feed/list(_:)``).
public struct UserList: Hashable, Sendable, Codable {
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
    public var list: UserList
    /// Whether it waits for the server (being made, renamed, or — sent again after a lost
    /// connection — deleted).
    public var pending: Bool
    /// The last refusal of a rename or a delete ("Could not rename the list Birders to Birds: …",
    /// "Could not delete the list Birders: …"), until the next change.
    public var failure: String?
    /// The provisional id a list made in this session was first shown with: its row keeps it as
    /// its identity (``rowKey``), so the server's list replacing it is an update of that row.
    package var shownAs: String?

    public init(list: UserList, pending: Bool = false, failure: String? = nil) {
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
    public var title: String { list.title }
}

/// How a change of the lists ended, as the store tells it once the server answered.
public struct UserListOutcome: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        case created, renamed, deleted
    }

    public var kind: Kind
    /// The list: as the server made or renamed it; as it was when deleted; as it was shown when
    /// the server refused the change.
    public var list: UserList
    /// Why the server refused the change; `nil` when it made it.
    public var failure: String?
    /// For a creation: the provisional id the list was shown with until then.
    public var provisionalID: String?

    public init(kind: Kind, list: UserList, failure: String? = nil, provisionalID: String? = nil) {
        self.kind = kind
        self.list = list
        self.failure = failure
        self.provisionalID = provisionalID
    }

    /// A sentence for a user: "Created the list Birders." or "Could not create the list Birders: …
    /// It is gone." / "… It is back as it was."
    public var sentence: String {
        if let failure {
            let back = kind == .created ? "It is gone." : "It is back as it was."
            let ended = failure.last.map { ".!?".contains($0) } ?? false
            return "Could not \(verb) the list \(list.title): \(failure)\(ended ? "" : ".") \(back)"
        }
        return switch kind {
        case .created: "Created the list \(list.title)."
        case .renamed: "Renamed the list to \(list.title)."
        case .deleted: "Deleted the list \(list.title)."
        }
    }

    private var verb: String {
        switch kind {
        case .created: "create"
        case .renamed: "rename"
        case .deleted: "delete"
        }
    }
}

/// What changed in the lists: every list as shown now, in order, and — when a change was
/// answered — how it ended.
package struct UserListsChange: Hashable, Sendable {
    package var lists: [UserListRow]
    package var outcome: UserListOutcome?

    package init(lists: [UserListRow], outcome: UserListOutcome? = nil) {
        self.lists = lists
        self.outcome = outcome
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
