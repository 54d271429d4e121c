@_spi(FeedService) import Feedline
@_spi(FeedService) @testable import FeedlineMastodon
import Foundation
import Testing

/// Paging, refresh and gaps against the fake server over real HTTP.
@Suite("HTTP paging")
struct HTTPPagingTests {
    @Test("pages through the home timeline by its Link header to the end, with token and User-Agent")
    func pagesToTheEnd() async throws {
        try await withFakeServer { fake, server in
            let service = try makeService(server, pageSize: 40)
            var cursor: PageCursor?
            var ids: [PostID] = []
            var pages = 0
            repeat {
                let page = try await service.page(of: .home, after: cursor)
                ids += page.posts.map(\.id)
                cursor = page.next
                pages += 1
            } while cursor != nil && pages < 10
            let expected = try FixtureStatuses.timeline().map { PostID($0.id) }
            #expect(ids == expected)
            #expect(pages == 4)  // 40 + 40 + 40 + 5: the last page is not full, so it has no next link.
            let requests = fake.requests
            #expect(requests.count == 4)
            #expect(requests.allSatisfy { $0.method == "GET" && $0.path == "/api/v1/timelines/home" })
            #expect(requests.allSatisfy { $0.authorization == "Bearer \(secretToken)" })
            #expect(requests.allSatisfy { $0.userAgent == "Feedline/\(FeedlineVersion.current)" })
            #expect(requests[0].query == ["limit": "40"])
            #expect(requests[1].query == ["limit": "40", "max_id": expected[39].rawValue])
            #expect(requests[3].query["max_id"] == expected[119].rawValue)
        }
    }

    @Test("a full last page ends on the following empty page; public, local and tag address their endpoints")
    func timelinesAndEmptyEnd() async throws {
        let statuses = Array(try FixtureStatuses.timeline().prefix(6))
        try await withFakeServer(statuses: statuses) { fake, server in
            let service = try makeService(server, token: nil, pageSize: 3)
            let first = try await service.page(of: .public, after: nil)
            let second = try await service.page(of: .public, after: first.next)
            let third = try await service.page(of: .public, after: second.next)
            #expect(first.posts.count == 3 && second.posts.count == 3)
            #expect(third.posts.isEmpty && third.next == nil)
            #expect(fake.requests.allSatisfy { $0.authorization == nil })

            _ = try await makeService(server, token: nil).page(of: .local, after: nil)
            _ = try await makeService(server, token: nil).page(of: .tag("café_2"), after: nil)
            let last = fake.requests.suffix(2)
            #expect(last.first?.path == "/api/v1/timelines/public")
            #expect(last.first?.query["local"] == "true")
            #expect(last.last?.path == "/api/v1/timelines/tag/café_2")
        }
    }

    @Test("refresh asks since_id for the newest posts and says when a gap remains; the gap fills with since_id + max_id")
    func refreshAndGap() async throws {
        let all = try FixtureStatuses.timeline()
        // The client saw the timeline from all[30] down; 30 posts arrived above it since.
        try await withFakeServer(statuses: Array(all.dropFirst(30))) { fake, server in
            let service = try makeService(server, pageSize: 20)
            let first = try await service.page(of: .home, after: nil)
            let top = try #require(first.posts.first).id
            #expect(top.rawValue == all[30].id)
            fake.post(Array(all.prefix(30)))

            let refreshed = try await service.newer(in: .home, than: top, olderThan: nil)
            #expect(refreshed.posts.map(\.id.rawValue) == all.prefix(20).map(\.id))
            #expect(refreshed.hasMore)
            let refresh = try #require(fake.requests.last)
            #expect(refresh.query == ["since_id": top.rawValue, "limit": "21"])

            // The gap between the oldest refreshed post and the old top holds 10 posts.
            let gap = try await service.newer(in: .home, than: top, olderThan: PostID(all[19].id))
            #expect(gap.posts.map(\.id.rawValue) == all[20..<30].map(\.id))
            #expect(!gap.hasMore)
            #expect(fake.requests.last?.query == ["since_id": top.rawValue, "max_id": all[19].id, "limit": "21"])

            // Nothing newer: an empty answer without a gap.
            let none = try await service.newer(in: .home, than: PostID(all[0].id), olderThan: nil)
            #expect(none.posts.isEmpty && !none.hasMore)
        }
    }

    @Test("a next link to another host is not followed: its max_id is asked of our server instead")
    func foreignNextLink() async throws {
        let statuses = Array(try FixtureStatuses.timeline().prefix(4))
        try await withFakeServer(statuses: statuses) { fake, server in
            fake.enqueue(
                FakeMastodon.Canned(
                    pathPrefix: "/api/v1/timelines/public", status: 200,
                    headers: ["Link": "<https://elsewhere.example/api/v1/timelines/public?max_id=\(statuses[1].id)>; rel=\"next\""],
                    body: String(decoding: try Mastodon.makeEncoder().encode(Array(statuses.prefix(2))), as: UTF8.self)
                )
            )
            let service = try makeService(server, pageSize: 2)
            let first = try await service.page(of: .public, after: nil)
            let next = try #require(first.next)
            #expect(next.rawValue.hasPrefix(server.url.absoluteString))
            let second = try await service.page(of: .public, after: next)
            #expect(second.posts.map(\.id.rawValue) == statuses[2..<4].map(\.id))
            #expect(fake.requests.last?.query["max_id"] == statuses[1].id)
        }
    }
}
