@_spi(FeedService) import Feedline

/// `report` and `rules`: an account (and posts of theirs) reported to your server's moderators
/// through the session's one report store — every row of the account and the reported posts
/// marked at once on every screen — and the instance's rules, numbered as `report --rules`
/// names them.
extension REPLDriver {
    /// A report waiting for its y/N in an interactive session.
    struct PendingReport {
        var report: AccountReport
        var handle: String
    }

    /// `report …`: works out who and which posts, asks (y/N) in a terminal — a script must say
    /// `--yes` — and sends it.
    func report(_ command: ReportCommand) {
        guard let (account, handle, firstPost) = reportTarget(command) else { return }
        var posts = firstPost.map { [$0] } ?? []
        if !command.posts.isEmpty {
            guard case .list(let entry)? = stack.last else {
                refuse("--posts names rows of a list; on a post, report attaches that post.")
                return
            }
            for number in command.posts {
                guard let row = row(number, in: entry), let post = post(of: row, number: number) else { return }
                guard post.author.id == account.rawValue else {
                    refuse("Row \(number)'s post is by @\(post.author.handle), not @\(handle): a report attaches only posts of the account reported.")
                    return
                }
                posts.append(post.originalID)
            }
        }
        if command.rules.isEmpty {
            confirmReport(command, AccountReport(account: account, posts: posts, comment: command.comment, forward: command.forward, category: command.category), handle: handle)
            return
        }
        // The rules are named by their numbers in `rules`: their ids come from the server.
        withRules { [weak self] rules in
            guard let self else { return }
            var ids: [String] = []
            for number in command.rules {
                guard rules.indices.contains(number - 1) else {
                    self.refuse("There is no rule \(number): your server has \(rules.count) rule\(rules.count == 1 ? "" : "s") (rules lists them).")
                    self.flushIfFollowing()
                    return
                }
                ids.append(rules[number - 1].id)
            }
            let report = AccountReport(account: account, posts: posts, comment: command.comment, forward: command.forward, category: command.category, rules: ids)
            self.confirmReport(command, report, handle: handle)
            self.flushIfFollowing()
        }
    }

    /// The account a report names, its handle and the post it attaches (a post row's); `nil`
    /// after saying why not.
    private func reportTarget(_ command: ReportCommand) -> (AccountID, String, PostID?)? {
        switch target(command.row, name: .report, onPost: "reports that post's author") {
        case .post(let entry)?:
            guard let post = loadedPost(entry)?.content else { return nil }
            return (AccountID(post.author.id), post.author.handle, post.id)
        case .row(_, let row, let number)?:
            switch row {
            case .account(let account): return (account.id, account.author.handle, nil)
            case .notification(let notification) where notification.post == nil:
                if let account = notification.group.accounts.first { return (AccountID(account.id), account.handle, nil) }
                refuse("Row \(number) names no account.")
                return nil
            default:
                guard let post = post(of: row, number: number) else { return nil }
                return (AccountID(post.author.id), post.author.handle, post.originalID)
            }
        case nil:
            return nil
        }
    }

    /// Sends `report` when confirmed; otherwise asks (interactive) or says a script needs `--yes`.
    private func confirmReport(_ command: ReportCommand, _ report: AccountReport, handle: String) {
        if let shown = session.reportMark(of: report.account), shown.isOn {
            refuse(shown.pending ? "Your report of @\(handle) is on its way." : "You already reported @\(handle) this session.")
            return
        }
        let what = Self.reportSummary(report, handle: handle)
        guard command.confirmed else {
            guard options.live else {
                var confirmed = command
                confirmed.confirmed = true
                refuse("report asks before it sends, and a script cannot answer: add --yes to send it (\(confirmed.text)).")
                return
            }
            confirming = .report(PendingReport(report: report, handle: handle))
            say("Report \(what) to the moderators of your server? [y/N]")
            return
        }
        sendReport(report, handle: handle)
    }

    func sendReport(_ report: AccountReport, handle: String) {
        if let refusal = session.report(report, handle: handle) {
            refuse(refusal)
            return
        }
        handles[report.account.rawValue] = handle
        progress("Reporting @\(handle)… marked ⚑ on every screen.") { [weak self] in self?.session.reportMark(of: report.account)?.pending == true }
    }

    /// "@x (2 posts, spam, rules 1 and 3, forwarded)".
    static func reportSummary(_ report: AccountReport, handle: String) -> String {
        var parts: [String] = []
        if !report.posts.isEmpty { parts.append(report.posts.count == 1 ? "1 post" : "\(report.posts.count) posts") }
        parts.append(report.category.rawValue)
        if report.forward { parts.append("a copy to their server") }
        return "@\(handle) (\(parts.joined(separator: ", ")))"
    }

    /// What the server did with a report typed here.
    func reportAnswered(_ account: AccountID, refused: String?) {
        let name = handles[account.rawValue].map { "@" + $0 } ?? "the account"
        if let refused {
            reports.append((session.reportMark(of: account)?.failure ?? refused) + " The ⚑ marks are gone.")
        } else {
            reports.append("Done: reported \(name) to the moderators of your server.")
        }
    }

    /// `rules`: the instance's rules, numbered.
    func showRules() {
        withRules { [weak self] rules in
            guard let self else { return }
            if rules.isEmpty {
                self.reports.append("Your server lists no rules.")
            } else {
                self.reports.append("The rules of your server (report --category violation --rules N names them):")
                for (index, rule) in rules.enumerated() {
                    self.reports.append("\(index + 1). \(rule.text)" + (rule.hint.isEmpty ? "" : " — \(rule.hint)"))
                }
            }
            self.flushIfFollowing()
        }
    }

    /// Calls `then` with the instance's rules: the ones read this session, or read now (a
    /// failure is said, and `then` not called).
    private func withRules(_ then: @escaping @MainActor @Sendable ([InstanceRule]) -> Void) {
        if let instanceRules {
            then(instanceRules)
            return
        }
        let session = session
        session.activity.run { [weak self] in
            let result = await session.instanceRules()
            guard let self else { return }
            switch result {
            case .success(let rules):
                self.instanceRules = rules
                then(rules)
            case .failure(let failure):
                self.reports.append("Could not read your server's rules: \(failure.message)")
                self.failures += 1
                self.flushIfFollowing()
            }
        }
    }
}
