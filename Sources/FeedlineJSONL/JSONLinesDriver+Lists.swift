import Feedline

/// Lists: the commands change the session's one list store (every lists screen, list timeline
/// and screen of a list's accounts follows at once), and every change there is written as a
/// `lists` or `listMembership` message.
extension JSONLinesDriver {
    /// Carries out a change of the lists; the error's sentence when the store refuses it at once
    /// (an empty title, a title another list has, a list it does not know or still makes, an
    /// account no screen shows). A list made is answered under its provisional id: `id`, the
    /// command's, is kept as its asker.
    func carryOut(list change: JSONLCommand.ListChange, id: JSONLValue?) -> String? {
        do {
            switch change {
            case .create(let title):
                let made = try session.createList(title: title)
                if let id { askedBy[Self.topic(of: .list(made.id, title: made.title, was: nil))] = id }
            case .rename(let list, let title):
                if try !session.renameList(list, to: title) { return nil }
            case .delete(let list):
                try session.deleteList(list)
            case .membership(let list, let account, let add):
                guard let profile = knownProfile(account) else {
                    return "Unknown account \(JSONLCommand.echo(account.rawValue)): no screen on the stack shows it."
                }
                try session.setListMembership(list: list, account: profile, add)
            }
        } catch {
            return error.message
        }
        return nil
    }

    /// Who the account is, as a screen on the stack (or a page of a list's accounts) shows it.
    private func knownProfile(_ account: AccountID) -> Profile? {
        if let profile = session.lists.profile(account) { return profile }
        for screen in session.navigator.screens.reversed() {
            guard let list = screen.list else { continue }
            if let profile = list.profile?.current.profile, profile.accountID == account { return profile }
            for row in list.rows {
                if let shown = row.account, shown.id == account { return shown.profile }
                if let post = row.shownPost {
                    for author in [post.post.author, post.author] where AccountID(author.id) == account { return Profile(author: author) }
                }
            }
        }
        return nil
    }

    /// Writes a `lists` message after every change of the lists as the store shows them, and a
    /// `listMembership` message after every change of who is on a list, in the order they happen.
    func followLists() -> [Subscription] {
        [
            session.lists.observe { [weak self] change in self?.emit(JSONLMessage.lists(change)) },
            session.lists.observeMembers { [weak self] change in self?.emit(JSONLMessage.listMembership(change)) },
        ]
    }
}
