@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

/// Writing a quote post (issue 34): who may quote what, as Mastodon 4.5 rules it, checked before
/// anything is sent; a draft that quotes keeps the quote through edits of its text and is sent
/// with it; what cannot go with a quote is refused with a sentence.
@Suite("Quote posts")
@MainActor
struct QuotePostTests {
    static func post(
        _ id: String, by author: Author = bob, visibility: PostVisibility = .public, approval: QuoteApproval? = nil
    ) -> Post {
        var post = makePost(id, author: author)
        post.visibility = visibility
        post.quoteApproval = approval
        return post
    }

    static let denied = QuoteApproval(automatic: [], manual: [], currentUser: .denied)
    static let followersOnly = QuoteApproval(automatic: [.followers], manual: [], currentUser: .denied)

    @Test("who may quote: never a private mention; always one's own; a followers-only post only its author; otherwise the server's verdict (unknown refuses); no verdict lets the server decide")
    func refusals() {
        #expect(Self.post("d", visibility: .direct).quoteRefusal(by: alice) == "A private mention cannot be quoted.")
        #expect(Self.post("d", by: alice, visibility: .direct).quoteRefusal(by: alice) == "A private mention cannot be quoted.")
        #expect(Self.post("own", by: alice, visibility: .private, approval: Self.denied).quoteRefusal(by: alice) == nil)
        #expect(Self.post("p", visibility: .private).quoteRefusal(by: alice) == "A followers-only post can be quoted by its author only.")
        #expect(Self.post("x", approval: Self.denied).quoteRefusal(by: alice) == "You may not quote this post: only its author may quote it.")
        #expect(Self.post("f", approval: Self.followersOnly).quoteRefusal(by: alice) == "Only @bob@example.social's followers may quote this post.")
        let unknown = QuoteApproval(automatic: [.public], manual: [], currentUser: .unknown)
        #expect(Self.post("u", approval: unknown).quoteRefusal(by: alice) != nil)
        #expect(Self.post("m", approval: QuoteApproval(automatic: [], manual: [.public], currentUser: .manual)).quoteRefusal(by: alice) == nil)
        #expect(Self.post("a", approval: QuoteApproval()).quoteRefusal(by: alice) == nil)
        #expect(Self.post("n").quoteRefusal(by: alice) == nil, "a server that says nothing of quotes decides when it is asked")
        #expect(Self.post("n").quoteRefusal(by: nil) == nil)
        let boost = makePost("b", author: alice, reblog: Self.post("x", approval: Self.denied))
        #expect(boost.quoteRefusal(by: alice) != nil, "a boost is judged by its original")
    }

    @Test("a policy in words: at once, after review, both, nobody; and what it means for you")
    func phrases() {
        #expect(QuoteApproval().policyPhrase == "anyone may quote it")
        #expect(QuoteApproval(automatic: [.followers], manual: []).policyPhrase == "followers may quote it")
        #expect(QuoteApproval(automatic: [], manual: [.public]).policyPhrase == "anyone may ask its author to quote it")
        #expect(QuoteApproval(automatic: [.followers], manual: [.public]).policyPhrase == "followers may quote it, others may ask its author")
        #expect(QuoteApproval(automatic: [], manual: []).policyPhrase == "only its author may quote it")
        #expect(QuoteApproval(currentUser: .manual).verdictPhrase == "you may ask (your quote shows once approved)")
        #expect(QuoteApproval(currentUser: .denied).verdictPhrase == "you may not")
        #expect(QuotePolicy(typed: "Anyone") == .public && QuotePolicy(typed: "me") == .nobody && QuotePolicy(typed: "friends") == nil)
    }

    @Test("a post says its policy, your verdict and whether your quote waits, as a front reads them (a boost: its original's; nothing when the server said nothing)")
    func postPhrases() {
        let reviewed = Self.post("r", approval: QuoteApproval(automatic: [.followers], manual: [.public], currentUser: .manual))
        #expect(reviewed.quotePolicyPhrase == "followers may quote it, others may ask its author")
        #expect(reviewed.quoteVerdictPhrase == "you may ask (your quote shows once approved)")
        #expect(reviewed.quoteAwaitsApproval)
        let boost = makePost("b", author: alice, reblog: Self.post("x", approval: Self.denied))
        #expect(boost.quotePolicyPhrase == "only its author may quote it" && boost.quoteVerdictPhrase == "you may not" && !boost.quoteAwaitsApproval)
        let silent = Self.post("n")
        #expect(silent.quotePolicyPhrase == nil && silent.quoteVerdictPhrase == nil && !silent.quoteAwaitsApproval)
    }

    func session(_ posts: [Post]) async -> FeedSession {
        let session = FeedSession(service: GatedServer.writing(posts: posts), clock: .fixed(testNow), retryClock: ManualClock())
        session.drafts.load()
        await session.settle()
        return session
    }

    @Test("a draft quotes a post it may (a boost: its original), keeps the quote as its text changes, and quoting a followers-only post of one's own makes it followers-only")
    func draftQuotes() async throws {
        let mine = Self.post("mine", by: alice, visibility: .private)
        let session = await session([Self.post("o"), mine])
        let drafts = session.drafts
        let id = drafts.startPost()
        #expect(drafts.quote(makePost("b", author: bob, reblog: Self.post("o")), in: id) == nil)
        #expect(drafts[id]?.draft.quoting == PostID("o"))
        drafts.update(id) { $0.text = "look" }
        #expect(drafts[id]?.draft.quoting == PostID("o"), "changing the text keeps the quote")
        #expect(drafts.quote(mine, in: id) == nil)
        #expect(drafts[id]?.draft.quoting == PostID("mine"))
        #expect(drafts[id]?.draft.visibility == .private, "a quote of a followers-only post is followers-only")
        #expect(drafts.quote(nil, in: id) == nil)
        #expect(drafts[id]?.draft.quoting == nil)
    }

    @Test("a quote the policy forbids is refused with its sentence and leaves the draft as it was")
    func refusedQuote() async throws {
        let session = await session([Self.post("x", approval: Self.denied)])
        let id = session.drafts.startPost()
        let before = session.drafts[id]?.draft
        #expect(session.drafts.quote(Self.post("x", approval: Self.denied), in: id) == "You may not quote this post: only its author may quote it.")
        #expect(session.drafts.quote(Self.post("d", visibility: .direct), in: id) == "A private mention cannot be quoted.")
        #expect(session.drafts[id]?.draft == before)
    }

    @Test("an edit cannot change what its post quotes, and a quote carries no media and no poll")
    func limits() async throws {
        let session = await session([Self.post("o"), makePost("e", author: alice)])
        let log = OutcomeLog(session)
        session.drafts.startEdit(of: makePost("e", author: alice))
        await session.settle()
        let edit = try #require(try log.lastDraft?.get())
        #expect(session.drafts.quote(Self.post("o"), in: edit) == "An edit cannot change what a post quotes.")

        let id = session.drafts.startPost()
        #expect(session.drafts.quote(Self.post("o"), in: id) == nil)
        session.drafts.update(id) {
            $0.text = "with a poll"
            $0.poll = Draft.PollDraft(options: ["a", "b"], expiresIn: 3_600)
        }
        let problems = try #require(session.drafts[id]?.draft.problems(limits: ComposeLimits()))
        #expect(problems.contains(.quoteWithAttachments))
        #expect(DraftProblem.quoteWithAttachments.description == "A quote post cannot carry media or a poll.")
    }
}
