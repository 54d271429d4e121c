/// ANSI colours for the terminal, or none. Applied after measuring and cutting text, so widths
/// never count escape codes.
public struct Style: Sendable, Hashable {
    /// Whether to colour at all.
    public var color: Bool

    /// Colours when `color` is set.
    public init(color: Bool) { self.color = color }

    /// No colour.
    public static let plain = Style(color: false)

    func bold(_ text: String) -> String { wrap(text, "1") }
    func dim(_ text: String) -> String { wrap(text, "2") }
    func red(_ text: String) -> String { wrap(text, "31") }
    func green(_ text: String) -> String { wrap(text, "32") }
    func yellow(_ text: String) -> String { wrap(text, "33") }
    func magenta(_ text: String) -> String { wrap(text, "35") }
    func cyan(_ text: String) -> String { wrap(text, "36") }

    private func wrap(_ text: String, _ code: String) -> String {
        color && !text.isEmpty ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
