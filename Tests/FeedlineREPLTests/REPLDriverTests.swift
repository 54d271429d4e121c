import Feedline
import FeedlineREPL
import Foundation
import Testing

/// The driver through its public API: lines in, text out, on a sandbox with a virtual clock.
@MainActor
@Suite("REPL driver", .timeLimit(.minutes(10)))
struct REPLDriverTests {
    @MainActor
    struct Harness {
        let session: FeedSession
        let driver: REPLDriver
        let output: OutputBuffer

        /// Runs `line` like a script does (the command, then settle, then flush) and returns its output.
        func run(_ line: String) async -> String {
            driver.handle(line)
            await session.settle()
            driver.flush()
            return output.take()
        }
    }

    func harness(_ fixtures: String = "timeline", pageSize: Int = 10, live: Bool = false) async throws -> Harness {
        let session = try SessionFactory.session(fixtures)
        let output = OutputBuffer()
        let driver = REPLDriver(session: session, options: .init(pageSize: pageSize, width: 80, live: live)) { output.write($0) }
        driver.start()
        await session.settle()
        driver.flush()
        return Harness(session: session, driver: driver, output: output)
    }

    @Test("the first screen shows one page of numbered rows and the status line")
    func firstScreen() async throws {
        let harness = try await harness(pageSize: 4)
        let lines = harness.output.take().split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("Feedline:") == true)
        #expect(lines.contains("Loading the timeline…"))
        #expect(lines.filter { $0.range(of: #"^ +\d+  "#, options: .regularExpression) != nil }.count == 4)
        #expect(lines.last == "Rows 1–4 of 20 shown; more shows the next.")
        #expect(harness.driver.prompt == "home> ")
    }

    @Test("a favourite made in the detail shows on the timeline row after back, and only that row")
    func detailChangeShowsOnRow() async throws {
        let harness = try await harness()
        let opened = await harness.run("open 2")
        #expect(harness.driver.prompt == "post> ")
        #expect(opened.contains("☆ 266 favourites"))
        let faved = await harness.run("fav")
        #expect(faved == "★ 267 favourites · △ 39 boosts · 10 replies\n")
        let back = await harness.run("back")
        let lines = back.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix("~  2  Ruth Calder") == true)
        #expect(lines.first?.hasSuffix("★ 267  △ 39") == true)
        #expect(harness.driver.prompt == "home> ")
        // list redraws everything, unmarked.
        let list = await harness.run("list")
        #expect(list.contains("   2  Ruth Calder"))
        #expect(!list.contains("~"))
    }

    @Test("boosting a post shown twice changes both of its rows")
    func twinRows() async throws {
        let harness = try await harness()
        let output = await harness.run("boost 3")
        let changed = output.split(separator: "\n").filter { $0.hasPrefix("~") }
        #expect(changed.count == 2)
        #expect(changed.allSatisfy { $0.hasSuffix("▲ 75") })
        #expect(changed.map { $0.dropFirst().prefix(4) } == ["  3 ", " 10 "])
    }

    @Test("more shows the next rows, and the rows near the end load the next page")
    func moreLoadsPages() async throws {
        let harness = try await harness()
        #expect(harness.session.root.rows.count == 20)
        let output = await harness.run("more")
        #expect(output.contains("  11  "))
        #expect(output.contains("  20  "))
        #expect(output.contains("Loading older posts…"))
        #expect(output.hasSuffix("Rows 1–20 of 40 shown; more shows the next.\n"))
        #expect(harness.session.root.rows.count == 40)
    }

    @Test("a failing page shows the error and retry; a favourite the server fails stays; a refused bookmark rolls back with the reason")
    func failures() async throws {
        let harness = try await harness("faults")
        let nothing = await harness.run("retry")
        #expect(nothing.contains("   6  "))
        // HTTP 500: queued in the outbox, not rolled back.
        let fav = await harness.run("fav 3")
        // Shown at once, then marked queued (★…) when the server fails it.
        let rows = fav.split(separator: "\n").filter { $0.hasPrefix("~  3") }
        #expect(rows.count == 2)
        #expect(rows.first?.hasSuffix("★ 24  △ 0") == true)
        #expect(rows.last?.hasSuffix("★… 24  △ 0") == true)
        #expect(!fav.contains("!"), "\(fav)")
        // 403: rolled back, with the reason.
        let bookmark = await harness.run("bookmark 5")
        #expect(bookmark.contains("! Could not bookmark this post: This action is not allowed."), "\(bookmark)")
    }

    @Test("bad commands and out-of-range rows get one line and the session goes on")
    func badInput() async throws {
        let harness = try await harness(pageSize: 5)
        _ = harness.output.take()
        #expect(await harness.run("open 6") == "There is no row 6. Rows 1–5 are shown.\n")
        #expect(await harness.run("fav 0") == "There is no row 0. Rows 1–5 are shown.\n")
        #expect(await harness.run("gap 99999999999999999999") == "There is no row 99999999999999999999. Rows 1–5 are shown.\n")
        #expect(await harness.run("fva 2") == "Unknown command \"fva\". Did you mean \"fav\"? Type help for the commands.\n")
        #expect(await harness.run("back") == "Already at the bottom screen (home).\n")
        #expect(await harness.run("retry") == "Nothing failed; nothing to retry.\n")
        #expect(harness.driver.handle("quit") == false)
        #expect(harness.driver.handle("list") == true)
    }

    @Test("opening and backing out 1,000 times leaves no detail view model or subscription alive")
    func openAndBack() async throws {
        let harness = try await harness()
        weak var lastDetail: PostDetailViewModel?
        var details: [() -> PostDetailViewModel?] = []
        for round in 0..<1_000 {
            harness.driver.handle("open \(round % 10 + 1)")
            if round % 100 == 0 { await harness.session.settle() }
            guard case .post(let detail) = harness.session.navigator.top else {
                Issue.record("open did not push a detail in round \(round)")
                return
            }
            lastDetail = detail
            if round % 97 == 0 { details.append { [weak detail] in detail } }
            harness.driver.handle("back")
            harness.driver.flush()
        }
        await harness.session.settle()
        _ = harness.output.take()
        #expect(lastDetail == nil)
        #expect(details.allSatisfy { $0() == nil })
        #expect(harness.session.navigator.depth == 1)
        for row in harness.session.root.rows.prefix(10) {
            guard let post = row.post else { continue }
            // Only the timeline itself still shows the post; no detail holds it any more.
            #expect(harness.session.store.holderCount(post.id) == 1)
        }
    }

    @Test("in live mode, changes that arrive later are written as they arrive")
    func live() async throws {
        let harness = try await harness(live: true)
        harness.driver.handle("open 1")
        _ = harness.output.take()
        await harness.session.settle()
        #expect(harness.output.take() == "No replies.\n")
        harness.driver.handle("back")
        harness.driver.handle("refresh")
        #expect(harness.output.take() == "Loading newer posts…\n")
        await harness.session.settle()
        let arrived = harness.output.take()
        #expect(arrived.contains("+  1  "))
        #expect(arrived.contains("gap 21 loads them"))
    }

    @Test("a token the stream refused is said at once, in the transport's words; new then points at refresh")
    func refusedToken() async throws {
        let harness = try await harness(live: true)
        let refusal = "The server did not accept the access token. Run `feedline login example.social` to sign in again (or check FEEDLINE_TOKEN)."
        _ = harness.output.take()
        harness.session.streamStateChanged(.connecting)
        harness.session.streamStateChanged(.refused(message: refusal))
        #expect(harness.output.take() == "The server did not accept the access token. Run `feedline login example.social`\nto sign in again (or check FEEDLINE_TOKEN).\n")
        #expect(await harness.run("new") == "Nothing new waits above; refresh loads newer posts.\n")
    }
}
