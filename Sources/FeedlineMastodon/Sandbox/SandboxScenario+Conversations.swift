extension SandboxScenario {
    /// A direct conversation the user has at the start (the scenario's `conversations`): its id,
    /// its last status (a fixture status; the statuses it replies to, up the chain, are the
    /// conversation's too) and whether it is unread.
    public struct ConversationSeed: Hashable, Sendable {
        public var id: String
        public var lastStatus: String
        public var unread: Bool

        public init(id: String, lastStatus: String, unread: Bool = false) {
            self.id = id
            self.lastStatus = lastStatus
            self.unread = unread
        }
    }

    /// What is wrong with `conversations`, or `nil`: each needs an id and a last status, ids once each.
    static func problem(of conversations: [ConversationSeed]) -> String? {
        var seen: Set<String> = []
        for (index, seed) in conversations.enumerated() {
            if seed.id.isEmpty { return "conversations[\(index)].id must not be empty" }
            if seed.lastStatus.isEmpty { return "conversations[\(index)].last_status must not be empty" }
            if !seen.insert(seed.id).inserted { return "conversations[\(index)]: the id \(seed.id) is used twice" }
        }
        return nil
    }
}

/// A `conversations` entry of `scenario.json`: `{"id": "41", "last_status": "ID", "unread": true}`.
struct ConversationEntry: Decodable {
    var id: String
    var lastStatus: String
    var unread: Bool

    init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(allowing: ["id", "last_status", "unread"])
        id = try container.decode(String.self, forKey: AnyCodingKey("id"))
        lastStatus = try container.decode(String.self, forKey: AnyCodingKey("last_status"))
        unread = try container.decodeIfPresent(Bool.self, forKey: AnyCodingKey("unread")) ?? false
    }

    var value: SandboxScenario.ConversationSeed { SandboxScenario.ConversationSeed(id: id, lastStatus: lastStatus, unread: unread) }
}
