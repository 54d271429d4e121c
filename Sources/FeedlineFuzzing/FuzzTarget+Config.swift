import FeedlineAccounts
import Foundation

// The config file's target.
extension FuzzTarget {
    /// Any bytes as `config.toml`. Invariants beyond "returns" (the bundled TOML parser aborted the
    /// process on `[` and a line break): a refusal is one sentence on one line naming the file, and
    /// the line it names is one the text has.
    static func config(_ data: Data) throws(Finding) {
        let text = String(decoding: data, as: UTF8.self)
        let url = URL(fileURLWithPath: "/home/u/.config/feedline/config.toml")
        do {
            _ = try ConfigFile(parsing: text, url: url, home: URL(fileURLWithPath: "/home/u"))
        } catch {
            let sentence = error.description
            if !sentence.hasPrefix("The config file \(url.path)") || !sentence.hasSuffix(".") || sentence.contains("\n") {
                throw Finding(description: "not one sentence naming the file: \(sentence.debugDescription)")
            }
            let lines = text.reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
            if let line = error.line, !(1...lines).contains(line) {
                throw Finding(description: "line \(line) of a text of \(lines) lines: \(sentence.debugDescription)")
            }
        }
    }
}
