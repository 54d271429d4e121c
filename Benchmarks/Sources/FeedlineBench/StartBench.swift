import Feedline
import FeedlineState
import Foundation

/// Start to first rows (issue 14): the real `feedline` binary on the sandbox, timed from launch
/// to the first row printed (piped standard input, so no terminal is involved) — once from a
/// state directory holding a saved home timeline of 1,000 posts, once with `--no-state`. The
/// peer of the first is the second, so the ratio is the cost of starting from the cache.
enum StartBench {
    static let cached = 1_000

    static func run(binary: String, _ options: Options) -> [Result] {
        let names = ("start.first rows from a cache of 1k", "start.first rows, no state")
        progress("start from a cache")
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            let reason = "feedline binary not found at \(binary)"
            return [Result(name: names.0, skipped: reason), Result(name: names.1, skipped: reason)]
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("feedline-bench-start-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let store = try StateStore.open(directory: directory, server: "sandbox", account: nil)
            let posts = Posts.make(cached, from: 0)
            try store.saveList(
                SavedList(entries: posts.map { .post($0) }, older: PageCursor(posts[cached - 1].id.rawValue), position: ReadingPosition(posts[0])),
                as: "home"
            )
        } catch {
            return [Result(name: names.0, skipped: "could not prepare the state file: \(error)"), Result(name: names.1, skipped: "")]
        }
        let flags = ["--no-stream", "--now", "2026-11-21T18:00:00Z"]
        var withState: [Double] = []
        var without: [Double] = []
        for round in 0..<(1 + options.rounds(9, quick: 2)) {
            // Alternate, so neither side always runs on a warmer machine.
            let pair = round.isMultiple(of: 2)
                ? [(["--state", directory.path], true), (["--no-state"], false)]
                : [(["--no-state"], false), (["--state", directory.path], true)]
            for (arguments, stated) in pair {
                switch firstRow(binary, arguments + flags) {
                case .failure(let message):
                    return [Result(name: names.0, skipped: message), Result(name: names.1, skipped: message)]
                case .success(let milliseconds):
                    guard round > 0 else { continue }  // the first round warms the file cache
                    if stated { withState.append(milliseconds) } else { without.append(milliseconds) }
                }
            }
        }
        let cachedMedian = median(withState)
        let plainMedian = median(without)
        return [
            Result(
                name: names.0, oursMilliseconds: cachedMedian, peer: names.1, peerMilliseconds: plainMedian,
                note: "launch to the first row printed (target < 100 ms, and < 2x the start without state)"
            ),
            Result(name: names.1, oursMilliseconds: plainMedian, peer: nil, peerMilliseconds: nil, note: "launch to the first row printed, sandbox fixtures"),
        ]
    }

    private enum Outcome {
        case success(Double)
        case failure(String)
    }

    /// Launches the binary with empty standard input and times the first line that is row 1.
    private static func firstRow(_ binary: String, _ arguments: [String]) -> Outcome {
        let process = ReplBench.feedline(binary, arguments)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let start = ContinuousClock.now
        do {
            try process.run()
        } catch {
            return .failure("could not launch \(binary): \(error)")
        }
        let reader = output.fileHandleForReading
        var seen = Data()
        var elapsed: Double?
        while elapsed == nil {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            seen.append(chunk)
            // Row 1, unmarked or marked `·` (a saved copy not confirmed yet).
            let text = String(decoding: seen, as: UTF8.self)
            if text.contains("\n   1  ") || text.contains("\n·  1  ") { elapsed = (ContinuousClock.now - start).milliseconds }
        }
        _ = reader.readDataToEndOfFile()
        process.waitUntilExit()
        guard let elapsed else { return .failure("feedline printed no row 1 (status \(process.terminationStatus))") }
        return .success(elapsed)
    }
}
