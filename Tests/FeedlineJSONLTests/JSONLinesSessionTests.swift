@_spi(FeedService) import Feedline
import FeedlineJSONL
@_spi(FeedService) import FeedlineMastodon
import Foundation
import Testing

@MainActor
@Suite("JSON-lines session loop", .timeLimit(.minutes(10)))
struct JSONLinesSessionTests {
    final class Output {
        var lines: [String] = []
        var types: [String] {
            lines.compactMap { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["type"] as? String
            }
        }
    }

    private func session() throws -> FeedSession {
        var url = URL(fileURLWithPath: #filePath)
        while !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
            guard url.pathComponents.count > 1 else { throw CocoaError(.fileNoSuchFile) }
            url.deleteLastPathComponent()
        }
        let fixture = try FixtureLoader.load(from: url.appendingPathComponent("Fixtures/timeline"))
        return FeedSession(service: try SandboxService(fixture: fixture, clock: VirtualClock()), clock: .fixed(Date(timeIntervalSince1970: 1_795_348_800)), retryClock: ManualClock())
    }

    private func lines(_ items: [String]) -> AsyncStream<String> {
        AsyncStream { continuation in
            items.forEach { continuation.yield($0) }
            continuation.finish()
        }
    }

    @Test("end of input lets running work finish, writes its changes, then bye")
    func endOfInput() async throws {
        let output = Output()
        let quit = await JSONLinesSession.run(session: try session(), lines: lines([#"{"cmd":"loadMore"}"#])) {
            output.lines.append($0)
        }
        #expect(!quit)
        #expect(output.types.first == "hello")
        #expect(output.types.last == "bye")
        // The first page and the next one both arrived before bye.
        #expect(output.types.filter { $0 == "changes" }.count >= 2)
        #expect(output.lines.allSatisfy { !$0.contains("\n") })
    }

    @Test("quit ends the loop at once and ignores the lines after it")
    func quitStops() async throws {
        let output = Output()
        let quit = await JSONLinesSession.run(
            session: try session(),
            lines: lines([#"{"cmd":"quit","id":1}"#, #"{"cmd":"timeline","id":2}"#])
        ) { output.lines.append($0) }
        #expect(quit)
        #expect(output.types.last == "bye")
        #expect(!output.lines.contains { $0.contains(#""id":2"#) })
    }
}
