@_spi(FeedService) import Feedline

/// `editProfile`: a change of your profile — `"name"`, `"bio"` (strings), `"fields"` (a list of
/// `{"name":…,"value":…}`, replacing every field; `[]` clears them), `"locked"`, `"bot"`,
/// `"discoverable"` (booleans). What is not given stays.
extension JSONLCommand {
    /// What `editProfile` changes: each field given (`nil`: kept); `fields` replaces every field.
    public struct ProfileChange: Hashable, Sendable {
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

    static let profileUsage =
        "editProfile takes \"name\", \"bio\" (strings), \"fields\" (a list such as [{\"name\":\"Pronouns\",\"value\":\"she/her\"}]), \"locked\", \"bot\" and \"discoverable\" (true or false)"

    static func profileEdit(_ value: JSONLValue) -> Result<Action, FieldProblem> {
        var edit = ProfileChange()
        for key in ["name", "bio"] {
            guard let field = value[key] else { continue }
            guard case .string(let text) = field else { return .failure(FieldProblem(message: "editProfile: \"\(key)\" is a string. \(profileUsage).")) }
            if key == "name" { edit.displayName = text } else { edit.bio = text }
        }
        if let list = value["fields"] {
            guard case .array(let items) = list else { return .failure(FieldProblem(message: "editProfile: \"fields\" is a list. \(profileUsage).")) }
            var fields: [Profile.Field] = []
            for item in items {
                guard let name = item["name"]?.string, let text = item["value"]?.string else {
                    return .failure(FieldProblem(message: "editProfile: each of \"fields\" is {\"name\":…,\"value\":…} with two strings."))
                }
                fields.append(Profile.Field(name: name, value: text))
            }
            edit.fields = fields
        }
        for key in ["locked", "bot", "discoverable"] {
            guard let field = value[key] else { continue }
            guard case .bool(let on) = field else { return .failure(FieldProblem(message: "editProfile: \"\(key)\" is true or false. \(profileUsage).")) }
            if key == "locked" { edit.locked = on } else if key == "bot" { edit.bot = on } else { edit.discoverable = on }
        }
        guard edit != ProfileChange() else { return .failure(FieldProblem(message: "editProfile changes nothing: \(profileUsage).")) }
        return .success(.profileEdit(edit))
    }
}
