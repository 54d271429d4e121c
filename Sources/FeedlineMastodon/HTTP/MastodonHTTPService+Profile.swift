@_spi(FeedService) import Feedline
import Foundation

/// Your own profile: `GET /api/v1/accounts/verify_credentials` and
/// `PATCH /api/v1/accounts/update_credentials`.
extension MastodonHTTPService {
    static let verifyCredentialsPath = "/api/v1/accounts/verify_credentials"
    static let updateCredentialsPath = "/api/v1/accounts/update_credentials"

    /// Your profile as you wrote it: the account's `source.note` and `source.fields` (plain
    /// text; the rendered `note` and `fields` when a server sends no source).
    @_spi(FeedService) public func ownProfile() async throws -> OwnProfile {
        let what = "your profile"
        let response = try await send(APIRequest(method: "GET", url: server.url(path: Self.verifyCredentialsPath), what: what))
        return try ownProfile(from: response, what: what)
    }

    /// Changes what `edit` gives, as a `multipart/form-data` body: `display_name`, `note`,
    /// `locked`, `bot`, `discoverable` (`true`/`false`) and every field as
    /// `fields_attributes[i][name]` and `fields_attributes[i][value]` (no field at all clears
    /// them: one empty pair is sent); a new avatar or header image is the file part `avatar` or
    /// `header`, with its MIME type. A 422 carries the server's sentence.
    @_spi(FeedService) public func updateProfile(_ edit: ProfileEdit) async throws -> OwnProfile {
        let what = "the change of your profile"
        let request = APIRequest(method: "PATCH", url: server.url(path: Self.updateCredentialsPath), what: what, body: try Self.profileForm(edit).body)
        let response = try await writing { try await send(request) }
        return try ownProfile(from: response, what: what)
    }

    /// The form of `edit`.
    static func profileForm(_ edit: ProfileEdit, boundary: String = "feedline-\(UUID().uuidString)") throws -> MultipartForm {
        var form = MultipartForm(boundary: boundary)
        if let name = edit.displayName { form.field("display_name", name) }
        if let bio = edit.bio { form.field("note", bio) }
        if let locked = edit.locked { form.field("locked", String(locked)) }
        if let bot = edit.bot { form.field("bot", String(bot)) }
        if let discoverable = edit.discoverable { form.field("discoverable", String(discoverable)) }
        if let fields = edit.fields {
            let pairs = fields.isEmpty ? [Profile.Field(name: "", value: "")] : fields
            for (index, field) in pairs.enumerated() {
                form.field("fields_attributes[\(index)][name]", field.name)
                form.field("fields_attributes[\(index)][value]", field.value)
            }
        }
        for (name, path) in [("avatar", edit.avatar), ("header", edit.header)] {
            guard let path else { continue }
            let url = URL(fileURLWithPath: path)
            let data: Data
            do {
                data = try Data(contentsOf: url)
            } catch {
                throw MastodonHTTPError.unprocessable(serverMessage: "cannot read the file \(path) for your \(name): \(error.localizedDescription)")
            }
            form.file(name, filename: url.lastPathComponent, contentType: mimeType(of: url.lastPathComponent), data)
        }
        return form
    }

    private func ownProfile(from response: APIResponse, what: String) throws -> OwnProfile {
        let account = try decode(Mastodon.Account.self, from: response, what: what)
        let extras = try decode(Mastodon.CredentialExtras.self, from: response, what: what)
        let shown = Profile(account)
        return OwnProfile(
            author: Author(account), bio: extras.source?.note ?? shown.bio,
            fields: extras.source?.fields?.map { Profile.Field(name: $0.name, value: $0.value) } ?? shown.fields.map { Profile.Field(name: $0.name, value: $0.value) },
            locked: account.locked, bot: account.bot, discoverable: extras.discoverable ?? false, avatar: account.avatar ?? "", header: account.header ?? ""
        )
    }
}

extension Mastodon {
    /// What `verify_credentials` and `update_credentials` add to an account: its `source` (the
    /// bio and fields as written) and whether it is `discoverable`.
    struct CredentialExtras: Decodable {
        struct Source: Decodable {
            var note: String?
            var fields: [SourceField]?
        }

        struct SourceField: Decodable {
            var name: String
            var value: String
        }

        var source: Source?
        var discoverable: Bool?
    }
}
