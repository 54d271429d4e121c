import FeedlineREPL
import Testing

@Suite("Command parser")
struct CommandParserTests {
    static let table: [(String, Result<Command, ParseError>)] = [
        ("", .success(.nothing)),
        ("   \t  ", .success(.nothing)),
        ("# a comment", .success(.nothing)),
        ("#open 3", .success(.nothing)),
        ("list", .success(.list)),
        ("ls", .success(.list)),
        ("  LIST  ", .success(.list)),
        ("more", .success(.more)),
        ("open 3", .success(.open(row: 3))),
        ("open\t3", .success(.open(row: 3))),
        ("open 007", .success(.open(row: 7))),
        ("open 0", .success(.open(row: 0))),
        ("fav 12", .success(.favourite(row: 12))),
        ("favourite 2", .success(.favourite(row: 2))),
        ("favorite 2", .success(.favourite(row: 2))),
        ("fav", .success(.favourite(row: nil))),
        ("boost 1", .success(.boost(row: 1))),
        ("reblog", .success(.boost(row: nil))),
        ("gap 21", .success(.gap(row: 21))),
        ("refresh", .success(.refresh)),
        ("retry", .success(.retry)),
        ("back", .success(.back)),
        ("help", .success(.help(nil))),
        ("?", .success(.help(nil))),
        ("help fav", .success(.help(.fav))),
        ("help ls", .success(.help(.list))),
        ("quit", .success(.quit)),
        ("exit", .success(.quit)),
        ("fva", .failure(.unknownCommand("fva", suggestion: .fav))),
        ("opne 3", .failure(.unknownCommand("opne", suggestion: .open))),
        ("refesh", .failure(.unknownCommand("refesh", suggestion: .refresh))),
        ("ref", .failure(.unknownCommand("ref", suggestion: .refresh))),
        ("xyzzy", .failure(.unknownCommand("xyzzy", suggestion: nil))),
        ("🐸", .failure(.unknownCommand("🐸", suggestion: nil))),
        ("ＯＰＥＮ 1", .failure(.unknownCommand("ＯＰＥＮ", suggestion: nil))),
        ("open", .failure(.missingRow(.open))),
        ("gap", .failure(.missingRow(.gap))),
        ("open x", .failure(.notARow(.open, "x"))),
        ("open -1", .failure(.notARow(.open, "-1"))),
        ("open +1", .failure(.notARow(.open, "+1"))),
        ("open 3.5", .failure(.notARow(.open, "3.5"))),
        ("open ３", .failure(.notARow(.open, "３"))),
        ("open ٣", .failure(.notARow(.open, "٣"))),
        ("open 99999999999999999999", .failure(.rowTooLarge(.open, "99999999999999999999"))),
        ("open 1 2", .failure(.unexpectedArgument(.open, "2"))),
        ("more please", .failure(.unexpectedArgument(.more, "please"))),
        ("help me please", .failure(.unexpectedArgument(.help, "please"))),
        ("help lsit", .failure(.unknownTopic("lsit", suggestion: .list))),
    ]

    @Test("the table of inputs parses as expected", arguments: table.indices)
    func parses(_ index: Int) {
        let (line, expected) = Self.table[index]
        #expect(CommandParser.parse(line) == expected, "input: \(line.debugDescription)")
    }

    @Test("law: a command's text parses back to the command (the command fuzz target checks it on any input)")
    func textRoundTrips() {
        var commands: [Command] = [.back, .boost(row: nil), .favourite(row: nil), .help(nil), .list, .more, .nothing, .quit, .refresh, .retry]
        for row in [0, 3, Int.max] { commands += [.boost(row: row), .favourite(row: row), .gap(row: row), .open(row: row)] }
        commands += CommandName.allCases.map { .help($0) }
        for command in commands {
            #expect(CommandParser.parse(command.text) == .success(command), "\(command) as \(command.text.debugDescription)")
        }
        #expect(Command.favourite(row: 3).text == "fav 3")
    }

    @Test("every error is one line that names the problem")
    func messages() {
        for (_, result) in Self.table {
            guard case .failure(let error) = result else { continue }
            #expect(!error.message.isEmpty)
            #expect(!error.message.contains("\n"))
            #expect(error.message.hasSuffix("."))
        }
        #expect(ParseError.unknownCommand("fva", suggestion: .fav).message == "Unknown command \"fva\". Did you mean \"fav\"? Type help for the commands.")
    }

    @Test("echoed junk is cleaned and shortened")
    func echo() throws {
        let escape = "\u{1B}[31mred\u{7}"
        guard case .failure(let error) = CommandParser.parse(escape) else {
            Issue.record("escape sequence parsed as a command")
            return
        }
        #expect(!error.message.contains("\u{1B}"))
        #expect(!error.message.contains("\u{7}"))
        guard case .failure(let long) = CommandParser.parse(String(repeating: "z", count: 10_000)) else {
            Issue.record("a long word parsed as a command")
            return
        }
        #expect(long.message.count < 120)
    }

    @Test("total on junk: invalid UTF-8, control characters, NULs and a 1 MB line")
    func total() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let count = Int.random(in: 0..<64, using: &generator)
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            _ = CommandParser.parse(bytes: bytes)
        }
        #expect(CommandParser.parse(bytes: [0x6F, 0x70, 0x65, 0x6E, 0x20, 0xFF, 0xFE]) == .failure(.notARow(.open, "\u{FFFD}\u{FFFD}")))
        #expect(CommandParser.parse("open\u{0}3") == .failure(.unknownCommand("open\u{0}3", suggestion: .open)))
        let megabyte = "open " + String(repeating: "9", count: 1 << 20)
        #expect(CommandParser.parse(megabyte) == .failure(.rowTooLarge(.open, String(repeating: "9", count: 1 << 20))))
        let spaces = String(repeating: " x", count: 1 << 19)
        #expect(CommandParser.parse("list" + spaces) == .failure(.unexpectedArgument(.list, "x")))
        let word = String(repeating: "ab", count: 1 << 19)
        if case .failure(.unknownCommand(_, let suggestion)) = CommandParser.parse(word) {
            #expect(suggestion == nil)
        } else {
            Issue.record("a megabyte word parsed as a command")
        }
    }

    @Test("Tab completes command words only, from the one table")
    func completions() {
        #expect(CommandTable.completions(of: "he") == ["help"])
        #expect(CommandTable.completions(of: "re") == ["reblog", "refresh", "retry"])
        #expect(CommandTable.completions(of: "f") == ["fav", "favorite", "favourite"])
        #expect(CommandTable.completions(of: "zz").isEmpty)
        #expect(CommandTable.completions(of: "").count == CommandTable.words.count)
        #expect(!CommandTable.words.contains("?"))
        for name in CommandName.allCases { #expect(CommandTable.words.contains(name.rawValue)) }
    }

    @Test("help lists every command of a screen and explains each one")
    func help() {
        let timeline = HelpText.lines(topic: nil, screen: .timeline).joined(separator: "\n")
        for spec in CommandTable.all where spec.screens.contains(.timeline) {
            #expect(timeline.contains("  " + spec.name.rawValue), "\(spec.name) missing")
        }
        let post = HelpText.lines(topic: nil, screen: .post).joined(separator: "\n")
        #expect(!post.contains("more"))
        #expect(post.contains("fav "))
        #expect(HelpText.lines(topic: .gap, screen: .timeline).first == "gap N")
        #expect(HelpText.lines(topic: .more, screen: .post).last?.contains("timeline screen") == true)
    }
}
