@_spi(FeedService) import Feedline
@testable @_spi(FeedService) import FeedlineREPL
import Foundation
import Testing

/// `profile edit` as typed and in `$EDITOR`: its options parse (and a misuse is one sentence),
/// the editor's text reads back (a line it cannot read sends nothing), and an edit goes through
/// the session on the sandbox — the sandbox's own account changes.
@MainActor
@Suite("profile edit")
struct ProfileEditREPLTests {
    static func parsed(_ line: String) -> ProfileEditCommand? {
        if case .success(.profileEdit(let command)) = CommandParser.parse(line) { return command }
        return nil
    }

    static func failure(_ line: String) -> String? {
        if case .failure(let error) = CommandParser.parse(line) { return error.message }
        return nil
    }

    @Test("every option as typed, fields in order; the text parses back; alone it is the editor")
    func options() throws {
        let command = try #require(Self.parsed(#"profile  edit --name "Ada L." --bio Birds --field Pronouns=she/her --field "Home=north shore" --locked on --BOT off --discoverable ON"#))
        guard case .options(let options) = command else {
            Issue.record("not options: \(command)")
            return
        }
        #expect(options.edit.displayName == "Ada L." && options.edit.bio == "Birds")
        #expect(options.edit.fields == [Profile.Field(name: "Pronouns", value: "she/her"), Profile.Field(name: "Home", value: "north shore")])
        #expect(options.edit.locked == true && options.edit.bot == false && options.edit.discoverable == true)
        #expect(CommandParser.parse(command.text) == .success(.profileEdit(command)), "text parses back")
        #expect(Self.parsed("profile edit") == .editor)
        #expect(Self.parsed("profile edit --no-fields").map { if case .options(let o) = $0 { o.edit.fields == [] } else { false } } == true)
    }

    @Test("a misuse is one sentence, naming the usage")
    func misuse() {
        #expect(Self.failure("profile edit --locked maybe") == "--locked takes on or off, not \"maybe\".")
        #expect(Self.failure("profile edit --field nameless") == "--field takes NAME=VALUE, not \"nameless\"; for example: --field Pronouns=she/her.")
        #expect(Self.failure("profile edit --name") == "--name needs a value, for example: --name \"Ada Lovelace\".")
        #expect(Self.failure("profile edit --colour green") == "profile edit does not take \"--colour\"; usage: \(CommandParser.profileEditUsage).")
    }

    @Test("the editor's text reads back; a line it cannot read is named, with nothing read")
    func editorText() throws {
        let profile = OwnProfile(
            author: Author(id: "1", displayName: "Ada", handle: "ada"), bio: "Line one\nLine two", fields: [Profile.Field(name: "Home", value: "a=b")], locked: true
        )
        let text = ProfileText.text(of: profile)
        #expect(text == "Name: Ada\nBio: Line one\nBio: Line two\nField: Home=a=b\nLocked: on\nBot: off\nDiscoverable: off")
        #expect(try ProfileText.read(text, over: profile).get() == profile)
        #expect(try ProfileText.read("Name: Ada\n# a note\n\nField: X=1\nBot: on", over: profile).get().fields == [Profile.Field(name: "X", value: "1")])
        guard case .failure(let error) = ProfileText.read("Name: Ada\nColour: green", over: profile) else {
            Issue.record("an unknown line was read")
            return
        }
        #expect(error.line == 2)
        #expect(error.message.hasPrefix("Line 2 of your profile cannot be read: \"Colour: green\"."))
        #expect(error.message.hasSuffix("Nothing was sent."))
    }

    /// A driver on the timeline sandbox whose editor turns the text it is given into `edit(text)`.
    static func start(editing edit: @escaping (String) -> String) async throws -> DriverHarness {
        let session = try SessionFactory.session("timeline")
        let output = OutputBuffer()
        var options = REPLDriver.Options(pageSize: 10, width: 200)
        options.editor = { text, _, _ in .success(edit(text)) }
        let driver = REPLDriver(session: session, options: options) { output.write($0) }
        driver.start()
        await session.settle()
        driver.flush()
        _ = output.take()
        return DriverHarness(session: session, driver: driver, output: output)
    }

    @Test("profile edit alone opens the profile in the editor and sends what changed; the sandbox's account changes")
    func editorSends() async throws {
        let harness = try await Self.start { text in
            text.replacingOccurrences(of: "Name: You", with: "Name: You, by the pond") + "\nField: Pronouns=they/them"
        }
        let output = await harness.run("profile edit")
        #expect(output.contains("Changing your profile: the name You, by the pond, 1 field…"))
        #expect(output.contains("Done: your profile is saved."))
        let saved = try #require(harness.session.shownOwnProfile)
        #expect(saved.author.displayName == "You, by the pond" && saved.fields.last == Profile.Field(name: "Pronouns", value: "they/them"))
        #expect(!harness.session.ownProfile.isPending)
    }

    @Test("an editor's unreadable line, or no change, sends nothing")
    func editorSendsNothing() async throws {
        let unreadable = try await Self.start { $0 + "\nColour: green" }
        #expect(await unreadable.run("profile edit").contains("cannot be read: \"Colour: green\""))
        let same = try await Self.start { $0 }
        #expect(await same.run("profile edit").contains("Nothing changed; nothing was sent."))
        for harness in [unreadable, same] {
            #expect(harness.session.shownOwnProfile?.author.displayName == "You")
            #expect(!harness.session.ownProfile.isPending)
        }
    }

    @Test("--avatar and --header: a missing file, or one that is not an image, is refused before anything is sent; an image is sent")
    func images() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("feedline-profile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = directory.appendingPathComponent("notes.png")
        try Data("just words".utf8).write(to: text)
        let png = directory.appendingPathComponent("me.png")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0]).write(to: png)
        // Wide, so that no sentence is wrapped; its editor is never opened.
        let harness = try await Self.start { $0 }
        let missing = directory.appendingPathComponent("gone.png").path
        #expect(await harness.run("profile edit --avatar \(missing)").contains("There is no file \(missing) to use as your avatar; nothing was sent."))
        #expect(await harness.run("profile edit --header \(text.path)").contains("is not an image (PNG, JPEG, GIF or WebP) for your header image; nothing was sent."))
        #expect(harness.session.shownOwnProfile == nil, "nothing loaded, nothing sent")
        let sent = await harness.run("profile edit --avatar \(png.path)")
        #expect(sent.contains("Changing your profile: a new avatar…"))
        #expect(sent.contains("Done: your profile is saved."))
        #expect(harness.session.shownOwnProfile?.avatar == "https://sandbox.invalid/avatars/me.png")
        #expect(ProfileImage.problem("x", for: "avatar", exists: true, firstBytes: nil) == "Cannot read the file x for your avatar; nothing was sent.")
        #expect(ProfileImage.problem("x", for: "avatar", exists: true, firstBytes: Array("RIFF\0\0\0\0WEBP".utf8)) == nil)
    }
}
