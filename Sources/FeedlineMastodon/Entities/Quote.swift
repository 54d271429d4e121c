import Foundation

extension Mastodon {
    /// A status's `quote` (Mastodon 4.4+): a `Quote` (`state` and the `quoted_status`, `null`
    /// unless accepted) or, one level down, a `ShallowQuote` (`state` and `quoted_status_id`).
    /// Both read into this one type.
    ///
    /// Tolerant: a missing `state` reads as `unauthorized` (the state a client must assume for
    /// what it does not know); a `quoted_status` that does not decode leaves the quote without
    /// its post (shown as "not available") rather than failing the whole timeline.
    public struct Quote: Codable, Hashable, Sendable, ReadableEntity {
        /// Mastodon's state name (`pending`, `accepted`, `rejected`, `revoked`, `deleted`,
        /// `unauthorized`, `blocked_account`, `blocked_domain`, `muted_account`, or newer ones).
        public var state: String
        /// The quoted status's id (a `ShallowQuote`'s `quoted_status_id`).
        public var quotedStatusID: String?
        private var nested: Nested?

        /// A quote in `state`; `quotedStatusID` defaults to `quotedStatus`'s id.
        init(state: String, quotedStatus: Status? = nil, quotedStatusID: String? = nil) {
            self.state = state
            self.nested = quotedStatus.map(Nested.status)
            self.quotedStatusID = quotedStatusID ?? quotedStatus?.id
        }

        /// The quoted status, when the server sent it (an accepted `Quote`).
        public var quotedStatus: Status? {
            get {
                guard case .status(let status)? = nested else { return nil }
                return status
            }
            set { nested = newValue.map(Nested.status) }
        }

        enum CodingKeys: String, SnakeCaseKey {
            case state, quotedStatus, quotedStatusID
        }

        init(reading container: some FieldReader<CodingKeys>) throws {
            state = try container.value(.state, or: "unauthorized")
            let status = try? container.decodeIfPresent(Status.self, forKey: .quotedStatus)
            nested = status.map(Nested.status)
            quotedStatusID = try container.optionalID(.quotedStatusID) ?? status?.id
        }

        /// Writes a `Quote` (with `quoted_status`) when the status is known, else a
        /// `ShallowQuote` (with `quoted_status_id`).
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(state, forKey: .state)
            if let quotedStatus {
                try container.encode(quotedStatus, forKey: .quotedStatus)
            } else {
                try container.encode(quotedStatusID, forKey: .quotedStatusID)
            }
        }

        private indirect enum Nested: Hashable, Sendable {
            case status(Status)
        }
    }
}
