@_spi(FeedService) import Feedline

/// What `profile edit`'s options set: each as typed (`nil`: not given). `fields` replaces every
/// field (`[]`: `--no-fields`).
public struct ProfileOptions: Hashable, Sendable {
    public var displayName: String?
    public var bio: String?
    public var fields: [Profile.Field]?
    public var locked: Bool?
    public var bot: Bool?
    public var discoverable: Bool?

    public init() {}

    /// The change the session sends.
    var edit: ProfileEdit {
        ProfileEdit(displayName: displayName, bio: bio, fields: fields, locked: locked, bot: bot, discoverable: discoverable)
    }
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
        guard case .options(let edit) = self else { return "profile edit" }
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
        return words.joined(separator: " ")
    }
}
