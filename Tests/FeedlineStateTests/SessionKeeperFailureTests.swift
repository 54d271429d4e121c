@_spi(FeedService) import Feedline
import FeedlineState
import FeedlineTestSupport
import Foundation
import Testing

/// A save that fails mid-session (issue 32): said once, in one sentence that does not contradict
/// itself; the draft stays in the session and is saved at the next chance; ``SessionKeeper/unwritten()``
/// — what a front asks before it says "kept" — is true to the file.
@MainActor
@Suite("The state keeper when the file cannot be written")
struct SessionKeeperFailureTests {
    /// A service that only says who is signed in (a draft loads that); any other call fails the test.
    static func accountOnly(sourceLocation: SourceLocation = #_sourceLocation) -> GatedServer {
        GatedServer(me: Author(id: "1", displayName: "Ada", handle: "ada"), answering: [.composeSettings], sourceLocation: sourceLocation)
    }

    @Test("disk full mid-draft: said once; the draft stays and is saved at the first change once there is room, which is said; unwritten() follows the file")
    func diskFullMidDraft() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("feedline-keeper-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try StateStore.open(directory: directory, server: "sandbox", account: nil)
        let session = FeedSession(service: Self.accountOnly(), clock: .fixed(Date(timeIntervalSince1970: 1_795_284_000)))
        var said: [String] = []
        let keeper = SessionKeeper(store: store, session: session, markerService: nil, clock: ContinuousClock()) { said.append($0) }
        await keeper.restore(markerWait: nil)

        let drafts = session.drafts
        let id = drafts.startPost()
        drafts.update(id) { $0.text = "Frogs at dawn." }
        await session.settle()
        #expect(try store.loadDrafts().map(\.draft.text) == ["Frogs at dawn."])
        #expect(keeper.unwritten() == nil)

        // The disk fills: a long line needs pages the file may not take.
        try store.capFileSize()
        let long = String(repeating: "newts ", count: 20_000)
        drafts.update(id) { $0.text += "\n" + long }
        drafts.update(id) { $0.text += "\nand more" }
        #expect(said == ["Could not save to \(store.file.path), the disk is full: what you write stays in this session and is saved at the next change once there is room."])
        #expect(try store.loadDrafts().map(\.draft.text) == ["Frogs at dawn."], "the file holds the last draft it could take")
        #expect(drafts[id]?.draft.text == "Frogs at dawn.\n" + long + "\nand more", "the session keeps every line")
        #expect(keeper.unwritten() == "\(store.file.path) could not be written (said above)")
        #expect(said.count == 1, "said once: \(said)")

        // Room again: the next change saves everything, and that is said once.
        try store.uncapFileSize()
        drafts.update(id) { $0.text += "\nthe end" }
        #expect(try store.loadDrafts().map(\.draft.text) == ["Frogs at dawn.\n" + long + "\nand more\nthe end"])
        #expect(said.last == "Saved to \(store.file.path) again: nothing kept in this session is lost.")
        #expect(said.count == 2)
        #expect(keeper.unwritten() == nil)
        await keeper.finish()
    }
}
