import Feedline
import FeedlineMastodon
import Foundation

/// Which service a session reads and with which token, from the command line, the config file,
/// the environment and the stored accounts. The rules, in order:
///
/// 1. The sandbox when asked for (`--sandbox`, `--fixtures`).
/// 2. `--account USER@SERVER`: that stored account's server.
/// 3. `--server S`: that server, with a stored account on it when there is one (the default
///    account if it is on S, else the one signed in there most recently); without one the
///    session is signed out, which still reads public timelines.
/// 4. Neither: the default account (the config file's `account`, else the most recent sign-in);
///    the sandbox when no account is stored.
///
/// `FEEDLINE_TOKEN` and `--token-file` keep working and win over a stored account's token: with
/// either, the token comes from there and the server from rules 2–4.
public struct AccountSelection: Sendable, Hashable {
    /// Where the token comes from, as `feedline config` shows it.
    public enum TokenOrigin: Sendable, Hashable, CustomStringConvertible {
        /// No server: the offline sandbox needs none.
        case sandbox
        /// The `FEEDLINE_TOKEN` environment variable.
        case environment
        /// `--token-file FILE`.
        case file(String)
        /// The stored account.
        case account(String)
        /// None: signed out (public timelines only).
        case none

        /// `FEEDLINE_TOKEN`, `--token-file FILE`, `the stored account alice@…`, `none`.
        public var description: String {
            switch self {
            case .sandbox: "none needed (the offline sandbox)"
            case .environment: "\(AccessToken.environmentVariable) (it wins over stored accounts)"
            case .file(let path): "--token-file \(path) (it wins over stored accounts)"
            case .account(let id): "the stored account \(id)"
            case .none: "none: signed out, public timelines only (feedline login SERVER signs in)"
            }
        }
    }

    /// The service; `nil` for the sandbox.
    public var choice: ServiceChoice?
    /// Where the token comes from.
    public var token: TokenOrigin
    /// The stored account in use, if any (also when its token is overridden).
    public var account: StoredAccount?

    /// A selection as given.
    public init(choice: ServiceChoice?, token: TokenOrigin, account: StoredAccount?) {
        self.choice = choice
        self.token = token
        self.account = account
    }

    /// Applies the rules (see the type's description).
    ///
    /// - Parameters:
    ///   - sandbox: `--sandbox` or `--fixtures` was given.
    ///   - server: `--server`.
    ///   - account: `--account` or the config file's `account` (its origin tells which).
    ///   - timeline: the timeline (flag or config file); ignored on the sandbox.
    ///   - tokenFile: `--token-file`.
    /// - Throws: ``AccountSelectionError`` (an account that is not stored, on another server, a
    ///   credential file others can read…).
    public static func choose(
        sandbox: Bool, server: String?, account: Setting<String?>, timeline: String?, tokenFile: String?,
        environment: [String: String], store: AccountStore
    ) throws(AccountSelectionError) -> AccountSelection {
        if sandbox { return AccountSelection(choice: nil, token: .sandbox, account: nil) }
        let fromEnvironment = environment[AccessToken.environmentVariable].map { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty } ?? false
        let override: TokenOrigin? = tokenFile.map { .file($0) } ?? (fromEnvironment ? .environment : nil)

        /// The session for `stored`, its token unless overridden.
        func signedIn(_ stored: StoredAccount) -> AccountSelection {
            if let override {
                return AccountSelection(
                    choice: .server(address: stored.server.description, timeline: timeline, tokenFile: tokenFile), token: override, account: stored
                )
            }
            return AccountSelection(
                choice: .account(id: stored.id, server: stored.server, timeline: timeline, token: stored.token), token: .account(stored.id), account: stored
            )
        }

        do {
            if case .flag = account.origin, let name = account.value {
                guard let stored = try store.account(named: name) else {
                    throw CredentialStoreError.noSuchAccount(StoredAccount.normalized(name), known: try store.accounts().map(\.id))
                }
                if let server, let given = try? MastodonServer(parsing: server), !stored.server.isSameOrigin(given.url) {
                    throw AccountSelectionError("--account \(stored.id) is on \(stored.server), not on --server \(given).")
                }
                return signedIn(stored)
            }
            if let server {
                if let override {
                    return AccountSelection(choice: .server(address: server, timeline: timeline, tokenFile: tokenFile), token: override, account: nil)
                }
                guard let given = try? MastodonServer(parsing: server) else {
                    // The address is reported when the service is made, in its own words.
                    return AccountSelection(choice: .server(address: server, timeline: timeline, tokenFile: nil), token: .none, account: nil)
                }
                let here = try store.accounts(on: given)
                let preferred = account.value.flatMap { name in here.first { $0.isNamed(name) } } ?? here.first
                if let preferred { return signedIn(preferred) }
                return AccountSelection(choice: .server(address: server, timeline: timeline, tokenFile: nil), token: .none, account: nil)
            }
            guard let stored = try store.defaultAccount(configured: account.value) else {
                if tokenFile != nil {
                    throw AccountSelectionError("--token-file needs a server: pass --server or --account (or sign in with feedline login SERVER).")
                }
                return AccountSelection(choice: nil, token: .sandbox, account: nil)
            }
            return signedIn(stored)
        } catch let error as AccountSelectionError {
            throw error
        } catch let error as CredentialStoreError {
            if case .noSuchAccount(let name, let known) = error, case .configFile(let line) = account.origin {
                let list = known.isEmpty ? "none is signed in" : "the signed-in accounts are \(known.joined(separator: ", "))"
                throw AccountSelectionError(
                    "The config file's account \(name) (config.toml line \(line)) is not signed in; \(list): run feedline login SERVER, or change the line."
                )
            }
            throw AccountSelectionError(error.description)
        } catch {
            throw AccountSelectionError(String(describing: error))
        }
    }
}

/// Why no service could be chosen: one sentence.
public struct AccountSelectionError: Error, LocalizedError, Hashable, Sendable, CustomStringConvertible {
    /// The sentence.
    public var description: String

    /// An error with this sentence.
    public init(_ description: String) { self.description = description }

    /// Same as ``description``.
    public var errorDescription: String? { description }
}
