import ArgumentParser
import FeedlineAccounts
import FeedlineMastodon
import FeedlineREPL
import Foundation

/// `feedline logout [USER@SERVER]`: revokes an account's token on its server and deletes it here.
struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout",
        abstract: "Sign an account out: revoke its token on the server and delete it here.",
        discussion: """
            Without an account name, signs out the only account signed in (with several, name one: \
            feedline accounts lists them). The file is deleted even when the server cannot be \
            reached to revoke the token; Feedline then says so, and exits with status 1.
            """
    )

    @Argument(help: ArgumentHelp("The account to sign out, as feedline accounts lists it.", valueName: "user@server"))
    var account: String?

    func run() async throws {
        let store = AccountStore(directory: FeedlineDirectory())
        let timeout = try RequestTimeout.fromEnvironment()
        do {
            let all = try store.accounts()
            let chosen: StoredAccount
            if let name = account {
                guard let found = all.first(where: { $0.isNamed(name) }) else {
                    throw CredentialStoreError.noSuchAccount(name.trimmingCharacters(in: .whitespaces), known: all.map(\.id))
                }
                chosen = found
            } else {
                switch all.count {
                case 0:
                    Output.complain("No account is signed in, so there is nothing to sign out.")
                    throw ExitCode(1)
                case 1:
                    chosen = all[0]
                default:
                    Output.complain("Several accounts are signed in (\(all.map(\.id).joined(separator: ", "))): name the one to sign out, e.g. feedline logout \(all[0].id).")
                    throw ExitCode(1)
                }
            }
            if let failure = try await Login.signOut(chosen, store: store, timeout: timeout) {
                Output.complain(
                    "\(failure.description) Its file was deleted here all the same; revoke it in the server's settings (Preferences, Account, Authorized apps)."
                )
                throw ExitCode(1)
            }
            Output.say("Signed out of \(chosen.handle): the token is revoked and deleted.")
        } catch let error as CredentialStoreError {
            Output.complain(TerminalText(error.description))
            throw ExitCode(1)
        }
    }
}
