@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

/// The one rule of which lists show a new post as it arrives (``ListSource/shows(_:showsParent:)``),
/// every list source × every kind of new post; and the session around it: the store tells every
/// list, a screen opened later is told what is told from then on.
@MainActor
@Suite("New posts reach the lists of their feed", .timeLimit(.minutes(10)))
struct NewPostArrivalTests {
    static let me = Post.signedInUser

    /// One of each list source (a profile three ways: yours by id, yours by handle in other
    /// letters, someone else's; a thread showing the parent and one not).
    static let sources: [ListSource] = [
        .feed(.home), .feed(.local), .feed(.public), .feed(.tag("frogs")), .feed(.account(AccountID(me.id))),
        .feed(.account(AccountID(handle: "@Me@Server.Example"))), .feed(.account("someone")), .feed(.bookmarks), .feed(.favourites),
        .feed(.list("7")), .feed(.trending), .thread("parent"), .thread("elsewhere"), .notifications, .notificationsOf([.mention]), .history("parent"),
        .accounts(.mutes), .search("frogs"), .domainBlocks, .followedTags, .trendingTags, .conversations, .userLists, .filters, .announcements, .scheduled,
        .notificationRequests,
    ]

    /// Compiles only while ``sources`` can hold every case: a new case of `ListSource` or `Feed`
    /// is added here, and to ``sources`` and the table.
    static func isListed(_ source: ListSource) -> Bool {
        switch source {
        case .feed(let feed):
            switch feed {
            case .home, .local, .public, .tag, .account, .bookmarks, .favourites, .list, .trending: true
            }
        case .thread, .notifications, .notificationsOf, .history, .accounts, .search, .domainBlocks, .followedTags, .trendingTags, .conversations, .userLists, .filters, .announcements, .scheduled, .notificationRequests: true
        }
    }

    static func own(_ id: String, visibility: PostVisibility = .public, parent: PostID? = nil) -> NewPost {
        .own(Post(id: PostID(id), author: me, text: id, createdAt: testNow, inReplyToID: parent, visibility: visibility), parent: parent)
    }

    static let profiles = ["account:me", "account:@Me@Server.Example"]

    /// Each kind of new post, and the sources (by description) whose lists show it.
    static let table: [(name: String, post: NewPost, shownBy: Set<String>)] = [
        ("your post", own("a"), Set(["home"] + profiles)),
        ("your unlisted post", own("b", visibility: .unlisted), Set(["home"] + profiles)),
        ("your followers-only post", own("c", visibility: .private), Set(["home"] + profiles)),
        ("your direct message", own("d", visibility: .direct), Set(profiles)),
        ("your reply", own("e", parent: "parent"), Set(["home", "thread:parent"] + profiles)),
        ("your direct reply", own("f", visibility: .direct, parent: "parent"), Set(["thread:parent"] + profiles)),
        ("your post on its way", own("sending:1"), Set(["home"] + profiles)),
        ("a post streamed for home", .streamed(makePost("s1", author: bob), .home), ["home"]),
        ("a post streamed for a hashtag", .streamed(makePost("s2", author: bob), .tag("frogs")), ["tag:frogs"]),
        ("a post streamed for a list", .streamed(makePost("s3", author: bob), .list("7")), ["list:7"]),
        ("a post streamed for the public timeline", .streamed(makePost("s4", author: bob), .public), ["public"]),
        ("your own post streamed for home", .streamed(makePost("s5", author: me), .home), ["home"]),
    ]

    @Test("every list source × every kind of new post: home, your profile and the thread of the parent take yours; a streamed post its feed's list")
    func rule() {
        #expect(Self.sources.allSatisfy(Self.isListed))
        #expect(Set(Self.sources).count == Self.sources.count)
        for (name, post, shownBy) in Self.table {
            for source in Self.sources {
                var asked: [PostID] = []
                let shows = source.shows(post) { parent in
                    asked.append(parent)
                    return source == .thread("parent") && parent == "parent"
                }
                #expect(shows == shownBy.contains(source.description), "\(name) in \(source)")
                // Only a thread asks whether it shows the parent, and only of your reply's parent.
                if case .own(_, let parent?) = post, case .thread = source {
                    #expect(asked == [parent], "\(name) in \(source)")
                } else {
                    #expect(asked.isEmpty, "\(name) in \(source) asked \(asked)")
                }
            }
        }
    }

    /// A server of Bob's posts on home and none on your profile, answering reads; publishes
    /// are held until the test answers them.
    private func heldPublishes() -> GatedServer {
        let posts = makePosts(3, prefix: "b").map { post in
            var post = post
            post.author = bob
            return post
        }
        let server = GatedServer(posts: posts, answering: [.page, .newer, .composeSettings, .profile, .relationships])
        server.hold(.publish)
        return server
    }

    /// A session on `server` with home loaded and a post of yours, "Frogspawn in the pond",
    /// sent and shown on top of home as sending (the server holds it); its local id.
    private func sending(on server: GatedServer) async -> (FeedSession, PostID) {
        let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: ManualClock())
        session.root.appeared()
        session.drafts.load()
        await session.settle()
        let draft = session.drafts.startPost()
        session.drafts.update(draft) { $0.text = "Frogspawn in the pond" }
        #expect(session.drafts.send(draft).isEmpty)
        #expect(session.root.rows.first?.id == .post(.sending(draft)))
        return (session, .sending(draft))
    }

    @Test("an empty profile opened after your post started sending shows no sending row (it was not on the stack), nor the post once confirmed; the home row turns into it")
    func openedWhileSending() async throws {
        let server = heldPublishes()
        let (session, local) = await sending(on: server)

        session.navigator.push(.list(.feed(.account(AccountID(Self.me.id)))))
        let profile = try #require(session.navigator.top.list)
        // The profile's page (empty: the server has no post of yours yet) and header come.
        await firstValue(of: profile.snapshot) { $0.state.older == .end }
        #expect(profile.rows.isEmpty, "\(ListStateStreamTests.ids(profile.rows))")

        await server.waitForHeld(1)
        #expect(server.answerHeld(at: 0))
        await session.settle()
        let posted = try #require(server.model.timeline(.home).first)
        #expect(posted.text == "Frogspawn in the pond")
        // Home: the sending row became the post, the same row.
        #expect(session.root.rows.first?.id == .post(local) && session.root.rows.first?.post?.post.id == posted.id)
        #expect(session.root.rows.filter { $0.post?.post.id == posted.id }.count == 1)
        #expect(profile.rows.isEmpty, "a list with nothing loaded leaves your post to its next page")
    }

    @Test("a profile with rows, opened after your post started sending, shows no sending row; once confirmed the post is on top of it, once")
    func openedWithRowsWhileSending() async throws {
        let server = heldPublishes()
        let mine = Post(id: "old", author: Self.me, text: "An older post of mine", createdAt: testNow.addingTimeInterval(-3_600))
        server.update { model in
            model.add([mine])
            model.timelines.feeds[.account(AccountID(Self.me.id))] = ["old"]
        }
        let (session, _) = await sending(on: server)

        session.navigator.push(.list(.feed(.account(AccountID(Self.me.id)))))
        let profile = try #require(session.navigator.top.list)
        await firstValue(of: profile.snapshot) { !$0.state.rows.isEmpty }
        #expect(ListStateStreamTests.ids(profile.rows) == ["old"], "no sending row: the profile was opened after the post started")

        await server.waitForHeld(1)
        #expect(server.answerHeld(at: 0))
        await session.settle()
        let posted = try #require(server.model.timeline(.home).first)
        #expect(ListStateStreamTests.ids(profile.rows) == [posted.id.rawValue, "old"])
        #expect(session.root.rows.filter { $0.post?.post.id == posted.id }.count == 1)
        #expect(profile.state.checkInvariants().isEmpty && session.root.state.checkInvariants().isEmpty)
    }
}
