import Feedline
import Foundation

/// 2026-11-22T12:00:00Z, the "now" of every test.
let testNow = Date(timeIntervalSince1970: 1_795_348_800)

let alice = Author(id: "1", displayName: "Alice", handle: "alice")
let bob = Author(id: "2", displayName: "Bob", handle: "bob@example.social")

/// A post with id `id`, written `minutesAgo` before `testNow`.
func makePost(
    _ id: String,
    minutesAgo: Double = 0,
    author: Author = alice,
    text: String? = nil,
    favourited: Bool = false,
    favourites: Int = 0,
    reblogged: Bool = false,
    reblogs: Int = 0,
    reblog: Post? = nil
) -> Post {
    Post(
        id: PostID(id),
        author: author,
        text: text ?? "post \(id)",
        createdAt: testNow.addingTimeInterval(-minutesAgo * 60),
        reblogsCount: reblogs,
        favouritesCount: favourites,
        favourited: favourited,
        reblogged: reblogged,
        reblog: reblog
    )
}

/// Posts `prefix1 … prefixN`, newest first.
func makePosts(_ count: Int, prefix: String = "p", from start: Int = 1) -> [Post] {
    (start..<(start + count)).map { makePost("\(prefix)\($0)", minutesAgo: Double($0)) }
}
