@_spi(FeedService) import Feedline

/// `editProfile`: a change of your profile — `"name"`, `"bio"` (strings), `"fields"` (a list of
/// `{"name":…,"value":…}`, replacing every field; `[]` clears them), `"locked"`, `"bot"`,
/// `"discoverable"` (booleans). What is not given stays.
extension JSONLCommand {
    /// What `editProfile` changes, as the session sends it.
    public struct ProfileChange: Hashable, Sendable {
        var edit = ProfileEdit()

        public init() {}
    }

    static let profileUsage =
        "editProfile takes \"name\", \"bio\" (strings), \"fields\" (a list such as [{\"name\":\"Pronouns\",\"value\":\"she/her\"}]), \"locked\", \"bot\" and \"discoverable\" (true or false), \"avatar\" and \"header\" (image files)"

    static func profileEdit(_ value: JSONLValue) -> Result<Action, FieldProblem> {
        var change = ProfileChange()
        for key in ["name", "bio", "avatar", "header"] {
            guard let field = value[key] else { continue }
            guard case .string(let text) = field else { return .failure(FieldProblem(message: "editProfile: \"\(key)\" is a string. \(profileUsage).")) }
            switch key {
            case "name": change.edit.displayName = text
            case "bio": change.edit.bio = text
            case "avatar": change.edit.avatar = text
            default: change.edit.header = text
            }
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
            change.edit.fields = fields
        }
        for key in ["locked", "bot", "discoverable"] {
            guard let field = value[key] else { continue }
            guard case .bool(let on) = field else { return .failure(FieldProblem(message: "editProfile: \"\(key)\" is true or false. \(profileUsage).")) }
            if key == "locked" { change.edit.locked = on } else if key == "bot" { change.edit.bot = on } else { change.edit.discoverable = on }
        }
        guard !change.edit.isEmpty else { return .failure(FieldProblem(message: "editProfile changes nothing: \(profileUsage).")) }
        return .success(.profileEdit(change))
    }
}
