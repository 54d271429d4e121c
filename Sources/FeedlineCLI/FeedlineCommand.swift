import ArgumentParser
import Feedline
import FeedlineJSONL
import FeedlineMastodon
import FeedlineREPL
import Foundation

/// The entry point: a script's `# args:` header joins the command line (before it, so flags given
/// on the command line win), then `feedline` parses and runs.
@main
enum FeedlineMain {
    static func main() async {
        var arguments = Array(CommandLine.arguments.dropFirst())
        arguments = ScriptHeader.arguments(of: arguments) + arguments
        await FeedlineCommand.main(arguments)
    }
}

/// `feedline`: argument parsing and wiring only; the REPL lives in `FeedlineREPL`.
struct FeedlineCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feedline",
        abstract: "Read, favourite, boost and open the posts of a Mastodon timeline: the bundled offline sandbox or a real server.",
        discussion: """
            Without --script, reads commands from the terminal with line editing, history and Tab \
            completion (Ctrl-C clears the line, Ctrl-D quits). With --script FILE, or when standard \
            input is not a terminal, runs the commands and prints the transcript: each command after \
            its prompt, then its output, with every effect settled before the next command (a \
            virtual clock, no waiting). Lines starting with # are comments. Type help in a session \
            for the commands.

            With --server URL, talks to a Mastodon-API server (Mastodon, GoToSocial, Pleroma, Akkoma) \
            instead of the sandbox; the access token comes from --token-file FILE or the \
            FEEDLINE_TOKEN environment variable, never from the command line. The interactive REPL \
            and --jsonl then show live updates (the server's stream, or a poll every minute without \
            one) unless --no-stream is given; scripts and piped input never stream, so their \
            transcripts stay reproducible.

            With --jsonl, reads one JSON command per line on standard input and writes one JSON \
            message per line on standard output (the protocol: Docs/JSONL.md).

            A script may start with a line "# args: FLAGS…" (for example "# args: --fixtures \
            Fixtures/faults --width 60"): those flags apply as if given before the command line's \
            own, which win.

            Exit status: 0 at quit or the end of the input; 1 when the fixtures, server settings or \
            script cannot be used, or --bail stopped at a failed command; 64 for a usage error; \
            130 after Ctrl-C in a script (128 + N after signal N ends an interactive session).
            """,
        version: FeedlineVersion.current
    )

    @Option(name: .long, help: ArgumentHelp("A fixture directory to serve instead of the bundled Fixtures/timeline.", valueName: "dir"))
    var fixtures: String?

    @Option(name: .long, help: ArgumentHelp("A Mastodon-API server to read instead of the sandbox (https:// is assumed).", valueName: "url"))
    var server: String?

    @Option(name: .long, help: ArgumentHelp("With --server: home (needs a token), public, local or tag:NAME (default: home).", valueName: "timeline"))
    var timeline: String?

    @Option(name: .long, help: ArgumentHelp("With --server: a file holding the access token (default: the FEEDLINE_TOKEN environment variable).", valueName: "file"))
    var tokenFile: String?

    @Option(name: .long, help: ArgumentHelp("Posts per page request, 1-40 (default: the fixture scenario's, else 20).", valueName: "n"))
    var postsPerPage: Int?

    @Flag(name: .long, help: "With --server: no live updates. The interactive REPL and --jsonl stream new posts, deletes, edits and notifications (or poll every minute where the server offers no stream); scripts and piped input never do.")
    var noStream = false

    @Flag(name: .long, help: "Speak the JSON-lines protocol on standard input and output instead of running the REPL.")
    var jsonl = false

    @Option(name: .long, help: ArgumentHelp("Run the commands in this file, print the transcript and exit.", valueName: "file"))
    var script: String?

    @Flag(name: .long, help: "With --script or piped input: stop at the first command that fails (a line that is not a command, a row that does not exist, a page, load or favourite that fails) and exit with status 1.")
    var bail = false

    @Option(name: .long, help: ArgumentHelp("Rows per screen: how many rows more shows.", valueName: "n"))
    var pageSize: Int = 10

    @Option(name: .long, help: ArgumentHelp("Columns to draw in (default: the terminal's width, 80 when not a terminal).", valueName: "n"))
    var width: Int?

    @Flag(name: .long, help: "Never colour the output (colour is on only when standard output is a terminal and NO_COLOR is unset).")
    var noColor = false

    @Option(name: .long, help: ArgumentHelp("Where to keep the command history (default: ~/.feedline_history).", valueName: "file"))
    var history: String?

    @Option(name: .long, help: ArgumentHelp("The clock's \"now\" as ISO 8601 (2026-11-21T12:00:00Z), so relative times are fixed.", valueName: "date"))
    var now: String?

    func validate() throws {
        if server == nil, timeline != nil { throw ValidationError("--timeline needs --server (the sandbox has one home timeline).") }
        if server == nil, tokenFile != nil { throw ValidationError("--token-file needs --server.") }
        if server != nil, fixtures != nil { throw ValidationError("Give either --server or --fixtures, not both.") }
        if jsonl, script != nil { throw ValidationError("--jsonl reads its commands from standard input; --script is for the REPL.") }
        if jsonl, bail { throw ValidationError("--bail is for scripts of the REPL; the JSON-lines protocol answers every command with ok or error.") }
        if let postsPerPage, !(1...40).contains(postsPerPage) { throw ValidationError("--posts-per-page must be between 1 and 40.") }
        guard (1...500).contains(pageSize) else { throw ValidationError("--page-size must be between 1 and 500.") }
        if let width, !(20...1000).contains(width) { throw ValidationError("--width must be between 20 and 1000.") }
        if let now, Self.date(now) == nil { throw ValidationError("--now must be an ISO 8601 date such as 2026-11-21T12:00:00Z.") }
    }

    func run() async throws {
        let configuration = SessionConfiguration(
            fixtures: fixtures.map { URL(fileURLWithPath: $0) },
            server: server,
            timeline: timeline,
            tokenFile: tokenFile,
            postsPerPage: postsPerPage,
            script: script.map { URL(fileURLWithPath: $0) },
            pageSize: pageSize,
            width: width,
            color: !noColor,
            historyFile: history,
            now: now.flatMap(Self.date),
            bail: bail,
            stream: !noStream
        )
        let status = jsonl ? await SessionSetup.runJSONLines(configuration) : await SessionSetup.runREPL(configuration)
        if status != 0 { throw ExitCode(status) }
    }

    /// Parses ISO 8601 with or without fractional seconds.
    static func date(_ text: String) -> Date? {
        let plain = ISO8601DateFormatter()
        if let date = plain.date(from: text) { return date }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return fractional.date(from: text)
    }
}
