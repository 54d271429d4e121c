@_spi(FeedService) import Feedline
import FeedlineJSONL
import FeedlineTestSupport
import Foundation
import Testing

/// A JSON-lines driver on a session of `server`, home at the bottom, a retry clock that never
/// moves: what every driver test sends its lines through and reads its replies from.
@MainActor
class DriverClient<Server: FeedService> {
    let server: Server
    let session: FeedSession
    private(set) var driver: JSONLinesDriver!
    /// Every line written, but `outcome` messages unless `hearsOutcomes` (see ``outcomes``).
    private(set) var lines: [String] = []
    /// Every `outcome` message written, in order.
    private(set) var outcomes: [String] = []

    /// `hearsOutcomes`: whether `outcome` messages are among ``lines`` (a test of where they
    /// come) or only in ``outcomes`` (a test of the other messages).
    init(_ server: Server, now: Date, hearsOutcomes: Bool = false) {
        self.server = server
        session = FeedSession(service: server, clock: .fixed(now), retryClock: ManualClock())
        driver = JSONLinesDriver(session: session) { [weak self] line in
            if line.hasPrefix(#"{"type":"outcome""#) {
                self?.outcomes.append(line)
                if !hearsOutcomes { return }
            }
            self?.lines.append(line)
        }
    }

    /// Starts the driver and waits for home's first page.
    func start() async {
        driver.start()
        await wait()
    }

    /// Handles `line`; returns the lines it wrote (its replies through `ok` or `error`).
    @discardableResult
    func send(_ line: String) async -> [String] {
        let start = lines.count
        _ = await driver.handle(line)
        return Array(lines[start...])
    }

    /// Sends `wait`; returns what was written before its `idle`.
    @discardableResult
    func wait(sourceLocation: SourceLocation = #_sourceLocation) async -> [String] {
        let written = await send(#"{"cmd":"wait","id":"w"}"#)
        #expect(written.suffix(2) == [#"{"type":"idle","id":"w"}"#, #"{"type":"ok","cmd":"wait","id":"w"}"#], sourceLocation: sourceLocation)
        return Array(written.dropLast(2))
    }

    /// A client's rows of each screen, built only from the `timeline` and `changes` written so
    /// far; every one must equal a fresh snapshot.
    func mirrors(sourceLocation: SourceLocation = #_sourceLocation) async throws -> StackMirror {
        var mirrors = StackMirror()
        for line in lines { mirrors.consume(WritingClient.object(line)) }
        #expect(mirrors.problems.isEmpty, sourceLocation: sourceLocation)
        for (screen, mirror) in mirrors.screens {
            let reply = await send(#"{"cmd":"timeline","screen":\#(screen),"id":"snapshot"}"#)
            let rows = try #require(WritingClient.object(reply[0])["rows"] as? [Message], sourceLocation: sourceLocation)
            #expect(firstDifference(mirror.rows, rows) == nil, sourceLocation: sourceLocation)
        }
        return mirrors
    }

    /// The ids of the rows of `screen`'s mirror.
    func rowIDs(_ screen: Int, sourceLocation: SourceLocation = #_sourceLocation) async throws -> [String] {
        try await mirrors(sourceLocation: sourceLocation)[screen].rows.compactMap { $0["id"] as? String }
    }

    /// Every message of type `type` written so far.
    func written(_ type: String) -> [String] {
        lines.filter { WritingClient.object($0)["type"] as? String == type }
    }
}
