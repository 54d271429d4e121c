@_spi(FeedService) import Feedline
@_spi(FeedService) import FeedlineMastodon
import FeedlineTestSupport
import Foundation
import Testing

/// Issue 36's own profile over HTTP, on the real endpoints and payload shapes: reading is
/// `GET /api/v1/accounts/verify_credentials` (its `source` is what you wrote), a change is
/// `PATCH /api/v1/accounts/update_credentials` as `multipart/form-data` with only what changed,
/// a refusal the server's sentence.
@Suite("HTTP profile")
struct HTTPProfileTests {
    static let me = OwnProfile(
        author: Author(id: "7", displayName: "Ada", handle: "ada"), bio: "Birds & <code>\nmostly", fields: [Profile.Field(name: "Home", value: "https://ada.example")]
    )

    @Test("verify_credentials' source is your profile as written (not its HTML)")
    func read() async throws {
        try await withFakeServer { fake, server in
            fake.setOwnProfile(Self.me)
            let service = try makeService(server)
            let profile = try await service.ownProfile()
            #expect(profile == Self.me)
            #expect(fake.requests.last?.path == "/api/v1/accounts/verify_credentials")
            #expect(fake.requests.last?.authorization == "Bearer \(secretToken)")
        }
    }

    @Test("a change is a multipart PATCH of what changed: display_name, note, the booleans and every field by index")
    func update() async throws {
        try await withFakeServer { fake, server in
            fake.setOwnProfile(Self.me)
            let service = try makeService(server)
            let edit = ProfileEdit(
                displayName: "Ada L.", bio: "Line one\nLine two", fields: [Profile.Field(name: "Pronouns", value: "she/her"), Profile.Field(name: "Home", value: "x")],
                locked: true, bot: false, discoverable: true
            )
            let saved = try await service.updateProfile(edit)
            #expect(saved.author.displayName == "Ada L." && saved.bio == "Line one\nLine two" && saved.locked && !saved.bot && saved.discoverable)
            #expect(saved.fields.map(\.name) == ["Pronouns", "Home"])
            let request = try #require(fake.requests.last)
            #expect(request.method == "PATCH" && request.path == "/api/v1/accounts/update_credentials")
            let form = try #require(fake.profileForms.last)
            #expect(form.map(\.0) == [
                "display_name", "note", "locked", "bot", "discoverable", "fields_attributes[0][name]", "fields_attributes[0][value]",
                "fields_attributes[1][name]", "fields_attributes[1][value]",
            ])
            #expect(form.map(\.1) == ["Ada L.", "Line one\nLine two", "true", "false", "true", "Pronouns", "she/her", "Home", "x"])
            #expect(fake.ownProfile == saved)

            // Only a name: only display_name is sent; no fields clears them with one empty pair.
            _ = try await service.updateProfile(ProfileEdit(displayName: "Ada"))
            #expect(fake.profileForms.last?.map(\.0) == ["display_name"])
            let cleared = try await service.updateProfile(ProfileEdit(fields: []))
            #expect(fake.profileForms.last?.map(\.0) == ["fields_attributes[0][name]", "fields_attributes[0][value]"])
            #expect(cleared.fields.isEmpty && fake.ownProfile?.fields.isEmpty == true)
        }
    }

    @Test("a refusal is the server's sentence, not transient; nothing changes")
    func refused() async throws {
        try await withFakeServer { fake, server in
            fake.setOwnProfile(Self.me)
            let service = try makeService(server)
            do {
                _ = try await service.updateProfile(ProfileEdit(displayName: String(repeating: "a", count: 31)))
                Issue.record("a 31-character name was kept")
            } catch {
                let failure = FeedFailure(error)
                #expect(failure.message.contains("Validation failed: Display name is too long (maximum is 30 characters)"))
                #expect(!failure.isTransient)
            }
            #expect(fake.ownProfile == Self.me)
        }
    }

    @Test("a new avatar and header are the file parts avatar and header, with their MIME types; the answer's addresses are kept")
    func images() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("feedline-http-profile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let avatar = directory.appendingPathComponent("me.png")
        try Data("PNG-ish avatar bytes".utf8).write(to: avatar)
        let header = directory.appendingPathComponent("pond.jpg")
        try Data("JPEG-ish header bytes".utf8).write(to: header)
        try await withFakeServer { fake, server in
            fake.setOwnProfile(Self.me)
            let service = try makeService(server)
            let saved = try await service.updateProfile(ProfileEdit(avatar: avatar.path, header: header.path))
            let request = try #require(fake.requests.last)
            #expect(request.bodyText.contains("Content-Disposition: form-data; name=\"avatar\"; filename=\"me.png\"\r\nContent-Type: image/png"))
            #expect(request.bodyText.contains("Content-Disposition: form-data; name=\"header\"; filename=\"pond.jpg\"\r\nContent-Type: image/jpeg"))
            let form = try #require(fake.profileForms.last)
            #expect(form.map(\.0) == ["avatar", "header"])
            #expect(form.map(\.1) == ["PNG-ish avatar bytes", "JPEG-ish header bytes"])
            #expect(saved.avatar == "https://files.example/avatars/me.png" && saved.header == "https://files.example/headers/pond.jpg")
        }
    }
}
