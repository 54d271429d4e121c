import FeedlineAccounts
import Foundation
import Testing

/// The config file: every key read with the line it is on, each mistake one sentence naming the
/// line, and flags winning over the file over the defaults.
@Suite("Config file")
struct ConfigFileTests {
    static let url = URL(fileURLWithPath: "/home/u/.config/feedline/config.toml")
    static let home = URL(fileURLWithPath: "/home/u")

    static func parse(_ text: String) throws(ConfigFileError) -> ConfigFile {
        try ConfigFile(parsing: text, url: url, home: home)
    }

    /// The sentence `text` is refused with.
    static func refusal(_ text: String) -> String? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error.description
        }
    }

    @Test("every key, with comments and blank lines; a leading @ goes; ~ expands")
    func everyKey() throws {
        let config = try Self.parse(
            """
            # Feedline settings

            account = "@Alice@Social.Example"
            timeline = "tag:swift"   # on a server
            width = 100
            color = false
            page-size = 15
            history = "~/feedline/history"
            """
        )
        #expect(config.account?.value == "Alice@Social.Example")
        #expect(config.account?.line == 3)
        #expect(config.timeline?.value == "tag:swift")
        #expect(config.timeline?.line == 4)
        #expect(config.width?.value == 100)
        #expect(config.width?.line == 5)
        #expect(config.color?.value == false)
        #expect(config.pageSize?.value == 15)
        #expect(config.pageSize?.line == 7)
        #expect(config.history?.value == "/home/u/feedline/history")
        #expect(config.history?.line == 8)

        let empty = try Self.parse("")
        #expect(empty.account == nil && empty.width == nil && empty.history == nil)
        let absolute = try Self.parse("history = '/var/tmp/h'")
        #expect(absolute.history?.value == "/var/tmp/h")
    }

    @Test("lines are found by the TOML parser: a key after a multi-line string, a quoted key, a value over several lines")
    func lines() throws {
        let text = """
            # a comment that says width = 1
            "account" = "a@b.example"
            timeline = \"\"\"home\"\"\"

            width = 120
            """
        let config = try Self.parse(text)
        #expect(config.account?.line == 2)
        #expect(config.timeline?.line == 3)
        #expect(config.width?.line == 5)
        #expect(Self.refusal("color = true\nwidth = [\n  1,\n  2,\n]\n")
            == "The config file /home/u/.config/feedline/config.toml, line 2: width must be a whole number from 20 to 1000, not an array.")
    }

    @Test(
        "each mistake is one sentence naming the line",
        arguments: [
            ("colour = true", "line 1: unknown key \"colour\" (did you mean color?); the keys are account, timeline, width, color, page-size, history"),
            ("width = 80\npage_size = 5", "line 2: unknown key \"page_size\" (did you mean page-size?); the keys are account, timeline, width, color, page-size, history"),
            ("theme = \"dark\"", "line 1: unknown key \"theme\"; the keys are account, timeline, width, color, page-size, history"),
            ("width = 80\n\n[display]\nwidth = 90", "line 3: unknown table [display]; the keys are account, timeline, width, color, page-size, history"),
            ("width = \"wide\"", "line 1: width must be a whole number from 20 to 1000, not a string"),
            ("width = 10", "line 1: width must be a whole number from 20 to 1000, not 10"),
            ("width = 80.5", "line 1: width must be a whole number from 20 to 1000, not a number with a fraction"),
            ("page-size = 0", "line 1: page-size must be a whole number from 1 to 500, not 0"),
            ("color = \"no\"", "line 1: color must be true or false, not a string"),
            ("account = 3", "line 1: account must be a string such as \"alice@social.example\", not an integer"),
            ("account = \"alice\"", "line 1: account must name an account as user@server, such as \"alice@social.example\", not \"alice\""),
            ("timeline = \"federated\"", "line 1: the timeline \"federated\" is not one Feedline knows: expected home, public, local, tag:NAME, bookmarks, favourites or list:ID"),
            ("history = \"history.txt\"", "line 1: history must be an absolute path or start with ~/, not \"history.txt\""),
            ("history = true", "line 1: history must be a file path in quotes, not true or false"),
            ("\n\nwidth = = 3", "line 3: this is not valid TOML ("),
            ("width = 80\nwidth = 90", "line 2: this is not valid TOML ("),
            ("a = 1\u{0}", "line 1: it contains a NUL character"),
            // Documents TOMLKit's parser aborted on (exit 134) instead of reporting.
            ("[\n", "line 1: this is not valid TOML (expected a key (letters, digits, - and _, or a quoted name), found a line break)"),
            ("width = 80\n[\n", "line 2: this is not valid TOML (expected a key"),
            ("width = 80\n\n[[\n]]", "line 3: this is not valid TOML (expected a key"),
            ("[ \"a\" . \n", "line 1: this is not valid TOML (expected a key"),
            ("color = true\nwidth = [1,\n[\n", "line 4: this is not valid TOML (an array is not closed"),
            ("width = {a = \n", "line 1: this is not valid TOML (expected a value after '=', found a line break)"),
            ("width = 80 page-size = 5", "line 1: this is not valid TOML (expected the end of the line, found 'p')"),
            ("account = \"a\u{7}b\"", "line 1: this is not valid TOML (a string holds a control character (the character U+7); write it as an escape)"),
            ("width = eighty", "line 1: this is not valid TOML (\"eighty\" is not a TOML value (text goes in quotes))"),
        ]
    )
    func mistakes(_ text: String, _ expected: String) throws {
        let sentence = try #require(Self.refusal(text), "accepted \(text.debugDescription)")
        let prefix = "The config file /home/u/.config/feedline/config.toml, "
        #expect(sentence.hasPrefix(prefix + expected), "\(sentence)")
        #expect(sentence.hasSuffix("."))
        #expect(!sentence.dropLast().contains("\n"))
    }

    @Test("a missing file is no settings; a directory or non-UTF-8 file is a sentence")
    func files() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("feedline-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        #expect(try ConfigFile.load(from: scratch.appendingPathComponent("none.toml"), home: Self.home) == nil)
        #expect(throws: ConfigFileError(path: scratch.path, line: nil, problem: "it is a directory, not a file")) {
            try ConfigFile.load(from: scratch, home: Self.home)
        }
        let binary = scratch.appendingPathComponent("binary.toml")
        try Data([0x77, 0x3D, 0xFF, 0xFE]).write(to: binary)
        #expect(throws: ConfigFileError(path: binary.path, line: nil, problem: "it is not UTF-8 text")) {
            try ConfigFile.load(from: binary, home: Self.home)
        }
        let good = scratch.appendingPathComponent("config.toml")
        try Data("width = 77\n".utf8).write(to: good)
        #expect(try ConfigFile.load(from: good, home: Self.home)?.width?.value == 77)
    }

    @Test("flags win over the file, the file over the defaults; each setting says where it came from")
    func precedence() throws {
        let config = try Self.parse("width = 100\ncolor = false\npage-size = 15\naccount = \"a@b.example\"")
        let merged = EffectiveSettings(flags: SettingFlags(width: 90, color: true, history: "/tmp/h"), config: config, home: Self.home)
        #expect(merged.width == Setting(90, from: .flag("--width")))
        #expect(merged.color == Setting(true, from: .flag("--color")))
        #expect(merged.pageSize == Setting(15, from: .configFile(line: 3)))
        #expect(merged.account == Setting("a@b.example", from: .configFile(line: 4)))
        #expect(merged.history == Setting("/tmp/h", from: .flag("--history")))
        #expect(merged.timeline == Setting(nil, from: .builtIn))

        let defaults = EffectiveSettings(flags: SettingFlags(color: false), config: nil, home: Self.home)
        #expect(defaults.width == Setting(nil, from: .builtIn))
        #expect(defaults.color == Setting(false, from: .flag("--no-color")))
        #expect(defaults.pageSize == Setting(10, from: .builtIn))
        #expect(defaults.history == Setting("/home/u/.feedline_history", from: .builtIn))
        #expect(SettingOrigin.configFile(line: 3).description == "config.toml line 3")
    }

    @Test("the directory follows XDG_CONFIG_HOME when absolute, else ~/.config/feedline")
    func directory() {
        #expect(FeedlineDirectory(environment: ["XDG_CONFIG_HOME": "/x/cfg", "HOME": "/home/u"]).url.path == "/x/cfg/feedline")
        #expect(FeedlineDirectory(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/home/u"]).url.path == "/home/u/.config/feedline")
        #expect(FeedlineDirectory(environment: ["HOME": "/home/u"]).configFile.path == "/home/u/.config/feedline/config.toml")
    }
}
