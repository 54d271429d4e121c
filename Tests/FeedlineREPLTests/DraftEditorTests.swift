import Feedline
import FeedlineREPL
import Foundation
import Testing

@Suite("Writing a draft in an editor")
struct DraftEditorTests {
    @Test("VISUAL wins over EDITOR; blank ones do not count")
    func command() {
        #expect(DraftEditor.command(in: ["VISUAL": "code -w", "EDITOR": "vi"]) == "code -w")
        #expect(DraftEditor.command(in: ["VISUAL": "  ", "EDITOR": "nano"]) == "nano")
        #expect(DraftEditor.command(in: [:]) == nil)
    }

    @Test("the file holds the text, then the marker and the context; what is above the marker comes back, blank edges trimmed")
    func roundTrip() {
        let file = DraftEditor.file(text: "#hashtag at the start\nsecond line", context: ["reply to @ana", "Save and quit."])
        #expect(file == "#hashtag at the start\nsecond line\n\n\(DraftEditor.marker)\n# reply to @ana\n# Save and quit.\n")
        #expect(DraftEditor.text(of: file) == "#hashtag at the start\nsecond line")
        #expect(DraftEditor.text(of: "\n\nno marker at all\n\n") == "no marker at all")
        #expect(DraftEditor.text(of: DraftEditor.file(text: "", context: ["x"])) == "")
    }

    @Test("runs the command on the file and reads back what it left; a failing editor leaves the draft as it was")
    func runs() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("feedline-editor-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let edited = DraftEditor.edit(
            text: "old", context: ["ctx"], name: "1", command: "sed -i -e 's/old/new text/'", directory: directory
        )
        #expect(edited == .success("new text"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty, "the file is removed")
        let failed = DraftEditor.edit(text: "old", context: [], name: "2", command: "exit 3 ||", directory: directory)
        guard case .failure(let failure) = failed else { Issue.record("a failing editor succeeded"); return }
        #expect(failure.message == "The editor (exit 3 ||) exited with status 3; the draft is as it was.")
    }
}
