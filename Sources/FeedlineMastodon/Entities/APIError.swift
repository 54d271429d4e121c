import Foundation

extension Mastodon {
    /// The body of a Mastodon error response (Mastodon's `Error`): `{"error": "Record not found"}`,
    /// with an `error_description` for OAuth errors. Thrown as is by clients of the API.
    public struct APIError: Error, LocalizedError, Codable, Hashable, Sendable {
        /// The `error` text: a sentence (`Record not found`) or, for OAuth errors, a code (`invalid_grant`).
        public var message: String
        /// The `error_description` text, if the server sent one.
        public var details: String?

        /// An error body with `message` as `error` and `details` as `error_description`.
        public init(message: String, details: String? = nil) {
            self.message = message
            self.details = details
        }

        enum CodingKeys: String, CodingKey {
            case message = "error"
            case details = "error_description"
        }

        /// `details` when present (the readable half of an OAuth error), otherwise `message`.
        public var errorDescription: String? { details ?? message }
    }
}
