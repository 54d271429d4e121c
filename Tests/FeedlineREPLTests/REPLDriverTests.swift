@_spi(FeedService) import Feedline
@_spi(FeedService) import FeedlineMastodon
import FeedlineREPL
import FeedlineTestSupport
import Foundation
import Testing

/// The driver through its public API: lines in, text out, on a sandbox with a virtual clock.
@MainActor
@Suite("REPL driver", .timeLimit(.minutes(10)))
struct REPLDriverTests {
    typealias Harness = DriverHarness

    func harness(_ fixtures: String = "timeline", pageSize: Int = 10, live: Bool = false) async throws -> Harness {
        try await DriverHarness.start(fixtures, pageSize: pageSize, live: live)
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

    @Test("a queued tap says why and when it is sent again; retry says what it sends and how it went; the end says what is left")
    func queuedTapsSayWhy() async throws {
        let harness = try await harness("faults")
        _ = await harness.run("retry")
        // Row 4's boost fails once for lack of a connection (503): queued, with the reason and the wait.
        let boost = await harness.run("boost 4").replacingOccurrences(of: "\n", with: " ")
        #expect(boost.contains("Your boost of Sam Whitfield's post is queued: The server is unavailable right now; try again in a moment. Sent again in 2 seconds, or type retry."), "\(boost)")
        // retry sends it and says so, then how it went.
        let retried = await harness.run("retry")
        #expect(retried.hasPrefix("Sending again: your boost of Sam Whitfield's post.\n"), "\(retried)")
        #expect(retried.contains("Sent: your boost of Sam Whitfield's post."), "\(retried)")
        // Row 3's favourite always fails (500): queued again after each attempt, twice as long.
        _ = await harness.run("fav 3")
        let again = await harness.run("retry").replacingOccurrences(of: "\n", with: " ")
        #expect(again.contains("Sending again: your favourite of Nadia Petrova's post."), "\(again)")
        #expect(again.contains("Your favourite of Nadia Petrova's post is queued: The server hit an internal error; try again later. Sent again in 4 seconds, or type retry."), "\(again)")
        #expect(!again.contains("Sent:"))
        // At the end: what is left and what becomes of it (this session keeps no state).
        await harness.driver.close()
        #expect(harness.output.take().replacingOccurrences(of: "\n", with: " ") == "Not sent yet: your favourite of Nadia Petrova's post. This session keeps no state (--state DIR would keep it), so it is dropped. ")
        // Nothing is written after it.
        harness.driver.flush()
        #expect(harness.output.take().isEmpty)
    }

    @Test("unfav, unboost and unbookmark only ever remove: without a favourite, boost or bookmark they say so and send nothing")
    func undoOnlyRemoves() async throws {
        let harness = try await harness()
        _ = harness.output.take()
        let sent = harness.session.store.requestsSent
        #expect(await harness.run("unfav 2") == "Row 2's post is not favourited; nothing to undo.\n")
        #expect(await harness.run("unboost 2") == "Row 2's post is not boosted; nothing to undo.\n")
        #expect(await harness.run("unbookmark 2") == "Row 2's post is not bookmarked; nothing to undo.\n")
        #expect(harness.session.store.requestsSent == sent)
        // With one to undo, it is undone on the row, once; again, nothing.
        _ = await harness.run("fav 2")
        let undone = await harness.run("unfav 2")
        #expect(undone.hasPrefix("~  2  Ruth Calder") && undone.contains("☆ 266"), "\(undone)")
        #expect(await harness.run("unfav 2") == "Row 2's post is not favourited; nothing to undo.\n")
        #expect(harness.session.store.requestsSent == sent + 2)
        // On a post, without a row number.
        _ = await harness.run("open 2")
        #expect(await harness.run("unfav") == "This post is not favourited; nothing to undo.\n")
        #expect(await harness.run("unfav 2") == "On a post, unfav acts on that post: type unfav alone, or back to pick a row.\n")
    }

    @Test("live: a new screen does not first say it has no rows, and switching timelines says so before it loads")
    func liveNewScreens() async throws {
        let harness = try await harness(live: true)
        _ = harness.output.take()
        harness.driver.handle("profile 1")
        let pushed = harness.output.take()
        #expect(pushed == "Loading the profile…\n", "\(pushed)")
        await harness.session.settle()
        _ = harness.output.take()
        harness.driver.handle("local")
        #expect(harness.output.take() == "Switched to the local timeline.\nLoading the timeline…\n")
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

    @Test("a refresh of the notifications that finds nothing says \"No newer notifications.\", not posts")
    func nothingNewerNotifications() async throws {
        let harness = try await harness()
        _ = await harness.run("notifications")
        var outputs: [String] = []
        for _ in 0..<3 { outputs.append(await harness.run("refresh")) }
        #expect(outputs.last?.contains("No newer notifications.") == true, "\(outputs)")
        #expect(!outputs.joined().contains("No newer posts."), "\(outputs)")
        _ = await harness.run("back")
        _ = await harness.run("refresh")
        let timeline = await harness.run("refresh")
        #expect(timeline.contains("No newer posts."), "a timeline still says posts: \(timeline)")
    }

    @Test("Tab offers the handles and tags of every row received, shown or not, and is told of them as they arrive, before any command")
    func completionFollowsArrivingRows() async throws {
        let session = try SessionFactory.session("timeline")
        var told: [CompletionContext] = []
        var options = REPLDriver.Options(pageSize: 2, width: 80, live: true)
        options.completionChanged = { told.append($0) }
        let driver = REPLDriver(session: session, options: options) { _ in }
        driver.start()
        await session.settle()
        let authors = Set(session.root.rows.flatMap { [$0.post?.author.handle, $0.post?.boostedBy?.handle].compactMap { $0 } })
        let tags = Set(session.root.rows.flatMap { $0.post?.content.tags ?? [] })
        #expect(session.root.rows.count == 20 && authors.count > 2)
        // Only two rows are shown; every row's author and tags are offered, without a command.
        #expect(Set(told.last?.handles ?? []) == authors)
        #expect(Set(told.last?.tags ?? []) == tags)
        #expect(told.last == driver.completionContext)
        #expect(Completion.matches(line: "profile @ro", word: "@ro", context: driver.completionContext) == ["@rowan@bramble.zone"])
        let count = told.count
        driver.handle("list")
        #expect(told.count == count, "nothing new: not told again")
        driver.handle("open 1")
        #expect(told.last?.commands.contains("back") == true, "the post's commands, told after the command")
    }

    @Test("a list that already holds rows when the driver starts (a restored timeline, pages loaded before) offers all of them, not only the last page's")
    func completionLearnsRowsHeldBeforeTheStart() async throws {
        // Pages of 3: the first page's authors (Sam, Ruth, Kemi…) are not all on the second.
        let fixture = try FixtureLoader.load(from: PackagePaths.fixtures("timeline"))
        let clock = WallClock.fixed(SessionFactory.now)
        let service = try SandboxService(fixture: fixture, pageSize: 3, clock: VirtualClock(), wallClock: clock)
        let session = FeedSession(service: service, clock: clock)
        session.root.appeared()
        await session.settle()
        let firstPage = Set(session.root.rows.compactMap { $0.post?.author.handle })
        session.root.loadMore()
        await session.settle()
        #expect(session.root.rows.count == 6)
        let driver = REPLDriver(session: session, options: .init(pageSize: 5, width: 80)) { _ in }
        driver.start()
        let all = Set(session.root.rows.flatMap { [$0.post?.author.handle, $0.post?.boostedBy?.handle].compactMap { $0 } })
        #expect(firstPage.isSubset(of: Set(driver.completionContext.handles)))
        #expect(Set(driver.completionContext.handles) == all)
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
