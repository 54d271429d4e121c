import FeedlineTestSupport
import Foundation
import Testing

/// A worked example in Docs/JSONL.md, replayed by the built binary: the section's first code
/// block holds the command line and the commands (each `'{…}'`), the second what the binary
/// prints, where `…` stands for trimmed text.
@MainActor
enum DocumentedExample {
    /// Runs the example under heading `heading` with `flags` and checks every line the binary
    /// prints against the documented one. Returns how many commands the example sends.
    @discardableResult
    static func check(heading: String, flags: [String], sourceLocation: SourceLocation = #_sourceLocation) async throws -> Int {
        let doc = try String(contentsOf: PackagePaths.root().appendingPathComponent("Docs/JSONL.md"), encoding: .utf8)
        let section = try #require(doc.components(separatedBy: "## " + heading).dropFirst().first, sourceLocation: sourceLocation)
        let example = section.components(separatedBy: "\n## ").first ?? section
        let blocks = example.components(separatedBy: "```").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        try #require(blocks.count >= 2, sourceLocation: sourceLocation)
        let commands = blocks[0].split(separator: "\n").compactMap { line -> String? in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("'{"), let end = trimmed.lastIndex(of: "'") else { return nil }
            return String(trimmed[trimmed.index(after: trimmed.startIndex)..<end])
        }
        #expect(blocks[0].contains("swift run feedline " + flags.joined(separator: " ")), sourceLocation: sourceLocation)
        let documented = blocks[1].split(separator: "\n").map(String.init)
        let child = try FeedlineProcess(flags)
        for command in commands { child.send(command) }
        child.closeInput()
        let exit = await child.finish()
        #expect(exit.status == 0 && exit.stderr.isEmpty, sourceLocation: sourceLocation)
        let actual = String(decoding: child.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(actual.count == documented.count, sourceLocation: sourceLocation)
        for (index, (real, shown)) in zip(actual, documented).enumerated() {
            #expect(fits(real, shown), "line \(index + 1) of the example differs from the binary's: \(real.prefix(200))", sourceLocation: sourceLocation)
        }
        return commands.count
    }

    /// Whether `real` is `shown` with text where `shown` has `…`: each piece between ellipses
    /// appears in order, and the ends match exactly.
    nonisolated static func fits(_ real: String, _ shown: String) -> Bool {
        let pieces = shown.components(separatedBy: "…")
        guard real.hasPrefix(pieces[0]), real.hasSuffix(pieces[pieces.count - 1]) else { return false }
        var rest = Substring(real)
        for piece in pieces where !piece.isEmpty {
            guard let range = rest.range(of: piece) else { return false }
            rest = rest[range.upperBound...]
        }
        return true
    }
}
