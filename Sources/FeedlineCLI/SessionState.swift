import Feedline
import FeedlineMastodon
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
}

/// A session's saved state, wired: the home timeline restored where the reader left off and
/// saved after every change, the outbox of unconfirmed taps restored and saved as it changes,
/// and what is left saved at the end. Problems with the database are one sentence on standard
/// error, once; the session goes on without state.
@MainActor
final class SessionState {
    /// The key the home timeline is saved under.
    static let homeKey = "home"

    private let store: StateStore
    private let session: FeedSession
    private var subscriptions: [Subscription] = []
    private var lastSaved: SavedList?
    private var lastOutbox: [OutboxEntry]?
    /// After a failed write nothing more is tried (the sentence said why).
    private var broken = false

    /// Opens the database of `choice` in `directory` for `session`, or says on standard error
    /// why it cannot and returns `nil`. Only sessions on a home timeline keep state.
    static func open(directory: URL, choice: ServiceChoice, session: FeedSession) -> SessionState? {
        guard case .feed(.home) = session.root.source else { return nil }
        let (server, account) = Self.names(of: choice)
        do {
            let store = try StateStore.open(directory: directory, server: server, account: account)
            return SessionState(store: store, session: session)
        } catch {
            say(error.description + " This session runs without saved state.")
            return nil
        }
    }

    private init(store: StateStore, session: FeedSession) {
        self.store = store
        self.session = session
    }

    /// The server and account a database is named for: the sandbox (or a fixture directory) is
    /// a server of its own.
    static func names(of choice: ServiceChoice) -> (server: String, account: String?) {
        switch choice {
        case .sandbox(let fixtures):
            let bundled = FixtureLocator.bundled()?.standardizedFileURL == fixtures.standardizedFileURL
            return (bundled ? "sandbox" : "fixtures-" + fixtures.lastPathComponent, nil)
        case .server(let address, _, _):
            return (URL(string: address.contains("://") ? address : "https://" + address)?.host ?? address, nil)
        case .account(let id, let server, _, _):
            return (server.authority, id)
        }
    }

    /// Shows the saved timeline (call before the front's first screen) and restores the outbox;
    /// from then on every change is saved.
    func restore() {
        do {
            if let saved = try store.loadList(Self.homeKey) {
                session.root.restore(saved)
                lastSaved = saved
            }
        } catch {
            fail(error)
        }
        let root = session.root
        subscriptions.append(root.snapshot.observe { [weak self] _ in self?.saveList() })
        // Taps not confirmed when the last session ended are wanted again (sent at once).
        do {
            let saved = try store.loadOutbox()
            lastOutbox = saved
            if !saved.isEmpty { session.store.restore(outbox: saved) }
        } catch {
            fail(error)
        }
        subscriptions.append(session.store.observeOutbox { [weak self] entries in self?.saveOutbox(entries) })
    }

    /// Saves the outbox if it changed: every change is saved as it happens, so an entry the
    /// store reported is on disk before the next input is handled.
    func saveOutbox(_ entries: [OutboxEntry]) {
        guard !broken, entries != lastOutbox else { return }
        do {
            try store.saveOutbox(entries)
            lastOutbox = entries
        } catch {
            fail(error)
        }
    }

    /// Saves the home timeline if it changed since the last save.
    func saveList() {
        guard !broken else { return }
        let value = session.root.saved()
        guard value != lastSaved else { return }
        do {
            try store.saveList(value, as: Self.homeKey)
            lastSaved = value
        } catch {
            fail(error)
        }
    }

    /// The end of the session: waits up to 2 s for taps still on their way, then saves what is
    /// left of the outbox and the timeline.
    func finish() async {
        let left = await session.finish(waitingAtMost: .seconds(2))
        saveOutbox(left)
        saveList()
        subscriptions.removeAll()
    }

    private func fail(_ error: StateStoreError) {
        guard !broken else { return }
        broken = true
        Self.say(error.description + " Nothing more is saved in this session.")
    }

    private static func say(_ sentence: String) {
        FileHandle.standardError.write(Data((sentence + "\n").utf8))
    }
}
