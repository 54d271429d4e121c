import Foundation

/// Where a setting's value came from, as `feedline config` shows it.
public enum SettingOrigin: Sendable, Hashable, CustomStringConvertible {
    /// The command line (`--width`).
    case flag(String)
    /// The config file, on this line.
    case configFile(line: Int)
    /// Feedline's own default.
    case builtIn

    /// `--width`, `config.toml line 3`, `default`.
    public var description: String {
        switch self {
        case .flag(let name): name
        case .configFile(let line): "config.toml line \(line)"
        case .builtIn: "default"
        }
    }
}

/// A setting's value and where it came from.
public struct Setting<Value: Sendable & Hashable>: Sendable, Hashable {
    /// The value.
    public var value: Value
    /// Where it came from.
    public var origin: SettingOrigin

    /// `value` from `origin`.
    public init(_ value: Value, from origin: SettingOrigin) {
        self.value = value
        self.origin = origin
    }
}

/// The settings the command line gave (`nil`: not given).
public struct SettingFlags: Sendable, Hashable {
    /// `--account`.
    public var account: String?
    /// `--timeline`.
    public var timeline: String?
    /// `--width`.
    public var width: Int?
    /// `--color` (`true`) or `--no-color` (`false`).
    public var color: Bool?
    /// `--page-size`.
    public var pageSize: Int?
    /// `--history`.
    public var history: String?

    /// Flags as given.
    public init(account: String? = nil, timeline: String? = nil, width: Int? = nil, color: Bool? = nil, pageSize: Int? = nil, history: String? = nil) {
        self.account = account
        self.timeline = timeline
        self.width = width
        self.color = color
        self.pageSize = pageSize
        self.history = history
    }
}

/// The settings a session starts with: each from the command line, else the config file, else
/// Feedline's default. `nil` values mean "not set": no account named (the default account, if
/// any, is used), no timeline (home), no width (follow the terminal).
public struct EffectiveSettings: Sendable, Hashable {
    /// The rows per screen when nothing sets them.
    public static let defaultPageSize = 10

    /// The account to use.
    public var account: Setting<String?>
    /// The timeline a server session starts on.
    public var timeline: Setting<String?>
    /// Columns.
    public var width: Setting<Int?>
    /// Whether colour may be used (it still needs a terminal and no `NO_COLOR`).
    public var color: Setting<Bool>
    /// Rows per screen.
    public var pageSize: Setting<Int>
    /// The history file.
    public var history: Setting<String>

    /// Merges `flags` over `config` over the defaults; `home` places the default history file.
    public init(flags: SettingFlags, config: ConfigFile?, home: URL) {
        func pick<Value>(_ flag: Value?, _ name: String, _ entry: ConfigFile.Entry<Value>?, _ fallback: Value) -> Setting<Value> {
            if let flag { return Setting(flag, from: .flag(name)) }
            if let entry { return Setting(entry.value, from: .configFile(line: entry.line)) }
            return Setting(fallback, from: .builtIn)
        }
        func pickOptional<Value>(_ flag: Value?, _ name: String, _ entry: ConfigFile.Entry<Value>?) -> Setting<Value?> {
            if let flag { return Setting(flag, from: .flag(name)) }
            if let entry { return Setting(entry.value, from: .configFile(line: entry.line)) }
            return Setting(nil, from: .builtIn)
        }
        account = pickOptional(flags.account, "--account", config?.account)
        timeline = pickOptional(flags.timeline, "--timeline", config?.timeline)
        width = pickOptional(flags.width, "--width", config?.width)
        color = pick(flags.color, flags.color == false ? "--no-color" : "--color", config?.color, true)
        pageSize = pick(flags.pageSize, "--page-size", config?.pageSize, Self.defaultPageSize)
        history = pick(flags.history, "--history", config?.history, home.appendingPathComponent(".feedline_history").path)
    }
}
