@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Testing

/// The doubles fail the test on a call it did not expect, naming the call, and fail the call at
/// once: nothing is left waiting for an answer that will never come.
@Suite("Unexpected calls to the doubles")
struct UnexpectedCallTests {
    /// Whether `issue` is the one a double records for `message`.
    static func names(_ message: String) -> (Issue) -> Bool {
        { issue in issue.comments.contains { $0.rawValue == message } }
    }

    @Test("the stream model server serves pages, newer pages and interactions, nothing else")
    func streamModelServer() async {
        let server = StreamModelServer(pageSize: 3)
        await withKnownIssue {
            await #expect(throws: UnexpectedCall.self) { try await server.notifications(after: nil) }
        } matching: { issue in
            Self.names("StreamModelServer got notifications(nil), which the test did not expect (it expects [pages, newer, interactions, writing])")(issue)
        }
        #expect(server.pendingCount == 0)
    }

    @Test("a model server fails a call of a kind the test does not expect, before it waits")
    func modelServer() async {
        let server = ModelServer(expecting: FeedCalls.all.subtracting(.accounts))
        await withKnownIssue {
            await #expect(throws: UnexpectedCall.self) { try await server.account(named: "author1@model.example") }
        } matching: { issue in
            Self.names(
                "ModelServer got account(author1@model.example), which the test did not expect "
                    + "(it expects [pages, newer, notifications, newerNotifications, posts, contexts, interactions])"
            )(issue)
        }
        #expect(server.pendingCount == 0 && server.calls == 0)
    }
}
