@_spi(FeedService) import Feedline

/// Following the session: snapshots of every screen, the stream's state, posts that changed elsewhere, what Tab completes.
extension REPLDriver {
    func listChanged(_ entry: ListEntry, _ snapshot: FeedListViewModel.Snapshot) {
        let failure = snapshot.status.failure
        if let failure, entry.lastFailure != failure { failures += 1 }
        entry.lastFailure = failure
        if learn(from: snapshot, all: !entry.learnt) { tellCompletion() }
        entry.learnt = true
        if snapshot.status.loading == .reload {
            entry.reloading = true
        } else if entry.reloading {
            entry.reloading = false
            if snapshot.status.failure?.intent != .reload {
                // Loaded again from the top: a new screen of it, numbered afresh, as a list opened now.
                entry.screen = ListScreen()
                entry.screen.owed = options.pageSize
                // Not asked for here: said when the screen is next shown.
                entry.reloadedUnasked = !entry.reloadAsked
            }
            entry.reloadAsked = false
        }
        entry.screen.receive(snapshot)
        reportDisplayed(entry)
        if options.live, following, isTop(entry) { flush() }
    }

    /// Tells a list which rows came into view (this drives prefetching).
    func reportDisplayed(_ entry: ListEntry) {
        for id in entry.screen.takeDisplayed() { entry.list.rowWillDisplay(id) }
    }

    /// Says how live updates arrive when that changes (after the first screen).
    func streamChanged(_ state: StreamState) {
        defer { lastStream = state }
        guard following, state != lastStream else { return }
        let note: String? = switch state {
        case .off, .connecting: nil
        case .live: lastStream == .connecting || lastStream == .off
            ? "Live: newer posts wait above the rows; newer shows them."
            : "The stream is back; catching up on what came meanwhile."
        case .reconnecting(let after, let attempt):
            "The stream dropped; reconnecting " + (after > .zero ? "in \(Self.seconds(after)) (attempt \(attempt))." : "now.")
        case .polling(let every): "No live stream here; checking for new posts every \(Self.seconds(every))."
        case .refused(let message): message
        }
        guard let note else { return }
        notes.append(note)
        if options.live { flush() }
    }

    /// Remembers a failed interaction on a post no screen on top shows, to say so where the
    /// user is.
    func postChanged(_ change: PostChange) {
        reportOutbox(change)
        if !reports.isEmpty, options.live, following { flush() }
        guard let failure = change.interaction.failure else {
            knownFailures[change.originalID] = nil
            return
        }
        guard knownFailures[change.originalID] != failure else { return }
        knownFailures[change.originalID] = failure
        failures += 1
        if topShows(change.originalID) { return }
        let author = TextWidth.oneLine(change.post.author.name)
        if !failure.isTransient { refusalSaid(.post(change.originalID), failure.message) }
        announcements.append(
            "! On another screen, the post by \(author): \(RowRenderer.sentence(failure.message))" + (failure.isTransient ? " Type retry to try again." : "")
        )
        if options.live, following { flush() }
    }

    func topShows(_ originalID: PostID) -> Bool {
        switch stack.last {
        case .post(let entry)?:
            return entry.detail.current.post?.id == originalID
        case .list(let entry)?:
            // The list knows its rows of the post; the screen, how many rows are in view.
            let shown = entry.screen.viewport.shown
            return entry.list.rows(showing: originalID).contains { entry.list.rows.index(of: $0).map { $0 < shown } ?? false }
        case nil:
            return false
        }
    }

    /// Remembers the handles and tags of rows a snapshot brought (for Tab completion), shown or
    /// not: every row when `all` (a list's first snapshot replays rows it may already hold, such as
    /// a restored timeline's), else the inserted and updated rows only, so a long list costs
    /// nothing per command. Returns whether a handle or tag was new.
    func learn(from snapshot: FeedListViewModel.Snapshot, all: Bool) -> Bool {
        let before = (handles: handles.count, tags: tags.count)
        func remember(_ row: ListRow) {
            switch row {
            case .post(let post):
                handles[post.author.id] = post.author.handle
                if let booster = post.boostedBy { handles[booster.id] = booster.handle }
                for tag in post.content.tags { tags.insert(tag) }
            case .notification(let notification):
                for account in notification.group.accounts { handles[account.id] = account.handle }
                for tag in notification.post?.content.tags ?? [] { tags.insert(tag) }
            case .account(let account): handles[account.author.id] = account.author.handle
            case .tag(let tag): tags.insert(tag.name)
            case .conversation(let row):
                for account in row.participants { handles[account.id] = account.handle }
                for tag in row.lastPost?.content.tags ?? [] { tags.insert(tag) }
            case .gap, .domain, .userList, .filter, .announcement, .scheduled, .notificationRequest: break
            }
        }
        if all {
            for row in snapshot.rows { remember(row) }
            return handles.count != before.handles || tags.count != before.tags
        }
        // An updated row keeps its author and booster (an edit can bring new tags, though).
        for row in snapshot.changes.updates.lazy.map(\.element) {
            for tag in row.post?.content.tags ?? [] { tags.insert(tag) }
        }
        for row in snapshot.changes.insertions.lazy.map(\.element) { remember(row) }
        return handles.count != before.handles || tags.count != before.tags
    }

    /// Hands the completion context to ``Options/completionChanged`` when it differs from what
    /// it was told last.
    func tellCompletion() {
        guard let completionChanged = options.completionChanged else { return }
        let context = completionContext
        guard context != toldCompletion else { return }
        toldCompletion = context
        completionChanged(context)
    }

    /// In a thread that shows fewer replies than its post counts, says once why.
    func noteMissingReplies(_ entry: ListEntry) {
        guard case .thread = entry.list.source, !entry.notedMissingReplies, entry.list.status.loading == nil else { return }
        let rows = entry.list.rows.compactMap(\.post)
        guard let focus = rows.first(where: \.isThreadFocus) else { return }
        entry.notedMissingReplies = true
        let shown = rows.count { ($0.threadDepth ?? 0) > 0 }
        let counted = focus.repliesCount
        guard counted > shown else { return }
        emit(rowRenderer.note(DetailRenderer.missingReplies(counted: counted, shown: shown, reason: options.missingRepliesReason)))
    }

    /// Draws at the terminal's width when following it and it changed.
    func followTerminal() {
        guard options.followsTerminal else { return }
        let width = max(20, terminalWidth())
        guard width != options.width else { return }
        options.width = width
        rowRenderer = RowRenderer(width: width, style: options.style, clock: session.clock, cache: cache)
        detailRenderer = DetailRenderer(width: width, style: options.style, clock: session.clock, cache: cache, missingRepliesReason: options.missingRepliesReason)
    }

    /// `5 s`, `1 min`, `90 s`.
    static func seconds(_ duration: Duration) -> String {
        let seconds = Int(duration.components.seconds)
        return seconds >= 60 && seconds.isMultiple(of: 60) ? "\(seconds / 60) min" : "\(seconds) s"
    }
}
