import Feedline

/// Accounts: the relationship commands (`follow`, `mute`, `block`, `notify`, `boosts`, their
/// `un…` forms, `relationships`), the `relationship` message every change of the session's
/// relationship store writes, and the `profile` message of each profile screen's header.
extension JSONLinesDriver {
    /// Carries out an account command. Never refused: the store takes any account id (one the
    /// server does not know fails there, and says so in its `relationship` message).
    ///
    /// A change is optimistic: what it takes off the lists (a mute's or block's rows, an
    /// unfollow's on home) goes at once, as `changes`, then the `relationship` message with the
    /// kind `pending` — both before the `ok`; the server's answer follows later.
    func carryOut(accounts action: JSONLCommand.Action) {
        switch action {
        case .relationship(let kind, let account, let value, let mute):
            if let mute, kind == .mute, value {
                session.mute(account: account, for: mute.duration, notifications: mute.notifications)
            } else {
                session.set(kind, value, account: account)
            }
        case .relationships(let accounts):
            session.loadRelationships(accounts)
        default:
            break
        }
    }

    /// Writes a `relationship` message after every change of any account's relationship as the
    /// store shows it, in the order they happen. Lasts as long as the returned token.
    func followRelationships() -> Subscription {
        session.relationships.observe { [weak self] change in
            self?.emit(JSONLMessage.relationship(change))
        }
    }

    /// Follows the header of `list` when it is a profile (a list of `account:…`): writes one
    /// `profile` message each time a load of it ends — loaded, or failed — and nothing while it
    /// loads or when only the relationship it shows changes (the `relationship` messages say
    /// that). `nil` for any other list. Lasts as long as the returned token.
    func followProfile(of list: FeedListViewModel) -> Subscription? {
        guard let profile = list.profile else { return nil }
        // What the last message said: a load that ends as the previous one did (a retry that
        // fails the same way) is still written, since the header went through loading between.
        var written: ProfileHeader?
        return profile.header.observe { [weak self, weak list] header in
            guard let self, let list else { return }
            guard !header.isLoading else {
                written = nil
                return
            }
            guard written?.profile != header.profile || written?.failure != header.failure else { return }
            written = header
            // A profile that left the stack has no index any more.
            guard let index = self.session.navigator.screens.firstIndex(where: { $0.list === list }),
                let message = JSONLMessage.profile(header, screen: index)
            else { return }
            self.emit(message)
        }
    }
}
