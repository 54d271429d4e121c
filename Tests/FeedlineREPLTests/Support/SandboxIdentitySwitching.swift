@_spi(FeedService) import Feedline
@_spi(FeedService) import FeedlineMastodon
import FeedlineREPL
import Foundation

/// `account NAME` on a sandbox whose scenario lists identities, as the binary wires it
/// (`AccountSessions`): the identities listed, and a session on the chosen one's fixtures, for
/// the golden sessions replayed in the test process.
@MainActor
enum SandboxIdentitySwitching {
    /// `options` for `session` on the sandbox in `directory` (`given` as the script's flags name
    /// it): its identities and the opener of each; unchanged when its scenario lists none.
    static func options(_ options: REPLDriver.Options, session: FeedSession, directory: URL, given: String, now: Date) -> REPLDriver.Options {
        guard let sandbox = session.service as? SandboxService, !sandbox.identities.isEmpty else { return options }
        let own = sandbox.signedInHandle
        let identities = sandbox.identities
        var options = options
        options.accounts = .sandbox(identities: [own] + identities.map(\.name), current: own)
        options.openAccount = { @MainActor @Sendable (name: String, driverOptions: REPLDriver.Options) async -> Result<AccountSwitch, AccountRefusal> in
            open(name, identities: identities, directory: directory, given: given, now: now, options: driverOptions)
        }
        return options
    }

    /// The session of the identity `name`, with the driver's options for it.
    private static func open(
        _ name: String, identities: [SandboxScenario.Identity], directory: URL, given: String, now: Date, options: REPLDriver.Options
    ) -> Result<AccountSwitch, AccountRefusal> {
        let identity = identities.first { $0.name == name }
        let fixtures = identity.map { directory.appendingPathComponent($0.fixtures, isDirectory: true) } ?? directory
        let sandbox = URL(fileURLWithPath: given)
        let choice: ServiceChoice =
            if let identity { .sandboxIdentity(name: identity.name, fixtures: fixtures, sandbox: sandbox) } else { .sandbox(fixtures: sandbox) }
        do {
            let session = try SessionFactory.session(fixtures, now: now, executor: MainQueueTaskExecutor())
            var next = options
            next.sourceSummary = choice.summary
            next.accounts.current = name
            next.afterCommand = nil
            if let stream = SandboxStream(session) { next.afterCommand = { stream.commandHandled() } }
            return .success(AccountSwitch(session: session, options: next))
        } catch {
            return .failure(AccountRefusal("\(error)"))
        }
    }
}
