@_spi(FeedService) import Feedline

/// Your profile as `profile edit` opens it in `$EDITOR`, and read back: one `Name:` line, a
/// `Bio:` line per line of the bio, a `Field: NAME=VALUE` line per field, and `Locked:`,
/// `Bot:` and `Discoverable:` lines of `on` or `off`. Blank lines and lines starting with `#`
/// are left out.
enum ProfileText {
    /// The text of `profile`.
    static func text(of profile: OwnProfile) -> String {
        var lines = ["Name: " + profile.author.displayName]
        let bio = profile.bio.split(separator: "\n", omittingEmptySubsequences: false)
        lines += bio.isEmpty ? ["Bio: "] : bio.map { "Bio: " + $0 }
        lines += profile.fields.map { "Field: \($0.name)=\($0.value)" }
        lines.append("Locked: " + (profile.locked ? "on" : "off"))
        lines.append("Bot: " + (profile.bot ? "on" : "off"))
        lines.append("Discoverable: " + (profile.discoverable ? "on" : "off"))
        return lines.joined(separator: "\n")
    }

    /// What the editor sees below the text.
    static let context = [
        "Your profile. Name: and Bio: lines (one per line of the bio), a Field: NAME=VALUE line per field (at most 4),",
        "and Locked:, Bot: and Discoverable: lines of on or off. Save and quit to send what changed; change nothing to send nothing.",
    ]

    /// `profile` with what `text` says, or the sentence naming the first line it cannot read.
    static func read(_ text: String, over profile: OwnProfile) -> Result<OwnProfile, ProfileTextError> {
        var read = profile
        var bio: [String] = []
        var fields: [Profile.Field] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            guard let colon = trimmed.firstIndex(of: ":") else { return .failure(ProfileTextError(line: number + 1, text: trimmed)) }
            let key = trimmed[..<colon].lowercased()
            var value = String(trimmed[trimmed.index(after: colon)...])
            if value.hasPrefix(" ") { value.removeFirst() }
            switch key {
            case "name": read.author.displayName = value
            case "bio": bio.append(value)
            case "field":
                guard let equals = value.firstIndex(of: "="), !value[..<equals].trimmingCharacters(in: .whitespaces).isEmpty else {
                    return .failure(ProfileTextError(line: number + 1, text: trimmed))
                }
                fields.append(Profile.Field(name: String(value[..<equals]), value: String(value[value.index(after: equals)...])))
            case "locked", "bot", "discoverable":
                let on: Bool
                switch value.lowercased().trimmingCharacters(in: .whitespaces) {
                case "on": on = true
                case "off": on = false
                default: return .failure(ProfileTextError(line: number + 1, text: trimmed))
                }
                if key == "locked" { read.locked = on } else if key == "bot" { read.bot = on } else { read.discoverable = on }
            default:
                return .failure(ProfileTextError(line: number + 1, text: trimmed))
            }
        }
        while bio.last?.isEmpty == true { bio.removeLast() }
        read.bio = bio.joined(separator: "\n")
        read.fields = fields
        return .success(read)
    }
}

/// A line of an edited profile `ProfileText` cannot read.
struct ProfileTextError: Error, Hashable {
    var line: Int
    var text: String

    var message: String {
        "Line \(line) of your profile cannot be read: \"\(Echo.shortened(text, to: 40))\". Each line starts with Name:, Bio:, Field: NAME=VALUE, Locked: on|off, Bot: on|off or Discoverable: on|off. Nothing was sent."
    }
}
