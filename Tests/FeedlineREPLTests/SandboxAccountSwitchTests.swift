import FeedlineTestSupport
import Foundation
import Testing

/// `account NAME` on the sandbox, through the built binary: the bundled sandbox's scenario lists
/// a second identity, kemi, with a home of her own (`Fixtures/timeline/identities/kemi`). The
/// screens start again on her home, the prompt names her, each identity keeps its own state
/// file and drafts, and a name the sandbox has not is one sentence.
@MainActor
@Suite("Switching identities on the sandbox", .timeLimit(.minutes(10)))
struct SandboxAccountSwitchTests {
    static let flags = ["--fixtures", "Fixtures/timeline", "--now", "2026-11-21T18:00:00Z", "--width", "200", "--no-stream"]

    /// The output of a run reading `input`, which must end well.
    static func run(_ arguments: [String], _ input: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let child = try FeedlineProcess(arguments)
        child.send(bytes: Data(input.utf8))
        child.closeInput()
        let exit = await child.finish()
        let output = String(decoding: child.stdout, as: UTF8.self)
        #expect(exit.status == 0 && !exit.timedOut && exit.stderr.isEmpty, "\(exit.stderr)\n\(output)", sourceLocation: sourceLocation)
        return output
    }

    @Test("account lists you and kemi; account kemi opens her home, named in the prompt; account you goes back")
    func switchesAndBack() async throws {
        let out = try await Self.run(Self.flags + ["--no-state"], "account\naccount k\nwhere\naccount you\nwhere\nquit\n")
        #expect(out.contains("home> account\n* you\n  kemi\n* is the identity you are. account NAME switches"), "\(out)")
        #expect(out.contains("home> account k\nFeedline: the home timeline of kemi from the fixtures in Fixtures/timeline."), "\(out)")
        // Her home, not yours: Inês's larvae and Elin's swans.
        let kemi = out.components(separatedBy: "home> account k\n").last?.components(separatedBy: "kemi@sandbox home> account you").first ?? ""
        #expect(kemi.contains("Inês Duarte") && kemi.contains("whooper swans"), "\(kemi)")
        #expect(!kemi.contains("Sam Whitfield"), "\(kemi)")
        #expect(out.contains("kemi@sandbox home> where\nhome\n"), "\(out)")
        #expect(out.contains("kemi@sandbox home> account you\nFeedline: the home timeline from the fixtures in Fixtures/timeline."), "\(out)")
        #expect(out.hasSuffix("home> quit\n") && !out.hasSuffix("kemi@sandbox home> quit\n"), "\(out.suffix(200))")
    }

    @Test("an unknown name and the identity in use each say one sentence and stay", arguments: [
        ("account carol", "The sandbox has no identity \"carol\"; its identities are you, kemi (account lists them)."),
        ("account you", "You are you already."),
    ])
    func refusals(line: String, sentence: String) async throws {
        let out = try await Self.run(Self.flags + ["--no-state"], "\(line)\nwhere\nquit\n")
        #expect(out.contains("home> \(line)\n\(sentence)\nhome> where\nhome\n"), "\(out)")
    }

    @Test("each identity keeps its own drafts in its own state file: quit, start again, switch, the draft is there")
    func keepsStatePerIdentity() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let state = scratch.file("state").path
        let first = try await Self.run(
            Self.flags + ["--state", state], "account kemi\npost\nA draft of kemi's.\n.back\naccount you\ndrafts\nquit\n"
        )
        #expect(first.contains("1 draft kept: drafts lists it when kemi@sandbox is opened again."), "\(first)")
        let yours = first.components(separatedBy: "home> drafts\n").last ?? ""
        #expect(!yours.contains("A draft of kemi's."), "\(yours)")
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: state)) ?? []).filter { $0.hasSuffix(".sqlite") }.sorted()
        #expect(files == ["sandbox.sqlite", "sandbox@kemi.sqlite"], "\(files)")

        let second = try await Self.run(Self.flags + ["--state", state], "drafts\naccount kemi\ndrafts\nquit\n")
        let segments = second.components(separatedBy: "home> drafts\n")
        #expect(segments.count == 3, "\(second)")
        #expect(segments.dropFirst().first.map { !$0.contains("A draft of kemi's.") } == true, "\(second)")
        #expect(segments.last?.contains("A draft of kemi's.") == true, "\(second)")
    }

    @Test("an identity whose directory is missing: the sentence why, and the session goes on as you, its draft kept without --state")
    func missingIdentity() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let fixtures = try scratch.sandbox("ghostly", scenario: #"{"identities": [{"name": "ghost", "fixtures": "identities/ghost"}]}"#)
        let out = try await Self.run(
            ["--fixtures", fixtures.path, "--no-state", "--width", "300", "--no-stream"], "post\nA draft of yours.\n.back\naccount ghost\nwhere\ndrafts\nquit\n"
        )
        // Nothing was left: no word on drafts, no greeting again; the next line goes on as you.
        #expect(out.contains("home> account ghost\nThe fixture directory \(fixtures.path)/identities/ghost does not exist.\nhome> where\n"), "\(out)")
        #expect(out.contains("\nhome> where\nhome\n"), "\(out)")
        // The session was never closed: the draft, kept only in it, is there.
        #expect(out.components(separatedBy: "home> drafts\n").last?.contains("A draft of yours.") == true, "\(out)")
    }

    @Test("an identity whose directory links out of the sandbox is not read: the sentence why, and the session stays")
    func identityLinkedOutside() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let fixtures = try scratch.sandbox("linking", scenario: #"{"identities": [{"name": "out", "fixtures": "out"}]}"#)
        try FileManager.default.createSymbolicLink(at: fixtures.appendingPathComponent("out"), withDestinationURL: try scratch.sandbox("elsewhere"))
        let out = try await Self.run(["--fixtures", fixtures.path, "--no-state", "--width", "300", "--no-stream"], "account out\nwhere\nquit\n")
        #expect(out.contains("home> account out\nThe identity out's fixtures (out) lead outside \(fixtures.path): an identity's directory must be inside the sandbox's.\nhome> where\n"), "\(out)")
        #expect(out.contains("\nhome> where\nhome\n") && !out.contains("out@sandbox home>"), "\(out)")
    }

    @Test("a scenario's identity must be a name, once, not your own, inside the fixtures", arguments: [
        (#"[{"name": "you", "fixtures": "a"}]"#, "identities[0].name: you is the signed-in account's own"),
        (#"[{"name": "k m", "fixtures": "a"}]"#, "identities[0].name: \"k m\" is not a name"),
        (#"[{"name": "..", "fixtures": "a"}]"#, "identities[0].name: \"..\" is not a name"),
        (#"[{"name": "-k", "fixtures": "a"}]"#, "identities[0].name: \"-k\" is not a name"),
        (#"[{"name": "kemi", "fixtures": "../kemi"}]"#, "identities[0].fixtures: \"../kemi\" is not a directory inside the fixtures"),
        (#"[{"name": "kemi", "fixtures": "a", "colour": "red"}]"#, "colour"),
    ])
    func badIdentities(identities: String, problem: String) async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let fixtures = try scratch.sandbox("bad", scenario: #"{"identities": \#(identities)}"#)
        let (exit, _) = try await FeedlineProcess.run(["--fixtures", fixtures.path, "--no-state"])
        #expect(exit.status != 0)
        #expect(exit.stderr.contains("The scenario file bad/scenario.json is invalid") && exit.stderr.contains(problem), "\(exit.stderr)")
    }
}
