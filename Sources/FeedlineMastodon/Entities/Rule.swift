import Foundation

extension Mastodon {
    /// One of the instance's rules (`GET /api/v1/instance/rules`, and `rules` of the v2
    /// instance): what Feedline reads of it.
    public struct Rule: Codable, Hashable, Sendable {
        /// The server's id of the rule, which a report names (`rule_ids[]`).
        public var id: String
        /// The rule.
        public var text: String
        /// More about it (Mastodon 4.3 and later); empty or absent for none.
        public var hint: String?

        public init(id: String, text: String, hint: String? = nil) {
            self.id = id
            self.text = text
            self.hint = hint
        }

        enum CodingKeys: String, SnakeCaseKey {
            case id, text, hint
        }
    }
}
