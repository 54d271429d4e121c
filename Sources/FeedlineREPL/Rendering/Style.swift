/// ANSI colours for the terminal, or none. Applied after measuring and cutting text, so widths
/// never count escape codes; the only escape sequences the REPL writes are these, around text
/// already made safe (``TerminalText``).
public struct Style: Sendable, Hashable {
    /// Whether to colour at all.
    public var color: Bool

    /// Colours when `color` is set.
    public init(color: Bool) { self.color = color }

    /// No colour.
    public static let plain = Style(color: false)

    func bold(_ text: TerminalText) -> TerminalText { wrap(text, "1") }
    func dim(_ text: TerminalText) -> TerminalText { wrap(text, "2") }
    func red(_ text: TerminalText) -> TerminalText { wrap(text, "31") }
    func green(_ text: TerminalText) -> TerminalText { wrap(text, "32") }
    func yellow(_ text: TerminalText) -> TerminalText { wrap(text, "33") }
    func magenta(_ text: TerminalText) -> TerminalText { wrap(text, "35") }
    func cyan(_ text: TerminalText) -> TerminalText { wrap(text, "36") }

    func bold(_ text: String) -> TerminalText { bold(TerminalText(text)) }
    func dim(_ text: String) -> TerminalText { dim(TerminalText(text)) }
    func red(_ text: String) -> TerminalText { red(TerminalText(text)) }
    func green(_ text: String) -> TerminalText { green(TerminalText(text)) }
    func yellow(_ text: String) -> TerminalText { yellow(TerminalText(text)) }
    func magenta(_ text: String) -> TerminalText { magenta(TerminalText(text)) }
    func cyan(_ text: String) -> TerminalText { cyan(TerminalText(text)) }

    private func wrap(_ text: TerminalText, _ code: String) -> TerminalText {
        color ? TerminalText.styled(text, code: code) : text
    }
}
