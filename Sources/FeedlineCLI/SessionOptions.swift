import ArgumentParser
import FeedlineAccounts
import FeedlineMastodon
import FeedlineREPL
import Foundation

/// The flags that choose what a session reads and how it is drawn, shared by `feedline` and
/// `feedline config` (which shows what they, the config file and the defaults add up to).
struct SessionOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("A fixture directory to serve instead of the bundled Fixtures/timeline.", valueName: "dir"))
    var fixtures: String?

    @Flag(name: .long, help: "Read the bundled offline sandbox even when an account is signed in.")
    var sandbox = false

    @Option(name: .long, help: ArgumentHelp("A Mastodon-API server to read (https:// is assumed); a stored account on it signs the session in.", valueName: "url"))
    var server: String?

    @Option(name: .long, help: ArgumentHelp("The signed-in account to use (default: the config file's account, else the latest sign-in; feedline accounts lists them).", valueName: "user@server"))
    var account: String?

    @Option(name: .long, help: ArgumentHelp("On a server: home (needs you signed in), public, local, trending or tag:NAME (default: home).", valueName: "timeline"))
    var timeline: String?

    @Option(name: .long, help: ArgumentHelp("A file holding an access token (mode 600); it wins over stored accounts, as does FEEDLINE_TOKEN.", valueName: "file"))
    var tokenFile: String?

    @Option(name: .long, help: ArgumentHelp("Rows per screen: how many rows more shows (default 10).", valueName: "n"))
    var pageSize: Int?

    @Option(name: .long, help: ArgumentHelp("Columns to draw in (default: the terminal's width, 80 when not a terminal).", valueName: "n"))
    var width: Int?

    @Flag(name: .long, inversion: .prefixedNo, help: "Colour the output (on by default; it still needs a terminal and NO_COLOR unset).")
    var color: Bool?

    @Option(name: .long, help: ArgumentHelp("Where to keep the command history (default: ~/.feedline_history).", valueName: "file"))
    var history: String?

    func validate() throws {
        let sandboxed = sandbox || fixtures != nil
        if sandbox, fixtures != nil { throw ValidationError("Give either --sandbox or --fixtures, not both.") }
        if server != nil, sandboxed { throw ValidationError("Give either --server or \(sandbox ? "--sandbox" : "--fixtures"), not both.") }
        if account != nil, sandboxed { throw ValidationError("--account reads a server; it does not go with \(sandbox ? "--sandbox" : "--fixtures").") }
        if timeline != nil, sandboxed { throw ValidationError("--timeline needs a server (the sandbox has one home timeline).") }
        if tokenFile != nil, sandboxed { throw ValidationError("--token-file needs a server; the sandbox needs no token.") }
        if let pageSize, !(1...500).contains(pageSize) { throw ValidationError("--page-size must be between 1 and 500.") }
        if let width, !(20...1000).contains(width) { throw ValidationError("--width must be between 20 and 1000.") }
    }

    /// The settings as the command line gave them.
    var flags: SettingFlags {
        SettingFlags(account: account, timeline: timeline, width: width, color: color, pageSize: pageSize, history: history)
    }
}

/// What the flags, the config file, the environment and the stored accounts add up to.
struct ResolvedSession {
    var directory: FeedlineDirectory
    var config: ConfigFile?
    var settings: EffectiveSettings
    var selection: AccountSelection
}

extension SessionOptions {
    /// Reads the config file and the stored accounts and applies the rules of
    /// ``AccountSelection``.
    ///
    /// - Throws: ``StartError`` with one sentence (a config file or credential file that cannot
    ///   be used, an account that is not signed in); `ValidationError` for `--timeline` or
    ///   `--token-file` where no server is read.
    func resolve(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> ResolvedSession {
        let directory = FeedlineDirectory(environment: environment)
        let home = FeedlineDirectory.home(environment: environment)
        let config: ConfigFile?
        do {
            config = try ConfigFile.load(from: directory.configFile, home: home)
        } catch {
            throw StartError(description: error.description)
        }
        let settings = EffectiveSettings(flags: flags, config: config, home: home)
        let selection: AccountSelection
        do {
            selection = try AccountSelection.choose(
                sandbox: sandbox || fixtures != nil, server: server, account: settings.account, timeline: settings.timeline.value,
                tokenFile: tokenFile, environment: environment, store: AccountStore(directory: directory)
            )
        } catch {
            throw StartError(description: error.description)
        }
        if selection.choice == nil, timeline != nil {
            throw ValidationError("--timeline needs a server: pass --server or --account, or sign in with feedline login SERVER (the sandbox has one home timeline).")
        }
        return ResolvedSession(directory: directory, config: config, settings: settings, selection: selection)
    }

    /// ``resolve(environment:)`` for a command about to start: a ``StartError`` is said on
    /// standard error and ends the command with exit status 1; a `ValidationError` is thrown on,
    /// for ArgumentParser to print with the usage.
    func resolveOrExit() throws -> ResolvedSession {
        do {
            return try resolve()
        } catch let error as StartError {
            Output.complain(TerminalText(error.description))
            throw ExitCode(1)
        }
    }
}
