@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

/// Issue 36's translations: asked once per post, shown on every row and detail of the post at
/// once (the post store keeps it, as it keeps a reveal), refused with the server's sentence,
/// and gone again on every screen with `showOriginal`.
/// The outcomes a test heard, in order.
@MainActor
final class Heard {
    var outcomes: [Outcome] = []
}

@MainActor
@Suite("Translations across the stack")
struct TranslationSessionTests {
    static let german = PostTranslation(text: "Christmas party on the 18th!", sourceLanguage: "de", provider: "DeepL.com")

    /// home lists b1 and b2; the server translates b1 only. Translations wait for the test.
    static func server(sourceLocation: SourceLocation = #_sourceLocation) -> GatedServer {
        let posts = [makePost("b1", minutesAgo: 1, author: bob), makePost("b2", minutesAgo: 2, author: bob)]
        var model = ServerModel(posts)
        model.timelines.feeds[.home] = posts.map(\.id)
        model.translations["b1"] = german
        let server = GatedServer(model, me: alice, answering: [.page, .newer, .post, .context], sourceLocation: sourceLocation)
        server.hold(.translate)
        return server
    }

    /// home loaded, then b1's detail open on top of it.
    func stack(_ server: GatedServer) async -> (FeedSession, FeedListViewModel, PostDetailViewModel?, Heard, Subscription) {
        let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: ManualClock())
        let heard = Heard()
        let subscription = session.observeOutcomes { outcome in heard.outcomes.append(outcome) }
        session.root.appeared()
        await session.settle()
        session.navigator.push(.post("b1"))
        guard case .post(let detail) = session.navigator.top else {
            Issue.record("no detail on top")
            return (session, session.root, nil, heard, subscription)
        }
        detail.appeared()
        await session.settle()
        return (session, session.root, detail, heard, subscription)
    }

    static func row(_ list: FeedListViewModel, _ id: PostID) -> PostRow? {
        list.rows.first { $0.id == .post(id) }?.post
    }

    @Test("a translation shows on the row and the detail at once, asked once, and original takes it off both")
    func translatedEverywhere() async throws {
        let server = Self.server()
        let (session, home, detail, heard, subscription) = await stack(server)
        defer { _ = subscription }
        let open = try #require(detail)
        #expect(open.translate() == nil)
        #expect(Self.row(home, "b1")?.interaction.isTranslating == true)
        #expect(open.current.interaction?.isTranslating == true)
        // Asked again while on its way: nothing more is sent.
        #expect(session.translate(post: "b1") == nil)
        await server.held.waitFor(1)
        #expect(server.held.calls.map(\.description) == ["translate(b1)"])
        #expect(server.answerHeld(at: 0))
        await session.settle()
        #expect(Self.row(home, "b1")?.interaction.translatedText == Self.german.text)
        #expect(open.current.interaction?.translatedText == Self.german.text)
        #expect(open.current.interaction?.translatedFrom == "de" && open.current.interaction?.translatedBy == "DeepL.com")
        #expect(heard.outcomes == [.done(.translation(post: "b1"))])
        // The other post is untouched.
        #expect(Self.row(home, "b2")?.interaction.translatedText == nil)
        #expect(session.showOriginal(post: "b1"))
        #expect(Self.row(home, "b1")?.interaction.translatedText == nil && open.current.interaction?.translatedText == nil)
        #expect(!open.showOriginal())
        #expect(server.held.heldSoFar.count == 1)
    }

    @Test("an edit that arrives after the translation takes it off every row and detail; asked again, it is asked of the server again")
    func editedAfterTranslation() async throws {
        let server = Self.server()
        let (session, home, detail, _, subscription) = await stack(server)
        defer { _ = subscription }
        let open = try #require(detail)
        #expect(open.translate() == nil)
        await server.held.waitFor(1)
        #expect(server.answerHeld(at: 0))
        await session.settle()
        #expect(Self.row(home, "b1")?.interaction.translatedText == Self.german.text)
        // A copy with the same text (a favourite count moved) keeps the translation.
        session.apply(.edited(makePost("b1", minutesAgo: 1, author: bob, favourites: 3)))
        #expect(open.current.interaction?.translatedText == Self.german.text)
        var edit = makePost("b1", minutesAgo: 1, author: bob, text: "Weihnachtsfeier am 19.!")
        edit.editedAt = testNow
        session.apply(.edited(edit))
        #expect(Self.row(home, "b1")?.text == "Weihnachtsfeier am 19.!")
        #expect(Self.row(home, "b1")?.interaction.translatedText == nil && Self.row(home, "b1")?.interaction.isTranslating == false)
        #expect(open.current.interaction?.translatedText == nil)
        #expect(open.translate() == nil)
        // Asked again of the server (a translation still shown would answer at once, and no call
        // would come: stop here then rather than wait for it).
        try #require(open.current.interaction?.isTranslating == true)
        await server.waitForCalls(2, of: .translate)
        #expect(server.answerHeld(at: 0))
        await session.settle()
    }

    @Test("a refused translation leaves the original alone, with the server's sentence")
    func refused() async throws {
        let server = Self.server()
        let (session, home, _, heard, subscription) = await stack(server)
        defer { _ = subscription }
        #expect(session.translate(post: "b2") == nil)
        await server.held.waitFor(1)
        #expect(server.answerHeld(at: 0))
        await session.settle()
        #expect(Self.row(home, "b2")?.interaction.isTranslating == false)
        #expect(Self.row(home, "b2")?.interaction.translatedText == nil)
        #expect(heard.outcomes == [.refused(.translation(post: "b2"), sentence: "This server does not offer translations.")])
        // Asked again: sent again (a refusal is not remembered as a translation).
        #expect(session.translate(post: "b2") == nil)
        await server.held.waitFor(1)
        #expect(server.held.heldSoFar.count == 2)
    }

    @Test("a post the session does not know is refused before anything is sent")
    func unknown() async {
        let server = Self.server()
        let (session, _, _, _, subscription) = await stack(server)
        defer { _ = subscription }
        #expect(session.translate(post: "nope")?.message == "That post is not known here; open it first.")
        #expect(!session.showOriginal(post: "nope"))
        #expect(server.held.heldSoFar.isEmpty)
    }
}
