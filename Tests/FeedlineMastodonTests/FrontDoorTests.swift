import Feedline
import FeedlineMastodon
import FeedlineTestSupport
import Foundation
import Testing

/// A front imports `Feedline` and `FeedlineMastodon` without the service SPI (this file does not
/// import it): it makes a session on the sandbox, reads rows and taps, and never names a service
/// protocol, a page or a store-change value.
@MainActor
@Suite("The front door")
struct FrontDoorTests {
    @Test("a session made on a server without the SPI loads, shows and toggles posts")
    func sessionOnAServer() async throws {
        let fixture = try FixtureLoader.load(from: FixturePaths.directory("timeline"))
        let server = try SandboxService(fixture: fixture, clock: VirtualClock())
        let session = FeedSession(server: server, clock: .fixed(Date(timeIntervalSince1970: 1_795_348_800)), retryClock: ManualClock())
        let home = session.root
        home.appeared()
        await session.settle()
        #expect(home.rows.count == 20)
        let first = try #require(home.rows.first?.post)
        #expect(!first.interaction.favourited)
        home.toggle(.favourite, row: home.rows[home.rows.startIndex].id)
        #expect(home.rows.first?.post?.interaction.favourited == true)
        await session.settle()
        #expect(home.rows.first?.post?.interaction.favourited == true)
        #expect(session.hasFailures == false)
    }
}
