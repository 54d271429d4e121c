@_spi(FeedService) import Feedline
import Foundation
import Testing

/// A filter's keywords against a post's content, as Mastodon matches them: case-insensitive,
/// whole words only where asked, in the warning, text, media descriptions and poll options.
@Suite struct PostFilterMatchingTests {
    static let author = Author(id: "1", displayName: "Ruth", handle: "ruth@example.org")
    static let now = Date(timeIntervalSince1970: 1_000_000)

    static func post(_ text: String, warning: String? = nil, media: [Media] = [], poll: Poll? = nil) -> Post {
        Post(id: PostID("9"), author: author, text: text, createdAt: Date(timeIntervalSince1970: 0), contentWarning: warning, media: media, poll: poll)
    }

    static func filter(_ words: [(String, Bool)]) -> PostFilter {
        PostFilter(id: "1", title: "T", contexts: [.home], action: .hide, keywords: words.map { PostFilter.Keyword(keyword: $0.0, wholeWord: $0.1) })
    }

    @Test("a keyword matches in any case; a whole word not inside a longer one", arguments: [
        ("The Finale was great", "finale", true, true),
        ("finales everywhere", "finale", true, false),
        ("finales everywhere", "finale", false, true),
        ("semi-finale", "finale", true, true),
        ("concatenate", "cat", true, false),
        ("a cat, sleeping", "CAT", true, true),
        ("cat_videos", "cat", true, false),
        ("#spoiler alert", "#spoiler", true, true),
        ("no match here", "frog", false, false),
        ("Frog! said the heron.", "frog", true, true),
        ("(frog)", "frog", true, true),
        ("the frog's pond", "frog", true, true),
        ("frog2 is here", "frog", true, false),
        ("FROGS", "Frog", false, true),
        ("a tree-frog", "tree frog", true, false),
    ])
    func keyword(text: String, word: String, wholeWord: Bool, expected: Bool) {
        #expect(Self.filter([(word, wholeWord)]).matches(Self.post(text), at: Self.now) == expected)
    }

    @Test("the content warning, media descriptions and poll options count; a boost is matched by its original")
    func otherFields() {
        let filter = Self.filter([("heron", true)])
        #expect(filter.matches(Self.post("…", warning: "Heron photos"), at: Self.now))
        #expect(filter.matches(Self.post("…", media: [Media(kind: .image, description: "A grey heron")]), at: Self.now))
        #expect(filter.matches(Self.post("Which bird?", poll: Poll(options: [Poll.Option(title: "Heron", votes: 1)], votesCount: 1, expired: false)), at: Self.now))
        let boost = Post(id: PostID("10"), author: Author(id: "2", displayName: "B", handle: "b"), text: "", createdAt: Date(timeIntervalSince1970: 0), reblog: Self.post("heron!"))
        #expect(filter.matches(boost, at: Self.now))
        #expect(!Self.filter([]).matches(Self.post("heron"), at: Self.now), "a filter without keywords matches nothing")
        #expect(!Self.filter([("  ", false)]).matches(Self.post("a b"), at: Self.now), "a blank keyword matches nothing")
    }

    @Test("an expired filter matches nothing; one expiring later still does (time from the injected clock)")
    func expiry() {
        var filter = Self.filter([("heron", false)])
        filter.expiresAt = Self.now
        #expect(!filter.matches(Self.post("heron"), at: Self.now))
        #expect(filter.matches(Self.post("heron"), at: Self.now.addingTimeInterval(-1)))
        filter.expiresAt = nil
        #expect(filter.matches(Self.post("heron"), at: Self.now))
    }
}
