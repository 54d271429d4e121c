import ArgumentParser
import FeedlineMastodon
import FeedlineREPL
import Foundation

extension RequestTimeout {
    /// The timeout this process's environment sets (`FEEDLINE_TIMEOUT`), for `login` and
    /// `logout`; a bad value is said on standard error and ends the command with status 1.
    static func fromEnvironment() throws -> Duration {
        do {
            return try resolve(environment: ProcessInfo.processInfo.environment)
        } catch {
            Output.complain(TerminalText(error.description))
            throw ExitCode(1)
        }
    }
}
