@_spi(FeedService) import Feedline
import Foundation

/// What the REPL shows of a post, as one value made in one place (``init(_:)``): rows and the
/// post screen draw a post's own fields only from this, and the render cache and the post
/// screen's redraw check compare it. A field that is drawn is therefore a field that is compared —
/// showing a new field of `Post` means adding it here, where equality picks it up.
///
/// Interaction flags and counts are not here: they are drawn from the post's shared
/// `PostInteraction`, which carries the optimistic state.
struct ShownPost: Hashable, Sendable {
    var author: Author
    var text: String
    var createdAt: Date
    var contentWarning: String?
    var media: [Media]
    var poll: Poll?
    var card: LinkCard?
    var editedAt: Date?
    var visibility: PostVisibility
    /// Who may quote it, when that is worth saying (see ``DetailRenderer``): the post screen only.
    var quoteApproval: QuoteApproval?

    /// The shown parts of `post` (its own fields: pass a boost's `content` to show the original).
    init(_ post: Post) {
        author = post.author
        text = post.text
        createdAt = post.createdAt
        contentWarning = post.contentWarning
        media = post.media
        poll = post.poll
        card = post.card
        editedAt = post.editedAt
        visibility = post.visibility
        quoteApproval = post.quoteApproval
    }
}
