@_spi(FeedService) import Feedline
@_spi(FeedService) import FeedlineMastodon
import FeedlineREPL
import FeedlineState
import Foundation

/// Where a session keeps its state (issue 14): a directory, or none.
enum StateChoice: Sendable, Equatable {
    /// `$XDG_STATE_HOME/feedline` (default `~/.local/state/feedline`) for an interactive
    /// session; none for a script, piped input or `--jsonl`, so their transcripts never depend on
    /// an earlier run.
    case automatic
    /// `--state DIR`, in every mode.
    case directory(URL)
    /// `--no-state`.
    case none

    /// The default directory the environment names: `XDG_STATE_HOME/feedline` when it is an
    /// absolute path (the XDG Base Directory rule), else `HOME/.local/state/feedline`.
    static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("feedline", isDirectory: true)
        }
        let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0, isDirectory: true) : nil }
            ?? FileManager.default.homeDirectoryForCurrentUser
        return home.appendingPathComponent(".local/state/feedline", isDirectory: true)
    }

    /// The directory to use for a session that is interactive or not.
    func directory(interactive: Bool) -> URL? {
        switch self {
        case .automatic: interactive ? Self.defaultDirectory() : nil
        case .directory(let url): url
        case .none: nil
        }
    }

    /// The server and account a database is named for: the sandbox (or a fixture directory) is
    /// a server of its own, and each of its other identities an account on it.
    static func names(of choice: ServiceChoice) -> (server: String, account: String?) {
        switch choice {
        case .sandbox(let fixtures):
            let bundled = FixtureLocator.bundled()?.standardizedFileURL == fixtures.standardizedFileURL
            return (bundled ? "sandbox" : "fixtures-" + fixtures.lastPathComponent, nil)
        case .sandboxIdentity(let name, _, let sandbox):
            // Each identity keeps its own file beside the sandbox's: `sandbox@kemi.sqlite`.
            return (names(of: .sandbox(fixtures: sandbox)).server, name)
        case .server(let address, _, _):
            return (URL(string: address.contains("://") ? address : "https://" + address)?.host ?? address, nil)
        case .account(let id, let server, _, _):
            return (server.authority, id)
        }
    }
}

extension SessionKeeper {
    /// Whether `session` keeps state: only a session on a home timeline does.
    static func keepsState(of session: FeedSession) -> Bool {
        guard case .feed(.home) = session.root.source else { return false }
        return true
    }

    /// Opens the database of `choice` in `directory` for `session`, or says on standard error
    /// why it cannot and returns `nil`. Only sessions on a home timeline keep state. A session
    /// on a server keeps its markers too; its waits run on `clock`.
    static func open(directory: URL, choice: ServiceChoice, session: FeedSession, clock: any Clock<Duration>) -> SessionKeeper? {
        guard keepsState(of: session) else { return nil }
        let (server, account) = StateChoice.names(of: choice)
        let say: @MainActor (String) -> Void = { Output.complain(TerminalText($0)) }
        do {
            let store = try StateStore.open(directory: directory, server: server, account: account)
            if let note = store.madePrivate { say(note) }
            return SessionKeeper(store: store, session: session, markerService: session.service as? any MarkerService, clock: clock, say: say)
        } catch {
            say(error.description + " This session runs without saved state.")
            return nil
        }
    }
}
