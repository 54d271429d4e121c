import Foundation

/// An `application/x-www-form-urlencoded` body, as Mastodon (Rails) reads one: every character
/// but the unreserved ones percent-encoded, so `+`, `&`, `=` and spaces in a value arrive as
/// typed. (`URLComponents.percentEncodedQuery` leaves `+` as it is, which a form decodes as a
/// space: a list called "C++" would be saved as "C  ".)
package enum FormBody {
    /// The body of `fields`, in order (a name may repeat, as `account_ids[]` does).
    package static func encode(_ fields: [(String, String)]) -> Data {
        Data(query(fields).utf8)
    }

    /// `fields` as `name=value&…`: a form body's text, or a URL's query.
    package static func query(_ fields: [(String, String)]) -> String {
        fields.map { escape($0.0) + "=" + escape($0.1) }.joined(separator: "&")
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// `text` with everything but the unreserved characters percent-encoded.
    package static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }
}
