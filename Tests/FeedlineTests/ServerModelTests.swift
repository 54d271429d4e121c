import Feedline
import FeedlineTestSupport
import Testing

/// The one server model every fake holds: what Mastodon does on favourite, reblog and bookmark,
/// checked as laws over every kind and start, and the shapes of its answers.
@Suite("Server model")
struct ServerModelTests {
    static let original = makePost("o1", favourites: 2, reblogs: 1)
    static let boost = makePost("b1", author: bob, reblog: original)

    static func model() -> ServerModel<Post> { ServerModel([boost, original, makePost("p2")]) }

    @Test("asking twice is asking once; a count moves only with its flag, by one, never below zero; a bookmark has none",
          arguments: InteractionKind.allCases, [false, true])
    func rule(kind: InteractionKind, start: Bool) {
        for value in [false, true] {
            var interactions = ServerInteractions()
            interactions.set(kind, to: start)
            let before = interactions
            interactions.set(kind, to: value)
            let once = interactions
            interactions.set(kind, to: value)
            #expect(interactions == once)
            #expect(once.isOn(kind) == value)
            let moved = value == start ? 0 : (value ? 1 : -1)
            #expect(once.favourites == before.favourites + (kind == .favourite ? moved : 0))
            #expect(once.reblogs == before.reblogs + (kind == .reblog ? moved : 0))
            for other in InteractionKind.allCases where other != kind { #expect(once.isOn(other) == before.isOn(other)) }
        }
        var uncounted = ServerInteractions(favourited: true, favourites: 0, reblogged: true, reblogs: 0)
        uncounted.set(kind, to: false)
        #expect(uncounted.favourites == 0 && uncounted.reblogs == 0)
    }

    @Test("an interaction asked of a boost entry changes its original, which every entry then shows")
    func boostEntryChangesItsOriginal() throws {
        var server = Self.model()
        let answer = try server.set(.favourite, to: true, on: "b1")
        #expect(answer.id == "o1" && answer.favourited && answer.favouritesCount == 3)
        #expect(server.entry("o1") == answer)
        #expect(server.entry("b1")?.reblog == answer)
        #expect(server.entry("b1")?.author == bob && server.original(of: "b1") == answer)
        #expect(server.interactions(of: "p2") == ServerInteractions())
    }

    @Test("a reblog answers with the user's boost of the original, the same one while it stands; an unreblog deletes it and answers with the original")
    func reblogWrapper() throws {
        var server = Self.model()
        let boost = try server.set(.reblog, to: true, on: "b1")
        #expect(boost.id != "o1" && boost.id != "b1" && boost.author == Post.signedInUser)
        #expect(boost.reblog?.id == "o1" && boost.reblog?.reblogged == true && boost.reblog?.reblogsCount == 2)
        #expect(server.entry(boost.id) == boost)
        #expect(try server.set(.reblog, to: true, on: "o1") == boost)
        let undone = try server.set(.reblog, to: false, on: "o1")
        #expect(undone.id == "o1" && !undone.reblogged && undone.reblogsCount == 1)
        #expect(server.entry(boost.id) == nil)
        let again = try server.set(.reblog, to: true, on: "o1")
        #expect(again.id != boost.id, "a new boost, as on Mastodon")
    }

    @Test("a bookmark asked of a boost entry answers with that entry: the original inside bookmarked, the entry's own flag off")
    func bookmarkOfABoost() throws {
        var server = Self.model()
        let answer = try server.set(.bookmark, to: true, on: "b1")
        #expect(answer.id == "b1" && answer.reblog?.bookmarked == true && answer.reblog?.favouritesCount == 2)
        #expect(server.entry("o1")?.bookmarked == true)
        #expect(try server.set(.bookmark, to: false, on: "o1").id == "o1")
    }

    @Test("an entry the server does not have is Mastodon's 404, a refusal, and changes nothing")
    func notFound() {
        var server = Self.model()
        #expect(throws: RecordNotFound()) { try server.set(.favourite, to: true, on: "x") }
        #expect(FeedFailure(RecordNotFound()) == FeedFailure(message: "Record not found", isTransient: false))
        server.remove("o1")
        #expect(server.entry("o1") == nil && server.entry("b1") == nil, "an original takes its boosts with it")
        #expect(throws: RecordNotFound()) { try server.set(.favourite, to: true, on: "b1") }
        #expect(server.entry("p2") != nil)
    }

    @Test("the server's copy of an original wins over the one inside a boost added later; an edit shows through every boost")
    func copies() {
        var server = Self.model()
        server.add([makePost("b2", author: alice, reblog: makePost("o1", text: "stale"))])
        #expect(server.entry("b2")?.reblog == Self.original)
        server.update("o1") { $0.text = "edited" }
        #expect(server.entry("b1")?.reblog?.text == "edited" && server.entry("b2")?.reblog?.text == "edited")
        server.remove("b2")
        #expect(server.entry("b2") == nil && server.entry("o1") != nil, "a boost goes alone")
    }
}
