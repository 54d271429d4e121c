import Feedline

/// `lists …`: your lists through the session's one list store — every screen showing a list
/// follows at once — and what the server answered.
extension REPLDriver {
    /// `open N` on a list row: the list's timeline.
    func openList(_ row: UserListRow) {
        guard !row.list.isProvisional else {
            refuse(UserListProblem.provisional(row.title).message)
            return
        }
        session.navigator.push(.feed(.list(row.id)))
    }
}
