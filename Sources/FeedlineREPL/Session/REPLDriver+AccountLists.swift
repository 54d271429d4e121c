@_spi(FeedService) import Feedline

/// `search`, `followers`, `following`, `accept`, `reject`: screens of accounts and what acts on
/// them (`mutes`, `blocks` and `requests` are plain screens, opened by `openScreen`).
extension REPLDriver {
    /// `search QUERY`: a screen of accounts, hashtags and posts.
    func openSearch(_ query: String) {
        session.navigator.push(.list(.search(query)))
    }

    /// `followers [N|@user]`, `following [N|@user]`, `endorsed [N|@user]`: of row N's author, a
    /// handle, or the profile (or post's author) on top.
    func openAccountList(_ kind: AccountListKind, _ target: ProfileTarget?) {
        let name: CommandName =
            switch kind {
            case .followers: .followers
            case .following: .following
            case .endorsed: .endorsed
            }
        let account: AccountID
        switch target {
        case .handle(let handle)?:
            account = AccountID(handle: handle)
            handles[account.rawValue] = handle
        case .row(let number)?:
            guard case .row(_, let row, let number)? = self.target(number, name: name, onPost: kind == .endorsed ? "lists the accounts its author features" : "lists its author's \(kind.rawValue)") else { return }
            let named = self.account(namedBy: row, number: number) { row in
                guard case .userList(let list) = row else { return nil }
                return "Row \(number) is the list \(list.title): lists accounts \(number) shows who is on it."
            }
            guard let named else { return }
            account = AccountID(named.id)
            handles[account.rawValue] = named.handle
        case nil:
            switch stack.last {
            case .post(let entry)?:
                guard let post = loadedPost(entry) else { return }
                account = AccountID(post.content.author.id)
                handles[account.rawValue] = post.content.author.handle
            case .list(let entry)?:
                guard case .feed(.account(let shown)) = entry.list.source else {
                    refuse("\(name.rawValue) needs a row number or a handle here, for example: \(name.rawValue) 3 or \(name.rawValue) @kemi@fieldnotes.science; on a profile it lists that account's.")
                    return
                }
                account = entry.list.profile?.accountID ?? shown
            case nil:
                return
            }
        }
        let list: AccountList =
            switch kind {
            case .followers: .followers(account)
            case .following: .following(account)
            case .endorsed: .endorsed(account)
            }
        session.navigator.push(.list(.accounts(list)))
    }

    /// `accept N`, `reject N`: answers the follow request row N shows.
    func answerRequest(row number: Int, accept: Bool) {
        let name: CommandName = accept ? .accept : .reject
        guard case .row(let entry, let row, let number)? = target(number, name: name) else { return }
        if let request = row.notificationRequest {
            // On the filtered-notifications screen, accept takes the account's notifications in.
            guard accept else {
                refuse("Row \(number) is @\(TextWidth.oneLine(request.account.handle))'s filtered notifications: dismiss \(number) drops them, accept \(number) takes them in.")
                return
            }
            answerNotificationRequest(request, row: number, .accept)
            return
        }
        guard let account = row.account, entry.list.source == .accounts(.requests) else {
            refuse("Row \(number) is not a follow request; requests lists them (and notifications filtered the filtered notifications).")
            return
        }
        let handle = account.author.handle
        if let answer = account.relationship?.requestAnswer, answer.pending {
            refuse("The follow request of @\(handle) is being \(answer.isOn ? "accepted" : "rejected") already.")
            return
        }
        guard entry.list.answerRequest(row: row.id, accept: accept) else {
            refuse("The follow request of @\(handle) was answered already.")
            return
        }
        say(accept ? "Accepting @\(handle)'s follow request…" : "Rejecting @\(handle)'s follow request…")
    }
}
