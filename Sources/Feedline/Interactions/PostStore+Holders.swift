/// Who shows each post: lists and details hold posts through a holder, told exactly the rows
/// that show a post when it changes.
extension PostStore {
    /// What the store tells a holder about a post it shows.
    enum HolderEvent {
        /// The post's copy or shared state changed; `rows` are the holder's rows that show it.
        case changed(PostChange, rows: [RowID])
        /// The entry was deleted: `rows` are the holder's rows that showed it (every row of an
        /// original — its boosts and notifications too —, only its own rows for a boost), and
        /// `detail` whether the holder shows the deleted original as its detail. `pending` names
        /// the post of a delete the user asked for and the server has not confirmed: a holder
        /// keeps what it took away until ``undeleted(_:)`` or ``deleteSettled(_:)`` says.
        case deleted(rows: [RowID], detail: Bool, pending: PostID?)
        /// The server refused the pending delete of this post: what was taken away comes back.
        case undeleted(PostID)
        /// The server confirmed the pending delete of this post: what was kept can go.
        case deleteSettled(PostID)
        /// The user muted, blocked or unfollowed the account: `rows` are the holder's rows of its
        /// posts and boosts (see ``AccountHiding`` for which rows each removes where). While
        /// `pending`, a holder keeps what it took away until ``accountShown(_:)`` or
        /// ``accountHidingSettled(_:)`` says.
        case accountHidden(AccountID, handle: String?, rows: [RowID], hiding: AccountHiding, pending: Bool)
        /// The server refused the pending hiding of the account: what was taken away comes back.
        case accountShown(AccountID)
        /// The server confirmed the hiding of the account: what was kept can go.
        case accountHidingSettled(AccountID)
        /// The server confirmed an unmute or unblock of the account: a list that kept any of its
        /// posts away loads them again (its rows and pages may lack them for good otherwise).
        case accountUnhidden(AccountID)
        /// A domain was blocked: the rows of its accounts' posts this holder shows (their
        /// boosts, boosts of their posts) leave; a notifications list also drops what is only
        /// from them. While `pending`, kept until ``domainShown`` or ``domainHidingSettled``.
        case domainHidden(String, rows: [RowID], pending: Bool)
        /// The server refused the pending block of the domain: what was taken away comes back.
        case domainShown(String)
        /// The server confirmed the block of the domain: what was kept can go.
        case domainHidingSettled(String)
        /// Your filter with this id changed (made, changed or deleted): the posts whose filters
        /// it changed were told first (`changed`); a list takes the rows a hide filter now hides
        /// and puts back those it no longer does.
        case filterChanged(String)
        /// The post `rows` quote changed (its copy or shared state): their quotes show it.
        case quoteChanged(PostChange, rows: [RowID])
        /// The post `rows` quote was deleted: their quotes say so (the rows stay).
        case quoteDeleted(PostID, rows: [RowID])
        /// A post new to the session (in the store already): yours on its way (its local copy,
        /// ``PostID/sending(_:)``), or one a stream brought. Every holder hears it; a list
        /// shows it when ``ListSource/shows(_:showsParent:)`` says so, a detail a reply to its post.
        case arrived(NewPost)
        /// The server confirmed your post shown as `local` while it was sent: `post` (in the
        /// store), replying to `parent`. A holder that shows `local` shows `post` in its place;
        /// one that does not, as for ``arrived(_:)``.
        case ownConfirmed(Post, local: PostID, parent: PostID?)
        /// Your post shown as `local` will not be posted (refused, or deleted before its answer
        /// came): what shows it goes.
        case ownWithdrawn(PostID)
        /// The stream dropped: posts may go missing until a catch-up, so a list keeps what
        /// waits above its rows in order with what it loads meanwhile (`ListEvent/streamInterrupted`).
        /// Every live list hears it, as every one hears what the stream brings.
        case streamInterrupted
    }

    /// One list or detail showing posts. The store tells it when a post it shows changes or is
    /// deleted, with the rows that show it. Releasing the holder releases everything it showed.
    @MainActor
    final class Holder {
        fileprivate let id: Int
        fileprivate weak var store: PostStore?
        /// Originals shown, with how many rows (or the detail) show each.
        fileprivate var shown: [PostID: Int] = [:]
        /// For each row shown through ``show(_:)`` that quotes a post, one entry per time it was
        /// shown: the post it quoted then, so ``hide(_:)`` and ``moveQuote(of:)`` undo exactly
        /// that. Rows that quote nothing take no room (most rows).
        private var quotesOfRows: [RowID: [PostID]] = [:]

        fileprivate init(id: Int, store: PostStore) {
            self.id = id
            self.store = store
        }

        /// Starts showing the post `id` names (an entry or original id the store knows) in `row`
        /// (`nil` for a detail). Returns `false` for a post the store does not know.
        @discardableResult
        func show(_ id: PostID, row: RowID?) -> Bool {
            store?.show(id, row: row, by: self) ?? false
        }

        /// Stops showing the post `id` names in `row`.
        func hide(_ id: PostID, row: RowID?) {
            store?.hide(id, row: row, by: self)
        }

        /// Starts showing the post `id` names as the quote inside `row` (a row, or the detail's
        /// own id): its changes and its delete reach `row` as ``HolderEvent/quoteChanged(_:rows:)``
        /// and ``HolderEvent/quoteDeleted(_:rows:)`` — hiding and deleting the quoted post never
        /// takes the quoting row away. Returns `false` for a post the store does not know.
        @discardableResult
        func showQuote(_ id: PostID, in row: RowID) -> Bool {
            store?.showQuote(id, in: row, by: self) ?? false
        }

        /// Stops showing the post `id` names as the quote inside `row`.
        func hideQuote(_ id: PostID, in row: RowID) {
            store?.hideQuote(id, in: row, by: self)
        }

        /// Starts showing what `row` shows: its post and the post that one quotes.
        func show(_ row: ListRow) {
            guard let post = row.shownPost else { return }
            show(post.originalID, row: row.id)
            guard let quoted = post.quotedID else { return }
            showQuote(quoted, in: row.id)
            quotesOfRows[row.id, default: []].append(quoted)
        }

        /// Stops showing what `row` shows (the quote it was shown with, whatever it quotes now).
        func hide(_ row: ListRow) {
            guard let post = row.shownPost else { return }
            hide(post.originalID, row: row.id)
            guard var quotes = quotesOfRows[row.id], let last = quotes.popLast() else { return }
            quotesOfRows[row.id] = quotes.isEmpty ? nil : quotes
            hideQuote(last, in: row.id)
        }

        /// `row`, changed in place, now quotes what it shows: the quote it was shown with is
        /// hidden and the one it quotes now shown (a quote approved, withdrawn or deleted since).
        /// Returns whether it changed.
        @discardableResult
        func moveQuote(of row: ListRow) -> Bool {
            let now = row.shownPost?.quotedID
            let quotes = quotesOfRows[row.id] ?? []
            guard quotes.contains(where: { $0 != now }) || (quotes.isEmpty && now != nil) else { return false }
            for old in quotes { hideQuote(old, in: row.id) }
            guard let now else {
                quotesOfRows[row.id] = nil
                return true
            }
            // A row that quoted nothing when shown was shown once as far as this knows.
            for _ in 0..<max(1, quotes.count) { showQuote(now, in: row.id) }
            quotesOfRows[row.id] = Array(repeating: now, count: max(1, quotes.count))
            return true
        }

        /// The rows of this holder that show the post `id` names. O(holders of the post).
        func rows(showing id: PostID) -> [RowID] {
            store?.rows(showing: id, in: self) ?? []
        }

        /// Stops showing everything.
        func hideAll() {
            quotesOfRows.removeAll()
            store?.release(self)
        }

        isolated deinit {
            store?.release(self)
        }
    }

    // MARK: - Holders

    /// A holder whose `onChange` hears of every change of a post it shows, with the rows that
    /// show it. The store does not keep the holder alive.
    func makeHolder(onChange: @escaping @MainActor (HolderEvent) -> Void) -> Holder {
        nextHolderID += 1
        holders[nextHolderID] = onChange
        return Holder(id: nextHolderID, store: self)
    }

    private func show(_ id: PostID, row: RowID?, by holder: Holder) -> Bool {
        // Rows name their original id: one lookup, not two.
        guard let entry = entries[id] ?? originalOfEntry[id].flatMap({ entries[$0] }), let originalID = entry.post?.id else { return false }
        if let index = entry.holders.firstIndex(where: { $0.id == holder.id }) {
            if let row { entry.holders[index].append(row) } else { entry.holders[index].details += 1 }
        } else {
            entry.holders.append(Showing(id: holder.id, row: row))
        }
        holder.shown[originalID, default: 0] += 1
        used(entry)
        return true
    }

    private func hide(_ id: PostID, row: RowID?, by holder: Holder) {
        guard let entry = entries[id] ?? originalOfEntry[id].flatMap({ entries[$0] }),
            let index = entry.holders.firstIndex(where: { $0.id == holder.id }), let originalID = entry.post?.id
        else { return }
        if let row {
            guard entry.holders[index].remove(row) else { return }
        } else {
            guard entry.holders[index].details > 0 else { return }
            entry.holders[index].details -= 1
        }
        if entry.holders[index].isEmpty { entry.holders.remove(at: index) }
        if let count = holder.shown[originalID] { holder.shown[originalID] = count > 1 ? count - 1 : nil }
        if entry.isUnshown { becameUnused(originalID, entry) }
        evictIfNeeded()
    }

    private func showQuote(_ id: PostID, in row: RowID, by holder: Holder) -> Bool {
        guard let entry = entries[id] ?? originalOfEntry[id].flatMap({ entries[$0] }), let originalID = entry.post?.id else { return false }
        if let index = entry.quoting.firstIndex(where: { $0.id == holder.id }) {
            entry.quoting[index].rows.append(row)
        } else {
            entry.quoting.append((holder.id, [row]))
        }
        holder.shown[originalID, default: 0] += 1
        used(entry)
        return true
    }

    private func hideQuote(_ id: PostID, in row: RowID, by holder: Holder) {
        guard let entry = entries[id] ?? originalOfEntry[id].flatMap({ entries[$0] }),
            let index = entry.quoting.firstIndex(where: { $0.id == holder.id }), let originalID = entry.post?.id,
            let position = entry.quoting[index].rows.firstIndex(of: row)
        else { return }
        entry.quoting[index].rows.remove(at: position)
        if entry.quoting[index].rows.isEmpty { entry.quoting.remove(at: index) }
        if let count = holder.shown[originalID] { holder.shown[originalID] = count > 1 ? count - 1 : nil }
        if entry.isUnshown { becameUnused(originalID, entry) }
        evictIfNeeded()
    }

    private func rows(showing id: PostID, in holder: Holder) -> [RowID] {
        entry(id)?.holders.first { $0.id == holder.id }?.rows ?? []
    }

    private func release(_ holder: Holder) {
        holders[holder.id] = nil
        for originalID in holder.shown.keys {
            guard let entry = entries[originalID] else { continue }
            entry.holders.removeAll { $0.id == holder.id }
            entry.quoting.removeAll { $0.id == holder.id }
            if entry.isUnshown { becameUnused(originalID, entry) }
        }
        holder.shown.removeAll()
        evictIfNeeded()
    }
}
