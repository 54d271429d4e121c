@_spi(FeedService) import Feedline

/// `notifications filtered`: the requests of filtered notifications (Mastodon 4.3+), one row per
/// account; `accept N` and `dismiss N` on that screen answer one (on the follow-request screen
/// and the notifications screens they keep their own meaning).
extension REPLDriver {
    /// `accept N` or `dismiss N` typed on a row of filtered notifications: it leaves every
    /// filtered screen at once; a refusal brings it back, saying why.
    func answerNotificationRequest(_ request: NotificationRequest, row number: Int, _ answer: NotificationRequest.Answer) {
        let name = "@\(TextWidth.oneLine(request.account.handle))'s filtered notifications"
        guard !session.isNotificationRequestPending(request.id) else {
            refuse("\(name) are being answered already.")
            return
        }
        do throws(FeedFailure) {
            try session.answerNotificationRequest(request.id, answer)
        } catch {
            refuse(error.message)
            return
        }
        answeredRequests[request.id] = .named(name)
        // Once the server confirms an accept, the notifications screens load their first page
        // again (the session asks): a reload asked for here, not one an unmute brought.
        if answer == .accept { acceptReloads(expected: true) }
        let count = request.notificationsCount == 1 ? "1 notification" : "\(request.notificationsCount) notifications"
        let line = answer == .accept ? "Accepting \(name) (\(count))…" : "Dismissing \(name) (\(count))…"
        progress(line) { [weak self] in self?.session.isNotificationRequestPending(request.id) == true }
    }

    /// `accept --all` or `dismiss --all` on the filtered notifications: answers every request
    /// loaded there, as `accept N` does each; one sentence says how it went once the server
    /// answered them all.
    func answerAllNotificationRequests(_ answer: NotificationRequest.Answer) {
        let word = answer == .accept ? "accept" : "dismiss"
        guard case .list(let entry)? = stack.last, entry.list.source == .notificationRequests else {
            let elsewhere = answer == .dismiss ? " (notifications clear dismisses every notification)" : ""
            refuse("\(word) --all works on the filtered notifications\(elsewhere): type notifications filtered first.")
            return
        }
        let requests = Dictionary(session.notificationRequestList.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let ids: [String]
        do throws(FeedFailure) {
            ids = try session.answerAllNotificationRequests(answer)
        } catch {
            say(error.message)
            return
        }
        let together = AskedTogether(count: ids.count)
        for id in ids { answeredRequests[id] = .together(together) }
        if answer == .accept { acceptReloads(expected: true) }
        let notifications = ids.reduce(0) { $0 + (requests[$1]?.notificationsCount ?? 0) }
        let accounts = ids.count == 1 ? "1 account" : "\(ids.count) accounts"
        let count = notifications == 1 ? "1 notification" : "\(notifications) notifications"
        let line = "\(answer == .accept ? "Accepting" : "Dismissing") the filtered notifications of \(accounts) (\(count))…"
        progress(line) { [weak self] in
            ids.contains { self?.session.isNotificationRequestPending($0) == true }
        }
    }

    /// What an outcome of an answer typed here says.
    func notificationRequestAnswered(_ id: String, accept: Bool, refused: String?) {
        switch answeredRequests.removeValue(forKey: id) {
        case nil:
            return
        case .together(let asked):
            let refusal = refused.map { refused in
                let name = session.notificationRequest(id).map { "@\(TextWidth.oneLine($0.request.account.handle))'s filtered notifications" } ?? "filtered notifications \(id)"
                return "Could not \(accept ? "accept" : "dismiss") \(name): \(Self.sentence(refused)) They are back on the list."
            }
            guard asked.answered(refusal: refusal) else { return }
            if accept, asked.done == 0 { acceptReloads(expected: false) }
            if asked.done > 0 {
                let accounts = asked.done == 1 ? "1 account" : "\(asked.done) accounts"
                reports.append(
                    accept
                        ? "Accepted the filtered notifications of \(accounts): they are among your notifications now."
                        : "Dismissed the filtered notifications of \(accounts)."
                )
            }
            // Sorted: the server answers them in any order.
            reports.append(contentsOf: asked.refused.sorted())
        case .named(let name):
            if let refused {
                if accept { acceptReloads(expected: false) }
                reports.append("Could not \(accept ? "accept" : "dismiss") \(name): \(Self.sentence(refused)) They are back on the list.")
            } else if accept {
                reports.append("Accepted \(name): they are among your notifications now.")
            } else {
                reports.append("Dismissed \(name).")
            }
        }
    }

    /// Marks the notifications screens as reloading at the person's asking (or no longer): an
    /// accept the server confirms loads their first page again, and they are not told that an
    /// unmuted account's posts are back.
    private func acceptReloads(expected: Bool) {
        for case .list(let entry) in stack {
            switch entry.list.source {
            case .notifications, .notificationsOf: entry.reloadAsked = expected
            default: continue
            }
        }
    }
}
