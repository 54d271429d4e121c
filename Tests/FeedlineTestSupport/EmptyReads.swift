@_spi(FeedService) import Feedline

/// A test double that reads nothing: every feed, thread and notification list is empty, and a
/// post or an interaction is not found. A double that conforms needs to implement only what its
/// test exercises (writing, one feed); the rest is this, and its writes and account calls are
/// ``PartialService``'s (refused) unless it implements them.
package protocol EmptyReads: PartialService {}

/// Why an empty double cannot give what was asked: nothing is there.
package struct NothingHere: FeedServiceError, Hashable {
    package init() {}
    package var isTransient: Bool { false }
    package var errorDescription: String? { "Record not found" }
}

extension EmptyReads {
    package func page(of feed: Feed, after cursor: PageCursor?) async throws -> Page<Post> { Page(posts: [], next: nil) }
    package func newer(in feed: Feed, than lower: PostID, olderThan upper: PostID?) async throws -> NewerPage<Post> {
        NewerPage(posts: [], hasMore: false)
    }
    package func notifications(after cursor: PageCursor?) async throws -> Page<NotificationGroup> { Page(items: [], next: nil) }
    package func newerNotifications(than lower: ItemID, olderThan upper: ItemID?) async throws -> NewerPage<NotificationGroup> {
        NewerPage(items: [], hasMore: false)
    }
    package func post(_ id: PostID) async throws -> Post { throw NothingHere() }
    package func context(of id: PostID) async throws -> PostContext { PostContext() }
    package func set(_ kind: InteractionKind, to value: Bool, postID: PostID) async throws -> Post { throw NothingHere() }
}
