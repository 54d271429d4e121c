@_spi(FeedService) import Feedline

/// Domain blocks: `blockDomain` and `unblockDomain` set a domain's block in the session's one
/// domain block store (every screen follows at once), and every change of a domain's block there
/// is written as a `domainBlock` message.
///
/// No confirmation is asked (the REPL asks a person; a program says what it wants), and nothing
/// happens when the domain already shows the value: a client can repeat itself.
extension JSONLinesDriver {
    /// Blocks (`value` true) or unblocks `domain`, a domain the command checked; the error's
    /// sentence when the store refuses it.
    ///
    /// A block is optimistic: every post of the domain's accounts, their boosts and boosts of
    /// their posts leave every list at once, as `changes`, then the `domainBlock` message says it
    /// is `pending` — both before the `ok`; the server's answer follows later (a refusal puts the
    /// rows back and says why in `failure`).
    func setDomainBlock(_ domain: String, _ value: Bool) -> String? {
        guard session.setDomainBlock(domain, value) else { return "\(JSONLCommand.echo(domain)) is not a domain that can be blocked." }
        return nil
    }

    /// Blocks or unblocks the domain of the account that row `id` of `list` (screen `index`)
    /// shows: an account row's account, a post row's author (the boosted post's, for a boost), a
    /// notification row's first account. The error's sentence when the row is not on the screen,
    /// names no account, or its account is on the user's own server (which has no domain to block).
    func setDomainBlock(of id: RowID, on list: FeedListViewModel, screen index: Int, _ value: Bool) -> String? {
        guard let row = list.rows[id: id] else { return "There is no row \(JSONLCommand.echo(id.description)) on screen \(index)." }
        let author: Author
        switch row {
        case .account(let account): author = account.author
        case .post(let post): author = post.author
        case .notification(let notification):
            guard let first = notification.group.accounts.first else { return "The row \(JSONLCommand.echo(id.description)) names no account." }
            author = first
        case .domain(let domain, _): return setDomainBlock(domain, value)
        case .conversation(let conversation):
            guard let first = conversation.participants.first else { return "The row \(JSONLCommand.echo(id.description)) names no account." }
            author = first
        case .gap, .tag, .userList, .filter, .announcement, .scheduled, .notificationRequest: return "The row \(JSONLCommand.echo(id.description)) names no account."
        }
        guard let domain = DomainBlockStore.domain(ofHandle: author.handle) else {
            let handle = JSONLCommand.echo("@" + author.handle)
            return "\(handle) is on your own server, which cannot be blocked as a domain; {\"cmd\":\"block\",\"account\":\"\(JSONLCommand.echo(author.id))\"} blocks the account."
        }
        return setDomainBlock(domain, value)
    }

    /// Writes a `domainBlock` message after every change of any domain's block as the store shows
    /// it, in the order they happen. Lasts as long as the returned token.
    func followDomainBlocks() -> Subscription {
        session.domainBlocks.observe { [weak self] change in
            self?.emit(JSONLMessage.domainBlock(change))
        }
    }
}
