extension SavedList {
    /// What to save of a list in `state` for the next run: the rows waiting above and the rows,
    /// newest first, at most `limit` entries (a gap never first or last; posts on their way
    /// are not saved), where older pages continue, and the reading position. O(limit).
    init(_ state: ListState, limit: Int) {
        var entries: [Entry] = []
        entries.reserveCapacity(min(limit, state.waiting.count + state.rows.count))
        var truncated = false
        for row in [state.waiting, state.rows].joined() {
            guard entries.count < limit else {
                truncated = true
                break
            }
            switch row {
            case .post(let post): if !post.isSending { entries.append(.post(post.post)) }
            case .gap(let gap): if !entries.isEmpty { entries.append(.gap(below: gap.below, above: gap.above)) }
            case .notification, .account, .tag, .domain, .conversation, .userList, .filter, .announcement, .scheduled, .notificationRequest: continue
            }
        }
        while case .gap? = entries.last { entries.removeLast() }
        // Cut short, older pages continue below the last entry kept.
        let older: PageCursor?
        if truncated, case .post(let last)? = entries.last {
            older = PageCursor(last.id.rawValue)
        } else if case .from(let cursor) = state.older {
            older = cursor
        } else {
            older = nil
        }
        self.init(entries: entries, older: older, position: state.position)
    }
}
