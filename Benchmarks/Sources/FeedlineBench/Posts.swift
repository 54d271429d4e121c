@_spi(FeedService) import Feedline
import Foundation

/// Posts for the pagination and timeline scenarios: `p<start> … p<start+count-1>`, newest first,
/// with realistic fields (an author, text, a date) so that copying a row costs what it costs.
enum Posts {
    static let now = Date(timeIntervalSince1970: 1_795_348_800)
    static let author = Author(id: "1", displayName: "Alice", handle: "alice")

    static func make(_ count: Int, from start: Int) -> [Post] {
        (start..<(start + count)).map { index in
            Post(
                id: PostID("p\(index)"),
                author: author,
                text: "post number \(index), with a sentence of text as posts have",
                createdAt: now.addingTimeInterval(-Double(index) * 60),
                favouritesCount: index % 7
            )
        }
    }

    /// Pages of `size` posts after the first `start` posts. The page read with cursor `cK` is
    /// the K-th (the first `start` posts come with `c1`), and it names `cK+1` as its next.
    static func pages(_ count: Int, size: Int = 20, after start: Int) -> [Page<Post>] {
        (0..<count).map { page in
            Page(posts: make(size, from: start + page * size), next: PageCursor("c\(page + 2)"))
        }
    }
}
