@_spi(FeedService) import Feedline
@_spi(FeedService) import FeedlineMastodon
import FeedlineREPL
import Foundation

/// The identities of a sandbox for `account NAME` (``SandboxScenario/Identity``): its own,
/// named by its signed-in account's handle, then the others its scenario lists, each a fixture
/// directory inside its own, opened as a ``ServiceChoice/sandboxIdentity(name:fixtures:sandbox:)``.
struct SandboxIdentities {
    /// The sandbox's fixture directory.
    let directory: URL
    /// Its own identity's name (`you`).
    let own: String
    /// The others, as its scenario lists them.
    let others: [SandboxScenario.Identity]

    /// The identities of the sandbox `session` serves from `directory`; `nil` when its
    /// scenario lists none (then `account` says the sandbox has one account).
    @MainActor
    init?(_ directory: URL, session: FeedSession) {
        guard let sandbox = session.service as? SandboxService else { return nil }
        let others = sandbox.identities
        guard !others.isEmpty else { return nil }
        self.directory = directory
        own = sandbox.signedInHandle
        self.others = others
    }

    /// What `account` lists on `choice`, the current identity marked.
    func choices(on choice: ServiceChoice) -> AccountChoices {
        let current: String
        if case .sandboxIdentity(let name, _, _) = choice { current = name } else { current = own }
        return .sandbox(identities: [own] + others.map(\.name), current: current)
    }

    /// The choice that opens the identity `name` (one of the names ``choices(on:)`` lists).
    ///
    /// - Throws: ``Outside`` when the identity's directory, its links followed, is not inside
    ///   the sandbox's (a link out of the fixtures is not read).
    func choice(named name: String) throws -> ServiceChoice {
        guard let identity = others.first(where: { $0.name == name }) else { return .sandbox(fixtures: directory) }
        let fixtures = directory.appendingPathComponent(identity.fixtures, isDirectory: true)
        let inside = directory.resolvingSymlinksInPath().standardizedFileURL.path
        let resolved = fixtures.resolvingSymlinksInPath().standardizedFileURL.path
        guard resolved.hasPrefix(inside.hasSuffix("/") ? inside : inside + "/") else {
            throw Outside(name: identity.name, fixtures: identity.fixtures, directory: directory.path)
        }
        return .sandboxIdentity(name: identity.name, fixtures: fixtures, sandbox: directory)
    }

    /// An identity whose fixture directory leads out of the sandbox's (through a link).
    struct Outside: Error, CustomStringConvertible {
        let name: String
        let fixtures: String
        let directory: String

        var description: String {
            "The identity \(name)'s fixtures (\(fixtures)) lead outside \(directory): an identity's directory must be inside the sandbox's."
        }
    }
}
