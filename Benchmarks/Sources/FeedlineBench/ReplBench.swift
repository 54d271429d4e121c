import Foundation

/// The REPL scenario: a generated session of 10,000 commands run through the real `feedline`
/// binary with `--script`, timed from launch to exit.
enum ReplBench {
    static let commands = 10_000

    /// The default binary: the root package's release build, next to this package.
    static var defaultBinary: String {
        URL(fileURLWithPath: #filePath)  // Benchmarks/Sources/FeedlineBench/ReplBench.swift
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent(".build/release/feedline").standardizedFileURL.path
    }

    /// A seeded session of exactly `count` commands (the last is `quit`): reading, scrolling,
    /// opening posts, favouriting and boosting on both screens, going back, refreshing, gaps, help.
    static func script(count: Int, seed: UInt64 = 6) -> String {
        var random = SeededGenerator(seed: seed)
        var lines = ["# feedline-bench: generated session of \(count) commands (seed \(seed))"]
        var inDetail = false
        for _ in 0..<(count - 1) {
            let roll = Int.random(in: 0..<100, using: &random)
            let row = Int.random(in: 1...10, using: &random)
            if inDetail {
                switch roll {
                case 0..<30: lines.append("fav")
                case 30..<55: lines.append("boost")
                default:
                    lines.append("back")
                    inDetail = false
                }
                continue
            }
            switch roll {
            case 0..<10: lines.append(row.isMultiple(of: 2) ? "list" : "ls")
            case 10..<25: lines.append("more")
            case 25..<45:
                lines.append("open \(row)")
                inDetail = true
            case 45..<65: lines.append("fav \(row)")
            case 65..<82: lines.append("boost \(row)")
            case 82..<88: lines.append("refresh")
            case 88..<93: lines.append("gap \(row)")
            case 93..<97: lines.append("help")
            default: lines.append("back")
            }
        }
        lines.append("quit")
        return lines.joined(separator: "\n") + "\n"
    }

    static func run(binary: String, extraArguments: [String], _ options: Options) -> Result {
        let name = "repl.session 10k commands"
        progress(name)
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            return Result(name: name, skipped: "feedline binary not found at \(binary)")
        }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("feedline-bench-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let scriptURL = directory.appendingPathComponent("session.feedline")
        let text = script(count: commands)
        expect(text.split(separator: "\n").count == commands + 1, "script has \(commands) commands and a comment")
        do {
            try text.write(to: scriptURL, atomically: true, encoding: .utf8)
        } catch {
            return Result(name: name, skipped: "could not write the script: \(error)")
        }
        var samples: [Double] = []
        for round in 0..<(1 + options.rounds(5, quick: 1)) {  // the median of 5, as issue 12 measures it
            let transcript = directory.appendingPathComponent("transcript-\(round).txt")
            switch launch(binary, ["--script", scriptURL.path] + extraArguments, output: transcript) {
            case .failure(let message):
                return Result(name: name, skipped: message)
            case .success(let milliseconds):
                if round > 0 { samples.append(milliseconds) }  // the first run warms the file cache
            }
        }
        return Result(
            name: name, oursMilliseconds: median(samples), peer: nil, peerMilliseconds: nil,
            note: "wall time, launch to exit, of `feedline --script` (target < 500 ms, the median of 5 runs)")
    }

    private enum Outcome {
        case success(Double)
        case failure(String)
    }

    /// The binary ready to run with `arguments`: empty standard input, no colour, and the
    /// sandbox whatever accounts or config file the person running the bench has.
    static func feedline(_ binary: String, _ arguments: [String]) -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment["XDG_CONFIG_HOME"] = FileManager.default.temporaryDirectory
            .appendingPathComponent("feedline-bench-no-config-\(UUID().uuidString)").path
        process.environment = environment
        return process
    }

    private static func launch(_ binary: String, _ arguments: [String], output: URL) -> Outcome {
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        guard let handle = try? FileHandle(forWritingTo: output) else { return .failure("cannot write \(output.path)") }
        defer { try? handle.close() }
        let process = feedline(binary, arguments)
        process.standardOutput = handle
        process.standardError = handle
        let start = ContinuousClock.now
        do {
            try process.run()
        } catch {
            return .failure("could not launch \(binary): \(error)")
        }
        process.waitUntilExit()
        let milliseconds = (ContinuousClock.now - start).milliseconds
        guard process.terminationStatus == 0 else {
            let tail = (try? String(contentsOf: output, encoding: .utf8))?.suffix(300) ?? ""
            return .failure("feedline exited with status \(process.terminationStatus): \(tail)")
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: output.path)[.size] as? Int) ?? 0
        expect(size > 0, "feedline printed no transcript")
        return .success(milliseconds)
    }
}
