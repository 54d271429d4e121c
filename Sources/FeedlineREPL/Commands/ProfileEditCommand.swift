@_spi(FeedService) import Feedline

/// What `profile edit`'s options set, as the session sends it (each option given; `--no-fields`
/// is an empty list of fields).
public struct ProfileOptions: Hashable, Sendable {
    var edit = ProfileEdit()

    public init() {}
}

/// What `profile edit` asks for: the changes its options give (`--name`, `--bio`, `--field`,
/// `--locked`, `--bot`, `--discoverable`), or — alone — your profile in `$EDITOR`.
public enum ProfileEditCommand: Hashable, Sendable {
    /// `profile edit OPTIONS`.
    case options(ProfileOptions)
    /// `profile edit` alone.
    case editor

    /// The line that parses back to this command.
    public var text: String {
        guard case .options(let options) = self else { return "profile edit" }
        let edit = options.edit
        var words = ["profile edit"]
        if let name = edit.displayName { words.append("--name " + FiltersCommand.quoted(name)) }
        if let bio = edit.bio { words.append("--bio " + FiltersCommand.quoted(bio)) }
        if let fields = edit.fields {
            if fields.isEmpty { words.append("--no-fields") }
            for field in fields { words.append("--field " + FiltersCommand.quoted(field.name + "=" + field.value)) }
        }
        for (option, value) in [("--locked", edit.locked), ("--bot", edit.bot), ("--discoverable", edit.discoverable)] {
            if let value { words.append(option + (value ? " on" : " off")) }
        }
        if let avatar = edit.avatar { words.append("--avatar " + FiltersCommand.quoted(avatar)) }
        if let header = edit.header { words.append("--header " + FiltersCommand.quoted(header)) }
        return words.joined(separator: " ")
    }
}
