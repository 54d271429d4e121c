import Feedline
import FeedlineMastodon
import FeedlineREPL
import FeedlineTestSupport
import Foundation
import Testing

/// Nothing a server sends reaches the terminal as control: a sandbox whose every string is made
/// of escape sequences, controls, bidirectional overrides and invisible characters (seeded, see
/// ``HostileFixture``), walked screen by screen — every row kind, the post screen with its poll,
/// media, card and quote, a profile's header with its fields and moved-to handle, notifications,
/// conversations, lists, hashtags, `where` and the prompt of every screen — prints none of them.
@MainActor
@Suite("Hostile server text", .timeLimit(.minutes(10)))
struct HostileTextTests {
    /// Commands that visit every screen of the fixture and print every renderer's lines.
    static let script = [
        "list all", "where",
        "open 1", "where", "list", "back", "open 2", "show", "back", "open 3", "back", "open 4", "quote", "where", "back", "back", "open 5", "back",
        "thread 5", "list all", "where", "back",
        "profile 1", "list all", "where", "followers", "where", "back", "back",
        "profile 2", "list all", "back", "profile 3", "back",
        "open 3", "profile", "where", "list all", "back", "back",
        "notifications", "list all", "where", "back",
        "conversations", "list all", "open 1", "where", "back", "back",
        "lists", "list all", "where", "open 1", "list all", "where", "back", "back",
        "tags", "list all", "where", "open 1", "where", "back", "back",
        "trends tags", "list all", "where", "open 1", "where", "back", "back",
        "search u1", "list all", "where", "back",
        "block 1 --yes", "mute 2", "list all", "quit",
    ]

    @Test("every screen of a hostile server prints no control, bidirectional or invisible character (seeded)")
    func walk() async throws {
        let seed = testSeed(0x5AFE_7E47)
        print("HostileTextTests seed \(seed) (FEEDLINE_SEED replays it)")
        for round in 0..<8 {
            var random = SeededGenerator(seed: seed &+ UInt64(round))
            let scratch = try Scratch()
            defer { scratch.remove() }
            _ = try HostileFixture.write(to: scratch.url, random: &random)
            for width in [40, 100] {
                let session = try SessionFactory.session(scratch.url)
                let transcript = await ScriptRunner.transcript(
                    of: Self.script.joined(separator: "\n"), session: session, options: .init(pageSize: 20, width: width, style: Style(color: true))
                )
                // Our own colours are the only escape sequences: take them out, then nothing may be left.
                let plain = transcript.replacingOccurrences(of: "\u{1B}\\[[0-9]+m", with: "", options: .regularExpression)
                for (number, line) in plain.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    let found = HostileFixture.forbidden(in: String(line))
                    #expect(found.isEmpty, "seed \(seed) round \(round) width \(width) line \(number + 1): \(found.map { String($0.value, radix: 16) }) in \(line.debugDescription)")
                    if !found.isEmpty { return }
                }
                // The walk reached what it is meant to show.
                #expect(plain.contains("Poll ("), "seed \(seed) round \(round): the post screen with its poll")
                #expect(plain.contains("posts ·") || plain.contains("posts\n"), "seed \(seed) round \(round): a profile header")
                #expect(plain.contains("Moved to"), "seed \(seed) round \(round): the moved account's header")
                #expect(plain.contains("Filtered: "), "seed \(seed) round \(round): a filter's title")
            }
        }
    }

    @Test("a server's error text is shown without its controls wherever a failure is printed (seeded)")
    func errors() throws {
        let seed = testSeed(0xE770_4B0D)
        print("HostileTextTests seed \(seed) (FEEDLINE_SEED replays it)")
        var random = SeededGenerator(seed: seed)
        let clock = WallClock.fixed(Date(timeIntervalSince1970: 1_795_284_000))
        for round in 0..<200 {
            let body = (0..<6).map { _ in
                random.next(below: 2) == 0
                    ? HostileFixture.hostilePieces[random.next(below: HostileFixture.hostilePieces.count)]
                    : HostileFixture.plainPieces[random.next(below: HostileFixture.plainPieces.count)]
            }.joined()
            // As the HTTP service words a refusal that quotes the server's error body.
            let errors: [any Error] = [
                MastodonHTTPError.unprocessable(serverMessage: body), MastodonHTTPError.forbidden(serverMessage: body),
                MastodonHTTPError.serverError(status: 500, serverMessage: body),
            ]
            for error in errors {
                let failure = FeedFailure(error)
                let rows = RowRenderer(width: 60, style: Style(color: true), clock: clock)
                var printed = rows.statusLine(ListStatus(failure: ListStatus.Failure(intent: .firstPage, failure: failure)), shown: 0, total: 0)
                let post = Post(id: PostID("1"), author: Author(id: "1", displayName: "Ana", handle: "ana@example.social"), text: "hi", createdAt: clock.now())
                var interaction = PostInteraction(serverCopy: post)
                interaction.failure = InteractionFailure(kind: .favourite, value: true, message: failure.message)
                printed += rows.lines(.post(PostRow(post: post, interaction: interaction)), number: 1)
                var detail = PostDetailState(id: post.id, known: PostChange(originalID: post.id, post: post, interaction: interaction))
                detail.contextLoad = .failed(failure)
                printed += DetailRenderer(width: 60, style: Style(color: true), clock: clock).lines(detail)
                let text = TerminalText(lines: printed).text.replacingOccurrences(of: "\u{1B}\\[[0-9]+m", with: "", options: .regularExpression)
                let found = HostileFixture.forbidden(in: text)
                #expect(found.isEmpty, "seed \(seed) round \(round): \(found.map { String($0.value, radix: 16) }) in \(text.debugDescription)")
                if !found.isEmpty { return }
            }
        }
    }

    @Test("the sanitiser: controls become spaces, bidirectional controls go, invisible characters show, joiners that join stay")
    func rule() {
        #expect(TerminalText("a\u{1B}]52;c;eA==\u{07}b").text == "a ]52;c;eA== b")
        #expect(TerminalText("x\u{9B}31my\r\nz").text == "x 31my z")
        #expect(TerminalText("\u{202E}moc.elgoog\u{202C}\u{2066}x\u{2069}").text == "moc.elgoogx")
        #expect(TerminalText("a\u{200B}da").text == "a<U+200B>da")
        #expect(TerminalText("ada\u{200D}").text == "ada<U+200D>")
        #expect(TerminalText("a\u{FE0F}da\u{E0041}").text == "a<U+FE0F>da<U+E0041>")
        #expect(TerminalText("👩‍💻 ❤️ 🏴󠁧󠁢󠁳󠁣󠁴󠁿 1️⃣ 👍🏽").text == "👩‍💻 ❤️ 🏴󠁧󠁢󠁳󠁣󠁴󠁿 1️⃣ 👍🏽")
        #expect(TerminalText("مي\u{200C}خواهم").text == "مي\u{200C}خواهم")
        #expect(TerminalText("علی\u{200C}").text == "علی<U+200C>")
        #expect(TerminalText("ʜᴇʟʟᴏ\u{3164}").text == "ʜᴇʟʟᴏ<U+3164>")
        // Made safe twice is made safe once.
        var random = SeededGenerator(seed: testSeed(0x1DE4))
        let pieces = HostileFixture.hostilePieces + HostileFixture.joinedPieces + HostileFixture.plainPieces
        for _ in 0..<2_000 {
            let text = (0..<8).map { _ in pieces[random.next(below: pieces.count)] }.joined(separator: "x")
            let once = TerminalText(text)
            #expect(TerminalText(once.text) == once, "\(text.debugDescription)")
            #expect(HostileFixture.forbidden(in: once.text, allowingLineFeeds: false).isEmpty, "\(text.debugDescription) → \(once.text.debugDescription)")
        }
    }
}
