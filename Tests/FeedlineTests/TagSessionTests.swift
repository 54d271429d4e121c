@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

/// A server of hashtags whose follows wait until the test answers (or refuses) them: it follows
/// `followed`, its trends are `trending` (each hashtag carried by as many posts as its weekly
/// uses), its trending feed lists `posts`, and its followed list leaves `following` out.
private func tagServer(
    followed: [String] = [], trending: [Hashtag] = [], posts: [Post] = [], sourceLocation: SourceLocation = #_sourceLocation
) -> GatedServer {
    var model = ServerModel(posts)
    model.timelines.feeds[.trending] = posts.map(\.id)
    for tag in trending {
        model.add((0..<(tag.weeklyUses ?? 0)).map { use in
            var post = makePost("\(tag.key)-use\(use)", minutesAgo: 60)
            post.tags = [tag.name]
            return post
        })
    }
    for name in followed.reversed() { _ = try? model.tags.set(name, to: true) }
    model.tags.followedListSaysFollowing = false
    let server = GatedServer(model, answering: [.page, .tag, .followedTags, .trendingTags], sourceLocation: sourceLocation)
    server.hold(.setTagFollow)
    return server
}

extension GatedServer {
    /// Refuses the held call at `index` ("Forbidden."); returns what it was about.
    @discardableResult
    fileprivate func refuseHeld(at index: Int) -> String? {
        guard let call = held.take(at: index) else { return nil }
        call.fail(ServerRefusal("Forbidden."))
        return call.call.key
    }

    /// The hashtags the server follows, newest follow first.
    fileprivate var followed: [String] { model.tags.followed }
}

/// Followed hashtags: one state per hashtag on every screen; trending posts as a feed.
@MainActor
@Suite("Hashtags and trends")
struct TagSessionTests {
    static func tags(_ list: FeedListViewModel) -> [String] {
        list.rows.compactMap { $0.tag.map { "\($0.name)\($0.following == true ? "+" : "")" } }
    }

    @Test("a follow shows at once on every hashtag row of the stack — trending and followed — and the answer settles it; one request in flight")
    func followReachesEveryRow() async throws {
        let server = tagServer(followed: ["gardening"], trending: [Hashtag(name: "Birds", weeklyUses: 12), Hashtag(name: "gardening", weeklyUses: 3)])
        let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: ManualClock())
        session.navigator.push(.list(.trendingTags))
        session.navigator.push(.list(.followedTags))
        await session.settle()
        let lists = session.navigator.screens.compactMap(\.list)
        #expect(Self.tags(lists[1]) == ["Birds", "gardening+"])
        #expect(Self.tags(lists[2]) == ["gardening+"], "followed tags are followed even when the server leaves it out")
        #expect(session.setTagFollow("#BIRDS", true))
        #expect(session.setTagFollow("birds", false))
        #expect(session.setTagFollow("birds", true))
        #expect(Self.tags(lists[1]) == ["Birds+", "gardening+"])
        #expect(session.tags.follow("birds") == ToggleDisplay(isOn: true, pending: true))
        await server.waitForHeld(1)
        #expect(session.tags.requestsInFlight.count == 1)
        server.answerHeld(at: 0)
        await session.settle()
        #expect(session.tags.follow("Birds") == ToggleDisplay(isOn: true, pending: false))
        #expect(server.followed == ["birds", "gardening"], "the newest follow first, as Mastodon lists them")
        // Unfollowing from the followed tags keeps the row, not followed.
        session.setTagFollow("gardening", false)
        #expect(Self.tags(lists[2]) == ["gardening"])
        #expect(Self.tags(lists[1]) == ["Birds+", "gardening"])
        await server.waitForHeld(1)
        server.answerHeld(at: 0)
        await session.settle()
    }

    @Test("a hashtag's header loads the hashtag and agrees with every other screen: a follow made on the trending list shows in it at once, and its own follow shows there")
    func headerAgrees() async throws {
        let server = tagServer(followed: ["gardening"], trending: [Hashtag(name: "birds", weeklyUses: 12)])
        let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: ManualClock())
        session.navigator.push(.list(.trendingTags))
        session.navigator.push(.list(.feed(.tag("Birds"))))
        session.navigator.top.list?.appeared()
        await session.settle()
        let lists = session.navigator.screens.compactMap(\.list)
        let header = try #require(lists[2].tagHeader)
        #expect(lists[0].tagHeader == nil && lists[1].tagHeader == nil, "only a hashtag's timeline has one")
        #expect(header.current.tag?.weeklyUses == 12)
        #expect(header.current.follow == ToggleDisplay(isOn: false))
        #expect(session.setTagFollow("birds", true))
        #expect(header.current.follow == ToggleDisplay(isOn: true, pending: true))
        #expect(header.current.tag?.following == true)
        await server.waitForHeld(1)
        server.answerHeld(at: 0)
        await session.settle()
        #expect(header.current.follow == ToggleDisplay(isOn: true))
        // From the header: the trending row follows.
        #expect(header.setFollowing(false))
        #expect(Self.tags(lists[1]) == ["birds"])
        await server.waitForHeld(1)
        server.answerHeld(at: 0)
        await session.settle()
        #expect(server.followed == ["gardening"])
    }

    @Test("a header that cannot load says why and loads again at retry")
    func headerFailure() async throws {
        // The server cannot find the hashtag (twice).
        let server = tagServer()
        server.fail(.tag, with: RecordNotFound())
        let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: ManualClock())
        session.navigator.push(.list(.feed(.tag(""))))
        session.navigator.top.list?.appeared()
        await session.settle()
        let header = try #require(session.navigator.top.list?.tagHeader)
        #expect(header.current.failure?.message == "Record not found")
        #expect(!header.current.isLoading)
        session.retry()
        #expect(header.current.failure == nil && header.current.isLoading)
        await session.settle()
        #expect(header.current.failure != nil)
    }

    @Test("followed hashtags converge under random answer order and failures: every screen and the server end with the last wish (seeded)")
    func followsConverge() async throws {
        let seed = testSeed(0x7A65)
        print("TagSessionTests.followsConverge seed \(seed) (replay with FEEDLINE_SEED=\(seed))")
        var generator = SeededGenerator(seed: seed)
        let names = ["birds", "gardening", "swift"]
        for _ in 0..<60 {
            let server = tagServer(followed: ["gardening"], trending: names.map { Hashtag(name: $0, weeklyUses: 1) })
            let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: ManualClock())
            session.navigator.push(.list(.trendingTags))
            session.navigator.push(.list(.followedTags))
            await session.settle()
            let trending = try #require(session.navigator.screens.compactMap(\.list).dropFirst().first)
            var wish = ["gardening": true, "birds": false, "swift": false]
            // Hashtags whose request was refused since the last wish: a refusal rolls the wish
            // back to the server's value (retry may ask again), so only agreement is checked.
            var refused: Set<String> = []
            for _ in 0..<25 {
                switch generator.next(below: 4) {
                case 0, 1:
                    let name = names[generator.next(below: names.count)]
                    let value = generator.next(below: 2) == 0
                    session.setTagFollow(name, value)
                    wish[name] = value
                    refused.remove(name)
                case 2:
                    if server.held.count > 0 { server.answerHeld(at: generator.next(below: server.held.count)) }
                default:
                    if server.held.count > 0, let name = server.refuseHeld(at: generator.next(below: server.held.count)) {
                        refused.insert(TagStore.key(name))
                    }
                }
                for _ in 0..<3 { await Task.yield() }
            }
            // Quiescence: answer whatever comes, and retry what was refused, until nothing is left.
            var rounds = 0
            while rounds < 200 {
                rounds += 1
                if server.held.count > 0 {
                    server.answerHeld(at: 0)
                } else if !session.tags.requestsInFlight.isEmpty {
                    await server.waitForHeld(1)
                } else if session.tags.hasFailures {
                    session.retry()
                } else {
                    break
                }
                for _ in 0..<3 { await Task.yield() }
            }
            await session.settle()
            for name in names {
                let shown = session.tags.follow(name)?.isOn ?? (name == "gardening")
                #expect(session.tags.follow(name)?.pending != true, "\(name) settled (seed \(seed))")
                #expect(server.followed.contains(name) == shown, "\(name): every screen shows what the server has (seed \(seed))")
                #expect(Self.tags(trending).contains(shown ? name + "+" : name), "\(name): its trending row shows it (seed \(seed))")
                if !refused.contains(name) {
                    #expect(shown == wish[name], "\(name): the last wish holds (seed \(seed))")
                }
            }
        }
    }

    @Test("a refused follow rolls back on every row and says why; retry does not send it again, following again does")
    func refusedFollow() async throws {
        let server = tagServer(trending: [Hashtag(name: "birds", weeklyUses: 1)])
        let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: ManualClock())
        session.navigator.push(.list(.trendingTags))
        await session.settle()
        let trending = try #require(session.navigator.top.list)
        session.setTagFollow("birds", true)
        await server.waitForHeld(1)
        server.refuseHeld(at: 0)
        await session.settle()
        #expect(Self.tags(trending) == ["birds"])
        #expect(session.tags.follow("birds")?.failure == "Could not follow #birds: Forbidden.")
        #expect(!session.retry())
        #expect(Self.tags(trending) == ["birds"])
        session.setTagFollow("birds", true)
        #expect(Self.tags(trending) == ["birds+"])
        await server.waitForHeld(1)
        server.answerHeld(at: 0)
        await session.settle()
        #expect(!session.hasFailures)
        #expect(server.calls(.setTagFollow).count == 2)
    }

    @Test("the trending posts are a feed of ordinary rows on the store; what is no hashtag is refused")
    func trendingPosts() async throws {
        let server = tagServer(posts: [makePost("t1", minutesAgo: 5), makePost("t2", minutesAgo: 9)])
        let session = FeedSession(service: server, clock: .fixed(testNow), root: .trending, retryClock: ManualClock())
        session.root.appeared()
        await session.settle()
        #expect(session.root.rows.map(\.id) == [.post("t1"), .post("t2")])
        #expect(session.root.status.reachedEnd)
        #expect(Feed("trending") == .trending)
        for bad in ["", "#", "a b", "a-b"] { #expect(!session.setTagFollow(bad, true), "\(bad)") }
        #expect(server.calls(.setTagFollow).isEmpty)
    }

    @Test("retry after a refusal sends nothing: the refusal shows until a fetch says otherwise or the value is set again")
    func retryLeavesTheRefusal() async throws {
        let server = tagServer(followed: ["birds"], trending: [Hashtag(name: "birds", weeklyUses: 1)])
        let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: ManualClock())
        session.navigator.push(.list(.followedTags))
        await session.settle()
        session.setTagFollow("birds", false)
        await server.waitForHeld(1)
        server.refuseHeld(at: 0)
        await session.settle()
        #expect(session.tags.follow("birds") == ToggleDisplay(isOn: true, failure: "Could not unfollow #birds: Forbidden."))
        // Unfollowed elsewhere meanwhile: a later fetch says so.
        server.update { try? $0.tags.set("birds", to: false) }
        session.navigator.push(.list(.trendingTags))
        await session.settle()
        #expect(session.tags.follow("birds")?.isOn == false)
        #expect(!session.retry())
        #expect(session.tags.requestsInFlight.isEmpty, "nothing asked")
        await session.settle()
        #expect(server.calls(.setTagFollow).count == 1)
    }
}

