@_spi(FeedService) import Feedline
import FeedlineREPL
import FeedlineTestSupport
import Foundation
import Testing

/// Every stored field of `Post` (found by `Mirror`: see `PostFields`) either shows in the REPL —
/// and then changing it redraws the row or the post screen — or does not, as the tables below
/// say; and no change leaves a stale line behind: a row or a post part drawn through the render
/// cache after a change is the one drawn afresh, and the post screen prints again exactly the
/// parts whose lines changed.
@Suite("Post fields in the REPL")
struct PostFieldRenderTests {
    static let now = Date(timeIntervalSince1970: 1_795_284_000)
    static let clock = WallClock.fixed(now)

    /// A post shown plainly: no content warning, no filter, never edited, one image, some counts.
    static let plain = Post(
        id: "1", author: Author(id: "a", displayName: "Ana Lima", handle: "ana@example.social"), text: "A pond at dawn",
        createdAt: now.addingTimeInterval(-3 * 3_600), media: [Media(kind: .image, description: "a pond", url: "https://example.social/1.png")],
        repliesCount: 2, reblogsCount: 3, favouritesCount: 4
    )
    /// A boost of it: the entry's own fields are the booster's.
    static let boost = Post(
        id: "2", author: Author(id: "b", displayName: "Bea", handle: "bea"), text: "", createdAt: now.addingTimeInterval(-60), reblog: plain
    )

    /// The fields of the plain post a row shows (the flags and counts through the interaction
    /// state its server copy brings).
    static let shownOnRow: Set<String> = [
        "author", "text", "createdAt", "contentWarning", "media", "editedAt", "filters", "reblog",
        "favourited", "favouritesCount", "reblogged", "reblogsCount", "bookmarked", "pinned", "visibility", "quote", "poll",
    ]
    /// The fields of the plain post the post screen shows.
    static let shownOnPostScreen: Set<String> = shownOnRow.union(["card", "repliesCount", "quoteApproval", "muted"])

    static func row(_ post: Post) -> ListRow {
        .post(PostRow(post: post, filterContext: .home))
    }

    static func detail(_ post: Post) -> PostDetailState {
        PostDetailState(id: post.id, known: PostChange(originalID: post.originalID, post: post.content, interaction: PostInteraction(serverCopy: post)))
    }

    static func changed(_ post: Post, _ name: String) throws -> Post {
        let change = try #require(PostFields.changes[name], "PostFields.changes has no change of \(name)")
        var changed = post
        change(&changed)
        return changed
    }

    @Test("a row drawn through the cache after any field changed is the row drawn afresh; the fields a row shows redraw it")
    func rows() throws {
        for (base, checksShown) in [(Self.plain, true), (Self.boost, false)] {
            for name in PostFields.names(of: base) {
                let changed = try Self.changed(base, name)
                let cached = RowRenderer(width: 80, clock: Self.clock, cache: RenderCache())
                let before = cached.lines(Self.row(base), number: 1)
                let after = cached.lines(Self.row(changed), number: 1)
                #expect(after == RowRenderer(width: 80, clock: Self.clock).lines(Self.row(changed), number: 1), "\(name) of \(base.id): no stale row")
                if checksShown {
                    #expect((after != before) == Self.shownOnRow.contains(name), "\(name) is \(Self.shownOnRow.contains(name) ? "" : "not ")shown on a row")
                }
            }
        }
    }

    @Test("the post screen prints again exactly the parts a field change changed; the fields it shows do")
    func postScreen() throws {
        for name in PostFields.names(of: Self.plain) {
            let changed = try Self.changed(Self.plain, name)
            let renderer = DetailRenderer(width: 80, clock: Self.clock, cache: RenderCache())
            var screen = DetailScreen()
            screen.receive(Self.detail(Self.plain))
            _ = screen.flush(renderer)
            screen.receive(Self.detail(changed))
            let printed = screen.flush(renderer)

            let fresh = DetailRenderer(width: 80, clock: Self.clock)
            let expected = DetailRenderer.Part.allCases.flatMap { part in
                let after = fresh.lines(part, of: Self.detail(changed))
                return after == fresh.lines(part, of: Self.detail(Self.plain)) ? [] : after
            }
            #expect(printed == expected, "\(name): the parts that changed, and only they, are printed again")
            #expect(renderer.lines(Self.detail(changed)) == fresh.lines(Self.detail(changed)), "\(name): no stale part")
            #expect(!printed.isEmpty == Self.shownOnPostScreen.contains(name), "\(name) is \(Self.shownOnPostScreen.contains(name) ? "" : "not ")shown on the post screen")
        }
    }
}
