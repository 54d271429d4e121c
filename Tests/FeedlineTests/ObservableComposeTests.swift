@_spi(FeedService) import Feedline
import FeedlineObservation
import FeedlineTestSupport
import Foundation
import Observation
import Synchronization
import Testing

/// The signed-in user of these tests' server.
private let me = Author(id: "1", displayName: "Alice", handle: "alice")

/// A server that takes posts (answering with the post made of the draft) and says what a post
/// was written as; it is asked nothing else.
private func postingServer(_ posts: [Post] = [], sourceLocation: SourceLocation = #_sourceLocation) -> GatedServer {
    GatedServer(ServerModel(posts), me: me, answering: [.composeSettings, .publish, .source], sourceLocation: sourceLocation)
}

/// Which observed properties a change invalidated: each property is tracked on its own, as a
/// SwiftUI view that reads only it would be (once: see `Invalidations` for counting).
@MainActor
private final class ComposeInvalidations {
    private let fired = Mutex<Set<String>>([])

    init(_ compose: ObservableCompose) {
        watch("text") { _ = compose.text }
        watch("contentWarning") { _ = compose.contentWarning }
        watch("visibility") { _ = compose.visibility }
        watch("language") { _ = compose.language }
        watch("sensitive") { _ = compose.sensitive }
        watch("poll") { _ = compose.poll }
        watch("charactersLeft") { _ = compose.charactersLeft }
        watch("problems") { _ = compose.problems }
        watch("canSend") { _ = compose.canSend }
        watch("phase") { _ = compose.phase }
        watch("refusal") { _ = compose.refusal }
    }

    private func watch(_ name: String, _ read: () -> Void) {
        withObservationTracking(read) { [self] in fired.withLock { _ = $0.insert(name) } }
    }

    /// The properties invalidated since tracking began.
    var names: Set<String> { fired.withLock { $0 } }
}

@MainActor
@Suite("ObservableCompose", .timeLimit(.minutes(10)))
struct ObservableComposeTests {
    private func compose(_ server: GatedServer = postingServer()) throws -> (FeedSession, ObservableCompose) {
        let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: ManualClock())
        let id = session.drafts.startPost()
        return (session, try #require(ObservableCompose(id, in: session.drafts)))
    }

    @Test("typing invalidates text and charactersLeft (and problems and canSend when they change), never visibility or phase")
    func typing() throws {
        let (session, compose) = try compose()
        #expect(compose.text == "" && compose.charactersLeft == 500 && compose.problems == [.empty] && !compose.canSend)

        var seen = ComposeInvalidations(compose)
        compose.text = "Hello"
        #expect(seen.names == ["text", "charactersLeft", "problems", "canSend"])
        #expect(compose.text == "Hello" && compose.charactersLeft == 495 && compose.problems.isEmpty && compose.canSend)
        #expect(session.drafts[compose.id]?.draft.text == "Hello", "the setter changed the session's draft")

        // Once it can be sent, typing more changes only the text and what is left.
        seen = ComposeInvalidations(compose)
        compose.text = "Hello there"
        #expect(seen.names == ["text", "charactersLeft"])
        #expect(compose.visibility == .public && compose.phase == .editing)

        // The same text again changes nothing.
        seen = ComposeInvalidations(compose)
        compose.text = "Hello there"
        #expect(seen.names.isEmpty)
    }

    @Test("each setter invalidates its own property and what depends on it, nothing else")
    func setters() throws {
        let (_, compose) = try compose()
        compose.text = "Hi"
        var seen = ComposeInvalidations(compose)
        compose.visibility = .unlisted
        #expect(seen.names == ["visibility"] && compose.visibility == .unlisted)
        seen = ComposeInvalidations(compose)
        compose.language = "en"
        #expect(seen.names == ["language"] && compose.language == "en")
        seen = ComposeInvalidations(compose)
        compose.sensitive = true
        #expect(seen.names == ["sensitive"] && compose.sensitive)
        seen = ComposeInvalidations(compose)
        compose.contentWarning = "cw"
        // The warning counts with the text.
        #expect(seen.names == ["contentWarning", "charactersLeft"] && compose.charactersLeft == 496)
        seen = ComposeInvalidations(compose)
        compose.poll = Draft.PollDraft(options: ["Only"])
        #expect(seen.names == ["poll", "problems", "canSend"] && compose.problems == [.tooFewOptions] && !compose.canSend)
    }

    @Test("a change made elsewhere (the session's drafts) reaches the face the same way")
    func changedElsewhere() throws {
        let (session, compose) = try compose()
        let seen = ComposeInvalidations(compose)
        session.drafts.update(compose.id) { $0.text = "From another screen" }
        #expect(seen.names == ["text", "charactersLeft", "problems", "canSend"])
        #expect(compose.text == "From another screen")
    }

    @Test("sending moves phase to sending at once, then to sent; while on its way the setters change nothing")
    func sending() async throws {
        let (session, compose) = try compose()
        compose.text = "Hello"
        var seen = ComposeInvalidations(compose)
        #expect(compose.send().isEmpty)
        #expect(compose.phase == .sending(attempt: 1))
        #expect(seen.names == ["phase", "canSend"])
        #expect(!compose.canSend)

        seen = ComposeInvalidations(compose)
        compose.text = "Too late"
        #expect(compose.text == "Hello" && seen.names.isEmpty)
        #expect(!compose.discard(), "a draft on its way is not thrown away")

        await session.settle()
        #expect(compose.phase == .sent("post1"))
        #expect(seen.names == ["phase"])
        #expect(session.drafts.all.isEmpty)
    }

    @Test("a refusal brings the draft back to editing with the server's sentence; sending again clears it")
    func refused() async throws {
        // The server refuses the first post (a 422), then takes the next.
        let server = postingServer()
        server.fail(.publish, with: ServerRefusal("Validation failed: Text can't be blank"))
        let (session, compose) = try compose(server)
        compose.text = "refuse me"
        compose.send()
        var seen = ComposeInvalidations(compose)
        await session.settle()
        #expect(compose.phase == .editing && compose.refusal == "Validation failed: Text can't be blank" && compose.canSend)
        #expect(seen.names == ["phase", "refusal", "canSend"])

        compose.text = "Fine now"
        server.answer(.publish)
        seen = ComposeInvalidations(compose)
        compose.send()
        #expect(compose.refusal == nil && compose.phase == .sending(attempt: 1))
        #expect(seen.names == ["phase", "refusal", "canSend"])
        await session.settle()
        #expect(compose.phase == .sent("post1"))
        #expect(server.model.timeline(.home).map(\.text) == ["Fine now"])
    }

    @Test("an edit's face names the post it edits and keeps its visibility: setting another changes nothing")
    func edit() async throws {
        // The server has the post as typed; the client shows it as the server rendered it.
        let server = postingServer([Post(id: "mine", author: me, text: "As typed", createdAt: testNow, visibility: .unlisted)])
        let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: ManualClock())
        let post = Post(id: "mine", author: me, text: "As shown", createdAt: testNow, visibility: .unlisted)
        var started: DraftID?
        session.drafts.startEdit(of: post) { started = try? $0.get() }
        await session.settle()
        let id = try #require(started)
        let compose = try #require(ObservableCompose(id, in: session.drafts))
        #expect(compose.editing == "mine" && compose.inReplyTo == nil)
        #expect(compose.text == "As typed" && compose.visibility == .unlisted)
        let seen = ComposeInvalidations(compose)
        compose.visibility = .public
        #expect(compose.visibility == .unlisted && seen.names.isEmpty)
    }

    @Test("a face on a draft that does not exist is nil; discard throws a draft being written away")
    func discard() throws {
        let (session, compose) = try compose()
        #expect(ObservableCompose(DraftID("nope"), in: session.drafts) == nil)
        #expect(compose.discard())
        #expect(session.drafts[compose.id] == nil)
    }
}
