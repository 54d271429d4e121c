import Feedline
import FeedlineMastodon
import FeedlineREPL
import FeedlineTestSupport
import Foundation
import Testing

/// Reading as a person at a terminal expects: what a post carries on its row, a poll's end and
/// kind, the links of a post and opening them, an edit history behind a warning, rows at the
/// terminal's width after any number of resizes.
@MainActor
@Suite("Reading", .timeLimit(.minutes(10)))
struct ReadingTests {
    static let now = SessionFactory.now
    static let clock = WallClock.fixed(now)
    static let author = Author(id: "9", displayName: "Ruth Calder", handle: "ruth")

    static func post(text: String = "Library question: how do you shelve graphic novels?", media: [Media] = [], poll: Poll? = nil) -> Post {
        Post(id: "p1", author: author, text: text, createdAt: now.addingTimeInterval(-3_600), media: media, poll: poll)
    }

    static func row(_ post: Post, width: Int = 80) -> [String] {
        RowRenderer(width: width, clock: clock).textLines(.post(PostRow(post: post, interaction: PostInteraction(serverCopy: post))), number: 3)
    }

    @Test("a row says what its post carries, whole even after a long text: [image], [2 images], [video], [image, video], [poll, 2h left], [poll, ended]")
    func carries() {
        let image = Media(kind: .image, description: "a heron")
        let video = Media(kind: .video)
        let poll = Poll(options: [.init(title: "A", votes: 1), .init(title: "B", votes: 2)], votesCount: 3, expired: false, expiresAt: Self.now.addingTimeInterval(2 * 3_600 + 59))
        let cases: [(Post, String)] = [
            (Self.post(media: [image]), "[image]"),
            (Self.post(media: [image, image]), "[2 images]"),
            (Self.post(media: [video]), "[video]"),
            (Self.post(media: [image, video, image]), "[2 images, video]"),
            (Self.post(poll: poll), "[poll, 2h left]"),
            (Self.post(media: [image], poll: poll), "[image, poll, 2h left]"),
            (Self.post(text: String(repeating: "long words ", count: 30), media: [image, image]), "[2 images]"),
        ]
        for (post, note) in cases {
            let body = Self.row(post)[1]
            #expect(body.hasSuffix(" " + note), "\(body)")
            #expect(TextWidth.width(of: body) <= 80)
        }
        var ended = poll
        ended.expired = true
        #expect(Self.row(Self.post(poll: ended))[1].hasSuffix("[poll, ended]"))
        var past = poll
        past.expiresAt = Self.now.addingTimeInterval(-60)
        #expect(Self.row(Self.post(poll: past))[1].hasSuffix("[poll, ended]"), "past its end by the clock")
        #expect(!Self.row(Self.post())[1].contains("["), "nothing carried, nothing said")
        #expect(Self.row(Self.post(text: "", media: [image]))[1] == "      [image]")
    }

    @Test("the post screen says when a poll closes (with the time left) and whether it takes one choice or several")
    func pollOnPostScreen() {
        let open = Poll(options: [.init(title: "A", votes: 1), .init(title: "B", votes: 2)], votesCount: 3, expired: false, expiresAt: Self.now.addingTimeInterval(2 * 3_600), multiple: false)
        var several = open
        several.multiple = true
        several.expiresAt = nil
        var closed = open
        closed.expired = true
        closed.expiresAt = Self.now.addingTimeInterval(-86_400)
        let renderer = DetailRenderer(width: 100, clock: Self.clock)
        func pollLine(_ poll: Poll) -> String? {
            let post = Self.post(poll: poll)
            let state = PostDetailState(id: post.id, known: PostChange(originalID: post.id, post: post, interaction: PostInteraction(serverCopy: post)))
            return renderer.textLines(state).first { $0.hasPrefix("Poll (") }
        }
        #expect(pollLine(open) == "Poll (open until Nov 21, 2026 at 20:00 UTC, 2h left; one choice; 3 votes):")
        #expect(pollLine(several) == "Poll (open; any number of choices; 3 votes):")
        #expect(pollLine(closed) == "Poll (closed Nov 20, 2026 at 18:00 UTC; one choice; 3 votes):")
    }

    @Test("link N prints the post's address and its links numbered (the text's, then attachments); browse refuses in a script with the address; browse N K names a link that is not there")
    func linksAndBrowse() async throws {
        let harness = try await REPLDriverTests().harness(pageSize: 10)
        _ = harness.output.take()
        let link = await harness.run("link 1")
        #expect(link == """
              https://inkwell.art/@sam/117645532415779633
              1. image "Pencil sketches of herons in several po…": https://files.tidepool.social/cache/media_attachments/files/117/645/532/415/748/100/original/18acb8f411167b90.jpg
            browse 1 opens the post, browse 1 K its K-th link.

            """)
        let failures = harness.driver.failures
        #expect(await harness.run("browse 1") == "browse opens a browser only in an interactive session; the address is:\n  https://inkwell.art/@sam/117645532415779633\n")
        #expect(harness.driver.failures == failures + 1, "refused")
        #expect(await harness.run("browse 1 1").hasSuffix("  https://files.tidepool.social/cache/media_attachments/files/117/645/532/415/748/100/original/18acb8f411167b90.jpg\n"))
        #expect(await harness.run("browse 1 2") == "There is no link 2: the post has 1 link (link 1 lists them).\n")
        #expect(await harness.run("browse 1 2 3") == "browse does not take \"3\"; usage: browse N [K].\n")
        #expect(await harness.run("link") == "link needs a row number, for example: link 3.\n")
    }

    @Test("browse opens the address with the front's opener, and says with what; the opener's refusal is said with the address")
    func browseOpens() async throws {
        let session = try SessionFactory.session("timeline")
        let output = OutputBuffer()
        var opened: [String] = []
        var options = REPLDriver.Options(pageSize: 10, width: 80)
        options.openURL = { address in
            opened.append(address)
            return opened.count == 1 ? .success("xdg-open") : .failure(Browser.Failure(message: "Neither BROWSER names a program nor is xdg-open installed here, so nothing can open it."))
        }
        let driver = REPLDriver(session: session, options: options) { output.write($0) }
        driver.start()
        await session.settle()
        driver.flush()
        _ = output.take()
        driver.handle("browse 1")
        #expect(output.take() == "Opened with xdg-open:\n  https://inkwell.art/@sam/117645532415779633\n")
        driver.handle("open 1")
        await session.settle()
        driver.flush()
        _ = output.take()
        driver.handle("browse 1")
        let refused = output.take()
        #expect(refused.replacingOccurrences(of: "\n", with: " ").hasPrefix("Neither BROWSER names a program nor is xdg-open installed here, so nothing can open it. The address is:"), "\(refused)")
        #expect(refused.contains("\n  https://files.tidepool.social/"), "the address whole, on its line")
        #expect(opened.count == 2)
    }

    @Test("the browser command: BROWSER's first program when it exists (with %s for the address), else xdg-open, else none")
    func browserCommand() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let bin = scratch.file("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        for name in ["firefox", "xdg-open"] {
            let path = bin.appendingPathComponent(name).path
            #expect(FileManager.default.createFile(atPath: path, contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: 0o755]))
        }
        #expect(Browser.command(in: ["PATH": bin.path, "BROWSER": "firefox --new-tab:lynx"]) == "firefox --new-tab")
        #expect(Browser.command(in: ["PATH": bin.path, "BROWSER": "nosuchbrowser"]) == "xdg-open")
        #expect(Browser.command(in: ["PATH": bin.path]) == "xdg-open")
        #expect(Browser.command(in: ["PATH": scratch.file("empty").path]) == nil)
    }

    @Test("an edited post behind a content warning: each version in history shows its whole text under its warning")
    func historyUnderWarning() {
        let versions = [("first text", "spoiler"), ("second, longer text that goes on and on past the width of the terminal for sure", "spoiler v2")]
        let renderer = RowRenderer(width: 40, clock: Self.clock)
        for (number, (text, warning)) in versions.enumerated() {
            let post = Post(id: .version(number + 1, of: "p1"), author: Self.author, text: text, createdAt: Self.now, contentWarning: warning)
            let lines = renderer.textLines(.post(PostRow(post: post)), number: number + 1)
            #expect(lines[1] == "      CW: " + warning)
            #expect(!lines.joined().contains("open \(number + 1) to read"))
            let shown = lines.dropFirst(2).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            #expect(shown == text, "\(lines)")
            for line in lines { #expect(TextWidth.width(of: line) <= 40) }
        }
    }

    @Test("after several resizes list draws every row at the width of the moment (120 → 60 → 250 → 60)")
    func resizes() async throws {
        let session = try SessionFactory.session("timeline")
        let output = OutputBuffer()
        var width = 120
        let driver = REPLDriver(session: session, options: REPLDriver.Options(pageSize: 10, width: 120, followsTerminal: true), terminalWidth: { width }) {
            output.write($0)
        }
        driver.start()
        await session.settle()
        driver.flush()
        _ = output.take()
        for next in [60, 250, 60, 120] {
            width = next
            driver.handle("list")
            let marked = output.take().split(separator: "\n").filter { $0.contains("☆") || $0.contains("★") }
            #expect(marked.count == 10)
            #expect(marked.allSatisfy { TextWidth.width(of: String($0)) == next }, "at \(next): \(marked.map { TextWidth.width(of: String($0)) })")
        }
    }
}
