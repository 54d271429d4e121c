import Feedline

/// Text safe to write to a terminal: the only thing the REPL's printers take (``REPLDriver``'s
/// `write`, ``ReadlineConsole``, the prompt and the breadcrumb, the executable's output).
///
/// Every way to make one from a `String` — ``init(_:)``, a literal, an interpolation, `+` with a
/// string — goes through the one sanitiser (`TextSafety`): no control character (escape
/// sequences, the bell, a carriage return, C1 controls), no bidirectional embedding, override or
/// isolate, and invisible characters shown as `<U+200B>` rather than hidden. Only ``Style``
/// adds escape sequences (its colours), around text already made safe; only ``init(lines:)``
/// adds line breaks. So a renderer cannot print what a server sent without it passing here.
public struct TerminalText: Hashable, Sendable {
    /// The text as it is written, colours included.
    public private(set) var text: String

    /// `text` made safe: controls become spaces (line breaks too), bidirectional controls are
    /// removed, invisible characters shown (see the type).
    public init(_ text: some StringProtocol) {
        // Through the sanitiser's `String` entry point: specialised here, `String(text)` of a
        // `String` is the string itself, and the sanitiser's generic entry point (not
        // specialised across modules) walked every row's bytes through protocol witnesses.
        self.text = TextSafety.clean(String(text))
    }

    /// Text this file vouches for: a colour's escape sequences around safe text, safe lines
    /// joined by line breaks.
    private init(verbatim text: String) {
        self.text = text
    }

    /// No text.
    public static let empty = TerminalText(verbatim: "")

    /// Whether there is no text at all.
    public var isEmpty: Bool { text.isEmpty }

    /// `lines`, each ended by a line break: a piece of output as a printer writes it.
    public init(lines: [TerminalText]) {
        var text = ""
        text.reserveCapacity(lines.reduce(0) { $0 + $1.text.utf8.count + 1 })
        for line in lines {
            text += line.text
            text += "\n"
        }
        self.init(verbatim: text)
    }

    public static func + (lhs: TerminalText, rhs: TerminalText) -> TerminalText {
        TerminalText(verbatim: lhs.text + rhs.text)
    }

    public static func + (lhs: String, rhs: TerminalText) -> TerminalText {
        TerminalText(lhs) + rhs
    }

    public static func + (lhs: TerminalText, rhs: String) -> TerminalText {
        lhs + TerminalText(rhs)
    }

    public static func += (lhs: inout TerminalText, rhs: TerminalText) {
        lhs.text += rhs.text
    }

    /// The text with its first character — a plain one, such as a row's marker column —
    /// replaced by `character` (made safe like any text).
    func replacingFirstCharacter(with character: Character) -> TerminalText {
        guard !text.isEmpty else { return self }
        return TerminalText(String(character)) + TerminalText(verbatim: String(text.dropFirst()))
    }

    /// The first character written (a row's marker column).
    var first: Character? { text.first }

    /// `text` between the escape sequences that turn on the graphic rendition `code` and turn it
    /// off: ``Style``'s one way to colour.
    static func styled(_ text: TerminalText, code: String) -> TerminalText {
        text.isEmpty ? text : TerminalText(verbatim: "\u{1B}[\(code)m" + text.text + "\u{1B}[0m")
    }
}

extension TerminalText: ExpressibleByStringInterpolation {
    /// A literal, made safe like any other text.
    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// An interpolated literal: the whole text made safe, what is interpolated included.
    public init(stringInterpolation: DefaultStringInterpolation) {
        self.init(String(stringInterpolation: stringInterpolation))
    }
}

extension TerminalText: CustomStringConvertible {
    public var description: String { text }
}
