extension StartPositions {
    /// Applies one event in place. Pure: the result depends on the state, the event and the
    /// server's id order `isNewer` (`nil` when the ids cannot tell; positions are then ordered by
    /// date). See `StartPositions` for the rules.
    package mutating func reduce(_ event: StartEvent, isNewer: (ItemID, ItemID) -> Bool?) {
        switch event {
        case .loaded(let saved, let position):
            home = saved
            notifications = position
            savedNotifications = position

        case .markersRead(let markers, let known):
            if let marker = markers[.notifications] { takeNotifications(ReadingPosition(id: marker.id, createdAt: .distantPast), isNewer: isNewer) }
            guard let marker = markers[.home] else { return }
            if homeShown {
                if let known {
                    moveLate(to: ReadingPosition(known), isNewer: isNewer)
                } else {
                    wantedPost = marker.id.post
                }
            } else {
                adopt(marker)
            }

        case .markerPostFetched(let post):
            guard wantedPost != nil else { return }
            wantedPost = nil
            let position = ReadingPosition(post)
            if homeShown {
                moveLate(to: position, isNewer: isNewer)
                return
            }
            if let local = home?.position, !position.isNewer(than: local) { return }
            home = SavedList(entries: [.post(post)], older: PageCursor(post.id.rawValue), position: position)
            fresh = [post.id]

        case .markerPostFailed:
            wantedPost = nil

        case .homeShown:
            homeShown = true

        case .lateHomeTaken:
            lateHome = nil

        case .notificationsReached(let position):
            takeNotifications(position, isNewer: isNewer)

        case .notificationsSaved(let position):
            savedNotifications = position
        }
    }

    /// The saved home list as the home marker says, before it is shown.
    private mutating func adopt(_ marker: ServerMarker) {
        guard var saved = home else {
            wantedPost = marker.id.post
            return
        }
        if saved.position?.id == marker.id { return }
        if let index = saved.entries.firstIndex(where: { $0.rowID == .post(marker.id.post) }), case .post(let post) = saved.entries[index] {
            // A saved post: the marker is further on when it stands above the saved position.
            let local = saved.position.flatMap { position in saved.entries.firstIndex { $0.rowID == .post(position.id.post) } }
            guard local.map({ index < $0 }) ?? true else { return }
            saved.position = ReadingPosition(post)
            home = saved
            return
        }
        // Saved before the saved position's post was written: older.
        if let position = saved.position, let updatedAt = marker.updatedAt, updatedAt <= position.createdAt { return }
        wantedPost = marker.id.post
    }

    /// A position for the shown home list, when it is further on than what it would take.
    private mutating func moveLate(to position: ReadingPosition, isNewer: (ItemID, ItemID) -> Bool?) {
        if let current = lateHome, !Self.isFurther(position, than: current, isNewer: isNewer) { return }
        lateHome = position
    }

    /// Takes a notifications position when it is further on than the one known (or none is).
    private mutating func takeNotifications(_ position: ReadingPosition, isNewer: (ItemID, ItemID) -> Bool?) {
        if let known = notifications, !Self.isFurther(position, than: known, isNewer: isNewer) { return }
        notifications = position
    }
}
