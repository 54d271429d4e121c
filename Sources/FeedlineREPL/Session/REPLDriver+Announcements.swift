@_spi(FeedService) import Feedline

/// Your server's announcements: `announcements read N`, `announcements read --all`, and the
/// count of unread ones said once at the start.
extension REPLDriver {
    /// `announcements read N`: marks announcement row N read on every screen at once; a refusal
    /// shows it unread again, saying why.
    func readAnnouncement(row number: Int) {
        guard case .list(let entry)? = stack.last, entry.list.source == .announcements else {
            refuse("announcements read \(number) works on the announcements screen: type announcements first (announcements read --all works anywhere).")
            return
        }
        guard let row = row(number, in: entry) else { return }
        guard let announcement = row.announcement?.announcement else {
            refuse("Row \(number) is not an announcement.")
            return
        }
        let name = "row \(number)'s announcement (\(Self.excerpt(announcement.text)))"
        if let why = session.markAnnouncementRead(announcement.id) {
            refuse(why)
            return
        }
        readAnnouncements[announcement.id] = .named(name)
        let id = announcement.id
        progress("Marking \(name) read…") { [weak self] in self?.session.announcementRead(id)?.pending == true }
    }

    /// `announcements read --all`: marks every unread announcement read, as `announcements read N`
    /// does each; one sentence says how it went once the server answered them all.
    func readAllAnnouncements() {
        guard session.announcements.isLoaded else {
            refuse("Your server's announcements are not loaded: type announcements to see them first.")
            return
        }
        let ids: [String]
        do throws(FeedFailure) {
            ids = try session.markAllAnnouncementsRead()
        } catch {
            say(error.message)
            return
        }
        let together = AskedTogether(count: ids.count)
        for id in ids { readAnnouncements[id] = .together(together) }
        let count = ids.count == 1 ? "1 announcement" : "\(ids.count) announcements"
        progress("Marking \(count) read…") { [weak self] in
            ids.contains { self?.session.announcementRead($0)?.pending == true }
        }
    }

    /// Asks the server for its announcements (counted in the session's activity: a script waits
    /// for it, the first page does not) and says how many are unread, if any. A server that
    /// cannot say (an old one, no connection) is not mentioned: the count is a courtesy.
    func countUnreadAnnouncements() {
        let session = session
        session.activity.run { [weak self] in
            guard case .success = await session.loadAnnouncements(), let self else { return }
            let unread = session.announcements.unread.count
            guard unread > 0 else { return }
            self.reports.append(
                unread == 1
                    ? "Your server has 1 unread announcement: type announcements to read it."
                    : "Your server has \(unread) unread announcements: type announcements to read them."
            )
            self.flushIfFollowing()
        }
    }

    /// What an outcome of a read typed here says.
    func announcementAnswered(_ id: String, refused: String?) {
        switch readAnnouncements.removeValue(forKey: id) {
        case nil:
            return
        case .together(let asked):
            let refusal = refused.map { _ in session.announcementRead(id)?.failure ?? "Could not mark \(session.announcements.name(id)) read." }
            guard asked.answered(refusal: refusal) else { return }
            if asked.done > 0 { reports.append("Marked \(asked.done == 1 ? "1 announcement" : "\(asked.done) announcements") read.") }
            // Sorted: the server answers them in any order.
            for failure in asked.refused.sorted() { reports.append(failure + " It shows unread again.") }
        case .named(let name):
            if let refused {
                let ended = refused.last.map { ".!?".contains($0) } ?? false
                reports.append("Could not mark \(name) read: \(refused)\(ended ? "" : ".") It shows unread again.")
            } else {
                reports.append("Marked \(name) read.")
            }
        }
    }
}
