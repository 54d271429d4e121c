import ArgumentParser
import FeedlineTestSupport
import Testing

@testable import FeedlineCLI

/// `feedline` reads a plain command line itself (``FeedlineCommand/parsedQuickly(_:)``) and
/// leaves every other to ArgumentParser: whatever it reads must be what ArgumentParser reads.
@Suite("A plain command line, read without ArgumentParser")
struct QuickParseTests {
    /// Every value a parsed command carries, in one comparable list.
    static func values(_ command: FeedlineCommand) -> [String] {
        let options = command.options
        return [
            "\(options.fixtures as Any)", "\(options.sandbox)", "\(options.server as Any)", "\(options.account as Any)",
            "\(options.timeline as Any)", "\(options.tokenFile as Any)", "\(options.pageSize as Any)", "\(options.width as Any)",
            "\(options.color as Any)", "\(options.history as Any)", "\(command.postsPerPage as Any)", "\(command.noStream)",
            "\(command.jsonl)", "\(command.script as Any)", "\(command.bail)", "\(command.state as Any)", "\(command.noState)",
            "\(command.now as Any)",
        ]
    }

    /// ArgumentParser's reading of `line`, or `nil` when it refuses it (or prints help or the version).
    static func parsedByArgumentParser(_ line: [String]) -> FeedlineCommand? {
        (try? FeedlineCommand.parseAsRoot(line)) as? FeedlineCommand
    }

    @Test(
        "the lines scripts, benchmarks and the tests start with are read quickly, to what ArgumentParser reads",
        arguments: [
            [],
            ["--script", "three.feedline", "--fixtures", "Fixtures/timeline"],
            // A script's header first, then the command line, which wins.
            ["--now", "2026-11-21T18:00:00Z", "--width", "80", "--page-size", "10", "--script", "s.feedline", "--fixtures", "F"],
            ["--fixtures", "Fixtures/faults", "--width", "60", "--fixtures", "Fixtures/timeline", "--width", "100"],
            ["--jsonl", "--no-stream", "--posts-per-page", "40", "--no-state"],
            ["--server", "mastodon.social", "--timeline", "public", "--token-file", "token", "--state", "dir"],
            ["--account", "ada@example.social", "--history", "h", "--color", "--no-color", "--bail", "--script", "x"],
            ["--sandbox", "--no-color", "--color", "--page-size", "+5", "--width", "020"],
        ]
    )
    func plainLines(line: [String]) throws {
        let quick = try #require(FeedlineCommand.parsedQuickly(line))
        let parsed = try #require(Self.parsedByArgumentParser(line))
        #expect(Self.values(quick) == Self.values(parsed))
    }

    @Test(
        "help, the version, subcommands, other spellings, bad values and clashing flags are left to ArgumentParser",
        arguments: [
            ["--help"], ["-h"], ["--version"], ["help"], ["login", "mastodon.social"], ["accounts"], ["config"],
            ["--script=s.feedline"], ["--fixture", "F"], ["--width"], ["--width", "wide"], ["--width", "-5"], ["--width", "5"],
            ["--page-size", "0"], ["--posts-per-page", "41"], ["--fixtures", ""], ["--fixtures", "-"], ["--script", "--bail"],
            ["--jsonl", "--script", "s"], ["--jsonl", "--bail"], ["--state", "d", "--no-state"], ["--now", "yesterday"],
            ["--sandbox", "--fixtures", "F"], ["--server", "s", "--sandbox"], ["--timeline", "public", "--fixtures", "F"],
            ["--", "--bail"], ["stray"], ["--generate-completion-script", "bash"],
        ]
    )
    func otherLines(line: [String]) {
        #expect(FeedlineCommand.parsedQuickly(line) == nil)
    }

    @Test("seeded random lines: a line read quickly is one ArgumentParser reads, to the same values")
    func randomLines() {
        let seed = testSeed(0x51A27)
        print("QuickParseTests.randomLines seed \(seed) (FEEDLINE_SEED replays it)")
        var random = SeededGenerator(seed: seed)
        let words = [
            "--fixtures", "--sandbox", "--server", "--account", "--timeline", "--token-file", "--page-size", "--width", "--color",
            "--no-color", "--history", "--posts-per-page", "--no-stream", "--jsonl", "--script", "--bail", "--state", "--no-state",
            "--now", "--help", "--width=80", "-h", "login", "F", "", "-", "--", "0", "1", "10", "40", "41", "500", "501", "+7",
            "-3", "x1", "2026-11-21T18:00:00Z", "public", "tag:swift", "ada@example.social",
        ]
        var quickCount = 0
        for _ in 0..<3_000 {
            let line = (0..<random.next(below: 7)).map { _ in words[random.next(below: words.count)] }
            guard let quick = FeedlineCommand.parsedQuickly(line) else { continue }
            quickCount += 1
            guard let parsed = Self.parsedByArgumentParser(line) else {
                Issue.record("read quickly but refused by ArgumentParser: \(line)")
                continue
            }
            #expect(Self.values(quick) == Self.values(parsed), "\(line)")
        }
        // The walk must reach the quick path often enough to mean something.
        #expect(quickCount > 100)
    }

    @Test("every option and flag feedline declares is one the quick reading sets and these tests compare")
    func everyArgumentCovered() throws {
        // A new option the quick reading does not set would be read from an unparsed property
        // wrapper (a crash), and one these tests do not compare could differ unseen: this count
        // fails first, naming both places to add it.
        let command = try #require(FeedlineCommand.parsedQuickly([]))
        let declared = Mirror(reflecting: command).children.count - 1 + Mirror(reflecting: command.options).children.count
        #expect(declared == Self.values(command).count, "add the new argument to FeedlineCommand.parsedQuickly and QuickParseTests.values")
    }
}
