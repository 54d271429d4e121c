@_spi(FeedService) import Feedline
import FeedlineTestSupport
import FlyingFox
import Foundation

/// Your own profile, as Mastodon serves it (kept in the model's ``ServerModel/ownProfile``; the
/// routes answer only once a test set it):
///
/// - `GET /api/v1/accounts/verify_credentials` answers a `CredentialAccount`: the account with
///   `note` and `fields` as HTML, `source.note` and `source.fields` as written, `discoverable`.
/// - `PATCH /api/v1/accounts/update_credentials` reads a `multipart/form-data` body as Rails does:
///   `display_name`, `note`, `locked`/`bot`/`discoverable` (`true`/`false`), and
///   `fields_attributes[i][name]`/`[value]` (a pair with both empty is no field); a display name
///   over 30 characters, a note over 500 or over 4 fields is 422 with Mastodon's sentence.
///   Each form is kept (``profileForms``) for tests to read.
///
/// Both need a user (401).
extension FakeMastodon {
    /// Sets your profile on the server (and turns its routes on).
    func setOwnProfile(_ profile: OwnProfile) {
        state.withLock { $0.server.ownProfile = profile }
    }

    /// Your profile as the server keeps it now.
    var ownProfile: OwnProfile? { state.withLock { $0.server.ownProfile } }

    /// Every `update_credentials` form received, as its fields in order (`name`, value).
    var profileForms: [[(String, String)]] {
        requests.filter { $0.path == MastodonPaths.updateCredentials }.map { Self.multipartFields($0.bodyText) }
    }

    func profileRoute(_ request: Recorded) -> HTTPResponse? {
        guard request.path == MastodonPaths.verifyCredentials || request.path == MastodonPaths.updateCredentials,
            let profile = ownProfile
        else { return nil }
        guard request.authorization != nil else { return Self.error(401, "This API requires an authenticated user") }
        switch (request.method, request.path) {
        case ("GET", MastodonPaths.verifyCredentials):
            return Self.object(Self.credentialJSON(profile))
        case ("PATCH", MastodonPaths.updateCredentials):
            var changed = profile
            var fields: [Int: (name: String, value: String)] = [:]
            for (name, value) in Self.multipartFields(request.bodyText) {
                switch name {
                case "avatar", "header":
                    // A file part: kept under an address of the server's own, named by its file.
                    let file = request.bodyText.components(separatedBy: "name=\"\(name)\"; filename=\"").dropFirst().first?.prefix { $0 != "\"" } ?? ""
                    if name == "avatar" { changed.avatar = "https://files.example/avatars/\(file)" } else { changed.header = "https://files.example/headers/\(file)" }
                case "display_name": changed.author.displayName = value
                case "note": changed.bio = value
                case "locked": changed.locked = value == "true"
                case "bot": changed.bot = value == "true"
                case "discoverable": changed.discoverable = value == "true"
                default:
                    // fields_attributes[0][name]
                    let pieces = name.split(whereSeparator: { "[]".contains($0) }).map(String.init)
                    guard pieces.count == 3, pieces[0] == "fields_attributes", let index = Int(pieces[1]) else { continue }
                    var field = fields[index] ?? ("", "")
                    if pieces[2] == "name" { field.name = value } else if pieces[2] == "value" { field.value = value }
                    fields[index] = field
                }
            }
            if !fields.isEmpty {
                changed.fields = fields.sorted { $0.key < $1.key }.map(\.value).filter { !($0.name.isEmpty && $0.value.isEmpty) }
                    .map { Profile.Field(name: $0.name, value: $0.value) }
            }
            if changed.author.displayName.count > 30 { return Self.error(422, "Validation failed: Display name is too long (maximum is 30 characters)") }
            if changed.bio.count > 500 { return Self.error(422, "Validation failed: Note is too long (maximum is 500 characters)") }
            if changed.fields.count > 4 { return Self.error(422, "Validation failed: Fields is too long (maximum is 4 fields)") }
            setOwnProfile(changed)
            return Self.object(Self.credentialJSON(changed))
        default:
            return nil
        }
    }

    /// A `CredentialAccount` of `profile`, as Mastodon writes one.
    static func credentialJSON(_ profile: OwnProfile) -> [String: Any] {
        func html(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
        }
        let fields = profile.fields.map { ["name": $0.name, "value": $0.value, "verified_at": NSNull()] as [String: Any] }
        return [
            "id": profile.author.id, "username": profile.author.handle, "acct": profile.author.handle, "display_name": profile.author.displayName,
            "locked": profile.locked, "bot": profile.bot, "discoverable": profile.discoverable, "group": false, "created_at": "2024-01-01T00:00:00.000Z",
            "note": profile.bio.isEmpty ? "" : "<p>" + html(profile.bio).replacingOccurrences(of: "\n", with: "<br />") + "</p>",
            "url": "https://social.example/@\(profile.author.handle)", "avatar": profile.avatar, "header": profile.header, "followers_count": 0, "following_count": 0,
            "statuses_count": 0, "emojis": [Any](),
            "fields": profile.fields.map { ["name": $0.name, "value": html($0.value), "verified_at": NSNull()] as [String: Any] },
            "source": ["privacy": "public", "sensitive": false, "language": NSNull(), "note": profile.bio, "fields": fields, "follow_requests_count": 0] as [String: Any],
        ]
    }

    /// The fields of a `multipart/form-data` body, in order: its boundary is its first line.
    static func multipartFields(_ body: String) -> [(String, String)] {
        guard let firstLine = body.components(separatedBy: "\r\n").first, firstLine.hasPrefix("--") else { return [] }
        var fields: [(String, String)] = []
        for part in body.components(separatedBy: firstLine).dropFirst() where !part.hasPrefix("--") {
            guard let split = part.range(of: "\r\n\r\n") else { continue }
            let head = part[..<split.lowerBound]
            guard let nameStart = head.range(of: "name=\"") else { continue }
            let name = head[nameStart.upperBound...].prefix { $0 != "\"" }
            var value = String(part[split.upperBound...])
            if value.hasSuffix("\r\n") { value.removeLast() }  // "\r\n" is one Character
            fields.append((String(name), value))
        }
        return fields
    }
}

/// The profile routes' paths.
enum MastodonPaths {
    static let verifyCredentials = "/api/v1/accounts/verify_credentials"
    static let updateCredentials = "/api/v1/accounts/update_credentials"
}
