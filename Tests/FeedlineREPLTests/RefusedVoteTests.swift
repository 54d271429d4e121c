@_spi(FeedService) import Feedline
import FeedlineREPL
import FeedlineTestSupport
import Foundation
import Testing

/// A vote the server refuses, as the REPL says it: the poll shows the choice at once, then the
/// server's poll again, and one sentence names the post and gives the server's words.
@MainActor
@Suite("REPL vote the server refuses", .timeLimit(.minutes(10)))
struct RefusedVoteTests {
    @Test("vote N C refused: the sentence names the row's post and gives the server's words; the post's screen shows no vote")
    func refused() async throws {
        let server = GatedServer.refusingVotes()
        let session = FeedSession(service: server, clock: .fixed(Date(timeIntervalSince1970: 1_795_284_000)), retryClock: ManualClock())
        let output = OutputBuffer()
        let driver = REPLDriver(session: session, options: .init(pageSize: 5, width: 200)) { output.write($0) }
        driver.start()
        await session.settle()
        driver.flush()
        #expect(output.take().contains("Tea or coffee?"))

        driver.handle("vote 1 2")
        await session.settle()
        driver.flush()
        let said = output.take()
        #expect(said.contains("Your vote in the poll of row 1's post did not count: Validation failed: You have already voted on this poll"), "\(said)")
        #expect(server.calls(.vote).count == 1)

        driver.handle("open 1")
        await session.settle()
        driver.flush()
        let screen = output.take()
        #expect(screen.contains("2. • Coffee — 1 vote"), "\(screen)")
        #expect(!screen.contains("you voted"), "\(screen)")
    }
}
