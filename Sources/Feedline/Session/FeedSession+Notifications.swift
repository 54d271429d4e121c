extension FeedSession {
    /// Dismisses the notification group `group` (its key, ``NotificationGroup/id``; Mastodon's
    /// `POST /api/v2/notifications/:group_key/dismiss`): off every notifications screen at once —
    /// the plain one and those of some kinds —, back where it was if the server refuses (its
    /// sentence is the ``Outcome/refused(_:sentence:)`` of ``Outcome/Subject/notificationDismissal(group:)``),
    /// sent again when the server cannot be reached. Returns `false` (nothing happens) when it
    /// is dismissed already or on its way.
    @discardableResult
    public func dismissNotification(_ group: String) -> Bool {
        notifications.dismiss(group)
    }

    /// Dismisses every notification (Mastodon's `POST /api/v1/notifications/clear`): every
    /// notifications screen empties at once, and what they showed comes back if the server
    /// refuses (``Outcome/Subject/notificationsCleared``); sent again when the server cannot be
    /// reached. Returns `false` (nothing happens) when a clear is on its way already.
    @discardableResult
    public func clearNotifications() -> Bool {
        notifications.clear()
    }

    /// Whether the dismissal of the group `group` (or, for `nil`, the clear) waits for the server.
    public func isNotificationDismissalPending(_ group: String?) -> Bool {
        notifications.isPending(group.map(NotificationDismissals.Key.group) ?? .all)
    }
}
