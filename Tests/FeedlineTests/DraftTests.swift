@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

/// A draft's defaults and checks: what a reply starts with, and what stops a draft from going.
@Suite("Drafts: reply defaults and problems")
struct DraftTests {
    static let me = Author(id: "me", displayName: "Me", handle: "me")
    static let ana = Author(id: "a", displayName: "Ana", handle: "ana@example.social")
    static let bo = Author(id: "b", displayName: "Bo", handle: "bo")

    static func post(_ id: String, by author: Author, mentions: [String] = [], visibility: PostVisibility = .public, warning: String? = nil, inReplyTo: PostID? = nil) -> Post {
        Post(
            id: PostID(id), author: author, text: "text of \(id)", createdAt: testNow, contentWarning: warning, inReplyToID: inReplyTo,
            visibility: visibility, mentions: mentions
        )
    }

    @Test("a reply to a boost replies to the boosted post: its id, its author and mentions, its warning")
    func replyToABoostOfAReply() {
        let original = Self.post("o", by: Self.ana, mentions: ["bo", "me"], warning: "spoilers", inReplyTo: "root")
        let boost = Post(id: "w", author: Self.bo, text: "", createdAt: testNow, reblog: original)
        let draft = Draft.reply(to: boost, by: Self.me, preferences: ComposePreferences(), id: DraftID("1"), createdAt: testNow)
        #expect(draft.inReplyTo == "o", "the original's id, never the boost's")
        #expect(draft.text == "@ana@example.social @bo ", "the author first, then the mentions, never oneself")
        #expect(draft.contentWarning == "spoilers")
        #expect(draft.visibility == .public)
    }

    @Test("a reply to oneself mentions the others only; each handle once, whatever its case or @")
    func selfReply() {
        let mine = Self.post("m", by: Self.me, mentions: ["Ana@Example.social", "ana@example.social", "@me"])
        let draft = Draft.reply(to: mine, by: Self.me, preferences: ComposePreferences(), id: DraftID("1"), createdAt: testNow)
        #expect(draft.text == "@Ana@Example.social ")
        let alone = Draft.reply(to: Self.post("n", by: Self.me), by: Self.me, preferences: ComposePreferences(), id: DraftID("2"), createdAt: testNow)
        #expect(alone.text == "")
    }

    @Test("a reply is no more public than its parent nor than the account's default", arguments: [
        (PostVisibility.public, PostVisibility.public, PostVisibility.public),
        (.public, .unlisted, .unlisted),
        (.private, .public, .private),
        (.direct, .unlisted, .direct),
        (.unlisted, .direct, .direct),
        (.private, .private, .private),
    ])
    func visibility(parent: PostVisibility, preference: PostVisibility, expected: PostVisibility) {
        let draft = Draft.reply(
            to: Self.post("p", by: Self.ana, visibility: parent), by: Self.me, preferences: ComposePreferences(visibility: preference, language: "de"),
            id: DraftID("1"), createdAt: testNow
        )
        #expect(draft.visibility == expected)
        #expect(draft.language == "de", "the account's default language")
    }

    @Test("what stops a draft, each once, in order", arguments: [
        (Draft(id: DraftID("1"), createdAt: testNow), [DraftProblem.empty]),
        (Draft(id: DraftID("1"), text: String(repeating: "x", count: 501), createdAt: testNow), [.tooLong(by: 1)]),
        (Draft(id: DraftID("1"), text: "x", poll: .init(options: ["a", "b"]), media: [.init(file: "f")], createdAt: testNow), [.pollWithMedia]),
        (Draft(id: DraftID("1"), text: "x", media: Array(repeating: .init(file: "f"), count: 5), createdAt: testNow), [.tooManyMedia(limit: 4)]),
        (Draft(id: DraftID("1"), text: "x", poll: .init(options: ["a"]), createdAt: testNow), [.tooFewOptions]),
        (Draft(id: DraftID("1"), text: "x", poll: .init(options: ["a", "b", "c", "d", "e"]), createdAt: testNow), [.tooManyOptions(limit: 4)]),
        (Draft(id: DraftID("1"), text: "x", poll: .init(options: ["a", String(repeating: "o", count: 51)]), createdAt: testNow), [.optionTooLong(number: 2, limit: 50)]),
        (Draft(id: DraftID("1"), text: "x", poll: .init(options: ["Tea", "tea"]), createdAt: testNow), [.duplicateOption("tea")]),
        (Draft(id: DraftID("1"), text: "x", poll: .init(options: ["a", "b"], expiresIn: 60), createdAt: testNow), [.pollDuration(min: 300, max: 2_629_746)]),
        (Draft(id: DraftID("1"), text: "hello", visibility: .direct, createdAt: testNow), [.directWithoutMention]),
        (Draft(id: DraftID("1"), text: "@ana hello", visibility: .direct, createdAt: testNow), []),
        (Draft(id: DraftID("1"), media: [.init(file: "f")], createdAt: testNow), []),
    ])
    func problems(draft: Draft, expected: [DraftProblem]) {
        #expect(draft.problems(limits: .mastodonDefaults) == expected)
    }

    @Test("characters left count a URL as the server reserves for it and a remote mention as its user part")
    func charactersLeft() {
        let draft = Draft(id: DraftID("1"), text: "@ana@example.social see https://example.org/a/very/long/path/indeed", contentWarning: "cw", createdAt: testNow)
        // "cw" 2 + "@ana" 4 + " see " 5 + URL 23.
        #expect(draft.charactersLeft(limits: .mastodonDefaults) == 500 - 34)
        #expect(draft.charactersLeft(limits: ComposeLimits(maxCharacters: 40, charactersReservedPerURL: 10)) == 40 - 21)
    }
}
