import Foundation

/// `feedline-bench`: times Feedline's hot paths against their peers in one process, interleaved,
/// and prints medians and ratios (ours ÷ peer). See Docs/BENCHMARKS.md.
@main
struct FeedlineBench {
    static let usage = """
        usage: feedline-bench [--json] [--quick] [--rounds N] [--only NAME] [--feedline PATH] [--feedline-arg ARG]… [--baseline PATH]
                              [--repl-without-help] [--print-repl-script] [--print-screens-script]
          --json             print one JSON document instead of the table
          --quick            fewer rounds and no 100k shuffle diffs (a smoke run, not for figures)
          --rounds N         measured rounds per scenario (overrides the defaults; for profiling)
          --only NAME        run only the scenario groups whose name contains NAME
                             (changeset, relay, memory, pagination, timeline, toggle, block, navigation, stream, state, compose, send, costs, start, repl, loopback)
          --feedline PATH    the feedline binary for the REPL scenario
                             (default: the root package's .build/release/feedline)
          --feedline-arg A   an extra argument for that binary (repeatable)
          --baseline PATH    another feedline binary (the code before a change) that the start-to-exit,
                             REPL and loopback scenarios launch in the same rotation
          --repl-without-help  the REPL sessions say `where` where they would say `help` (to compare
                             binaries whose help differs: the rest of both sessions prints the same screens)
          --print-repl-script  print the generated 10,000-command session and exit
          --print-screens-script  print the generated 10,000-command session through every screen and exit
        """

    @MainActor
    static func main() async {
        var json = false
        var options = Options()
        var only: [String] = []
        var binary = ReplBench.defaultBinary
        var extra: [String] = []
        var baseline: String?
        var replHelp = true
        var printScript: ReplBench.Session?
        var arguments = CommandLine.arguments.dropFirst()
        while let argument = arguments.popFirst() {
            switch argument {
            case "--json": json = true
            case "--quick": options.quick = true
            case "--only", "--feedline", "--feedline-arg", "--rounds", "--baseline":
                guard let value = arguments.popFirst() else { fail("\(argument) needs a value") }
                switch argument {
                case "--only": only.append(value)
                case "--rounds":
                    guard let rounds = Int(value), rounds > 0 else { fail("--rounds needs a positive number") }
                    options.rounds = rounds
                case "--feedline": binary = URL(fileURLWithPath: value).standardizedFileURL.path
                case "--baseline": baseline = URL(fileURLWithPath: value).standardizedFileURL.path
                default: extra.append(value)
                }
            case "--repl-without-help": replHelp = false
            case "--print-repl-script": printScript = .home
            case "--print-screens-script": printScript = .screens
            case "-h", "--help":
                print(usage)
                return
            default: fail("unknown argument \(argument)")
            }
        }
        // After every argument is read, so --repl-without-help counts wherever it stands.
        switch printScript {
        case .home?:
            print(ReplBench.script(count: ReplBench.commands, help: replHelp), terminator: "")
            return
        case .screens?:
            print(ReplBench.everyScreenScript(count: ReplBench.commands, help: replHelp), terminator: "")
            return
        case nil: break
        }
        func wanted(_ group: String) -> Bool { only.isEmpty || only.contains { group.contains($0) } }

        #if DEBUG
        progress("warning: a debug build; figures are meaningless (use swift run -c release)")
        #endif
        var results: [Result] = []
        var memory: [MemoryResult] = []
        var memoryNotes: [String] = []
        if wanted("changeset") { results += ChangesetBench.run(options) }
        if wanted("relay") { results += RelayBench.run(options) }
        if wanted("memory") || wanted("relay") {
            memory += RelayBench.memory()
            memoryNotes += RelayBench.objectNotes()
        }
        if wanted("pagination") { results += PaginationBench.run(options) }
        if wanted("timeline") { results += await TimelineBench.run(options) }
        if wanted("toggle") { results += await ToggleBench.run(options) }
        if wanted("block") { results += await BlockBench.run(options) }
        if wanted("navigation") || wanted("toggle") { results += await NavigationBench.run(options) }
        if wanted("stream") { results += await StreamBench.run(options) }
        if wanted("state") { results += StateBench.run(options) }
        if wanted("compose") { results += ComposeBench.run(options) }
        if wanted("send") { results += await SendBench.run(options) }
        if wanted("costs") { results += await CostBench.run(options) }
        if wanted("start") {
            results += StartBench.run(binary: binary, options)
            results += ScriptStartBench.run(binary: binary, baseline: baseline, options)
        }
        if wanted("repl") { results += ReplBench.run(binary: binary, baseline: baseline, help: replHelp, extraArguments: extra, options) }
        if wanted("loopback") { results += LoopbackBench.run(binary: binary, baseline: baseline, options) }

        print(json ? Report.json(results, memory: memory) : Report.table(results, memory: memory, memoryNotes: memoryNotes))
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("feedline-bench: \(message)\n\(usage)\n".utf8))
        exit(64)
    }
}
