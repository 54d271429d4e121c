@_spi(FeedService) import Feedline

/// `profile edit [OPTIONS]`. Linear in the line: it is cut into words once. A value with spaces
/// goes in double quotes.
extension CommandParser {
    /// What `profile edit` takes, for its sentences.
    static let profileEditUsage =
        "profile edit [--name NAME] [--bio TEXT] [--field NAME=VALUE]… [--no-fields] [--locked on|off] [--bot on|off] [--discoverable on|off] [--avatar FILE] [--header FILE]"

    static func parseProfileEdit(_ rest: Substring, isSeparator: (Character) -> Bool) -> Result<Command, ParseError> {
        var rest = rest.drop(while: isSeparator)
        while let last = rest.last, isSeparator(last) { rest = rest.dropLast() }
        let words: [Word]
        switch splitWords(rest, isSeparator: isSeparator) {
        case .success(let split): words = split
        case .failure(.lists(let sentence)): return .failure(.profileEdit(sentence))
        case .failure(let error): return .failure(error)
        }
        guard !words.isEmpty else { return .success(.profileEdit(.editor)) }
        var options = ProfileOptions()
        var index = 0
        func value(_ option: String, _ example: String) -> Result<String, ParseError> {
            guard index + 1 < words.count, words[index + 1].quoted || !words[index + 1].text.hasPrefix("--") else {
                return .failure(.profileEdit("\(option) needs a value, for example: \(option) \(example)."))
            }
            index += 1
            return .success(words[index].text)
        }
        func onOff(_ option: String) -> Result<Bool, ParseError> {
            value(option, "on").flatMap { word in
                switch word.lowercased() {
                case "on": .success(true)
                case "off": .success(false)
                default: .failure(.profileEdit("\(option) takes on or off, not \"\(ParseError.echo(word))\"."))
                }
            }
        }
        while index < words.count {
            let word = words[index]
            let option = word.quoted ? "" : word.text.lowercased()
            switch option {
            case "--name":
                switch value(option, "\"Ada Lovelace\"") {
                case .success(let name): options.edit.displayName = name
                case .failure(let error): return .failure(error)
                }
            case "--bio":
                switch value(option, "\"Birds, mostly.\"") {
                case .success(let bio): options.edit.bio = bio
                case .failure(let error): return .failure(error)
                }
            case "--field":
                switch value(option, "Pronouns=she/her") {
                case .success(let pair):
                    guard let equals = pair.firstIndex(of: "="), !pair[..<equals].trimmingCharacters(in: .whitespaces).isEmpty else {
                        return .failure(.profileEdit("--field takes NAME=VALUE, not \"\(ParseError.echo(pair))\"; for example: --field Pronouns=she/her."))
                    }
                    options.edit.fields = (options.edit.fields ?? []) + [Profile.Field(name: String(pair[..<equals]), value: String(pair[pair.index(after: equals)...]))]
                case .failure(let error): return .failure(error)
                }
            case "--avatar", "--header":
                switch value(option, "me.png") {
                case .success(let path):
                    if option == "--avatar" { options.edit.avatar = path } else { options.edit.header = path }
                case .failure(let error): return .failure(error)
                }
            case "--no-fields":
                guard options.edit.fields?.isEmpty != false else { return .failure(.profileEdit("--no-fields clears the fields: give it without --field.")) }
                options.edit.fields = []
            case "--locked", "--bot", "--discoverable":
                switch onOff(option) {
                case .success(let on):
                    if option == "--locked" { options.edit.locked = on } else if option == "--bot" { options.edit.bot = on } else { options.edit.discoverable = on }
                case .failure(let error): return .failure(error)
                }
            default:
                return .failure(.profileEdit("profile edit does not take \"\(ParseError.echo(word.text))\"; usage: \(profileEditUsage)."))
            }
            index += 1
        }
        return .success(.profileEdit(.options(options)))
    }
}
