import ArgumentParser
import FeedlineAccounts
@_spi(FeedService) import Feedline
import FeedlineJSONL
@_spi(FeedService) import FeedlineMastodon
import FeedlineREPL
import Foundation

/// The entry point: a script's `# args:` header joins the command line (before it, so flags given
/// on the command line win), then `feedline` parses and runs — a plain line read directly
/// (``FeedlineCommand/parsedQuickly(_:)``), any other by ArgumentParser.
@main
enum FeedlineMain {
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let header = ScriptHeader(arguments: arguments)
        await ScriptHeader.$preread.withValue(header) {
            let line = header.words + arguments
            guard let command = FeedlineCommand.parsedQuickly(line) else {
                await FeedlineCommand.main(line)
                return
            }
            // As ArgumentParser's `main` runs a command it parsed, errors and exit codes included;
            // on the main actor, where `main` already is (no hop to a pool thread and back).
            do {
                try await command.runOnMainActor()
            } catch {
                FeedlineCommand.exit(withError: error)
            }
        }
    }
}

/// `feedline`: argument parsing and wiring only; the REPL lives in `FeedlineREPL`, signing in
/// and the config file in `FeedlineAccounts`.
struct FeedlineCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feedline",
        abstract: "Read and write on Mastodon from a terminal: timelines, threads and notifications; posts, replies, edits and polls; people, lists and hashtags — on your account, any server's public timelines, or the bundled offline sandbox.",
        discussion: """
            Sign in once with `feedline login SERVER` (for example `feedline login mastodon.social`): \
            Feedline prints an address to open in a browser, you allow it there and paste the code \
            the server shows. After that, `feedline` opens your home timeline. Several accounts can \
            be signed in (`feedline accounts` lists them, --account picks one, `feedline logout` \
            signs one out). Without an account, `feedline` reads the bundled offline sandbox, and \
            --server SERVER --timeline public reads any server's public timeline.

            Accounts live in $XDG_CONFIG_HOME/feedline (default ~/.config/feedline), readable by \
            you only. Defaults for the flags below can be kept in its config.toml (account, \
            timeline, width, color, page-size, history); flags win, and `feedline config` shows \
            what is in effect and where each setting came from. FEEDLINE_TOKEN and --token-file \
            give a token by hand and win over stored accounts; a token is never a command-line \
            argument.

            Without --script, reads commands from the terminal with line editing, history and Tab \
            completion (Ctrl-C clears the line, Ctrl-D quits). With --script FILE, or when standard \
            input is not a terminal, runs the commands and prints the transcript: each command after \
            its prompt, then its output, with every effect settled before the next command (a \
            virtual clock, no waiting). Lines starting with # are comments. Type help in a session \
            for the commands (help KIND lists a kind with what each does; help COMMAND explains one):

            \(HelpText.commandsByKind.joined(separator: "\n"))

            Writing: `post TEXT` posts (`post` alone starts a draft, in $VISUAL or $EDITOR when set), \
            `reply N`, `quote-post N`, `edit N`, `delete N`, `redraft N`, `history N` (an edited post's versions), \
            `vote N CHOICE`, `drafts` and `draft N`. Each post is sent exactly once (one idempotency \
            key, kept with its draft), and shows at once on every screen.

            Live updates: on a server the interactive REPL and --jsonl follow its stream (or poll \
            every minute where it offers none); a script or piped input on a server never streams, \
            so its transcript stays reproducible. The sandbox delivers its scenario's stream events \
            after the commands they name, in every mode. --no-stream turns both off.

            With --jsonl, reads one JSON command per line on standard input and writes one JSON \
            message per line on standard output (the protocol: Docs/JSONL.md).

            A script may start with a line "# args: FLAGS…" (for example "# args: --fixtures \
            Fixtures/faults --width 60"): those flags apply as if given before the command line's \
            own, which win.

            Exit status: 0 at quit or the end of the input; 1 when the fixtures, server settings, \
            config file, accounts or script cannot be used, or --bail stopped at a failed command; \
            64 for a usage error; 130 after Ctrl-C in a script (128 + N after signal N ends an \
            interactive session).
            """,
        version: FeedlineVersion.current,
        subcommands: [LoginCommand.self, LogoutCommand.self, AccountsCommand.self, ConfigCommand.self]
    )

    @OptionGroup(title: "Where the posts come from and how they are drawn")
    var options: SessionOptions

    @Option(name: .long, help: ArgumentHelp("Posts per page request, 1-40 (default: the fixture scenario's, else 20).", valueName: "n"))
    var postsPerPage: Int?

    @Flag(name: .long, help: "No live updates: a server's stream is not opened (nor polled), and the sandbox scenario's stream events (new posts, deletes, edits, notifications) are not delivered.")
    var noStream = false

    @Flag(name: .long, help: "Speak the JSON-lines protocol on standard input and output instead of running the REPL.")
    var jsonl = false

    @Option(name: .long, help: ArgumentHelp("Run the commands in this file, print the transcript and exit.", valueName: "file"))
    var script: String?

    @Flag(name: .long, help: "With --script or piped input: stop at the first command that fails (a line that is not a command, a row that does not exist, a page, load or favourite that fails) and exit with status 1.")
    var bail = false

    @Option(name: .long, help: ArgumentHelp("Keep the session's state (the home timeline where you left off, taps not yet sent) in this directory; a script or piped input uses none unless this is given (default for an interactive session: $XDG_STATE_HOME/feedline, else ~/.local/state/feedline).", valueName: "dir"))
    var state: String?

    @Flag(name: .long, help: "Keep no state: start from the server, remember nothing.")
    var noState = false

    @Option(name: .long, help: ArgumentHelp("The clock's \"now\" as ISO 8601 (2026-11-21T12:00:00Z), so relative times are fixed.", valueName: "date"))
    var now: String?

    func validate() throws {
        if jsonl, script != nil { throw ValidationError("--jsonl reads its commands from standard input; --script is for the REPL.") }
        if jsonl, bail { throw ValidationError("--bail is for scripts of the REPL; the JSON-lines protocol answers every command with ok or error.") }
        if let postsPerPage, !(1...40).contains(postsPerPage) { throw ValidationError("--posts-per-page must be between 1 and 40.") }
        if state != nil, noState { throw ValidationError("Give either --state DIR or --no-state, not both.") }
        if let state, state.isEmpty { throw ValidationError("--state needs a directory.") }
        if let now, Self.date(now) == nil { throw ValidationError("--now must be an ISO 8601 date such as 2026-11-21T12:00:00Z.") }
    }

    func run() async throws {
        try await runOnMainActor()
    }

    /// The session, set up and run on the main actor, where the REPL and the JSON-lines front run:
    /// a command line read quickly starts it from `main` without leaving the main thread.
    @MainActor
    func runOnMainActor() async throws {
        let resolved = try options.resolveOrExit()
        // A sign-in older than the scopes asked for now: said once, on standard error (not the
        // JSON-lines protocol's output), before anything loads.
        if case .account = resolved.selection.token, let note = resolved.selection.account?.missingScopesNote {
            Output.complain(TerminalText(note))
        }
        let settings = resolved.settings
        let configuration = SessionConfiguration(
            fixtures: options.fixtures.map { URL(fileURLWithPath: $0) },
            service: resolved.selection.choice,
            postsPerPage: postsPerPage,
            script: script.map { URL(fileURLWithPath: $0) },
            pageSize: settings.pageSize.value,
            width: settings.width.value,
            color: settings.color.value,
            historyFile: settings.history.value,
            now: now.flatMap(Self.date),
            bail: bail,
            stream: !noStream,
            state: noState ? .none : state.map { .directory(URL(fileURLWithPath: $0, isDirectory: true)) } ?? .automatic,
            directory: resolved.directory,
            token: resolved.selection.token,
            timeline: settings.timeline.value,
            environment: ProcessInfo.processInfo.environment
        )
        let status = jsonl ? await SessionSetup.runJSONLines(configuration) : await SessionSetup.runREPL(configuration)
        if status != 0 { throw ExitCode(status) }
    }

    /// Parses ISO 8601 with or without fractional seconds, with `Z` or an offset (no zone: UTC),
    /// as Mastodon's dates are read. Not `ISO8601DateFormatter`: its first use starts ICU, about
    /// 4 % of a short script's start.
    static func date(_ text: String) -> Date? {
        Mastodon.DateFormat.date(from: text)
    }
}
