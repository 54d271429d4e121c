@_spi(FeedService) import Feedline
@_spi(FeedService) @testable import FeedlineMastodon
import FeedlineREPL
import FeedlineTestSupport
import Foundation
import Testing

/// Row numbers hold still under the typist: a number names the row the screen last printed with
/// it, whatever the stream did to the list since (a delete moves rows up, new posts shown on top
/// move them down), until `list` renumbers them; a number whose row was removed says so.
@MainActor
@Suite("REPL row numbers", .timeLimit(.minutes(10)))
struct RowNumberTests {
    /// 60 posts, newest first, each by its own author ("Author 17" wrote "post 17"), so a printed
    /// row names its post.
    static func statuses(_ count: Int = 60) -> [Mastodon.Status] {
        let epoch = Date(timeIntervalSince1970: 1_795_000_000)
        return (1...count).map { number in
            Mastodon.Status(
                id: String(number), createdAt: epoch.addingTimeInterval(Double(number) * 60),
                account: Mastodon.Account(id: "a\(number)", username: "u\(number)", acct: "u\(number)", displayName: "Author \(number)"),
                content: "<p>post \(number)</p>"
            )
        }
    }

    /// A post the stream brings, by "Author N".
    static func streamed(_ number: Int) -> Post {
        Post(
            id: PostID(String(number)), author: Author(id: "a\(number)", displayName: "Author \(number)", handle: "u\(number)"),
            text: "post \(number)", createdAt: Date(timeIntervalSince1970: 1_795_000_000 + Double(number) * 60)
        )
    }

    /// What the screen shows: the post each number was printed with last, and the numbers whose
    /// row was printed as removed since.
    struct Screen {
        /// The post each number names: the one printed with it last.
        var numbers: [Int: Int] = [:]
        /// The number each post was printed with last (a post has one number at a time).
        var numberOf: [Int: Int] = [:]

        mutating func read(_ output: String) {
            for line in output.split(separator: "\n") {
                if let match = line.firstMatch(of: #/^[ +~·] *(\d+)  Author (\d+) /#), let number = Int(match.1), let post = Int(match.2) {
                    if let old = numberOf[post], numbers[old] == post { numbers[old] = nil }
                    if let other = numbers[number] { numberOf[other] = nil }
                    numbers[number] = post
                    numberOf[post] = number
                }
            }
        }
    }

    @Test("a seeded walk mixing stream deletes and arrivals with commands: every numbered command hits the row shown with that number")
    func numbersHoldStill() async throws {
        let seed = ProcessInfo.processInfo.environment["FEEDLINE_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 1...UInt64.max)
        print("RowNumberTests seed: \(seed)")
        var random = SeededGenerator(seed: seed)
        let clock = WallClock.fixed(Date(timeIntervalSince1970: 1_795_100_000))
        let service = try SandboxService(statuses: Self.statuses(), clock: VirtualClock(), wallClock: clock)
        let session = FeedSession(service: service, clock: clock, retryClock: ManualClock())
        let output = OutputBuffer()
        let driver = REPLDriver(session: session, options: .init(pageSize: 8, width: 200)) { output.write($0) }
        driver.start()
        await session.settle()
        driver.flush()
        var screen = Screen()
        screen.read(output.take())
        var deleted: Set<Int> = []
        var nextArrival = 100
        var checked = 0
        for step in 0..<300 {
            // Between commands the stream deletes a post on the list, or brings a new one.
            if Bool.random(using: &random) {
                let onList = session.root.rows.compactMap { $0.post.flatMap { Int($0.post.id.rawValue) } }.filter { !deleted.contains($0) }
                if let victim = onList.randomElement(using: &random), Int.random(in: 0..<3, using: &random) > 0 {
                    deleted.insert(victim)
                    if ProcessInfo.processInfo.environment["FEEDLINE_TRACE"] != nil { print("DELETE \(victim)") }
                    session.apply(.deleted(PostID(String(victim))))
                } else {
                    session.apply(.posted(Self.streamed(nextArrival), in: .home))
                    nextArrival += 1
                }
            }
            let command: String
            switch Int.random(in: 0..<10, using: &random) {
            case 0: command = "more"
            case 1: command = "new"
            case 2: command = "list"
            default:
                guard let number = screen.numbers.keys.sorted().randomElement(using: &random) else { command = "more"; break }
                command = "fav \(number)"
            }
            let before = screen.numbers
            driver.handle(command)
            await session.settle()
            driver.flush()
            let said = output.take()
            if ProcessInfo.processInfo.environment["FEEDLINE_TRACE"] != nil { print("STEP \(step) > \(command)\n\(said)") }
            if command.hasPrefix("fav "), let number = Int(command.dropFirst(4)), let post = before[number] {
                checked += 1
                if deleted.contains(post) {
                    #expect(said.hasPrefix("Row \(number) was removed (post by Author \(post))"), "seed \(seed), step \(step): \(command) → \(said)")
                } else {
                    // The favourite reached the post shown with that number, and only it.
                    #expect(session.store.interaction(PostID(String(post)))?.favourited != nil, "seed \(seed), step \(step)")
                    // The rows redrawn as changed (~) are that post's, with the same number (twice
                    // when the sandbox refuses a post only the stream knows, and rolls it back).
                    let changed = said.split(separator: "\n").filter { $0.hasPrefix("~") && $0.contains("  Author ") }
                    #expect(
                        !changed.isEmpty && changed.allSatisfy { $0.firstMatch(of: #/^~ *(\d+)  Author (\d+) /#).map { "\($0.1) \($0.2)" } == "\(number) \(post)" },
                        "seed \(seed), step \(step): \(command) meant post \(post), got: \(said)"
                    )
                }
            }
            screen.read(said)
        }
        #expect(checked > 50, "seed \(seed): only \(checked) numbered commands")
    }

    @Test("a streamed delete moves the rows below up; their numbers stay, the removed row's number says so, list renumbers")
    func deleteKeepsNumbers() async throws {
        let clock = WallClock.fixed(Date(timeIntervalSince1970: 1_795_100_000))
        let service = try SandboxService(statuses: Self.statuses(20), clock: VirtualClock(), wallClock: clock)
        let session = FeedSession(service: service, clock: clock, retryClock: ManualClock())
        let harness = await DriverHarness.start(on: session, width: 200, showing: false)
        let (driver, output) = (harness.driver, harness.output)
        // Row 3 is post 18 (newest first: 20, 19, 18 …). The stream deletes it.
        session.apply(.deleted("18"))
        driver.flush()
        let removed = output.take()
        #expect(removed.contains("-     removed: post by Author 18 (was row 3)"), "\(removed)")
        // Row 4 (post 17) is still row 4 until list, though it is third now.
        driver.handle("fav 4")
        await session.settle()
        driver.flush()
        #expect(output.take().hasPrefix("~  4  Author 17 "))
        #expect(session.store.interaction("17")?.favourited == true)
        driver.handle("fav 3")
        #expect(output.take() == "Row 3 was removed (post by Author 18); list shows the rows as they are now.\n")
        // list renumbers: post 17 is row 3 now.
        driver.handle("list")
        #expect(output.take().contains("   3  Author 17 "))
        driver.handle("fav 3")
        await session.settle()
        driver.flush()
        #expect(output.take().hasPrefix("~  3  Author 17 "))
        #expect(session.store.interaction("17")?.favourited == false)
    }
}
