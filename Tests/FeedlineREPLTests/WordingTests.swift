@_spi(FeedService) import Feedline
@testable import FeedlineMastodon
import FeedlineREPL
import FeedlineTestSupport
import Foundation
import Testing

/// What the REPL says, said once and right: rows that moved, a relationship change, account
/// rows, counts, times, your own messages, outcomes, the farewell.
@MainActor
@Suite("Wording", .timeLimit(.minutes(10)))
struct WordingTests {
    func harness(_ fixtures: String = "timeline", pageSize: Int = 10, live: Bool = false) async throws -> REPLDriverTests.Harness {
        try await REPLDriverTests().harness(fixtures, pageSize: pageSize, live: live)
    }

    static func count(_ text: String, in output: String) -> Int {
        output.components(separatedBy: text).count - 1
    }

    @Test("an edit the server refuses, then cannot reach, says Not edited, then Queued once with why and when, then Edited at retry: each once")
    func queuedEditSaidOnce() async throws {
        let harness = try await harness("faults", pageSize: 10)
        // The first post loses its answer (queued); the retry makes it, on top of home.
        _ = await harness.run("post Hello pond")
        _ = await harness.run("retry")
        let refused = await harness.run("edit 1 Hello pond, edited")
        #expect(Self.count("Not edited: Validation failed: Text can't be blank.", in: refused) == 1, "\(refused)")
        let queued = await harness.run("edit 1 Hello pond, edited").replacingOccurrences(of: "\n", with: " ")
        #expect(Self.count("Queued: ", in: queued) == 1, "\(queued)")
        #expect(queued.contains("The server is unavailable right now; try again in a moment. Sending again in 2 seconds, or at retry."), "\(queued)")
        let retried = await harness.run("retry")
        #expect(Self.count("Edited: \"Hello pond, edited\"", in: retried) == 1, "\(retried)")
        #expect(!retried.contains("Queued"), "\(retried)")
    }

    @Test("the note that rows moved is said once per command, after all its output, and only when a number already printed names a row at another place now")
    func movedOnce() async throws {
        let harness = try await harness("faults", pageSize: 10)
        // A post goes on top (its row, then the server's answer): rows moved once, said once.
        let posted = await harness.run("post Hello pond")
        #expect(Self.count("Rows seen before moved", in: posted) == 1, "\(posted)")
        #expect(posted.hasSuffix("until list renumbers them.\n") || posted.contains("until list renumbers them.\n"))
        // list renumbers: the next change that moves nothing says nothing.
        _ = await harness.run("list")
        let faved = await harness.run("fav 3")
        #expect(!faved.contains("Rows seen before moved"))
        // A delete the server refuses takes the row off and puts it back: nothing moved in the end.
        _ = await harness.run("list")
        let deleted = await harness.run("delete 1 --yes")
        #expect(Self.count("Rows seen before moved", in: deleted) <= 1, "\(deleted)")
    }

    @Test("a relationship change is one line in a script: its outcome, with when a mute ends; on a profile the header's line is not printed again for it")
    func relationshipOneLine() async throws {
        let harness = try await harness(pageSize: 5)
        _ = await harness.run("profile @kemi@fieldnotes.science")
        let muted = await harness.run("mute --for 1d")
        #expect(muted == "Done: muted @kemi@fieldnotes.science until 22 Nov 2026 18:00 UTC.\n", "\(muted)")
        let unmuted = await harness.run("unmute")
        #expect(unmuted == "Done: not muting @kemi@fieldnotes.science.\n", "\(unmuted)")
    }

    @Test("live: a relationship change says it started at once and its outcome when it comes; an account row is printed once, settled")
    func relationshipLive() async throws {
        let harness = try await harness(pageSize: 5, live: true)
        harness.driver.handle("search kemi")
        await harness.session.settle()
        let searched = harness.output.take()
        #expect(Self.count("Dr. Kemi Adeyemi @kemi@fieldnotes.science", in: searched) == 1, "search rows printed once:\n\(searched)")
        #expect(searched.contains("you follow them"))
        harness.driver.handle("mute 1")
        await harness.session.settle()
        let muted = harness.output.take()
        #expect(muted.replacingOccurrences(of: "\n", with: " ").hasPrefix("Muting @kemi@fieldnotes.science… their posts left every screen but their profile. "), "\(muted)")
        #expect(Self.count("Done: muted @kemi@fieldnotes.science.", in: muted) == 1)
        #expect(Self.count("Dr. Kemi Adeyemi @kemi", in: muted) == 1, "the row once, settled:\n\(muted)")
        #expect(!muted.contains("muted…"))
    }

    @Test("a profile counts one post as 1 post; a mute's end shows its time zone")
    func countsAndZones() throws {
        let profile = Profile(author: Author(id: "1", displayName: "Ode", handle: "ode"), followersCount: 1, followingCount: 1, postsCount: 1)
        let until = Date(timeIntervalSince1970: 1_795_284_000)
        let header = ProfileHeader(
            requested: "1", profile: profile, relationship: RelationshipDisplay(relationship: Relationship(accountID: "1", muting: true, mutingUntil: until))
        )
        let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
        let lines = ProfileRenderer(width: 80, timeZone: berlin).lines(header)
        #expect(lines.contains { $0.hasPrefix("1 post · 1 following · 1 follower") }, "\(lines)")
        let relationship = try #require(lines.last)
        #expect(relationship.hasPrefix("You: muted until 21 Nov 2026 19:00 "), "\(relationship)")
        #expect(!relationship.hasSuffix("19:00"), "a zone follows the time: \(relationship)")
    }

    @Test("a hashtag with no history shows no weekly use (unknown is not zero)")
    func unknownUse() {
        let renderer = RowRenderer(width: 80, clock: .fixed(SessionFactory.now))
        let unknown = renderer.lines(.tag(Feedline.Hashtag(name: "pond", weeklyUses: nil, weeklyAccounts: nil)), number: 1)
        #expect(unknown == ["   1  #pond"])
        let mapped = Feedline.Hashtag(Mastodon.Hashtag(name: "pond", history: []))
        #expect(mapped.weeklyUses == nil && mapped.weeklyAccounts == nil)
    }

    @Test("your own message in a conversation reads You:, others' their handle")
    func ownMessage() async throws {
        let harness = try await harness(pageSize: 5)
        _ = await harness.run("conversations")
        _ = await harness.run("open 2")
        _ = await harness.run("reply 1 Thanks, the basil catalogue is perfect.")
        let back = await harness.run("back")
        #expect(back.contains("      You: @mira Thanks, the basil catalogue is perfect."), "\(back)")
        #expect(!back.contains("@you:"))
        let list = await harness.run("list")
        #expect(list.contains("@kemi@fieldnotes.science: @you Low tide"), "\(list)")
    }

    @Test("remove N says Done when the server took it (one line in a script)")
    func removeSaysDone() async throws {
        let harness = try await harness(pageSize: 5)
        _ = await harness.run("conversations")
        let removed = await harness.run("remove 3")
        #expect(removed.contains("Done: removed the conversation with @tomas@kettle.town, @ana@pixelpond.social."), "\(removed)")
        #expect(!removed.contains("Removing the conversation"), "one line: the outcome")
    }

    @Test("notify or boosts on someone you do not follow says follow them first (a person, not an it)")
    func followThemFirst() async throws {
        let harness = try await harness(pageSize: 5)
        let said = await harness.run("boosts off 2")
        #expect(said.contains("follow them first"), "\(said)")
        #expect(!said.contains("follow it first"))
    }

    @Test("quitting with a post queued says why it waits, without when it is tried next (the session is ending) and without a doubled full stop")
    func quitWithQueuedPost() async throws {
        let harness = try await harness("faults", pageSize: 10)
        _ = await harness.run("post First light over the pond")
        _ = await harness.run("post This one waits for the server")
        await harness.driver.close()
        let farewell = harness.output.take()
        #expect(farewell.contains("Not sent yet:"), "\(farewell)")
        #expect(!farewell.contains("Next try in"), "\(farewell)")
        #expect(!farewell.contains(".."), "\(farewell)")
    }
}
