@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Observation
import Synchronization
import Testing

/// A server that takes posts (answering with the post made of the draft) and refuses those whose
/// text is "refuse me" (a 422); it reads nothing else.
private final class PostingServer: PartialService {
    struct Refusal: FeedServiceError {
        var isTransient: Bool { false }
        var errorDescription: String? { "Validation failed: Text can't be blank" }
    }

    static let me = Author(id: "1", displayName: "Alice", handle: "alice")

    func composeSettings() async throws -> ComposeSettings { ComposeSettings(account: Self.me) }

    func publish(_ draft: Draft, idempotencyKey: String) async throws -> Post {
        if draft.text == "refuse me" { throw Refusal() }
        return Post(id: PostID("made-\(draft.id)"), author: Self.me, text: draft.text, createdAt: testNow, visibility: draft.visibility)
    }

    func source(of id: PostID) async throws -> PostSource { PostSource(text: "As typed") }

    func page(of feed: Feed, after cursor: PageCursor?) async throws -> Page<Post> { Page(posts: [], next: nil) }
    func newer(in feed: Feed, than lower: PostID, olderThan upper: PostID?) async throws -> NewerPage<Post> { NewerPage(posts: [], hasMore: false) }
    func notifications(after cursor: PageCursor?) async throws -> Page<NotificationGroup> { Page(items: [], next: nil) }
    func newerNotifications(than lower: ItemID, olderThan upper: ItemID?) async throws -> NewerPage<NotificationGroup> { NewerPage(items: [], hasMore: false) }
    func post(_ id: PostID) async throws -> Post { throw Refusal() }
    func context(of id: PostID) async throws -> PostContext { PostContext() }
    func set(_ kind: InteractionKind, to value: Bool, postID: PostID) async throws -> Post { throw Refusal() }
    func account(named handle: String) async throws -> Author { throw Refusal() }
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
    private func compose() throws -> (FeedSession, ObservableCompose) {
        let session = FeedSession(service: PostingServer(), clock: .fixed(testNow), retryClock: ManualClock())
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
        #expect(compose.phase == .sent("made-1"))
        #expect(seen.names == ["phase"])
        #expect(session.drafts.all.isEmpty)
    }

    @Test("a refusal brings the draft back to editing with the server's sentence; sending again clears it")
    func refused() async throws {
        let (session, compose) = try compose()
        compose.text = "refuse me"
        compose.send()
        var seen = ComposeInvalidations(compose)
        await session.settle()
        #expect(compose.phase == .editing && compose.refusal == "Validation failed: Text can't be blank" && compose.canSend)
        #expect(seen.names == ["phase", "refusal", "canSend"])

        compose.text = "Fine now"
        seen = ComposeInvalidations(compose)
        compose.send()
        #expect(compose.refusal == nil && compose.phase == .sending(attempt: 1))
        #expect(seen.names == ["phase", "refusal", "canSend"])
        await session.settle()
        #expect(compose.phase == .sent("made-1"))
    }

    @Test("an edit's face names the post it edits and keeps its visibility: setting another changes nothing")
    func edit() async throws {
        let session = FeedSession(service: PostingServer(), clock: .fixed(testNow), retryClock: ManualClock())
        let post = Post(id: "mine", author: PostingServer.me, text: "As shown", createdAt: testNow, visibility: .unlisted)
        let log = OutcomeLog(session)
        session.drafts.startEdit(of: post)
        await session.settle()
        let id = try #require(try log.lastDraft?.get())
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
