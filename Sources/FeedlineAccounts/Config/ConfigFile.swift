import Feedline
import FeedlineMastodon
import Foundation
import TOMLKit

/// The settings file, `config.toml` in the ``FeedlineDirectory``: defaults for the command
/// line, each key named after the flag it stands for.
///
/// ```toml
/// account = "alice@social.example"   # --account: the account used when none is named
/// timeline = "home"                  # --timeline: home, local, public, tag:NAME… (on a server)
/// width = 100                        # --width: 20–1000 columns
/// color = false                      # --color / --no-color
/// page-size = 15                     # --page-size: rows per screen, 1–500
/// history = "~/.feedline_history"    # --history: absolute, or starting with ~/
/// ```
///
/// The file is TOML, read by TOMLKit. An unknown key, a table, a value of the wrong type or out
/// of range is a ``ConfigFileError`` naming the line. Every setting is optional; flags win.
public struct ConfigFile: Sendable, Hashable {
    /// A value and the line it was set on.
    public struct Entry<Value: Sendable & Hashable>: Sendable, Hashable {
        /// The value.
        public var value: Value
        /// The line (1-based) it was set on.
        public var line: Int
    }

    /// The keys the file may hold, in the order `feedline config` lists them.
    public static let keys = ["account", "timeline", "width", "color", "page-size", "history"]

    /// The file.
    public let url: URL
    /// `account`: the default account (`alice@social.example`).
    public var account: Entry<String>?
    /// `timeline`: the timeline a server session starts on.
    public var timeline: Entry<String>?
    /// `width`: columns.
    public var width: Entry<Int>?
    /// `color`: whether colour may be used.
    public var color: Entry<Bool>?
    /// `page-size`: rows per screen.
    public var pageSize: Entry<Int>?
    /// `history`: the history file, `~` expanded.
    public var history: Entry<String>?

    /// The settings in `url`; `nil` when there is no such file.
    ///
    /// - Parameter home: what `~` in `history` stands for.
    /// - Throws: ``ConfigFileError``.
    public static func load(from url: URL, home: URL) throws(ConfigFileError) -> ConfigFile? {
        let path = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
        guard !isDirectory.boolValue else { throw ConfigFileError(path: path, line: nil, problem: "it is a directory, not a file") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigFileError(path: path, line: nil, problem: "it cannot be read (permission denied)")
        }
        guard data.count <= 64 * 1024 else { throw ConfigFileError(path: path, line: nil, problem: "it is larger than 64 KiB") }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigFileError(path: path, line: nil, problem: "it is not UTF-8 text")
        }
        return try ConfigFile(parsing: text, url: url, home: home)
    }

    /// The settings in `text`, as if read from `url`.
    ///
    /// - Throws: ``ConfigFileError``.
    public init(parsing text: String, url: URL, home: URL) throws(ConfigFileError) {
        self.url = url
        let path = url.path
        // TOMLKit takes a C string: a NUL would cut the document short without a word.
        if let nul = text.firstIndex(of: "\0") {
            throw ConfigFileError(path: path, line: Self.lineNumber(of: nul, in: text), problem: "it contains a NUL character")
        }
        // The parser aborts the process on a table header such as `[` and a line break.
        if let line = TOMLHeaderGuard.lineOfBrokenHeader(in: text) {
            throw ConfigFileError(path: path, line: line, problem: "this is not valid TOML (a table header is a name in brackets, such as [name])")
        }
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            let line = error.source.begin.line > 0 ? error.source.begin.line : nil
            throw ConfigFileError(path: path, line: line, problem: "this is not valid TOML (\(Self.shown(error.description)))")
        } catch {
            throw ConfigFileError(path: path, line: nil, problem: "this is not valid TOML")
        }
        let locator = KeyLocator(text: text, keys: table.keys)
        for key in table.keys.sorted(by: { locator.line(of: $0) < locator.line(of: $1) }) {
            guard let value = table[key] else { continue }
            let line = locator.line(of: key)
            func fail(_ problem: String) -> ConfigFileError { ConfigFileError(path: path, line: line, problem: problem) }
            switch key {
            case "account":
                guard let text = value.string else { throw fail("account must be a string such as \"alice@social.example\", not \(Self.kind(value))") }
                let name = text.trimmingCharacters(in: .whitespaces).drop { $0 == "@" }
                let parts = name.split(separator: "@", omittingEmptySubsequences: false)
                guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, !name.contains(where: \.isWhitespace) else {
                    throw fail("account must name an account as user@server, such as \"alice@social.example\", not \"\(Self.shown(text))\"")
                }
                account = Entry(value: String(name), line: line)
            case "timeline":
                guard let text = value.string else { throw fail("timeline must be a string such as \"home\" or \"tag:swift\", not \(Self.kind(value))") }
                do {
                    _ = try Feed(parsing: text)
                } catch {
                    throw fail(Self.clause(error.description))
                }
                timeline = Entry(value: text, line: line)
            case "width":
                width = Entry(value: try Self.integer(value, key: key, range: 20...1000, fail: fail), line: line)
            case "page-size":
                pageSize = Entry(value: try Self.integer(value, key: key, range: 1...500, fail: fail), line: line)
            case "color":
                guard let flag = value.bool else { throw fail("color must be true or false, not \(Self.kind(value))") }
                color = Entry(value: flag, line: line)
            case "history":
                guard let text = value.string, !text.isEmpty else { throw fail("history must be a file path in quotes, not \(Self.kind(value))") }
                if text == "~" || text.hasPrefix("~/") {
                    history = Entry(value: home.appendingPathComponent(String(text.dropFirst(2))).path, line: line)
                } else if text.hasPrefix("/") {
                    history = Entry(value: text, line: line)
                } else {
                    throw fail("history must be an absolute path or start with ~/, not \"\(Self.shown(text))\"")
                }
            default:
                throw fail(Self.unknownKey(key, isTable: value.type == .table))
            }
        }
    }

    // MARK: - Wording

    private static func integer(_ value: any TOMLValueConvertible, key: String, range: ClosedRange<Int>, fail: (String) -> ConfigFileError) throws(ConfigFileError) -> Int {
        guard let number = value.int, range.contains(number) else {
            let given = value.int.map(String.init) ?? kind(value)
            throw fail("\(key) must be a whole number from \(range.lowerBound) to \(range.upperBound), not \(given)")
        }
        return number
    }

    private static func unknownKey(_ key: String, isTable: Bool) -> String {
        let guess = keys.min { EditDistance.between(key.lowercased(), $0) < EditDistance.between(key.lowercased(), $1) }
        let near = guess.flatMap { EditDistance.between(key.lowercased(), $0) <= 2 ? " (did you mean \($0)?)" : nil } ?? ""
        let what = isTable ? "unknown table [\(shown(key))]" : "unknown key \"\(shown(key))\""
        return "\(what)\(near); the keys are \(keys.joined(separator: ", "))"
    }

    /// "a string", "an integer (12)", "a table"…: what a value is, for a message.
    private static func kind(_ value: any TOMLValueConvertible) -> String {
        switch value.type {
        case .string: "a string"
        case .int: "an integer"
        case .double: "a number with a fraction"
        case .bool: "true or false"
        case .array: "an array"
        case .table: "a table"
        case .date, .time, .dateTime: "a date or time"
        }
    }

    /// Text as shown in a message: one line, at most 80 characters.
    private static func shown(_ text: String) -> String {
        let line = String(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) })
        return line.count > 80 ? String(line.prefix(80)) + "…" : line
    }

    /// A sentence as a clause: the first letter lowercased, no final full stop.
    private static func clause(_ sentence: String) -> String {
        var text = sentence
        while text.hasSuffix(".") { text.removeLast() }
        return (text.first.map { $0.lowercased() } ?? "") + text.dropFirst()
    }

    private static func lineNumber(of index: String.Index, in text: String) -> Int {
        text[..<index].reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
    }
}

/// Finds the line each top-level key is set on, with TOMLKit doing all the parsing: the first
/// line at which the document read so far holds the key (a prefix that does not parse yet, as
/// inside a multi-line string or array, is skipped), moved back to the line the key's name starts
/// on when its value spans lines.
///
/// - Complexity: one parse per line of the file, once; the file is at most 64 KiB.
struct KeyLocator {
    private var lineOfKey: [String: Int] = [:]

    init(text: String, keys: [String]) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var waiting = Set(keys)
        var prefix = ""
        for (index, line) in lines.enumerated() where !waiting.isEmpty {
            prefix += line + "\n"
            guard let table = try? TOMLTable(string: prefix) else { continue }
            for key in table.keys where waiting.contains(key) {
                waiting.remove(key)
                // The value may span lines; the key's own line is the last one starting with its name.
                let start = stride(from: index, through: 0, by: -1).first { Self.starts(lines[$0], with: key) } ?? index
                lineOfKey[key] = start + 1
            }
        }
    }

    /// The line `key` is set on (1 when it cannot be told).
    func line(of key: String) -> Int { lineOfKey[key] ?? 1 }

    /// Whether `line` sets `key` (bare, quoted, dotted) or opens its table.
    private static func starts(_ line: Substring, with key: String) -> Bool {
        let text = line.drop { $0 == " " || $0 == "\t" }
        for form in [key, "\"\(key)\"", "'\(key)'"] {
            for head in [form, "[" + form, "[[" + form] where text.hasPrefix(head) {
                let rest = text.dropFirst(head.count).drop { $0 == " " || $0 == "\t" }
                if rest.first == "=" || rest.first == "." || rest.first == "]" { return true }
            }
        }
        return false
    }
}
