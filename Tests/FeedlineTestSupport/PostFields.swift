@_spi(FeedService) import Feedline
import Foundation

/// The stored fields of `Post` and one change to each, so tests can prove that every field —
/// including one added later — reaches equality, hashing, coding and the fronts' redraws.
public enum PostFields {
    /// The names of the fields `post` stores, found by `Mirror` (not by a list kept by hand):
    /// the first level below the post with more than one child, so the copy-on-write box around
    /// the fields does not hide them. A property wrapper's `_` is dropped.
    public static func names(of post: Post) -> [String] {
        var mirror = Mirror(reflecting: post)
        while mirror.children.count == 1, let only = mirror.children.first {
            mirror = Mirror(reflecting: only.value)
        }
        return mirror.children.compactMap { child in
            child.label.map { $0.hasPrefix("_") ? String($0.dropFirst()) : $0 }
        }
    }

    /// One change per stored field, by name: each makes the field differ from what it was,
    /// whatever it was (`nil`, empty, `false` or set).
    public static let changes: [String: @Sendable (inout Post) -> Void] = [
        "id": { $0.id = PostID($0.id.rawValue + "-changed") },
        "author": { $0.author.displayName += " (changed)" },
        "text": { $0.text += " — changed" },
        "createdAt": { $0.createdAt = $0.createdAt.addingTimeInterval(-3 * 86_400) },
        "contentWarning": { $0.contentWarning = ($0.contentWarning ?? "") + "changed warning" },
        "media": { $0.media.append(Media(kind: .video, description: "a changed clip", url: "https://example.social/changed.mp4")) },
        "poll": { post in
            post.poll = Poll(options: [.init(title: "changed", votes: 1)], votesCount: (post.poll?.votesCount ?? 0) + 1, expired: false)
        },
        "card": { $0.card = LinkCard(url: "https://example.org/changed", title: ($0.card?.title ?? "") + "changed") },
        "repliesCount": { $0.repliesCount += 1 },
        "reblogsCount": { $0.reblogsCount += 1 },
        "favouritesCount": { $0.favouritesCount += 1 },
        "favourited": { $0.favourited.toggle() },
        "reblogged": { $0.reblogged.toggle() },
        "bookmarked": { $0.bookmarked.toggle() },
        "pinned": { $0.pinned.toggle() },
        "muted": { $0.muted.toggle() },
        "editedAt": { $0.editedAt = ($0.editedAt ?? $0.createdAt).addingTimeInterval(3_600) },
        "tags": { $0.tags.append("changed") },
        "inReplyToID": { $0.inReplyToID = PostID(($0.inReplyToID?.rawValue ?? "") + "changed") },
        "url": { $0.url = ($0.url ?? "https://example.social/") + "changed" },
        "filters": { $0.filters.append(PostFilter(title: "Changed", contexts: [.home, .thread], action: .warn)) },
        "visibility": { $0.visibility = $0.visibility == .direct ? .public : .direct },
        "mentions": { $0.mentions.append("changed@example.social") },
        "language": { $0.language = ($0.language ?? "") + "x" },
        "links": { $0.links.append("https://example.org/changed") },
        "quote": { post in
            if let quote = post.quote, quote.post != nil {
                post.quote?.post?.text += " — changed"
            } else {
                post.quote = Quote(
                    state: .accepted,
                    post: Post(id: "quoted-changed", author: Author(id: "q", displayName: "Quoted", handle: "quoted"), text: "Quoted text", createdAt: post.createdAt)
                )
            }
        },
        "quoteApproval": { post in
            post.quoteApproval = post.quoteApproval?.currentUser == .denied
                ? QuoteApproval(automatic: [.followers], currentUser: .automatic)
                : QuoteApproval(automatic: [], manual: [], currentUser: .denied)
        },
        "reblog": { post in
            let original = post.reblog ?? post
            post.reblog = Post(
                id: PostID(original.id.rawValue + "-boosted"), author: Author(id: "b", displayName: "Booster", handle: "booster"),
                text: original.text, createdAt: original.createdAt
            )
        },
    ]

    /// A post with every field set to something other than its default (one filter context
    /// each, so its JSON is the same in every process), boosting a post that has them too.
    public static func everyFieldSet(_ id: String = "1", boosting: Bool = true) -> Post {
        let createdAt = Date(timeIntervalSinceReferenceDate: 785_000_000)
        var post = Post(
            id: PostID(id), author: Author(id: "a\(id)", displayName: "Ana \(id)", handle: "ana\(id)@example.social"),
            text: "Text of \(id)\nwith two lines", createdAt: createdAt, contentWarning: "CW \(id)",
            media: [Media(kind: .image, description: "a pond", url: "https://example.social/\(id).png"), Media(kind: .audio)],
            poll: Poll(options: [.init(title: "yes", votes: 3), .init(title: "no", votes: nil)], votesCount: 3, expired: true,
                       expiresAt: createdAt.addingTimeInterval(86_400), multiple: true),
            card: LinkCard(url: "https://example.org/\(id)", title: "A link", summary: "What it says"),
            repliesCount: 4, reblogsCount: 5, favouritesCount: 6, favourited: true, reblogged: true, bookmarked: true,
            editedAt: createdAt.addingTimeInterval(600), tags: ["swift", "cats"], inReplyToID: PostID("r\(id)"),
            url: "https://example.social/@ana/\(id)", filters: [PostFilter(title: "Spoilers", contexts: [.home], action: .warn)],
            reblog: boosting ? everyFieldSet("o\(id)", boosting: false) : nil,
            visibility: .private, mentions: ["kemi@fieldnotes.science"], language: "en"
        )
        post.quote = Quote(
            state: .accepted,
            post: Post(id: PostID("q\(id)"), author: Author(id: "q\(id)", displayName: "Quoted \(id)", handle: "quoted\(id)"), text: "Quoted", createdAt: createdAt)
        )
        return post
    }
}
