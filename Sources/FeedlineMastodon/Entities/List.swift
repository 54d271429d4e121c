extension Mastodon {
    /// One of the signed-in user's lists (Mastodon's `List`): `id`, `title`, and how replies and
    /// the home timeline treat it (`replies_policy`: `followed`, `list` or `none`; `exclusive`:
    /// its accounts' posts leave home) when the server sends them.
    public struct List: Codable, Hashable, Sendable, ReadableEntity {
        public var id: String
        public var title: String
        public var repliesPolicy: String?
        public var exclusive: Bool?

        enum CodingKeys: String, SnakeCaseKey {
            case id, title, repliesPolicy, exclusive
        }
    }
}

extension Mastodon.List {
    /// Decodes tolerantly: `id` (a string, or a number from an older server) and `title`
    /// are required; the rest is optional.
    init(reading container: some FieldReader<CodingKeys>) throws {
        if let text = try? container.decode(String.self, forKey: .id) {
            id = text
        } else {
            id = String(try container.decode(Int.self, forKey: .id))
        }
        title = try container.decode(String.self, forKey: .title)
        repliesPolicy = try? container.decodeIfPresent(String.self, forKey: .repliesPolicy)
        exclusive = try? container.decodeIfPresent(Bool.self, forKey: .exclusive)
    }
}
