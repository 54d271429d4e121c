import ArgumentParser
import FeedlineAccounts
import FeedlineMastodon
import FeedlineREPL
import Foundation

/// `feedline login SERVER`: signs in from the terminal (OAuth with PKCE) and stores the account.
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Sign in to a Mastodon server and keep the account (run it again to add another).",
        discussion: """
            Feedline registers itself with the server (once per server), prints an address to open \
            in a browser, and waits for the code the server shows once you allow it: paste it and \
            press Return (on a pipe, the first line of standard input is read). The code is \
            exchanged for a token with PKCE, the token is checked, and the account is stored in \
            $XDG_CONFIG_HOME/feedline/accounts (default ~/.config/feedline/accounts), readable by \
            you only. Feedline asks for the scopes read, write:favourites, write:statuses, \
            write:bookmarks, write:media, write:follows, write:mutes, write:blocks, write:lists, \
            write:conversations, write:filters, write:notifications, write:reports and \
            write:accounts (to mark the server's announcements read and edit your profile), and no more.
            """
    )

    @Argument(help: ArgumentHelp("The server: a host name such as mastodon.social (https), or a full address (http:// only for a server on this machine).", valueName: "server"))
    var server: String

    func run() async throws {
        let store = AccountStore(directory: FeedlineDirectory())
        let timeout = try RequestTimeout.fromEnvironment()
        do {
            let login = try Login(address: server, store: store, timeout: timeout)
            Output.say("Signing in to \(login.server.loginArgument).")
            let authorization = try await login.begin()
            Output.say("Open this address in a browser, sign in and allow Feedline:")
            Output.say()
            Output.say("  \(authorization.url.absoluteString)")
            Output.say()
            Output.say("The server then shows a code: paste it here and press Return.")
            let code = try readCode(server: login.server.loginArgument)
            let account = try await login.finish(authorization, code: code)
            Output.say("Signed in as \(account.handle).")
            Output.say("Your home timeline: feedline (or feedline --account \(account.id)). The account is kept in \(store.url(of: account).path).")
        } catch {
            Output.complain(TerminalText(error.description))
            throw ExitCode(1)
        }
    }

    /// The first non-blank line of standard input; on a terminal a prompt before each try.
    private func readCode(server: String) throws(LoginError) -> String {
        let terminal = TerminalInfo.inputIsTerminal
        while true {
            if terminal { Output.prompt("Code: ") }
            guard let line = readLine(strippingNewline: true) else {
                if terminal { Output.say() }
                throw LoginError(.code, server: server, .noCode)
            }
            let code = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if !code.isEmpty { return code }
            if terminal { Output.say("Nothing was pasted; paste the code the server shows (Ctrl-D stops).") }
        }
    }
}
