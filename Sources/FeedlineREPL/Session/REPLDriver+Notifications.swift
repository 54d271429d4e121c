@_spi(FeedService) import Feedline
import Foundation

/// Notifications you control: `dismiss N` and `notifications clear [--yes]`.
extension REPLDriver {
    /// `dismiss N`: takes notification row N off every notifications screen at once; a refusal
    /// brings it back, saying why.
    func dismissNotification(row number: Int) {
        guard case .row(_, let row, let number)? = target(number, name: .dismiss) else { return }
        if let request = row.notificationRequest {
            // On the filtered-notifications screen, dismiss drops the account's notifications.
            answerNotificationRequest(request, row: number, .dismiss)
            return
        }
        guard let notification = row.notification else {
            refuse("Row \(number) is not a notification; dismiss works on the notifications screens.")
            return
        }
        let key = notification.id
        let name = "row \(number)'s notification (\(Self.describe(notification.group)))"
        guard session.dismissNotification(key) else {
            refuse("The notification of row \(number) is being dismissed already.")
            return
        }
        dismissedNotifications[key] = name
        progress("Dismissing \(name)…") { [weak self] in self?.session.isNotificationDismissalPending(key) == true }
    }

    /// `notifications clear [--yes]`: asks first in a live session (y/N); a script must say
    /// `--yes`.
    func clearNotifications(confirmed: Bool) {
        guard confirmed else {
            guard options.live else {
                refuse("notifications clear dismisses every notification and asks first; a script cannot answer: type notifications clear --yes to clear them.")
                return
            }
            say("Dismiss every notification? Every notifications screen empties and your server forgets them. Clear them? [y/N]")
            confirming = .clearNotifications
            return
        }
        guard session.clearNotifications() else {
            refuse("Your notifications are being cleared already.")
            return
        }
        askedClear = true
        // Once the server confirms, the screens the clear emptied load their first page again
        // (the session asks): a reload asked for here, not one an unmute brought.
        clearReloads(expected: true)
        progress("Clearing your notifications…") { [weak self] in self?.session.isNotificationDismissalPending(nil) == true }
    }

    /// Marks the notifications screens a clear emptied as reloading at the person's asking (or
    /// no longer): they are not told that an unmuted account's posts are back.
    private func clearReloads(expected: Bool) {
        for case .list(let entry) in stack where entry.list.rows.isEmpty {
            switch entry.list.source {
            case .notifications, .notificationsOf: entry.reloadAsked = expected
            default: continue
            }
        }
    }

    /// "favourite from @ana, @bo and 3 others".
    static func describe(_ group: NotificationGroup) -> String {
        let handles = group.accounts.prefix(2).map { "@" + $0.handle }
        let others = group.count - handles.count
        var who = handles.joined(separator: ", ")
        if others > 0, !handles.isEmpty { who += " and \(others) other\(others == 1 ? "" : "s")" }
        return who.isEmpty ? group.kind.apiName : "\(group.kind.apiName) from \(who)"
    }

    /// What an outcome of a dismissal typed here says.
    func notificationsAnswered(_ subject: Outcome.Subject, refused: String?) {
        switch subject {
        case .notificationDismissal(let group):
            guard let name = dismissedNotifications.removeValue(forKey: group) else { return }
            if let refused {
                reports.append("Could not dismiss \(name): \(refused) It is back where it was.")
            } else {
                reports.append("Dismissed \(name).")
            }
        case .notificationsCleared:
            guard askedClear else { return }
            askedClear = false
            // Refused: nothing is reloaded, and the next reload of those screens is not this one.
            if refused != nil { clearReloads(expected: false) }
            if let refused {
                reports.append("Could not clear your notifications: \(refused) They are back where they were.")
            } else {
                reports.append("Cleared your notifications.")
            }
        default: return
        }
    }
}
