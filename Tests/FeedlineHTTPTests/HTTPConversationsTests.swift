@_spi(FeedService) import Feedline
@_spi(FeedService) import FeedlineMastodon
import FeedlineTestSupport
import Foundation
import Testing

/// Direct conversations over HTTP, checked against the fake server's Mastodon rules
/// (`FakeMastodon+Conversations.swift`): the list paged by its `Link` header to its end, reading
/// and removing one, every error as its sentence, and a conversation arriving on the `direct` stream.
@Suite("HTTP conversations")
struct HTTPConversationsTests {
    /// The ids of the first `count` original statuses of the fixture timeline.
    static func originals(_ count: Int) throws -> [Mastodon.Status] {
        Array(try FixtureStatuses.timeline().filter { $0.reblog == nil }.prefix(count))
    }

    @Test("the conversations page by Link through every one, most recent first, with participants, unread and the last post")
    func paging() async throws {
        let statuses = try Self.originals(5)
        try await withFakeServer(statuses: try FixtureStatuses.timeline()) { fake, server in
            fake.startConversations(lastStatuses: statuses.map(\.id), unread: [statuses[1].id])
            let service = try makeService(server, pageSize: 2)
            let pages = try await HTTPTagsTests.walkList { try await service.conversations(after: $0) }
            let all = pages.flatMap(\.items)
            #expect(all.map(\.id) == fake.conversationSummary.map { $0.replacingOccurrences(of: "*", with: "") })
            #expect(all.count == 5)
            #expect(pages.count == 3, "2 + 2 + 1: the short page has no next link")
            let unread = try #require(all.first { $0.id == "c\(statuses[1].id)" })
            #expect(unread.unread)
            #expect(unread.participants.map(\.handle) == [statuses[1].account.acct])
            #expect(unread.lastPost?.id == PostID(statuses[1].id))
            #expect(all.filter(\.unread).count == 1)
            #expect(fake.requests.allSatisfy { $0.method == "GET" && $0.path == "/api/v1/conversations" && $0.authorization != nil })
            #expect(fake.requests.first?.query == ["limit": "2"])
            #expect(fake.requests.dropFirst().allSatisfy { $0.query["max_id"] != nil }, "later pages follow the next link")
        }
    }

    @Test("reading one clears unread on the server and answers it; removing one takes it off the list; an unknown one is named")
    func readAndRemove() async throws {
        let statuses = try Self.originals(2)
        try await withFakeServer(statuses: try FixtureStatuses.timeline()) { fake, server in
            fake.startConversations(lastStatuses: statuses.map(\.id), unread: Set(statuses.map(\.id)))
            let service = try makeService(server)
            let read = try await service.markConversationRead("c\(statuses[0].id)")
            #expect(!read.unread)
            #expect(read.id == "c\(statuses[0].id)")
            try await service.removeConversation("c\(statuses[1].id)")
            #expect(fake.conversationSummary == ["c\(statuses[0].id)"])
            #expect(fake.requests.suffix(2).map { "\($0.method) \($0.path)" } == [
                "POST /api/v1/conversations/c\(statuses[0].id)/read", "DELETE /api/v1/conversations/c\(statuses[1].id)",
            ])
            let missing = await thrownError { try await service.removeConversation("c\(statuses[1].id)") }
            #expect(FeedFailure(try #require(missing)).message.contains("There is no conversation c\(statuses[1].id)"))
            #expect(!FeedFailure(try #require(missing)).isTransient)
        }
    }

    @Test("signed out (401) and a token without the scope (403) say to run feedline login, for the list and the changes")
    func needsSignIn() async throws {
        try await withFakeServer(statuses: []) { fake, server in
            let login = "feedline login \(server.loginArgument)"
            let signedOut = try makeService(server, token: nil)
            let visitor = await thrownError { _ = try await signedOut.conversations(after: nil) }
            let service = try makeService(server)
            fake.fail("/api/v1/conversations", method: "GET", status: 403, error: "This action is outside the authorized scopes")
            let unscopedRead = await thrownError { _ = try await service.conversations(after: nil) }
            fake.fail("/api/v1/conversations/", method: "POST", status: 403, error: "This action is outside the authorized scopes")
            let unscopedWrite = await thrownError { _ = try await service.markConversationRead("c1") }
            #expect(
                unscopedWrite as? MastodonHTTPError
                    == .writeRefused(serverMessage: "This action is outside the authorized scopes", server: server.loginArgument)
            )
            for error in [visitor, unscopedRead, unscopedWrite] {
                let failure = FeedFailure(try #require(error))
                #expect(failure.message.contains(login), "\(failure.message)")
                #expect(!failure.isTransient)
                expectNoToken(failure)
            }
        }
    }

    @Test("a conversation arriving on the direct stream moves to the top of the conversations screen with its new post, unread")
    @MainActor
    func directStream() async throws {
        let statuses = try Self.originals(3)
        var reply = statuses[2]
        reply.id = "117699999999990777"
        reply.content = "<p>A new direct message.</p>"
        reply.visibility = .direct
        try await withFakeServer(statuses: try FixtureStatuses.timeline()) { fake, server in
            fake.serveStream()
            fake.startConversations(lastStatuses: statuses.map(\.id))
            let service = try makeService(server)
            let session = FeedSession(service: service, clock: .fixed(Date(timeIntervalSince1970: 1_795_348_800)))
            session.navigator.push(.list(.conversations))
            await session.settle()
            let list = try #require(session.navigator.top.list)
            let before = list.rows.map(\.id)
            #expect(before.count == 3)
            let last = try #require(before.last)
            var policy = StreamPolicy()
            policy.idleTimeout = .seconds(600)
            let live = MastodonLiveUpdates(
                client: .live(service, idleTimeout: .seconds(600), direct: true), session: session, clock: ManualClock(), policy: policy, direct: true
            )
            live.start()
            await fake.waitForStreams(1)
            // The reload a connection makes (what changed while there was none) comes first.
            await session.settle()
            #expect(fake.requests.contains { $0.path == "/api/v1/streaming/direct" })
            #expect(session.streamState.value == .off, "the session's stream state is the user stream's")
            guard case .conversation(let id) = last else {
                Issue.record("expected conversation rows")
                return
            }
            fake.streamConversation(id, lastStatus: reply)
            await firstValue(of: list.snapshot) { $0.rows.first?.id == last }
            let top = try #require(list.rows.first?.conversation)
            #expect(top.unread)
            #expect(top.lastPost?.text == "A new direct message.")
            #expect(list.rows.map(\.id) == [last] + before.dropLast())
            live.stop()
        }
    }
}
