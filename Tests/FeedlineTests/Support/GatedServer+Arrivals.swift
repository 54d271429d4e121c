@_spi(FeedService) import Feedline
import FeedlineTestSupport

// What the list and session tests do to a gated server's timelines, in their words.

extension GatedServer {
    /// Puts `posts` (newest first) on top of `feed`, as if just written, telling nobody (as
    /// posts a stream missed).
    func arrive(_ posts: [Post], on feed: Feed = .home) {
        update { model in
            model.add(posts)
            model.timelines.feeds[feed, default: []].insert(contentsOf: posts.map(\.id), at: 0)
        }
    }

    /// Changes the post `id` on the server, telling nobody (as an edit a stream missed).
    func edit(_ id: PostID, _ change: (inout Post) -> Void) {
        update { model in _ = model.update(id, change) }
    }

    /// Every call so far as it was asked, in order, e.g. `page(home, after: 20)`.
    var asked: [String] { calls.map(\.description) }
}

extension GatedServer {
    /// Makes `feed` list `posts` (newest first) and nothing else, the server's copies of them
    /// replaced: what the next answer from the model brings.
    func serve(_ posts: [Post], on feed: Feed = .home) {
        update { model in
            model.add(posts)
            model.timelines.feeds[feed] = posts.map(\.id)
        }
    }

    /// The index of the oldest waiting call of `kind` (about `key`, when given).
    func waitingIndex(_ kind: GatedCall.Kind, key: String? = nil) -> Int? {
        waiting.firstIndex { $0.kind == kind && (key == nil || $0.key == key) }
    }
}

/// The post `id` replying to `parent`, written `minutesAgo` before `testNow`.
func makeReply(_ id: String, to parent: PostID, minutesAgo: Double = 0, text: String? = nil) -> Post {
    var post = makePost(id, minutesAgo: minutesAgo, text: text)
    post.inReplyToID = parent
    return post
}
