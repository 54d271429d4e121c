import ArgumentParser
import FeedlineAccounts
import FeedlineMastodon
import FeedlineREPL
import Foundation

/// `feedline config [FLAGS]`: the settings in effect and where each came from.
struct ConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Print the settings in effect and where each came from (a flag, config.toml, or the default).",
        discussion: """
            The config file is $XDG_CONFIG_HOME/feedline/config.toml (default \
            ~/.config/feedline/config.toml), in TOML, with these keys (each named after its flag): \
            account = "alice@social.example", timeline = "home", width = 100, color = false, \
            page-size = 15, history = "~/.feedline_history". Flags given here are applied as \
            `feedline` would apply them.
            """
    )

    @OptionGroup(title: "Flags to apply, as feedline takes them")
    var options: SessionOptions

    func run() async throws {
        let resolved = try options.resolveOrExit()
        let settings = resolved.settings
        let directory = resolved.directory
        Output.say("config file  \(directory.configFile.path)\(resolved.config == nil ? " (none: every setting has its default)" : "")")
        let stored = (try? AccountStore(directory: directory).accounts().count) ?? 0
        Output.say("accounts     \(directory.accounts.path) (\(stored == 1 ? "1 signed in" : "\(stored) signed in"))")
        Output.say()
        let rows: [(String, String, SettingOrigin)] = [
            ("account", settings.account.value ?? (resolved.selection.account.map { "\($0.id) (the latest sign-in)" } ?? "none"), settings.account.origin),
            ("timeline", settings.timeline.value ?? "home", settings.timeline.origin),
            ("width", settings.width.value.map(String.init) ?? "the terminal's (80 when not a terminal)", settings.width.origin),
            ("color", settings.color.value ? "on (with a terminal and NO_COLOR unset)" : "off", settings.color.origin),
            ("page-size", String(settings.pageSize.value), settings.pageSize.origin),
            ("history", settings.history.value, settings.history.origin),
        ]
        let width = rows.map(\.1.count).max() ?? 0
        for (key, value, origin) in rows {
            let name = key.padding(toLength: 11, withPad: " ", startingAt: 0)
            Output.say("\(name)  \(value)\(String(repeating: " ", count: width - value.count))  \(origin)")
        }
        Output.say()
        // The sandbox's directory as feedline would take it: the one given, else the bundled one.
        let fixtures = options.fixtures.map { URL(fileURLWithPath: $0) } ?? FixtureLocator.bundled() ?? URL(fileURLWithPath: "Fixtures/timeline")
        let reads = resolved.selection.choice?.summary ?? ServiceChoice.sandbox(fixtures: fixtures).summary
        Output.say("reads        \(reads)")
        Output.say("token        \(resolved.selection.token)")
    }
}
