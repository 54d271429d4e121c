import Feedline
import FeedlineJSONL
import FeedlineMastodon
import FeedlineTestSupport
import Foundation
import Testing

/// `block`, `mute` and `follow` of the signed-in account are refused with the core's sentence,
/// before anything leaves a list: no `changes`, no `relationship`, nothing sent.
@MainActor
@Suite("JSON-lines relationships with yourself", .timeLimit(.minutes(10)))
struct JSONLSelfRelationshipTests {
    static let now = Date(timeIntervalSince1970: 1_795_284_000)
    static let you = "109296114702930001"

    @Test("block, mute and follow of yourself are error replies with nothing changed; someone else's block goes ahead")
    func refused() async throws {
        let service = try SandboxService(fixture: try FixtureLoader.load(from: PackagePaths.fixtures("timeline")), clock: VirtualClock(), wallClock: .fixed(Self.now))
        let client = DriverClient(service, now: Self.now)
        await client.start()
        for (command, verb) in [("block", "block"), ("mute", "mute"), ("follow", "follow")] {
            let replies = await client.send(#"{"cmd":"\#(command)","account":"\#(Self.you)","id":7}"#)
            #expect(replies == [#"{"type":"error","message":"You cannot \#(verb) yourself.","id":7}"#], "\(replies)")
        }
        await client.wait()
        #expect(client.written("relationship").isEmpty)
        #expect(client.written("changes").allSatisfy { !$0.contains(#""deleted":[0"#) })
        let other = await client.send(#"{"cmd":"mute","account":"109693300123458809","id":8}"#)
        #expect(other.last == #"{"type":"ok","cmd":"mute","id":8}"#, "\(other)")
    }
}
