import Foundation

/// One line of the results: our time, and the peer's when there is one (ratio = ours ÷ peer).
struct Result {
    var name: String
    var oursMilliseconds: Double?
    var peer: String?
    var peerMilliseconds: Double?
    /// Why there is no number (e.g. the binary under test is missing).
    var skipped: String?
    /// What the line is for, shown under the table (the target, the unit of work).
    var note: String?

    var ratio: Double? {
        guard let ours = oursMilliseconds, let theirs = peerMilliseconds, theirs > 0 else { return nil }
        return ours / theirs
    }
}

/// Heap bytes per instance, ours against a peer.
struct MemoryResult {
    var name: String
    var oursBytes: Double
    var peer: String
    var peerBytes: Double
    var ratio: Double { oursBytes / peerBytes }
}

enum Report {
    static func table(_ results: [Result], memory: [MemoryResult], memoryNotes: [String] = []) -> String {
        var lines: [String] = []
        let header = ["scenario", "ours ms", "peer", "peer ms", "ours÷peer", "peer÷ours"]
        var rows: [[String]] = [header]
        var skippedLines: [String] = []
        for result in results {
            if let skipped = result.skipped {
                skippedLines.append("\(result.name): skipped: \(skipped)")
                continue
            }
            rows.append([
                result.name,
                result.oursMilliseconds.map(format) ?? "—",
                result.peer ?? "—",
                result.peerMilliseconds.map(format) ?? "—",
                result.ratio.map { String(format: "%.4g", $0) } ?? "—",
                result.ratio.map { String(format: "%.4g×", 1 / $0) } ?? "—",
            ])
        }
        lines += align(rows)
        lines += skippedLines
        if !memory.isEmpty {
            lines.append("")
            var memoryRows: [[String]] = [["heap per instance", "ours bytes", "peer", "peer bytes", "ours÷peer"]]
            for result in memory {
                memoryRows.append([
                    result.name, String(format: "%.1f", result.oursBytes), result.peer,
                    String(format: "%.1f", result.peerBytes), String(format: "%.3f", result.ratio),
                ])
            }
            lines += align(memoryRows)
            lines += memoryNotes
        }
        let notes = results.compactMap { result in result.note.map { "  \(result.name): \($0)" } }
        if !notes.isEmpty {
            lines.append("")
            lines += notes
        }
        return lines.joined(separator: "\n")
    }

    static func json(_ results: [Result], memory: [MemoryResult]) -> String {
        func number(_ value: Double?) -> String {
            guard let value, value.isFinite else { return "null" }
            return String(format: "%.6g", value)
        }
        func string(_ value: String?) -> String {
            guard let value else { return "null" }
            var escaped = ""
            for scalar in value.unicodeScalars {
                switch scalar {
                case "\"": escaped += "\\\""
                case "\\": escaped += "\\\\"
                case "\n": escaped += "\\n"
                default:
                    if scalar.value < 0x20 {
                        escaped += String(format: "\\u%04x", scalar.value)
                    } else {
                        escaped.unicodeScalars.append(scalar)
                    }
                }
            }
            return "\"\(escaped)\""
        }
        let scenarios = results.map { result in
            var fields = [
                "\"name\":\(string(result.name))",
                "\"ours_ms\":\(number(result.oursMilliseconds))",
                "\"peer\":\(string(result.peer))",
                "\"peer_ms\":\(number(result.peerMilliseconds))",
                "\"ratio\":\(number(result.ratio))",
            ]
            if let skipped = result.skipped { fields.append("\"skipped\":\(string(skipped))") }
            return "{" + fields.joined(separator: ",") + "}"
        }
        let memoryLines = memory.map { result in
            "{\"name\":\(string(result.name)),\"ours_bytes\":\(number(result.oursBytes)),\"peer\":\(string(result.peer)),"
                + "\"peer_bytes\":\(number(result.peerBytes)),\"ratio\":\(number(result.ratio))}"
        }
        return "{\"scenarios\":[\n" + scenarios.joined(separator: ",\n") + "\n],\"memory\":[\n"
            + memoryLines.joined(separator: ",\n") + "\n]}"
    }

    private static func format(_ milliseconds: Double) -> String {
        if milliseconds >= 100 { return String(format: "%.1f", milliseconds) }
        if milliseconds >= 1 { return String(format: "%.3f", milliseconds) }
        return String(format: "%.5f", milliseconds)
    }

    private static func align(_ rows: [[String]]) -> [String] {
        let widths = (0..<rows[0].count).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.enumerated().flatMap { index, row in
            let line = row.enumerated().map { column, cell in
                column == 0 || column == 2
                    ? cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[column] - cell.count) + cell
            }.joined(separator: "  ")
            if index == 0 {
                return [line, widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")]
            }
            return [line]
        }
    }
}
