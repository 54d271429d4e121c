@_spi(FeedService) import Feedline

/// `block-domain` and `unblock-domain`: block or unblock a whole domain through the session's
/// one domain block store — every screen follows at once — and say what the server answered.
extension REPLDriver {
    func setDomainBlock(_ command: DomainBlockCommand) {
        guard let domain = domainTarget(command) else { return }
        let name = command.value ? "block-domain" : "unblock-domain"
        if let shown = session.domainBlock(domain), shown.isOn == command.value, !shown.pending {
            say(command.value ? "The domain \(domain) is blocked already." : "The domain \(domain) is not blocked.")
            return
        }
        if command.value, !command.confirmed {
            say("Block every account of \(domain)? Their posts, boosts and notifications leave every screen, and the server ends any follow between you and them. Type \(name) \(domain) --yes to block.")
            return
        }
        guard session.setDomainBlock(domain, command.value) else {
            refuse("\"\(domain)\" is not a domain.")
            return
        }
        say(command.value ? "Blocking the domain \(domain)… posts from its accounts left every screen." : "Unblocking the domain \(domain)…")
    }

    /// The domain a command names; `nil` after saying why not.
    private func domainTarget(_ command: DomainBlockCommand) -> String? {
        let name: CommandName = command.value ? .blockDomain : .unblockDomain
        func domain(of author: Author) -> String? {
            guard let domain = DomainBlockStore.domain(ofHandle: author.handle) else {
                refuse("@\(author.handle) is on your own server, which cannot be blocked as a domain; block @\(author.handle) blocks the account.")
                return nil
            }
            return domain
        }
        switch command.target {
        case .domain(let typed)?:
            return typed
        case .row(let number)?:
            guard case .row(_, let row, let number)? = target(number, name: name) else { return nil }
            if case .domain(let domain, _) = row { return domain }
            return account(namedBy: row, number: number, notA: "an account or a domain").flatMap(domain(of:))
        case nil:
            switch stack.last {
            case .post(let entry)?:
                guard let post = loadedPost(entry) else { return nil }
                return domain(of: post.content.author)
            case .list(let entry)?:
                if let profile = entry.list.profile {
                    if let loaded = profile.current.profile { return domain(of: loaded.author) }
                    refuse("The profile is still loading; \(name.rawValue) works once it shows.")
                    return nil
                }
                refuse("\(name.rawValue) needs a row number or a domain here, for example: \(name.rawValue) 3 or \(name.rawValue) promo.example.")
                return nil
            case nil:
                return nil
            }
        }
    }
}
