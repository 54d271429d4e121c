@_spi(FeedService) import Feedline

/// Commands on the list on top: more, refresh, new, open, gap.
extension REPLDriver {
    func runOnList(_ command: Command, _ entry: ListEntry) {
        let list = entry.list
        switch command {
        case .more: more(entry)
        case .refresh: list.refresh()
        case .reload:
            entry.reloadAsked = true
            list.reload()
        case .new:
            if list.status.waiting == 0 {
                // Without live updates (off, or the token refused) only a refresh brings newer ones.
                let live = switch session.streamState.value {
                case .off, .refused: false
                case .connecting, .live, .reconnecting, .polling: true
                }
                say(live ? "Nothing new waits above." : "Nothing new waits above; refresh loads newer \(wording(of: entry).items).")
            } else {
                list.showWaiting()
            }
        case .open(let number):
            guard let row = row(number, in: entry) else { return }
            switch row {
            case .post(let post):
                guard self.post(of: row, number: number) != nil else { return }
                session.navigator.open(post.post.id)
            case .notification(let notification):
                if let post = notification.post {
                    session.navigator.open(post.id)
                } else if let account = notification.group.accounts.first {
                    pushProfile(account)
                } else {
                    refuse("Row \(number) is a notification about nothing to open.")
                }
            case .account(let account): pushProfile(account.author)
            case .tag(let tag):
                tags.insert(tag.name)
                session.navigator.push(.list(.feed(.tag(tag.name))))
            case .domain(let domain, _): refuse("Row \(number) is the domain \(domain): unblock-domain \(number) unblocks it.")
            case .conversation(let conversation):
                // Its thread, and the conversation is read (at once on every screen).
                if !session.openConversation(row: row.id, in: list) {
                    refuse("Row \(number) is a conversation with no post to open (with \(conversation.participantHandles)).")
                }
            case .userList(let row): openList(row)
            case .filter(let filter, _): refuse("Row \(number) is the filter \(filter.title): it has nothing to open.")
            case .announcement: refuse("Row \(number) is an announcement: it shows whole here; announcements read \(number) marks it read.")
            case .scheduled: refuse("Row \(number) is a scheduled post: it is not posted yet, so there is nothing to open (scheduled edit or cancel acts on it).")
            case .notificationRequest(let request, _):
                refuse("Row \(number) is @\(request.account.handle)'s filtered notifications: accept \(number) brings them into your notifications, dismiss \(number) drops them; profile \(number) opens the account.")
            case .gap: refuse(gapSentence(number))
            }
        case .gap(let number):
            guard let row = row(number, in: entry) else { return }
            guard let gap = row.gap else {
                refuse("Row \(number) is not a gap; open \(number) shows it.")
                return
            }
            if gap.isLoading {
                say("Gap \(number) is already loading.")
            } else {
                list.openGap(row.id)
            }
        default: break
        }
    }

    func more(_ entry: ListEntry) {
        if entry.screen.reveal(options.pageSize, rows: entry.list.rows) > 0 {
            reportDisplayed(entry)
            return
        }
        let status = entry.list.status
        if status.reachedEnd {
            say("End of \(wording(of: entry).title): there is nothing older.")
        } else {
            entry.screen.owed = options.pageSize
            if status.loading == nil { entry.list.loadMore() }
        }
    }
}
