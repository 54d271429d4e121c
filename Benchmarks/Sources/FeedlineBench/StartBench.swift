@_spi(FeedService) import Feedline
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

    enum Outcome {
        case success(Double)
        case failure(String)
    }

    /// Launches the binary with empty standard input and times the first line that is row 1.
    static func firstRow(_ binary: String, _ arguments: [String]) -> Outcome {
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

/// Start to exit (the start-up target): `feedline --script` on the bundled tour and on
/// a 3-command script, against `python3 -c pass` — the cost of starting an interpreter that
/// does nothing — all launched alternately, medians of wall time; the ratios are ours ÷ python.
/// With `--baseline PATH` another `feedline` binary (the code before a change) takes its turn
/// in the same rotation, so before and after are compared in one run.
enum ScriptStartBench {
    static let tour = "Fixtures/sessions/tour.feedline"

    /// The package root (the tour's `# args:` names its fixtures relative to it).
    static var root: URL {
        URL(fileURLWithPath: #filePath)  // Benchmarks/Sources/FeedlineBench/StartBench.swift
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().standardizedFileURL
    }

    /// `python3` as a shell finds it on `PATH`.
    static func python() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent("python3").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// The interpreter `python` runs (`sys.executable`): the same file, or the one a version
    /// manager's shim (pyenv's is a shell script that runs two more) starts. (Not timed: a
    /// `Process` is fine here.)
    static func interpreter(of python: String) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", "import sys; print(sys.executable)"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return python }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let path = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return process.terminationStatus == 0 && FileManager.default.isExecutableFile(atPath: path) ? path : python
    }

    static func run(binary: String, baseline: String?, _ options: Options) -> [Result] {
        let names = ["start.tour script to exit", "start.3-command script to exit"]
        progress("start to exit")
        func skipped(_ reason: String) -> [Result] { names.map { Result(name: $0, skipped: reason) } }
        guard FileManager.default.isExecutableFile(atPath: binary) else { return skipped("feedline binary not found at \(binary)") }
        guard let shim = python() else { return skipped("no python3 on PATH") }
        // The peer is the system's interpreter, /usr/bin/python3, when there is one (issue 33: a
        // pyenv build starts 3-4x slower and flatters us), else the interpreter a shim on PATH
        // runs: a shim's own start (pyenv's: 70 ms here) is not Python's.
        let system = "/usr/bin/python3"
        let python = FileManager.default.isExecutableFile(atPath: system) ? system : interpreter(of: shim)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("feedline-bench-exit-\(UUID().uuidString)", isDirectory: true)
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let short = directory.appendingPathComponent("three.feedline")
        do {
            try "# args: --now 2026-11-21T18:00:00Z --width 80 --page-size 10\nlist\nopen 1\nquit\n"
                .write(to: short, atomically: true, encoding: .utf8)
        } catch {
            return skipped("could not write the script: \(error)")
        }
        // The contenders: python, then each binary on each script. The tour names its fixtures
        // relative to the package root; the command line's --fixtures wins over its header.
        let fixtures = root.appendingPathComponent("Fixtures/timeline").path
        typealias Launch = (path: String, arguments: [String], environment: [String: String])
        let inherited = ProcessInfo.processInfo.environment
        var contenders: [(name: String, launch: Launch)] = [("python", (python, ["-c", "pass"], inherited))]
        if shim != python { contenders.append(("shim", (shim, ["-c", "pass"], inherited))) }
        let binaries = [("ours", binary)] + (baseline.map { [("baseline", $0)] } ?? [])
        for (who, path) in binaries {
            for (script, file) in [("tour", root.appendingPathComponent(tour).path), ("three", short.path)] {
                contenders.append(("\(who) \(script)", (path, ["--script", file, "--fixtures", fixtures], Spawn.feedlineEnvironment())))
            }
        }
        var wall = [[Double]](repeating: [], count: contenders.count)
        var cpu = [[Double]](repeating: [], count: contenders.count)
        let rounds = options.rounds(21, quick: 3)
        for round in 0..<(2 + rounds) {
            // Rotate the order, so each contender takes each place in turn.
            let order = contenders.indices.map { ($0 + round) % contenders.count }
            for index in order {
                let launch = contenders[index].launch
                guard let outcome = Spawn.run(launch.path, launch.arguments, environment: launch.environment), outcome.status == 0 else {
                    return skipped("\(contenders[index].name) did not exit cleanly")
                }
                if round >= 2 {
                    wall[index].append(outcome.milliseconds)
                    cpu[index].append(outcome.cpuMilliseconds)
                }
            }
        }
        let pythonWall = median(wall[0])
        let pythonCPU = median(cpu[0])
        func index(_ name: String) -> Int { contenders.firstIndex { $0.name == name } ?? 0 }
        func result(_ contender: String, _ name: String) -> Result {
            let index = index(contender)
            return Result(
                name: name, oursMilliseconds: median(wall[index]), peer: "python3 -c pass", peerMilliseconds: pythonWall,
                note: String(format: "CPU (user + system) %.1f ms, %.2f× python's %.1f ms", median(cpu[index]),
                             median(cpu[index]) / pythonCPU, pythonCPU)
            )
        }
        var results = [result("ours tour", names[0]), result("ours three", names[1])]
        results[0].note! += "; python3 is " + python
            + (shim == python ? "" : " (on PATH: the shim " + shim + String(format: ", %.1f ms)", median(wall[index("shim")])))
        if baseline != nil {
            results += [result("baseline tour", names[0] + " (baseline)"), result("baseline three", names[1] + " (baseline)")]
            results.append(Result(
                name: names[0] + ", ours ÷ baseline", oursMilliseconds: median(wall[index("ours tour")]), peer: "baseline binary",
                peerMilliseconds: median(wall[index("baseline tour")]), note: "the same tour, the --baseline binary in the same rotation"))
        }
        return results
    }
}
