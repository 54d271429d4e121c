import FeedlineMastodon
import Foundation
import HTTPTypes

/// The browser's part of a sign-in: fetching the authorization page a test "opens", through
/// Feedline's own transport (the tests link no other HTTP client).
enum Browser {
    /// The page at `url`, as text.
    static func page(_ url: URL) async throws -> String {
        let request = HTTPRequest(method: .get, url: url, fields: [("Accept", "text/html")])
        let (_, data) = try await platformDefaultTransport().data(for: request, limits: HTTPTransferLimits(idle: .seconds(120)))
        return String(decoding: data, as: UTF8.self)
    }
}
