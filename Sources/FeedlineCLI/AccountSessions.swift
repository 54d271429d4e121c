@_spi(FeedService) import Feedline
import FeedlineAccounts
@_spi(FeedService) import FeedlineMastodon
import FeedlineREPL
import FeedlineState
import Foundation

/// A front's sessions, one account at a time: the open one with its saved state and live
/// updates, and the switch to another (the REPL's `account NAME`, JSON-lines' `switchAccount`):
/// the chosen account resolved as `--account NAME` is and its session made, its state restored
/// (``make(_:)``); then, once the front's driver has said its last, the open one finished (its
/// state written) and the new one put in use (``begin()``).
@MainActor
final class AccountSessions {
    /// How the front runs, which sets the clocks, where state is kept and whether a server's
    /// live updates are followed.
    enum Mode {
        /// The interactive REPL: real time, the default state directory, live updates.
        case interactive
        /// A script or piped input: virtual time where it can be, state only with `--state`,
        /// no live updates (a transcript must not depend on what a server pushes).
        case script
        /// `--jsonl`: as a script, but a server's backoffs in real time, and live updates.
        case jsonLines
    }

    /// One account's session and what runs beside it.
    struct Open {
        let choice: ServiceChoice
        let session: FeedSession
        let keeper: SessionKeeper?
        let live: MastodonLiveUpdates?
    }

    let configuration: SessionConfiguration
    private let mode: Mode
    private let executor: (any TaskExecutor)?
    /// The session in use.
    private(set) var current: Open?
    /// The session ``make(_:)`` made for a switch, until ``begin()`` puts it in use.
    private var made: Open?
    /// The identities of the sandbox the front started on, when its scenario lists others
    /// (read from the sandbox made at start: nothing more is read for them until a switch).
    private var identities: SandboxIdentities?

    init(_ configuration: SessionConfiguration, mode: Mode, executor: (any TaskExecutor)? = nil) {
        self.configuration = configuration
        self.mode = mode
        self.executor = executor
    }

    var interactive: Bool { mode == .interactive }

    /// Makes the session of `choice`, restores its state and starts its live updates (the
    /// interactive REPL's, on a server); it becomes ``current``.
    func open(_ choice: ServiceChoice) async throws -> Open {
        let opened = try await make(choice)
        current = opened
        return opened
    }

    /// The session of `choice` with its state restored and its live updates started, not yet
    /// in use: a switch makes the next one before it finishes the one in use, so an account
    /// that cannot be opened leaves the session where it was.
    private func make(_ choice: ServiceChoice) async throws -> Open {
        // Scripts on the sandbox run on virtual time (instant, deterministic); a server is real time.
        let clock: any Clock<Duration> = interactive || choice.isRemote ? ContinuousClock() : VirtualClock()
        // A script (or piped input) is virtual everywhere: its outbox's backoffs wait on a clock
        // nothing advances, so a queued tap is sent again by retry alone, the same way every run.
        // JSON-lines on a server waits in real time; on the sandbox time passes only for what a
        // command waits for.
        let retryClock: any Clock<Duration> = interactive || (mode == .jsonLines && choice.isRemote) ? ContinuousClock() : ManualClock()
        let session = try SessionSetup.makeSession(choice, configuration, clock: clock, retryClock: retryClock, executor: executor)
        let keeper = configuration.state.directory(interactive: interactive).flatMap {
            SessionKeeper.open(directory: $0, choice: choice, session: session, clock: retryClock)
        }
        await keeper?.restore(markerWait: interactive ? SessionKeeper.interactiveMarkerWait : nil)
        let live = mode != .script ? SessionSetup.startLiveUpdates(session, configuration) : nil
        if identities == nil, case .sandbox(let fixtures) = choice { identities = SandboxIdentities(fixtures, session: session) }
        return Open(choice: choice, session: session, keeper: keeper, live: live)
    }

    /// Stops the live updates of the session in use, writes its state, and stops what would
    /// still run of it (a re-send waiting on the retry clock): nothing of it reaches its service
    /// after a switch.
    func close() async {
        guard let current else { return }
        self.current = nil
        current.live?.stop()
        await current.keeper?.finish()
        current.session.stop()
    }

    /// Makes `account`'s session (resolved as `--account` resolves it) beside the one in use,
    /// which goes on untouched until ``begin()``: when the account cannot be opened, the
    /// sentence why, and nothing has changed (its drafts, its queued changes, its screens).
    func make(_ account: String) async -> Result<(opened: Open, notes: [String]), AccountRefusal> {
        do {
            let choice: ServiceChoice
            var notes: [String] = []
            if let current, !current.choice.isRemote, let identities {
                choice = try identities.choice(named: account)
            } else {
                let selection = try AccountSelection.choose(
                    sandbox: false, server: nil, account: Setting(account, from: .flag("--account")), timeline: configuration.timeline,
                    tokenFile: nil, environment: configuration.environment, store: AccountStore(directory: configuration.directory)
                )
                guard let chosen = selection.choice else { return .failure(AccountRefusal("No account \"\(account)\" is signed in.")) }
                choice = chosen
                if case .account = selection.token, let note = selection.account?.missingScopesNote { notes.append(note) }
            }
            let opened = try await make(choice)
            made = opened
            return .success((opened, notes))
        } catch {
            return .failure(AccountRefusal(String(describing: error)))
        }
    }

    /// Finishes the session in use (``close()``) and puts the one ``make(_:)`` made in its
    /// place.
    func begin() async {
        guard let opened = made else { return }
        made = nil
        await close()
        current = opened
    }

    /// The stored accounts a session on `choice` lists and may switch to, or why it cannot; on
    /// a sandbox with identities, those.
    func choices(for choice: ServiceChoice) -> AccountChoices {
        if !choice.isRemote, let identities { return identities.choices(on: choice) }
        let names: [String]
        do {
            names = try AccountStore(directory: configuration.directory).accounts().map(\.id)
        } catch {
            return AccountChoices(unavailable: error.description)
        }
        switch choice {
        case .sandbox, .sandboxIdentity:
            guard !names.isEmpty else { return .sandbox }
            return AccountChoices(unavailable: "This session reads the offline sandbox; without --sandbox or --fixtures, account NAME switches between your signed-in accounts.")
        case .account(let id, _, _, _):
            return AccountChoices(names: names, current: id)
        case .server:
            switch configuration.token {
            case .environment:
                return AccountChoices(unavailable: "This session's token comes from FEEDLINE_TOKEN, which wins over stored accounts: account NAME switches only without it.")
            case .file:
                return AccountChoices(unavailable: "This session's token comes from --token-file, which wins over stored accounts: account NAME switches only without it.")
            default:
                guard !names.isEmpty else { return AccountChoices(unavailable: "No account is signed in; feedline login SERVER signs one in.") }
                return AccountChoices(names: names)
            }
        }
    }
}
