@_spi(FeedService) import Feedline
import FeedlineREPL
import FeedlineTestSupport
import Foundation
import Testing

/// `block`, `mute` and `follow` of the account you are signed in as are refused before anything
/// leaves a screen, as `delete` refuses other people's posts.
@MainActor
@Suite("Relationships with yourself")
struct SelfRelationshipTests {
    @Test("block, mute and follow of yourself are refused with a sentence; your posts stay on every screen and nothing is sent")
    func refused() async throws {
        let session = try SessionFactory.session("timeline")
        let script = ["profile @you", "list all", "block --yes", "mute", "follow", "list all", "back", "where"]
        let transcript = await ScriptRunner.transcript(of: script.joined(separator: "\n"), session: session, options: .init(pageSize: 40, width: 100))
        #expect(transcript.contains("@you> block --yes\nYou cannot block yourself. (@you is the account you are signed in as.)\n"), "\(transcript)")
        #expect(transcript.contains("@you> mute\nYou cannot mute yourself."))
        #expect(transcript.contains("@you> follow\nYou cannot follow yourself."))
        #expect(!transcript.contains("Blocking @you") && !transcript.contains("Muting @you") && !transcript.contains("removed: post by You"))
        // The profile lists the same posts before and after.
        let listings = transcript.components(separatedBy: "@you> list all\n").dropFirst().map { $0.components(separatedBy: "@you> ").first ?? "" }
        #expect(listings.count == 2)
        #expect(listings.first == listings.last)
        #expect(session.relationships.relationship(AccountID("109296114702930001"))?.relationship.blocking != true)
    }
}
