@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation

import Testing

extension GatedServer {
    /// The refusal of what a test has the server refuse.
    static let notAllowed = FeedFailure(message: "This action is not allowed.", isTransient: false)

    /// A server of a few fixed posts (home lists them; each author's profile, theirs) for the
    /// session-level writing tests: alice is the user, each post was typed as its text and
    /// " (as typed)", publishes, deletes, sources, histories and votes answer from the model
    /// (or are held, with `holdPublishes`); interactions are refused, and profiles, relationships
    /// and hashtags are not served. `refuseDeletes`,
    /// `refuseEdits` and `refusePosts` refuse those ("This action is not allowed.").
    static func writing(
        posts: [Post], refuseDeletes: Bool = false, refuseEdits: Bool = false, holdPublishes: Bool = false, refusePosts: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> GatedServer {
        var model = ServerModel(posts)
        model.timelines.feeds[.home] = posts.map(\.id)
        for author in Set(posts.map(\.author.id)) { model.timelines.feeds[.account(AccountID(author))] = posts.filter { $0.author.id == author }.map(\.id) }
        for post in posts where post.reblog == nil { model.writing.sources[post.id] = PostSource(text: post.text + " (as typed)", contentWarning: post.contentWarning) }
        let server = GatedServer(
            model, me: alice, answering: [.page, .newer, .post, .context, .composeSettings, .publish, .delete, .source, .history, .vote],
            sourceLocation: sourceLocation
        )
        server.fail(.interaction, with: notAllowed)
        server.fail(.profile, .relationships, .tag, with: AccountsUnsupported())
        if holdPublishes { server.hold(.publish) }
        if refusePosts { server.fail(.publish, with: notAllowed) }
        // Held publishes are refused by the test itself (an edit refused after it waited).
        if refuseEdits, !holdPublishes { for post in posts { server.fail(.publish, key: post.content.id.rawValue, with: notAllowed) } }
        if refuseDeletes { server.fail(.delete, with: notAllowed) }
        return server
    }

    /// Lets every held publish go, answered from the model, and every later one at once.
    func openPublishes() async {
        await waitForHeld(1)
        answer(.publish)
        while answerHeld(at: 0) {}
    }
}

@MainActor
@Suite("Writing on the stack", .timeLimit(.minutes(10)))
struct WritingSessionTests {
    private func ids(_ rows: some Sequence<ListRow>) -> [String] { ListStateStreamTests.ids(rows) }

    /// Home shows p1, w1 (Bob's boost of o1), o1, p2; the stack: home › thread o1 › @alice ›
    /// post o1 › thread o1 › post o1 (depth 6).
    private func deepStack(_ server: GatedServer) async throws -> FeedSession {
        let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: ManualClock())
        session.root.appeared()
        await session.settle()
        session.navigator.push(.list(.thread("o1")))
        session.navigator.push(.list(.feed(.account(AccountID(alice.id)))))
        session.navigator.open("o1")
        session.navigator.push(.list(.thread("o1")))
        session.navigator.open("o1")
        for screen in session.navigator.screens { if case .list(let list) = screen { list.appeared() } }
        await session.settle()
        #expect(session.navigator.depth == 6)
        return session
    }

    /// Edits o1 to "edited o1" and sends the edit.
    private func sendEdit(_ session: FeedSession) async throws {
        let log = OutcomeLog(session)
        session.drafts.startEdit(of: try #require(session.store.post("o1")))
        await session.settle()
        let id = try #require(try log.lastDraft?.get())
        session.drafts.update(id) { $0.text = "edited o1" }
        session.drafts.send(id)
    }

    /// The deep stack, with o1 edited to "edited o1" and sent (the server holds it), and the
    /// server's copy from before the edit arriving meanwhile with a new count (9 favourites).
    private func editWithACopyMeanwhile(_ server: GatedServer) async throws -> FeedSession {
        let session = try await deepStack(server)
        try await sendEdit(session)
        var copy = makePost("o1", minutesAgo: 10, favourites: 9)
        copy.text = "post o1"
        session.apply(.edited(copy))
        return session
    }

    static func posts() -> [Post] {
        let original = makePost("o1", minutesAgo: 10)
        return [makePost("p1", minutesAgo: 1), makePost("w1", minutesAgo: 2, author: bob, reblog: original), original, makePost("p2", minutesAgo: 20)]
    }

    @Test("a delete made at depth 6 takes the post and its boosts off every list beneath at once, and marks both details deleted")
    func deleteAtDepth() async throws {
        let session = try await deepStack(GatedServer.writing(posts: Self.posts()))
        let lists = session.navigator.screens.compactMap(\.list)
        #expect(lists.allSatisfy { !$0.rows(showing: "o1").isEmpty })
        let log = OutcomeLog(session)
        #expect(session.delete(post: "o1") == nil)
        // At once, before the server answered.
        #expect(ids(session.root.rows) == ["p1", "p2"])
        #expect(lists.allSatisfy { $0.rows(showing: "o1").isEmpty })
        let details = session.navigator.screens.compactMap(\.detail)
        #expect(details.allSatisfy { $0.current.deleted })
        await session.settle()
        #expect(log.deletions == [Outcome.done(.deletion(post: "o1"))])
        #expect(ids(session.root.rows) == ["p1", "p2"])
    }

    @Test("a delete asked twice before the server answers is sent once: one outcome says it went, and the post stays gone")
    func deleteAskedTwice() async throws {
        let session = try await deepStack(GatedServer.writing(posts: Self.posts()))
        let lists = session.navigator.screens.compactMap(\.list)
        let log = OutcomeLog(session)
        #expect(session.delete(post: "o1") == nil)
        #expect(session.delete(post: "o1") == nil)
        await session.settle()
        #expect(log.deletions == [Outcome.done(.deletion(post: "o1"))])
        #expect(lists.allSatisfy { $0.rows(showing: "o1").isEmpty })
        #expect(session.store.isDeleted("o1") && session.store.isQuoteDeleted("o1"))
    }

    @Test("a delete the server refuses puts every row back where it was and the details load the post again")
    func refusedDeleteRollsBack() async throws {
        let session = try await deepStack(GatedServer.writing(posts: Self.posts(), refuseDeletes: true))
        let lists = session.navigator.screens.compactMap(\.list)
        let before = lists.map { ids($0.rows) }
        let log = OutcomeLog(session)
        #expect(session.delete(post: "o1") == nil)
        #expect(ids(session.root.rows) == ["p1", "p2"])
        await session.settle()
        #expect(log.deletions == [Outcome.refused(.deletion(post: "o1"), sentence: "This action is not allowed.")])
        #expect(lists.map { ids($0.rows) } == before)
        let details = session.navigator.screens.compactMap(\.detail)
        #expect(details.allSatisfy { !$0.current.deleted && $0.current.post?.id == "o1" })
        #expect(lists.allSatisfy { $0.state.checkInvariants().isEmpty })
    }

    @Test("one's own post shows at once on top of home and of one's profile, and under its parent in an open thread")
    func ownPostEverywhere() async throws {
        let session = try await deepStack(GatedServer.writing(posts: Self.posts()))
        let draft = session.drafts.startReply(to: try #require(session.store.post("o1")))
        session.drafts.update(draft) { $0.text += "a reply" }
        #expect(session.drafts.send(draft).isEmpty)
        await session.settle()
        let sent = try #require(session.store.post("post1"))
        #expect(sent.inReplyToID == "o1")
        #expect(ids(session.root.rows).first == "post1")
        let profile = try #require(session.navigator.screens[2].list)
        #expect(ids(profile.rows).first == "post1")
        for index in [1, 4] {
            let thread = try #require(session.navigator.screens[index].list)
            #expect(ids(thread.rows).contains("post1"), "thread at \(index): \(ids(thread.rows))")
        }
        #expect(session.drafts.all.isEmpty)
    }

    @Test("one's reply is listed at once in the thread of every open screen of the post it answers, sending then confirmed")
    func ownReplyInOpenDetails() async throws {
        let server = GatedServer.writing(posts: Self.posts(), holdPublishes: true)
        let session = try await deepStack(server)
        let draft = session.drafts.startReply(to: try #require(session.store.post("o1")))
        session.drafts.load()
        await session.settle()
        session.drafts.update(draft) { $0.text += "a reply" }
        #expect(session.drafts.send(draft).isEmpty)
        let details = session.navigator.screens.compactMap(\.detail)
        #expect(details.count == 2)
        for detail in details {
            #expect(detail.current.context?.descendants.map(\.id) == [.sending(draft)])
        }
        await server.openPublishes()
        await session.settle()
        for detail in details {
            #expect(detail.current.context?.descendants.map(\.id) == ["post1"])
        }
    }

    @Test("an edit shows at once on the post's own row, its boost row and its detail; the server's copy then replaces it")
    func editEverywhere() async throws {
        let session = try await deepStack(GatedServer.writing(posts: Self.posts()))
        let log = OutcomeLog(session)
        session.drafts.startEdit(of: try #require(session.store.post("w1")))
        await session.settle()
        let id = try #require(try log.lastDraft?.get())
        #expect(session.drafts[id]?.draft.text == "post o1 (as typed)")
        #expect(session.drafts[id]?.draft.editing == "o1")
        session.drafts.update(id) { $0.text = "edited o1" }
        #expect(session.drafts.send(id).isEmpty)
        // At once: every row of o1 (its own, the boost w1) and both details.
        let home = session.root.rows
        #expect(home.compactMap(\.post).filter { $0.originalID == "o1" }.allSatisfy { $0.content.text == "edited o1" && $0.content.editedAt != nil })
        #expect(session.navigator.screens.compactMap(\.detail).allSatisfy { $0.current.post?.text == "edited o1" })
        await session.settle()
        #expect(session.store.post("o1")?.text == "edited o1")
        #expect(!session.store.isEditing("o1"))
        #expect(log.edits == [Outcome.done(.edit(post: "o1"))])
    }

    @Test("an edit the server refuses puts the post back as it was everywhere, and keeps the draft with the reason")
    func refusedEditRollsBack() async throws {
        let session = try await deepStack(GatedServer.writing(posts: Self.posts(), refuseEdits: true))
        let log = OutcomeLog(session)
        session.drafts.startEdit(of: try #require(session.store.post("o1")))
        await session.settle()
        let id = try #require(try log.lastDraft?.get())
        session.drafts.update(id) { $0.text = "edited o1" }
        session.drafts.send(id)
        #expect(session.store.post("o1")?.text == "edited o1")
        await session.settle()
        #expect(session.store.post("o1")?.text == "post o1")
        #expect(session.root.rows.compactMap(\.post).filter { $0.originalID == "o1" }.allSatisfy { $0.content.text == "post o1" })
        #expect(session.drafts[id]?.refusal == "This action is not allowed.")
        #expect(session.drafts[id]?.isEditable == true)
        #expect(log.edits == [Outcome.refused(.edit(post: "o1"), sentence: "This action is not allowed.")])
    }

    @Test("one edit of a post on its way at a time: a second one is held back with a sentence")
    func oneEditInFlight() async throws {
        let session = try await deepStack(GatedServer.writing(posts: Self.posts()))
        let post = try #require(session.store.post("o1"))
        let log = OutcomeLog(session)
        session.drafts.startEdit(of: post)
        await session.settle()
        let id = try #require(try log.lastDraft?.get())
        session.drafts.send(id)
        // A second edit started meanwhile is the same draft, told at once; a separate one is refused while the first flies.
        session.drafts.startEdit(of: post)
        #expect(log.heard.last == Outcome.done(.editDraft(post: "o1", draft: id)))
        await session.settle()
        #expect(session.drafts.all.isEmpty)
    }

    static func pollPost(voted: Bool = false) -> Post {
        var post = makePost("q1", minutesAgo: 3, author: bob)
        post.poll = Poll(
            options: [.init(title: "yes", votes: 1), .init(title: "no", votes: 2)], votesCount: 3, expired: false,
            expiresAt: testNow.addingTimeInterval(3_600), id: "poll1", voted: voted
        )
        return post
    }

    @Test("a vote shows at once on every row and detail of the poll, and the server's poll replaces it")
    func voteEverywhere() async throws {
        let session = FeedSession(service: GatedServer.writing(posts: [Self.pollPost()]), clock: .fixed(testNow), retryClock: ManualClock())
        session.root.appeared()
        await session.settle()
        session.navigator.open("q1")
        await session.settle()
        let log = OutcomeLog(session)
        #expect(session.vote(post: "q1", choices: [1]) == nil)
        #expect(session.root.rows.first?.post?.content.poll?.options[1].votes == 3)
        #expect(session.navigator.top.detail?.current.post?.poll?.ownVotes == [1])
        #expect(session.vote(post: "q1", choices: [0])?.message == "Your vote in this poll is on its way.")
        await session.settle()
        #expect(log.votes == [Outcome.done(.vote(post: "q1", choices: [1]))])
        #expect(session.store.post("q1")?.poll?.voted == true)
        #expect(session.vote(post: "q1", choices: [0])?.message == "You have voted in this poll already.")
        #expect(session.vote(post: "q1", choices: [5])?.message == "You have voted in this poll already.")
        #expect(session.vote(post: "q9", choices: [0])?.message == "That post is not known here; open it first.")
        #expect(log.votes.count == 1, "a vote not sent is not an outcome")
    }

    @Test("a vote the server refuses (voted elsewhere) adopts the server's poll; bad choices are refused before sending")
    func refusedVoteAdoptsTheServersPoll() async throws {
        var serverPoll = try #require(Self.pollPost().poll)
        serverPoll.voted = true
        serverPoll.ownVotes = [0]
        serverPoll.options[0].votes = 2
        serverPoll.votesCount = 4
        let server = GatedServer.writing(posts: [Self.pollPost()])
        let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: ManualClock())
        session.root.appeared()
        await session.settle()
        #expect(session.vote(post: "q1", choices: [0, 1])?.message == "The poll takes one choice.")
        #expect(session.vote(post: "q1", choices: [2])?.message == "The poll has no choice 3.")
        // Voted elsewhere since the page came.
        server.update { $0.update("q1") { $0.poll = serverPoll } }
        let log = OutcomeLog(session)
        session.vote(post: "q1", choices: [1])
        await session.settle()
        let refusal = "Validation failed: You have already voted on this poll"
        #expect(log.votes == [Outcome.refused(.vote(post: "q1", choices: [1]), sentence: refusal)])
        #expect(session.store.post("q1")?.poll == serverPoll)
        #expect(session.root.rows.first?.post?.content.poll == serverPoll)
    }

    @Test("a vote the server cannot be reached for puts the poll back as it was, with the sentence, and may be cast again")
    func lostVoteRollsBack() async throws {
        let server = GatedServer.writing(posts: [Self.pollPost()])
        server.fail(.vote, with: FeedFailure(message: "The server cannot be reached.", isTransient: true))
        let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: ManualClock())
        session.root.appeared()
        await session.settle()
        let before = try #require(session.store.post("q1")?.poll)
        let log = OutcomeLog(session)
        #expect(session.vote(post: "q1", choices: [1]) == nil)
        #expect(session.store.isVoting("q1"))
        await session.settle()
        #expect(log.votes == [Outcome.refused(.vote(post: "q1", choices: [1]), sentence: "The server cannot be reached.")])
        #expect(session.store.post("q1")?.poll == before)
        #expect(session.root.rows.first?.post?.content.poll == before)
        #expect(!session.store.isVoting("q1") && !session.hasFailures, "rolled back, not queued")
        server.answer(.vote)
        #expect(session.vote(post: "q1", choices: [1]) == nil)
        await session.settle()
        #expect(log.votes.last == Outcome.done(.vote(post: "q1", choices: [1])))
        #expect(session.store.post("q1")?.poll?.ownVotes == [1])
    }

    @Test("an edit the server refuses puts back the text only: what a copy brought meanwhile (a count) stays")
    func refusedEditKeepsFresherCopy() async throws {
        let server = GatedServer.writing(posts: Self.posts(), refuseEdits: true, holdPublishes: true)
        let session = try await editWithACopyMeanwhile(server)
        await server.waitForHeld(1)
        server.failHeld(at: 0, with: GatedServer.notAllowed)
        await session.settle()
        let shown = try #require(session.store.post("o1"))
        #expect(shown.text == "post o1" && shown.favouritesCount == 9)
        #expect(session.root.rows.compactMap(\.post).filter { $0.originalID == "o1" }.allSatisfy { $0.content.favouritesCount == 9 })
        #expect(!session.store.isEditing("o1"))
    }

    @Test("a redraft deletes the post everywhere and makes a draft of its source, keeping its reply target")
    func redraft() async throws {
        var reply = makePost("r1", minutesAgo: 4)
        reply.inReplyToID = "o1"
        reply.visibility = .private
        let session = FeedSession(service: GatedServer.writing(posts: Self.posts() + [reply]), clock: .fixed(testNow), retryClock: ManualClock())
        session.root.appeared()
        await session.settle()
        let log = OutcomeLog(session)
        #expect(session.redraft(post: "r1") == nil)
        await session.settle()
        let id = try #require(try log.lastDraft?.get())
        #expect(log.heard == [
            Outcome.done(.deletion(post: "r1")), Outcome.done(.redraft(post: "r1", draft: id)),
        ], "the delete, then the draft")
        let draft = try #require(session.drafts[id]?.draft)
        #expect(draft.text == "post r1 (as typed)")
        #expect(draft.inReplyTo == "o1" && draft.visibility == .private && draft.editing == nil)
        #expect(!ids(session.root.rows).contains("r1"))
    }

    @Test("one's own post shows at once as sending on home, one's profile and under its parent; the answer turns that same row into the post")
    func sendingRowBecomesThePost() async throws {
        let server = GatedServer.writing(posts: Self.posts(), holdPublishes: true)
        let session = try await deepStack(server)
        var confirmedChanges: [Changeset<ListRow>] = []
        let subscription = session.root.snapshot.observe { confirmedChanges.append($0.changes) }
        _ = subscription
        let parent = try #require(session.store.post("o1"))
        let draft = session.drafts.startReply(to: parent)
        session.drafts.load()
        await session.settle()
        session.drafts.update(draft) { $0.text += "on its way" }
        #expect(session.drafts.send(draft).isEmpty)
        let local = PostID.sending(draft)
        // At once, before any answer: on top of home and of the profile, under the parent in both threads.
        #expect(session.root.rows.first?.post?.isSending == true)
        #expect(session.root.rows.first?.id == .post(local))
        let profile = try #require(session.navigator.screens[2].list)
        #expect(profile.rows.first?.id == .post(local))
        for index in [1, 4] {
            let thread = try #require(session.navigator.screens[index].list)
            let parentIndex = try #require(thread.rows.index(of: .post("o1")))
            #expect(thread.rows[parentIndex + 1].id == .post(local), "thread at \(index)")
            #expect(thread.rows[parentIndex + 1].post?.threadDepth == (thread.rows[parentIndex].post?.threadDepth ?? 0) + 1)
        }
        #expect(!session.root.toggle(.favourite, row: .post(local)), "a post on its way takes no favourite")
        confirmedChanges.removeAll()
        await server.openPublishes()
        await session.settle()
        // The same row, now the server's post: an update, never a delete and an insert.
        let row = try #require(session.root.rows.first?.post)
        #expect(row.id == local && row.post.id == "post1" && !row.isSending)
        let change = try #require(confirmedChanges.first)
        #expect(change.deletions.isEmpty && change.updates.contains { $0.element.id == .post(local) })
        #expect(!change.insertions.contains { $0.element.id == .post(local) })
        #expect(session.root.rows.index(of: .post("post1")) == 0, "found by its post's id too")
        // Interactions reach it through the store, by either id.
        #expect(session.root.toggle(.favourite, row: .post(local)))
        #expect(session.store.post(local)?.id == "post1")
        // The stream's echo and later pages find the row: no second row.
        session.apply(.posted(try #require(session.store.post("post1")), in: .home))
        #expect(session.root.rows.filter { $0.post?.post.id == "post1" }.count == 1)
        #expect(session.root.state.waiting.isEmpty)
        #expect(session.root.state.checkInvariants().isEmpty)
    }

    @Test("a post the server refuses leaves every screen it was shown on, and the draft stays with the reason")
    func refusedPostIsWithdrawn() async throws {
        let server = GatedServer.writing(posts: Self.posts(), refusePosts: true)
        let session = try await deepStack(server)
        let draft = session.drafts.startPost()
        session.drafts.load()
        await session.settle()
        session.drafts.update(draft) { $0.text = "refused" }
        session.drafts.send(draft)
        #expect(session.root.rows.first?.post?.isSending == true)
        await session.settle()
        #expect(!session.root.rows.contains { $0.post?.isSending == true })
        #expect(session.drafts[draft]?.refusal == "This action is not allowed.")
        #expect(session.store.post(.sending(draft)) == nil)
    }

    @Test("a copy of the post that arrives while one's edit is on its way (a page, a stream's notification) does not undo the edit on screen")
    func editSurvivesStaleCopies() async throws {
        let server = GatedServer.writing(posts: Self.posts(), holdPublishes: true)
        let session = try await editWithACopyMeanwhile(server)
        let shown = try #require(session.store.post("o1"))
        #expect(shown.text == "edited o1" && shown.favouritesCount == 9)
        #expect(session.root.rows.compactMap(\.post).filter { $0.originalID == "o1" }.allSatisfy { $0.content.text == "edited o1" })
        await server.openPublishes()
        await session.settle()
        #expect(session.store.post("o1")?.text == "edited o1")
        #expect(!session.store.isEditing("o1"))
    }

    @Test("the history is a screen of the post's versions, newest first, which take no interaction")
    func historyScreen() async throws {
        let session = try await deepStack(GatedServer.writing(posts: Self.posts()))
        try await sendEdit(session)
        await session.settle()
        session.navigator.push(.list(.history("o1")))
        await session.settle()
        let history = try #require(session.navigator.top.list)
        #expect(history.source == .history("o1"))
        #expect(history.rows.compactMap(\.post).map(\.content.text) == ["edited o1", "post o1"])
        #expect(history.rows.compactMap(\.post).map(\.id) == [.version(2, of: "o1"), .version(1, of: "o1")])
        let versions = history.rows.compactMap(\.post)
        #expect(versions.allSatisfy { $0.isVersion })
        #expect(!history.toggle(.favourite, row: .post(.version(2, of: "o1"))))
        #expect(session.store.post(.version(2, of: "o1")) == nil, "versions stay out of the store")
    }

    @Test("a draft started before the account is known is saved at once, and takes the account's defaults and handle when they come")
    func draftsBeforeSettings() async throws {
        let session = FeedSession(service: GatedServer.writing(posts: Self.posts()), clock: .fixed(testNow), retryClock: ManualClock())
        session.root.appeared()
        await session.settle()
        // Alice (the account) replies to her own post o1, which mentions Bob: before the account is
        // known the reply mentions Alice too.
        var own = try #require(session.store.post("o1"))
        own.mentions = ["bob@example.social"]
        session.store.ingest([own], fetchedAt: session.store.beginFetch())
        var saved: [Submission] = []
        let token = session.drafts.observe { saved = $0 }
        let reply = session.drafts.startReply(to: own)
        session.drafts.update(reply) { $0.text += "typed at once" }
        #expect(saved.first?.draft.text == "@alice @bob@example.social typed at once", "saved before anything is known")
        await session.settle()
        #expect(session.drafts[reply]?.draft.text == "@bob@example.social typed at once")
        _ = token
    }
}
