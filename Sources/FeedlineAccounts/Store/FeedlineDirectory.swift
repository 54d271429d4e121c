import Foundation

/// Where Feedline keeps what outlives a session: `$XDG_CONFIG_HOME/feedline` when
/// `XDG_CONFIG_HOME` is set to an absolute path (the XDG Base Directory rule), else
/// `~/.config/feedline`.
///
/// ```
/// feedline/             0700
///   config.toml         the settings (ConfigFile); written by the user
///   accounts/NAME.json  one signed-in account each (StoredAccount), 0600
///   apps/HOST.json      Feedline's registration with each server (AppRegistration), 0600
/// ```
public struct FeedlineDirectory: Sendable, Hashable, CustomStringConvertible {
    /// The directory itself.
    public let url: URL

    /// The directory at `url` (tests use a scratch directory).
    public init(url: URL) {
        self.url = url.standardizedFileURL
    }

    /// The directory the environment names: `XDG_CONFIG_HOME/feedline`, else `HOME/.config/feedline`
    /// (`HOME` from `environment`, else the user's home directory).
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            self.init(url: URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("feedline", isDirectory: true))
        } else {
            let home = Self.home(environment: environment)
            self.init(url: home.appendingPathComponent(".config/feedline", isDirectory: true))
        }
    }

    /// The user's home directory: `HOME` when it is an absolute path, else the system's record.
    public static func home(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let home = environment["HOME"], home.hasPrefix("/") { return URL(fileURLWithPath: home, isDirectory: true) }
        return FileManager.default.homeDirectoryForCurrentUser
    }

    /// `config.toml`, the settings file.
    public var configFile: URL { url.appendingPathComponent("config.toml") }

    /// `accounts/`, one file per signed-in account.
    public var accounts: URL { url.appendingPathComponent("accounts", isDirectory: true) }

    /// `apps/`, one registration per server.
    public var apps: URL { url.appendingPathComponent("apps", isDirectory: true) }

    /// The directory's path.
    public var description: String { url.path }
}
