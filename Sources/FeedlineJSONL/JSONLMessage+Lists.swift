import Feedline

/// The list messages: `lists` and `listMembership`, and the fields of a list row.
extension JSONLMessage {
    /// A list row's fields after its id and kind: `"list"` (the list's id — provisional, such
    /// as `new-1`, until the server made it), `"title"`, `"pending"` (a change waits for the
    /// server) and `"failure"` (the last refusal of a rename, or null).
    static func userListFields(_ row: UserListRow) -> [(String, JSONLValue)] {
        [
            ("list", .string(row.id)), ("title", .string(row.title)), ("pending", .bool(row.pending)), ("provisional", .bool(row.isProvisional)),
            ("failure", .optional(row.failure)),
        ]
    }

    /// Your lists as every screen shows them, written after every change in the session's list
    /// store (a command, an answer, a refusal, a load of the lists), in order:
    /// `{"type":"lists","lists":[{"list":"1","title":"Birders","pending":false,"provisional":false,"failure":null}]}`.
    /// How a change was answered is an `outcome` message (see ``outcome(_:id:)``), written before.
    package static func lists(_ change: UserListsChange) -> JSONLValue {
        .object([("type", "lists"), ("lists", .array(change.lists.map { .object(userListFields($0)) }))])
    }

    /// Whether one account is on one list, as every screen of the list's accounts shows it,
    /// written after every change of it:
    /// `{"type":"listMembership","list":"1","account":"109302","member":true,"pending":true,"failure":null}`.
    package static func listMembership(_ change: ListMembershipChange) -> JSONLValue {
        .object([
            ("type", "listMembership"), ("list", .string(change.list)), ("account", .string(change.account.rawValue)),
            ("member", .bool(change.display.isOn)), ("pending", .bool(change.display.pending)), ("failure", .optional(change.display.failure)),
        ])
    }
}
