@_spi(FeedService) import Feedline
@_spi(FeedService) @testable import FeedlineMastodon
import FeedlineTestSupport
import Foundation
import Testing

/// Issue 36's filtered notifications over HTTP, on Mastodon 4.3's real endpoint and payload
/// shapes (`FakeMastodon+NotificationPolicy.swift`): the policy is read with
/// `GET /api/v2/notifications/policy` (five fields and a summary) and changed with a `PATCH` of
/// one form field; a refusal is the server's sentence, and a server before 4.3 says it has none.
@Suite("HTTP notification policy")
struct HTTPNotificationPolicyTests {
    static let now = Date(timeIntervalSince1970: 1_795_348_800)

    @Test("GET reads every field and the summary of the v2 NotificationPolicy, signed in")
    func read() async throws {
        try await withFakeServer { fake, server in
            fake.notificationPolicy = NotificationPolicy(
                [.notFollowing: .filter, .notFollowers: .accept, .newAccounts: .drop, .privateMentions: .filter, .limitedAccounts: .drop],
                pendingRequests: 2, pendingNotifications: 5
            )
            let policy = try await makeService(server).notificationPolicy()
            #expect(policy == fake.notificationPolicy)
            #expect(policy[.newAccounts] == .drop && policy.pendingRequests == 2 && policy.pendingNotifications == 5)
            #expect(fake.requests.map(\.description) == ["GET /api/v2/notifications/policy []"])
            #expect(fake.requests.first?.authorization == "Bearer \(secretToken)")
        }
    }

    @Test("a change PATCHes one form field and answers the policy after")
    func change() async throws {
        try await withFakeServer { fake, server in
            let policy = try await makeService(server).setNotificationPolicy(.notFollowers, to: .filter)
            #expect(policy[.notFollowers] == .filter && policy[.privateMentions] == .filter && policy[.notFollowing] == .accept)
            #expect(fake.notificationPolicy[.notFollowers] == .filter)
            let patch = try #require(fake.requests.first)
            #expect(patch.method == "PATCH" && patch.path == "/api/v2/notifications/policy")
            #expect(patch.form == ["for_not_followers": "filter"])
        }
    }

    @Test("a refusal is the server's sentence, not sent again; a server before 4.3 says it has no policy")
    func refusedAndMissing() async throws {
        try await withFakeServer { fake, server in
            let service = try makeService(server)
            fake.enqueue(FakeMastodon.Canned(method: "PATCH", pathPrefix: "/api/v2/notifications/policy", status: 422, body: #"{"error":"Validation failed: For new accounts is not included in the list"}"#))
            do {
                _ = try await service.setNotificationPolicy(.newAccounts, to: .drop)
                Issue.record("the refused change was taken")
            } catch {
                let failure = FeedFailure(error)
                #expect(failure.message.contains("For new accounts is not included in the list"))
                #expect(!failure.isTransient)
            }
            fake.groupedNotifications = .missing
            do {
                _ = try await service.notificationPolicy()
                Issue.record("a 4.2 server answered a policy")
            } catch {
                #expect(FeedFailure(error).message == MastodonHTTPService.noNotificationPolicy + ".")
            }
        }
    }

    @Test("through the session: shown at once; a refusal brings the server's value back with its sentence")
    @MainActor
    func sessionRollback() async throws {
        try await withFakeServer { fake, server in
            let session = FeedSession(service: try makeService(server), clock: .fixed(Self.now), retryClock: ManualClock())
            #expect(await session.loadNotificationPolicy() == nil)
            #expect(session.notificationPolicy?[.notFollowing] == .accept)

            try session.setNotificationPolicy(.notFollowing, to: .filter)
            #expect(session.notificationPolicy?[.notFollowing] == .filter, "shown before the server answers")
            #expect(session.isNotificationPolicyPending(.notFollowing))
            _ = await session.finish(waitingAtMost: .seconds(600))
            #expect(session.notificationPolicy?[.notFollowing] == .filter && !session.isNotificationPolicyPending(.notFollowing))
            #expect(fake.notificationPolicy[.notFollowing] == .filter)

            fake.enqueue(FakeMastodon.Canned(method: "PATCH", pathPrefix: "/api/v2/notifications/policy", status: 422, body: #"{"error":"Not today"}"#))
            try session.setNotificationPolicy(.notFollowing, to: .drop)
            #expect(session.notificationPolicy?[.notFollowing] == .drop)
            _ = await session.finish(waitingAtMost: .seconds(600))
            #expect(session.notificationPolicy?[.notFollowing] == .filter, "back as the server has it")
            #expect(session.notificationPolicyFailure(.notFollowing)?.contains("Not today") == true)
            #expect(fake.notificationPolicy[.notFollowing] == .filter)
        }
    }
}
