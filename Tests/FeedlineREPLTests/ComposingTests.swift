import Feedline
import FeedlineREPL
import FeedlineTestSupport
import Foundation
import Testing

/// Composing as a person at a terminal expects it (issue 34): the characters left follow the
/// text as it is typed (and the prompt shows them), a refusal keeps the draft open, an empty post
/// leaves no draft, `drafts delete N`, `.show` keeps line breaks, an inline reply's `Sending:`
/// line says who sees it and its warning, an edit is "Edited:", `redraft` shows the draft's header.
/// Through the driver on the sandbox, as a script runs it.
@MainActor
@Suite("Composing in the REPL", .timeLimit(.minutes(10)))
struct ComposingTests {
    /// `output` as one line: its wrapped lines joined by spaces, without the last newline.
    static func flat(_ output: String) -> String {
        output.split(separator: "\n").joined(separator: " ")
    }

    @Test("the characters left follow the text as it is typed: .show and the prompt count every line, draft N then a shorter text counts the new text")
    func countFollowsTyping() async throws {
        let harness = try await DriverHarness.start(showing: false)
        _ = await harness.run("post")
        #expect(harness.driver.prompt == "compose 500> ")
        _ = await harness.run(String(repeating: "a", count: 300))
        #expect(harness.driver.prompt == "compose 200> ")
        _ = await harness.run(String(repeating: "b", count: 243))
        // 300 + a line break + 243 = 544 characters.
        #expect(harness.driver.prompt == "compose -44> ")
        let shown = await harness.run(".show")
        #expect(shown.hasPrefix("new post · public · 44 characters over\n"), "\(shown)")
        _ = await harness.run(".back")
        let reopened = await harness.run("draft 1")
        #expect(reopened.hasPrefix("new post · public · 44 characters over\n"), "\(reopened)")
        _ = await harness.run("Shorter now.")
        #expect(harness.driver.prompt == "compose 488> ")
        #expect(await harness.run(".show") == "new post · public · 488 characters left\nText:\n  Shorter now.\n")
    }

    @Test(".show prints the draft's lines as typed, each on its own line; a blank line stays")
    func showKeepsLineBreaks() async throws {
        let harness = try await DriverHarness.start(showing: false)
        for line in ["post", "Pond survey, day 3:", "", "- frogs: 12", "- newts: 3"] { _ = await harness.run(line) }
        let shown = await harness.run(".show")
        #expect(shown == "new post · public · 457 characters left\nText:\n  Pond survey, day 3:\n\n  - frogs: 12\n  - newts: 3\n", "\(shown)")
    }

    @Test("a refusal (too long, empty, media with a poll) says why and keeps the draft open at compose>, not the screen's prompt")
    func refusalKeepsTheDraftOpen() async throws {
        let harness = try await DriverHarness.start(showing: false)
        let long = String(repeating: "x", count: 520)
        let refused = await harness.run("post " + long)
        #expect(refused.hasPrefix("Not sent: The post is 20 characters too long. The draft is still open"), "\(refused)")
        #expect(harness.driver.prompt == "compose -20> ")
        #expect(await harness.run(".undo") == "Took back the last line: \"" + String(repeating: "x", count: 39) + "…\".\n")
        let empty = await harness.run(".")
        #expect(empty.hasPrefix("Not sent: The post is empty: write something, or attach media or a poll."), "\(empty)")
        #expect(harness.driver.prompt == "compose 500> ")
        _ = await harness.run("Frogs or newts?")
        _ = await harness.run(".poll frogs | newts")
        _ = await harness.run(".attach Fixtures/media/pond.png \"The pond\"")
        let both = await harness.run(".")
        #expect(both.hasPrefix("Not sent: A post cannot have both media and a poll."), "\(both)")
        #expect(harness.driver.prompt.text.hasPrefix("compose "))
        _ = await harness.run(".detach")
        let sent = await harness.run(".")
        #expect(sent.contains("Sending: \"Frogs or newts?\" (public)"), "\(sent)")
        #expect(harness.driver.prompt == "home> ")
    }

    @Test("an empty post leaves no draft behind: .back, Ctrl-D's end of input, a refused . and quit while nothing is written")
    func emptyPostLeavesNoDraft() async throws {
        let harness = try await DriverHarness.start(showing: false)
        _ = await harness.run("post")
        #expect(await harness.run(".back") == "Nothing written, so no draft is kept.\n")
        _ = await harness.run("post")
        _ = await harness.run(".")
        _ = await harness.run(".back")
        _ = await harness.run("post")
        #expect(harness.driver.endOfInput())
        #expect(harness.output.take() == "Nothing written, so no draft is kept.\n")
        // A reply holding only the mentions it started with is as empty.
        _ = await harness.run("reply 2")
        _ = await harness.run(".back")
        #expect(await harness.run("drafts") == "No drafts, and nothing on its way.\n")
        _ = await harness.run("post")
        await harness.driver.close()
        #expect(!harness.output.take().contains("draft"))
        #expect(harness.session.drafts.all.isEmpty)
    }

    @Test("drafts delete N throws draft N away and the rest move up; a number drafts does not list, or no number, is one sentence")
    func draftsDelete() async throws {
        let harness = try await DriverHarness.start(showing: false)
        for line in ["post", "First draft.", ".back", "post", "Second draft.", ".back"] { _ = await harness.run(line) }
        #expect(await harness.run("drafts delete 1") == "Draft 1 thrown away: \"First draft.\". The drafts after it move up by one.\n")
        #expect(await harness.run("drafts") == "1. \"Second draft.\" — draft\n")
        #expect(await harness.run("drafts delete 3") == "There is no draft 3; drafts lists one.\n")
        #expect(Self.flat(await harness.run("drafts delete")) == "drafts delete takes the number drafts lists the draft under, for example: drafts delete 2.")
        #expect(Self.flat(await harness.run("drafts delete one")) == "\"one\" is not a draft's number; drafts delete takes the number drafts lists the draft under, for example: drafts delete 2.")
        #expect(await harness.run("drafts remove 1") == "drafts does not take \"remove\"; usage: drafts [delete N].\n")
        #expect(await harness.run("drafts delete 1") == "Draft 1 thrown away: \"Second draft.\".\n")
        #expect(await harness.run("drafts delete 1") == "There are no drafts.\n")
    }

    @Test("an inline reply's Sending: line says who will see it and its content warning, which it takes from the post it answers")
    func inlineReplySaysItsAudience() async throws {
        let harness = try await DriverHarness.start(pageSize: 40, showing: false)
        _ = await harness.run("more")
        let unlisted = await harness.run("reply 7 Count me in!")
        #expect(unlisted.contains("Sending: \"@jonas@chaosdorf.space Count me in!\" (unlisted)"), "\(unlisted)")
        let warned = await harness.run("reply 31 Looks delicious.")
        #expect(warned.contains("Sending: \"@wen@teahouse.cafe Looks delicious.\" (public · CW: 食物 food)"), "\(warned)")
    }

    @Test("an edit is reported as Edited:, not Posted:; redraft shows the draft's header before its lines are typed")
    func editAndRedraftWording() async throws {
        let harness = try await DriverHarness.start(showing: false)
        let posted = await harness.run("post Frogs at dawn.")
        #expect(posted.contains("Posted: \"Frogs at dawn.\""))
        let edited = await harness.run("edit 1 Frogs and newts at dawn.")
        #expect(edited.contains("Edited: \"Frogs and newts at dawn.\""), "\(edited)")
        #expect(!edited.contains("Posted:"), "\(edited)")
        let redrafted = await harness.run("redraft 1")
        #expect(redrafted.contains("Deleted, and kept as a draft: \"Frogs and newts at dawn.\".\nnew post · public · 476 characters left\n"), "\(redrafted)")
        #expect(harness.driver.prompt == "compose 476> ")
    }
}
