@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Testing

/// The store's freshness promise — a copy fetched before the store last learnt a post's state
/// never wins — in the places it was broken: across the cache forgetting a post, and for the
/// fresher copy an interaction's own answer brings while a follow-up request runs.
@MainActor
@Suite("Store freshness", .timeLimit(.minutes(10)))
struct StoreFreshnessTests {
    @Test("a post the cache forgot does not come back from a page fetched before its toggle settled")
    func forgottenPostAndAnOlderPage() async throws {
        // No cache: a post nothing shows is forgotten as soon as nothing is pending.
        let (session, service, clock) = await outboxSession([makePost("q1"), makePost("q2", favourites: 3)], cacheCapacity: 0)
        let home = session.root
        #expect(home.toggle(.favourite, row: .post("q2")))
        await service.waitForHeld(1)
        // Start over: the first page is fetched now, while the favourite is on its way.
        home.reset()
        await service.waitForHeld(2)
        #expect(Set(service.waiting.map(\.description)) == ["interaction(favourite true q2)", "page(home, after: nil)"])
        // The favourite succeeds; nothing shows q2 any more, so the store forgets it.
        service.answer(at: try #require(service.waitingIndex(.interaction, key: "q2")))
        await quiesce(session, service, clock)
        #expect(session.store.interaction("q2") == nil, "forgotten")
        // The page fetched before the favourite settled lands, with q2 not favourited.
        service.answerHeld(at: 0, asAsked: true)
        await quiesce(session, service, clock)
        let row = try #require(home.rows[id: .post("q2")]?.post?.interaction)
        #expect(row.favourited && row.favouritesCount == 4, "the server's answer, not the older page: \(row)")
        #expect(session.store.interaction("q2")?.favourited == true)
        #expect(row.pending.isEmpty)
    }

    @Test("the fresher copy an interaction's answer brings reaches rows and the detail while a follow-up request runs")
    func answerCopyWhileFollowUpRuns() async throws {
        let (session, service, clock) = await outboxSession([makePost("p1", text: "before", favourites: 3)], holding: [.post, .context])
        let home = session.root
        session.navigator.open("p1")
        await service.waitForHeld(2)
        service.answer(at: try #require(service.waitingIndex(.post, key: "p1")))
        service.answer(at: try #require(service.waitingIndex(.context, key: "p1")))
        await quiesce(session, service, clock)
        let detail = try #require(session.navigator.top.detail)
        // The post is edited on the server (no stream says so). Favourite, then unfavourite at
        // once: the second waits for the first.
        #expect(detail.toggle(.favourite))
        await service.waitForHeld(1)
        #expect(detail.toggle(.favourite))
        // The first answer carries the edited copy; the follow-up (unfavourite) starts.
        service.edit("p1") { $0.text = "after" }
        service.answer(at: 0)
        await service.waitForHeld(1)
        #expect(service.waiting.map(\.description) == ["interaction(favourite false p1)"])
        #expect(session.store.post("p1")?.text == "after")
        #expect(home.rows[id: .post("p1")]?.post?.post.text == "after")
        #expect(detail.current.post?.text == "after")
    }
}
