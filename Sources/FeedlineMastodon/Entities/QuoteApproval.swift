import Foundation

extension Mastodon {
    /// A status's `quote_approval` (Mastodon 4.5): who is expected to be able to quote it and be
    /// approved at once (`automatic`) or after the author's review (`manual`) — each a list of
    /// `public`, `followers`, `unsupported_policy` — and what that means for the signed-in user
    /// (`current_user`: `automatic`, `manual`, `denied`, `unknown`). Names this version does not
    /// know are kept as sent (the domain reads them as `unsupported_policy` / `unknown`).
    public struct QuoteApproval: Codable, Hashable, Sendable, ReadableEntity {
        public var automatic: [String] = ["public"]
        public var manual: [String] = []
        public var currentUser: String = "automatic"

        enum CodingKeys: String, SnakeCaseKey {
            case automatic, manual, currentUser
        }
    }
}

extension Mastodon.QuoteApproval {
    /// Tolerant: a missing list is empty, a missing `current_user` is `unknown`.
    init(reading container: some FieldReader<CodingKeys>) throws {
        automatic = try container.value(.automatic, or: [])
        manual = try container.value(.manual, or: [])
        currentUser = try container.value(.currentUser, or: "unknown")
    }
}
