import Foundation

/// Where a session starts reading, decided from what it saved and what the server's markers say
/// (Mastodon's `GET /api/v1/markers`): which saved home timeline to show and at which post, and
/// the newest notifications position known. A value; change it with ``reduce(_:isNewer:)``.
///
/// The rules (a position only ever moves forward — further on by the server's ids when they
/// tell, else by date):
/// - **Home, before it is shown.** A marker on the saved position changes nothing; a marker on a
///   saved post newer than the saved position moves the position there; a marker saved before
///   the saved position's post was written is older and changes nothing; any other marker's post
///   is asked for (``wantedPost``), and when it comes — and is newer than the saved position — the
///   home timeline starts from it alone (``fresh``: a server copy, not a saved one); when it does
///   not come, the saved list is shown as it was.
/// - **Home, once shown.** A marker (or its post) that comes later only moves the position
///   (``lateHome``): nothing on screen moves.
/// - **Notifications.** A marker names a notification, not when it happened: it is taken when
///   it is further on by the server's ids than the position known (or there is none), and so is
///   each position a notifications list reaches; ``notifications`` is the newest, to hand every
///   notifications list and to save.
package struct StartPositions: Hashable, Sendable {
    /// The home timeline to show at start; `nil` when nothing was saved and no marker said
    /// more.
    package var home: SavedList?
    /// Posts of ``home`` fetched from the server just now (not saved copies).
    package var fresh: Set<PostID> = []
    /// A marker's post to ask the server for (the query: while set, a fetch should run).
    package var wantedPost: PostID?
    /// Whether the home timeline was shown: later markers only move its position.
    package var homeShown = false
    /// A home position for the shown list to take when it is further on (a marker that came
    /// late); consumed by `StartEvent/lateHomeTaken`.
    package var lateHome: ReadingPosition?
    /// The newest notifications position known: saved, a marker's, or reached in a list.
    package var notifications: ReadingPosition?
    /// The notifications position saved last.
    package var savedNotifications: ReadingPosition?

    /// Nothing known yet.
    package init() {}

    /// Whether `position` is further on than `other`: by the server's ids when `isNewer` can
    /// tell (Mastodon's grow with time), else by date.
    package static func isFurther(
        _ position: ReadingPosition, than other: ReadingPosition, isNewer: (ItemID, ItemID) -> Bool?
    ) -> Bool {
        guard position.id != other.id else { return false }
        return isNewer(position.id, other.id) ?? position.isNewer(than: other)
    }
}

/// What happens while a session finds where to start, named for what happened.
package enum StartEvent: Hashable, Sendable {
    /// The saved home timeline and notifications position were read (either may be missing).
    case loaded(home: SavedList?, notifications: ReadingPosition?)
    /// The server's markers came. `homeKnown` is the post the home marker names when the shown
    /// home list has it (a row or a waiting row), for a marker that comes after it was shown.
    case markersRead([MarkerTimeline: ServerMarker], homeKnown: Post?)
    /// The marker's post asked for (`StartPositions/wantedPost`) came.
    case markerPostFetched(Post)
    /// The marker's post could not be fetched (or not in time): the saved list stands.
    case markerPostFailed
    /// The home timeline was shown.
    case homeShown
    /// The shown home list took `StartPositions/lateHome`.
    case lateHomeTaken
    /// A notifications list reached this position (the newest notification it displayed).
    case notificationsReached(ReadingPosition)
    /// This notifications position was saved.
    case notificationsSaved(ReadingPosition)
}
