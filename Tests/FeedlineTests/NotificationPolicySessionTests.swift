@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

/// Issue 36's filtered notifications through the session: the policy is read once and each of
/// its fields set optimistically — shown at once to every observer, confirmed by the server,
/// rolled back with its sentence on refusal, queued and sent again when it cannot be reached,
/// one change per field in flight.
@MainActor
@Suite("Notification policy across the session")
struct NotificationPolicySessionTests {
    static func server(sourceLocation: SourceLocation = #_sourceLocation) -> GatedServer {
        var model = ServerModel([makePost("b1", minutesAgo: 1, author: bob)])
        model.notificationPolicy.pendingRequests = 2
        model.notificationPolicy.pendingNotifications = 5
        return GatedServer(model, me: alice, answering: [.notificationPolicy], sourceLocation: sourceLocation)
    }

    static func session(_ server: GatedServer) -> FeedSession {
        FeedSession(service: server, clock: .fixed(testNow), retryClock: ManualClock())
    }

    /// Two observers of the policy (two screens), each keeping the last value of `field` told
    /// (`…` while pending, `!` with a refusal).
    @MainActor
    final class Screens {
        var told: [String] = ["", ""]
        var subscriptions: [Subscription] = []

        init(_ session: FeedSession, _ field: NotificationPolicy.Field) {
            for index in 0..<2 {
                subscriptions.append(session.observeNotificationPolicy { [weak self, weak session] policy in
                    guard let self, let session, let policy else { return }
                    self.told[index] = policy[field].rawValue + (session.isNotificationPolicyPending(field) ? "…" : "")
                        + (session.notificationPolicyFailure(field) == nil ? "" : "!")
                })
            }
        }
    }

    @Test("read once: the five fields and the summary; a change before it is read is refused, nothing sent")
    func read() async throws {
        let server = Self.server()
        let session = Self.session(server)
        #expect(session.notificationPolicy == nil)
        #expect(throws: FeedFailure.self) { try session.setNotificationPolicy(.notFollowing, to: .filter) }
        #expect(await session.loadNotificationPolicy() == nil)
        let policy = try #require(session.notificationPolicy)
        #expect(policy[.notFollowing] == .accept && policy[.privateMentions] == .filter && policy[.limitedAccounts] == .filter)
        #expect(policy.pendingRequests == 2 && policy.pendingNotifications == 5)
        #expect(server.calls(.setNotificationPolicy).isEmpty)
    }

    @Test("a change shows at once on every screen, is confirmed; a refusal rolls back with the sentence; unreachable queues")
    func setEverywhere() async throws {
        let server = Self.server()
        let session = Self.session(server)
        let log = OutcomeLog(session)
        #expect(await session.loadNotificationPolicy() == nil)
        let screens = Screens(session, .notFollowing)

        // Confirmed.
        server.hold(.setNotificationPolicy)
        try session.setNotificationPolicy(.notFollowing, to: .filter)
        #expect(screens.told == ["filter…", "filter…"], "at once, on both, before the server answers")
        await server.waitForHeld(1)
        server.answerHeld(at: 0)
        await session.settle()
        #expect(screens.told == ["filter", "filter"])
        #expect(server.model.notificationPolicy[.notFollowing] == .filter)
        #expect(server.calls(.setNotificationPolicy).map(\.description) == ["setNotificationPolicy(filter)"])

        // Refused: back to what the server has, with its sentence.
        server.hold(.setNotificationPolicy)
        try session.setNotificationPolicy(.notFollowing, to: .drop)
        #expect(screens.told == ["drop…", "drop…"])
        await server.waitForHeld(1)
        server.failHeld(at: 0, with: ServerRefusal("Validation failed: For not following is not included in the list"))
        await session.settle()
        #expect(screens.told == ["filter!", "filter!"])
        #expect(session.notificationPolicyFailure(.notFollowing)
            == "Could not drop notifications from people you don't follow: Validation failed: For not following is not included in the list")
        #expect(server.model.notificationPolicy[.notFollowing] == .filter)

        // Unreachable: stays shown, queued, sent again by retry.
        server.fail(.setNotificationPolicy, with: ServerUnreachable())
        try session.setNotificationPolicy(.notFollowing, to: .accept)
        await session.settle()
        #expect(screens.told == ["accept…", "accept…"])
        #expect(session.hasFailures)
        server.answer(.setNotificationPolicy)
        #expect(session.retry())
        await session.settle()
        #expect(screens.told == ["accept", "accept"])
        #expect(!session.hasFailures)
        #expect(server.model.notificationPolicy[.notFollowing] == .accept)
        #expect(log.heard == [
            .done(.notificationPolicy("not-following", value: "filter")),
            .refused(.notificationPolicy("not-following", value: "drop"), sentence: "Validation failed: For not following is not included in the list"),
            .queued(.notificationPolicy("not-following", value: "accept"), reason: "The server could not be reached.", resendAfter: .seconds(2)),
            .done(.notificationPolicy("not-following", value: "accept")),
        ])
    }

    @Test("one change per field in flight: a second wish waits for the first answer; a read meanwhile keeps it")
    func oneInFlight() async throws {
        let server = Self.server()
        let session = Self.session(server)
        #expect(await session.loadNotificationPolicy() == nil)
        server.hold(.setNotificationPolicy)
        try session.setNotificationPolicy(.newAccounts, to: .filter)
        try session.setNotificationPolicy(.newAccounts, to: .drop)
        await server.waitForHeld(1)
        #expect(server.calls(.setNotificationPolicy).count == 1)
        // A read while the change is on its way does not undo it.
        #expect(await session.loadNotificationPolicy() == nil)
        #expect(session.notificationPolicy?[.newAccounts] == .drop)
        server.answerHeld(at: 0)
        await server.waitForHeld(1)
        server.answerHeld(at: 0)
        await session.settle()
        #expect(server.calls(.setNotificationPolicy).map(\.description) == ["setNotificationPolicy(filter)", "setNotificationPolicy(drop)"])
        #expect(session.notificationPolicy?[.newAccounts] == .drop && server.model.notificationPolicy[.newAccounts] == .drop)
    }
}
