import ArgumentParser
import FeedlineAccounts
import FeedlineMastodon
import FeedlineREPL
import Foundation

/// `feedline accounts`: the signed-in accounts, the default marked.
struct AccountsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accounts",
        abstract: "List the signed-in accounts; the default one is marked with *.",
        discussion: """
            The default account is the config file's account, else the one signed in most \
            recently; `feedline` reads it when no --server or --account is given.
            """
    )

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let directory = FeedlineDirectory(environment: environment)
        let store = AccountStore(directory: directory)
        do {
            let config = try ConfigFile.load(from: directory.configFile, home: FeedlineDirectory.home(environment: environment))
            let accounts = try store.accounts()
            guard !accounts.isEmpty else {
                Output.say("No account is signed in; feedline login SERVER signs one in.")
                return
            }
            // A config file naming an account that is not stored marks none.
            let preferred = try? store.defaultAccount(configured: config?.account?.value)
            let width = accounts.map(\.id.count).max() ?? 0
            for account in accounts {
                let mark = account.id == preferred?.id ? "*" : " "
                let padding = String(repeating: " ", count: width - account.id.count)
                Output.say("\(mark) \(account.id)\(padding)  \(account.server)  signed in \(Self.day(account.signedInAt))")
            }
            if let entry = config?.account {
                Output.say(
                    preferred == nil
                        ? "The config file's account \(entry.value) (line \(entry.line)) is not signed in."
                        : "* the default: the config file's account (line \(entry.line))."
                )
            } else {
                Output.say("* the default: the latest sign-in (set account = \"USER@SERVER\" in \(directory.configFile.path) to choose).")
            }
        } catch let error as ConfigFileError {
            Output.complain(TerminalText(error.description))
            throw ExitCode(1)
        } catch let error as CredentialStoreError {
            Output.complain(TerminalText(error.description))
            throw ExitCode(1)
        }
    }

    /// `2026-11-21`.
    static func day(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return formatter.string(from: date)
    }
}
