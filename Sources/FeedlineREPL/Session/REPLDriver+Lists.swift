import Feedline

/// `lists …`: your lists through the session's one list store — every screen showing a list
/// follows at once — and what the server answered.
extension REPLDriver {
    func runLists(_ command: ListsCommand) {
        // A list named by name needs the lists: loaded first, then the command runs.
        if command.needsLists, !session.lists.isLoaded {
            guard listsCommandWaiting == nil else {
                refuse("Your lists are still loading; try again when they have.")
                return
            }
            listsCommandWaiting = command
            say("Loading your lists…")
            session.loadLists()
            return
        }
        switch command {
        case .show:
            session.navigator.push(.list(.userLists))
        case .create(let title):
            do {
                let made = try session.createList(title: title)
                say("Making the list \(made.title)…")
            } catch {
                refuse(error.message)
            }
        case .rename(let reference, let title):
            guard let list = userList(reference, for: "rename") else { return }
            do {
                if try session.renameList(list.id, to: title) {
                    say("Renaming the list \(list.title) to \(UserListStore.trimmed(title))…")
                } else {
                    say("The list is named \(list.title) already.")
                }
            } catch {
                refuse(error.message)
            }
        case .delete(let reference, let confirmed):
            guard let list = userList(reference, for: "delete") else { return }
            guard confirmed else {
                say("Delete the list \(list.title)? Its accounts stay followed; the list and its timeline are gone. Type lists delete \(reference.text) --yes to delete.")
                return
            }
            do {
                try session.deleteList(list.id)
                say("Deleting the list \(list.title)… it left every screen.")
            } catch {
                refuse(error.message)
            }
        case .membership(let reference, let handle, let add):
            guard let list = userList(reference, for: add ? "add to" : "remove from") else { return }
            let profile = knownProfile(handle)
            if let shown = session.lists.membership(list: list.id, account: profile.accountID), shown.isOn == add, !shown.pending {
                say(add ? "@\(handle) is on the list \(list.title) already." : "@\(handle) is not on the list \(list.title).")
                return
            }
            do {
                try session.setListMembership(list: list.id, account: profile, add)
                say(add ? "Adding @\(handle) to the list \(list.title)…" : "Removing @\(handle) from the list \(list.title)…")
            } catch {
                refuse(error.message)
            }
        case .accounts(let reference):
            guard let list = userList(reference, for: "show the accounts of") else { return }
            guard !list.isProvisional else {
                refuse(UserListProblem.provisional(list.title).message)
                return
            }
            session.navigator.push(.list(.accounts(.members(list.id))))
        case .open(let reference):
            guard let list = userList(reference, for: "open") else { return }
            openList(list)
        }
    }

    /// `open N` on a list row, and `lists open NAME`: the list's timeline.
    func openList(_ row: UserListRow) {
        guard !row.isProvisional else {
            refuse(UserListProblem.provisional(row.title).message)
            return
        }
        session.navigator.push(.list(.feed(.list(row.id))))
    }

    /// The list a command names, `nil` after saying why there is none: a row number of the
    /// lists screen on top, or a name among the lists the session knows.
    private func userList(_ reference: ListReference, for action: String) -> UserListRow? {
        switch reference {
        case .row(let number):
            guard case .list(let entry)? = stack.last, entry.list.source == .userLists else {
                refuse("A row number names a list on the lists screen; type lists first, or name the list.")
                return nil
            }
            guard case .row(let row) = entry.screen.viewport.lookup(number, in: entry.list.rows), let list = row.userList else {
                refuse("There is no list at row \(number).")
                return nil
            }
            return list
        case .name(let name):
            guard let list = session.lists.list(named: UserListStore.trimmed(name)) else {
                let known = session.lists.lists.map(\.title)
                let hint = known.isEmpty ? "You have no lists; lists new NAME makes one." : "Your lists: \(known.prefix(6).joined(separator: ", "))."
                refuse("There is no list named \(Echo.shortened(name, to: 40)). \(hint)")
                return nil
            }
            return list
        }
    }

    /// Who `handle` is, as far as the session knows: an account seen on a row (its id, so every
    /// screen of the list's accounts follows), or else the handle, which the server looks up.
    private func knownProfile(_ handle: String) -> Profile {
        let wanted = handle.lowercased()
        if let id = handles.first(where: { $0.value.lowercased() == wanted })?.key {
            let account = AccountID(id)
            return session.lists.profile(account) ?? Profile(author: Author(id: id, displayName: handle, handle: handles[id] ?? handle))
        }
        let account = AccountID(handle: handle)
        return Profile(author: Author(id: account.rawValue, displayName: handle, handle: handle))
    }

    /// Heard from the list store: the lists changed (a `lists` command waiting for them runs).
    /// How a change the user made ended is an ``Outcome`` (see `REPLDriver+Outcomes.swift`).
    func listsChanged(_ change: UserListsChange) {
        tellCompletion()
        if let waiting = listsCommandWaiting {
            if session.lists.isLoaded {
                listsCommandWaiting = nil
                runLists(waiting)
                flushIfFollowing()
            } else if let failure = session.lists.loadFailure {
                listsCommandWaiting = nil
                refuse("Could not load your lists: \(failure)")
                flushIfFollowing()
            }
        }
    }
}
