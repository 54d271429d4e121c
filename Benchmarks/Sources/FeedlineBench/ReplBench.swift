import Foundation

/// The REPL scenario: a generated session of 10,000 commands run through the real `feedline`
/// binary with `--script`, timed from launch to exit.
enum ReplBench {
    static let commands = 10_000

    /// The two generated sessions.
    enum Session {
        case home, screens
    }

    /// The default binary: the root package's release build, next to this package.
    static var defaultBinary: String {
        URL(fileURLWithPath: #filePath)  // Benchmarks/Sources/FeedlineBench/ReplBench.swift
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent(".build/release/feedline").standardizedFileURL.path
    }

    /// A seeded session of exactly `count` commands (the last is `quit`): reading, scrolling,
    /// opening posts, favouriting and boosting on both screens, going back, refreshing, gaps, help
    /// (`where` in its place when `help` is false: see ``run(binary:baseline:help:extraArguments:_:)``).
    static func script(count: Int, seed: UInt64 = 6, help: Bool = true) -> String {
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
            case 93..<97: lines.append(help ? "help" : "where")
            default: lines.append("back")
            }
        }
        lines.append("quit")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Hashtags the bundled fixtures use, for `tag NAME`.
    static let tags = ["birds", "birdfeeder", "gamedev", "dragonflies", "citizenscience", "gardening", "ecology", "cycling", "jazz"]

    /// A seeded session of exactly `count` commands (the last is `quit`) that goes through every
    /// screen: profiles, tags, threads, notifications, bookmarks, favourites and the other
    /// timelines, with reading, toggles and going back on each; `top` now and then, and always
    /// when the stack is deep, so it stays a few screens high.
    static func everyScreenScript(count: Int, seed: UInt64 = 7, help: Bool = true) -> String {
        var random = SeededGenerator(seed: seed)
        var lines = ["# feedline-bench: generated session of \(count) commands through every screen (seed \(seed))"]
        var inDetail = false
        var depth = 0  // screens above the bottom timeline (a command that fails may leave it off by one)
        for _ in 0..<(count - 1) {
            let roll = Int.random(in: 0..<100, using: &random)
            let row = Int.random(in: 1...10, using: &random)
            if inDetail {
                switch roll {
                case 0..<20: lines.append("fav")
                case 20..<35: lines.append("boost")
                case 35..<45: lines.append("bookmark")
                case 45..<60:
                    lines.append("thread")
                    inDetail = false
                    depth += 1
                case 60..<70:
                    lines.append("profile")
                    inDetail = false
                    depth += 1
                default:
                    lines.append("back")
                    inDetail = false
                    depth -= 1
                }
                continue
            }
            if depth >= 6 {
                lines.append("top")
                depth = 0
                continue
            }
            switch roll {
            case 0..<7: lines.append(row.isMultiple(of: 2) ? "list" : "ls")
            case 7..<17: lines.append("more")
            case 17..<29:
                lines.append("open \(row)")
                inDetail = true
                depth += 1
            case 29..<39: lines.append("fav \(row)")
            case 39..<45: lines.append("boost \(row)")
            case 45..<48: lines.append("bookmark \(row)")
            case 48..<56:
                lines.append("profile \(row)")
                depth += 1
            case 56..<62:
                lines.append("tag \(tags[Int.random(in: 0..<tags.count, using: &random)])")
                depth += 1
            case 62..<69:
                lines.append("thread \(row)")
                depth += 1
            case 69..<72:
                lines.append("notifications")
                depth += 1
            case 72..<74:
                lines.append(row.isMultiple(of: 2) ? "bookmarks" : "favourites")
                depth += 1
            case 74..<76: lines.append(["local", "public", "home"][row % 3])
            case 76..<78: lines.append("refresh")
            case 78..<90:
                lines.append("back")
                depth = max(0, depth - 1)
            case 90..<94:
                lines.append("top")
                depth = 0
            case 94..<97: lines.append("where")
            default: lines.append(help ? "help" : "where")
            }
        }
        lines.append("quit")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The two sessions, run alternately (the home-heavy one first in even rounds) after a
    /// warm-up run of each: the every-screen line's peer is the home-heavy one, so its ratio is
    /// what going through every screen costs over reading home. With `baseline` (another
    /// `feedline`, the code before a change) each session also runs on it in the same rotation,
    /// and two more lines give ours ÷ baseline, with both binaries' CPU time and transcript
    /// lines (the same script is not the same work when the two print different screens). With
    /// `help` false both sessions say `where` where they would say `help`: help's text grows with
    /// every command added, so binaries of different ages print different amounts of it.
    static func run(binary: String, baseline: String?, help: Bool, extraArguments: [String], _ options: Options) -> [Result] {
        let names = (home: "repl.session 10k commands", screens: "repl.session 10k, every screen")
        progress(names.home + " / every screen")
        let binaries = [binary] + (baseline.map { [$0] } ?? [])
        func skipped(_ reason: String) -> [Result] {
            [Result(name: names.home, skipped: reason), Result(name: names.screens, skipped: reason)]
        }
        for path in binaries where !FileManager.default.isExecutableFile(atPath: path) {
            return skipped("feedline binary not found at \(path)")
        }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("feedline-bench-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let scripts = [script(count: commands, help: help), everyScreenScript(count: commands, help: help)]
        var urls: [URL] = []
        for (index, text) in scripts.enumerated() {
            expect(text.split(separator: "\n").count == commands + 1, "script \(index) has \(commands) commands and a comment")
            let url = directory.appendingPathComponent("session-\(index).feedline")
            do {
                try text.write(to: url, atomically: true, encoding: .utf8)
            } catch {
                return skipped("could not write the script: \(error)")
            }
            urls.append(url)
        }
        // Contender = (script, binary); ours first, so contender 0 is ours at home, 1 ours on every screen.
        let contenders = binaries.indices.flatMap { binaryIndex in urls.indices.map { (script: $0, binary: binaryIndex) } }
        var wall = [[Double]](repeating: [], count: contenders.count)
        var cpu = [[Double]](repeating: [], count: contenders.count)
        var lines = [Int](repeating: 0, count: contenders.count)
        for round in 0..<(1 + options.rounds(5, quick: 1)) {  // the median of 5, as issue 12 measures it
            // Rotate the order, so each contender takes each place in turn (each still follows
            // the same one: ours at home follows the baseline on every screen).
            for index in contenders.indices.map({ ($0 + round) % contenders.count }) {
                let (script, binaryIndex) = contenders[index]
                let transcript = directory.appendingPathComponent("transcript-\(round)-\(index).txt")
                switch launch(binaries[binaryIndex], ["--script", urls[script].path] + extraArguments, output: transcript) {
                case .failure(let message):
                    return skipped(message)
                case .success(let milliseconds, let cpuMilliseconds, let lineCount):
                    lines[index] = lineCount
                    if round > 0 {  // the first run warms the file cache
                        wall[index].append(milliseconds)
                        cpu[index].append(cpuMilliseconds)
                    }
                }
            }
        }
        func cpuNote(_ index: Int) -> String {
            String(format: "CPU (user + system) %.0f ms, %d transcript lines", median(cpu[index]), lines[index])
        }
        var results = [
            Result(
                name: names.home, oursMilliseconds: median(wall[0]), peer: nil, peerMilliseconds: nil,
                note: "wall time, launch to exit, of `feedline --script` (target < 500 ms, the median of 5 runs); " + cpuNote(0)),
            Result(
                name: names.screens, oursMilliseconds: median(wall[1]), peer: names.home, peerMilliseconds: median(wall[0]),
                note: "the same through profiles, tags, threads, notifications, bookmarks and the other timelines; " + cpuNote(1)),
        ]
        if baseline != nil {
            for (script, name) in [(0, names.home), (1, names.screens)] {
                results.append(Result(
                    name: name + ", ours ÷ baseline", oursMilliseconds: median(wall[script]), peer: "baseline binary",
                    peerMilliseconds: median(wall[2 + script]),
                    note: "the --baseline binary in the same rotation; ours: " + cpuNote(script) + "; baseline: " + cpuNote(2 + script)))
            }
        }
        return results
    }

    private enum Outcome {
        case success(milliseconds: Double, cpuMilliseconds: Double, lines: Int)
        case failure(String)
    }

    /// The binary ready to run with `arguments`: empty standard input, no colour, and the
    /// sandbox whatever accounts or config file the person running the bench has.
    static func feedline(_ binary: String, _ arguments: [String]) -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.environment = Spawn.feedlineEnvironment()
        return process
    }

    /// One run to exit, stdout and stderr to `output`, spawned and waited for directly (see
    /// ``Spawn``: `Process.waitUntilExit()` could see the exit up to 50 ms late).
    private static func launch(_ binary: String, _ arguments: [String], output: URL) -> Outcome {
        guard let outcome = Spawn.run(binary, arguments, environment: Spawn.feedlineEnvironment(), output: output.path) else {
            return .failure("could not launch \(binary)")
        }
        guard outcome.status == 0 else {
            let tail = (try? String(contentsOf: output, encoding: .utf8))?.suffix(300) ?? ""
            return .failure("feedline exited with status \(outcome.status.map(String.init) ?? "none (a signal)"): \(tail)")
        }
        let transcript = (try? Data(contentsOf: output)) ?? Data()
        expect(!transcript.isEmpty, "feedline printed no transcript")
        let lines = transcript.reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        return .success(milliseconds: outcome.milliseconds, cpuMilliseconds: outcome.cpuMilliseconds, lines: lines)
    }
}
