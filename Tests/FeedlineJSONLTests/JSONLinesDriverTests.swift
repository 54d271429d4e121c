@_spi(FeedService) import Feedline
import FeedlineJSONL
@_spi(FeedService) import FeedlineMastodon
import FeedlineTestSupport
import Foundation
import Testing

/// A protocol client that knows nothing of Feedline's types: it reads the JSON lines and rebuilds
/// one list screen's rows purely from its `timeline` and `changes` messages.
struct RowMirror {
    /// The index of the list screen followed (messages of other screens are skipped).
    var screen = 0
    var rows: [[String: Any]] = []
    var problems: [String] = []

    mutating func consume(_ message: [String: Any]) {
        guard message["screen"] as? Int == screen else { return }
        switch message["type"] as? String {
        case "timeline":
            if message["id"] == nil { rows = message["rows"] as? [[String: Any]] ?? [] }
        case "changes":
            apply(message)
        default: break
        }
    }

    /// UIKit batch-update semantics: deletions and move sources at old indices, insertions and
    /// move destinations at new indices, then updates.
    private mutating func apply(_ message: [String: Any]) {
        let deleted = Set(message["deleted"] as? [Int] ?? [])
        let inserted = message["inserted"] as? [[String: Any]] ?? []
        let moved = message["moved"] as? [[String: Int]] ?? []
        let updated = message["updated"] as? [[String: Any]] ?? []
        let count = message["count"] as? Int ?? -1
        let sources = Set(moved.compactMap { $0["from"] })
        var kept = rows.enumerated().filter { !deleted.contains($0.offset) && !sources.contains($0.offset) }.map(\.element)
        var placed: [Int: [String: Any]] = [:]
        for insertion in inserted {
            if let index = insertion["index"] as? Int, let row = insertion["row"] as? [String: Any] { placed[index] = row }
        }
        for move in moved {
            if let from = move["from"], let to = move["to"], rows.indices.contains(from) { placed[to] = rows[from] }
        }
        var result: [[String: Any]] = []
        for slot in 0..<count {
            if let row = placed[slot] {
                result.append(row)
            } else if !kept.isEmpty {
                result.append(kept.removeFirst())
            } else {
                problems.append("changes do not fit: slot \(slot) of \(count)")
                return
            }
        }
        if !kept.isEmpty { problems.append("\(kept.count) rows left over") }
        for update in updated {
            if let index = update["index"] as? Int, let row = update["row"] as? [String: Any], result.indices.contains(index) {
                result[index] = row
            }
        }
        rows = result
    }
}

@MainActor
@Suite("JSON-lines driver", .timeLimit(.minutes(10)))
struct JSONLinesDriverTests {
    final class Output {
        var lines: [String] = []
        var messages: [[String: Any]] {
            lines.compactMap { line in
                line.data(using: .utf8).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
            }
        }
    }

    private func fixtures(_ name: String) throws -> URL {
        var url = URL(fileURLWithPath: #filePath)
        while url.pathComponents.count > 1 {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
                return url.appendingPathComponent("Fixtures").appendingPathComponent(name)
            }
        }
        throw CocoaError(.fileNoSuchFile)
    }

    private func makeDriver(_ folder: String) throws -> (JSONLinesDriver, Output, FeedSession) {
        let service = try SandboxService(fixture: try FixtureLoader.load(from: fixtures(folder)), clock: VirtualClock())
        // Queued interactions are sent again only by retry: the retry clock never moves.
        let session = FeedSession(service: service, clock: .fixed(Date(timeIntervalSince1970: 1_795_348_800)), retryClock: ManualClock())
        let output = Output()
        let driver = JSONLinesDriver(session: session) { output.lines.append($0) }
        return (driver, output, session)
    }

    @Test("a consumer that applies every changeset ends equal to a fresh snapshot")
    func mirror() async throws {
        let (driver, output, _) = try makeDriver("timeline")
        driver.start()
        var commands = [#"{"cmd":"wait"}"#]
        commands += [#"{"cmd":"loadMore"}"#, #"{"cmd":"wait"}"#]
        commands += [#"{"cmd":"refresh"}"#, #"{"cmd":"wait"}"#]
        for line in commands { _ = await driver.handle(line) }
        // Display the last rows (prefetch), favourite a post, open the gap, boost from a detail.
        let rowsNow = output.messages.last { $0["type"] as? String == "changes" }
        #expect(rowsNow != nil)
        var mirror = RowMirror()
        output.messages.forEach { mirror.consume($0) }
        let lastID = try #require(mirror.rows.last?["id"] as? String)
        let gapID = try #require(mirror.rows.first { $0["kind"] as? String == "gap" }?["id"] as? String)
        let postID = try #require(mirror.rows.first?["post"] as? String)
        for line in [
            #"{"cmd":"display","rows":["\#(lastID)"]}"#, #"{"cmd":"wait"}"#,
            #"{"cmd":"favourite","post":"\#(postID)"}"#, #"{"cmd":"wait"}"#,
            #"{"cmd":"openGap","row":"\#(gapID)","id":"g"}"#, #"{"cmd":"wait"}"#,
            #"{"cmd":"open","post":"\#(postID)"}"#, #"{"cmd":"reblog","post":"\#(postID)"}"#, #"{"cmd":"wait"}"#,
            #"{"cmd":"back"}"#, #"{"cmd":"timeline","id":"final"}"#,
        ] {
            _ = await driver.handle(line)
        }
        mirror = RowMirror()
        output.messages.forEach { mirror.consume($0) }
        #expect(mirror.problems.isEmpty)
        let final = try #require(output.messages.last { $0["id"] as? String == "final" && $0["type"] as? String == "timeline" })
        let snapshotRows = try #require(final["rows"] as? [[String: Any]])
        #expect(mirror.rows.count == snapshotRows.count)
        #expect(NSArray(array: mirror.rows).isEqual(to: snapshotRows))
        #expect(snapshotRows.count == 60 + 28)  // three pages and every arrival
        #expect(snapshotRows.allSatisfy { $0["kind"] as? String == "post" })
        let first = try #require(snapshotRows.first)
        #expect(first["favourited"] as? Bool == true && first["reblogged"] as? Bool == true)
        // The ids were echoed.
        #expect(output.messages.contains { $0["type"] as? String == "ok" && $0["id"] as? String == "g" })
    }

    @Test("routes, post state and detail messages are pushed as they change")
    func pushes() async throws {
        let (driver, output, session) = try makeDriver("faults")
        driver.start()
        _ = await driver.handle(#"{"cmd":"wait"}"#)
        let types = output.messages.compactMap { $0["type"] as? String }
        #expect(Array(types.prefix(3)) == ["hello", "routes", "timeline"])
        // Find the post whose favourite always fails for lack of a connection, then favourite it
        // from its detail: it stays favourited and pending (queued in the outbox).
        let target = "117649322034651655"
        for _ in 0..<5 where session.store.post(PostID(target)) == nil {
            _ = await driver.handle(#"{"cmd":"loadMore"}"#)
            _ = await driver.handle(#"{"cmd":"wait"}"#)
        }
        output.lines.removeAll()
        _ = await driver.handle(#"{"cmd":"open","post":"\#(target)"}"#)
        _ = await driver.handle(#"{"cmd":"favourite","post":"\#(target)","id":1}"#)
        _ = await driver.handle(#"{"cmd":"wait","id":2}"#)
        let messages = output.messages
        let routes = messages.first { $0["type"] as? String == "routes" }?["routes"] as? [[String: Any]]
        #expect(routes?.count == 2)
        let postStates = messages.filter { $0["type"] as? String == "post" && $0["post"] as? String == target }
        #expect(postStates.first?["favourited"] as? Bool == true)
        #expect(postStates.first?["pending"] as? [String] == ["favourite"])
        #expect(postStates.last?["favourited"] as? Bool == true)
        #expect(postStates.last?["pending"] as? [String] == ["favourite"])
        #expect(postStates.last?["error"] is NSNull)
        #expect(messages.contains { $0["type"] as? String == "detail" && $0["post"] as? String == target })
        let tail = messages.suffix(2).map { "\($0["type"] ?? "")/\($0["id"] ?? "")" }
        #expect(tail == ["idle/2", "ok/2"])
    }

    @Test("retry retries everything still failed: the post on top's loads and the timeline's page beneath")
    func retryOnDetail() async throws {
        let (driver, output, session) = try makeDriver("faults")
        driver.start()
        _ = await driver.handle(#"{"cmd":"wait"}"#)
        // The faults fixture's second page fails once: the timeline has a failure to retry too.
        _ = await driver.handle(#"{"cmd":"loadMore"}"#)
        _ = await driver.handle(#"{"cmd":"wait"}"#)
        #expect(session.root.status.failure != nil)
        _ = await driver.handle(#"{"cmd":"open","post":"nope"}"#)
        _ = await driver.handle(#"{"cmd":"wait"}"#)
        #expect(output.messages.last { $0["type"] as? String == "detail" }?["error"] as? String == "Record not found")
        output.lines.removeAll()
        _ = await driver.handle(#"{"cmd":"retry","id":"r"}"#)
        let replies = output.messages.map { $0["type"] as? String ?? "" }
        // At once: the detail loads again, and the timeline beneath loads its failed page again.
        #expect(replies.contains("detail") && replies.contains("changes") && replies.last == "ok")
        #expect(output.messages.first { $0["type"] as? String == "detail" }?["loading"] as? Bool == true)
        _ = await driver.handle(#"{"cmd":"wait"}"#)
        #expect(output.messages.last { $0["type"] as? String == "detail" }?["error"] as? String == "Record not found")
        let status = output.messages.last { $0["type"] as? String == "changes" }?["status"] as? [String: Any]
        #expect(status?["failure"] is NSNull)
        #expect(output.messages.contains { ($0["inserted"] as? [Any])?.isEmpty == false })
        // Nothing failed on the timeline any more: back there, retry retries only the detail's
        // loads if it were still open — it is not, so nothing runs.
        _ = await driver.handle(#"{"cmd":"back"}"#)
        output.lines.removeAll()
        _ = await driver.handle(#"{"cmd":"retry"}"#)
        _ = await driver.handle(#"{"cmd":"wait"}"#)
        #expect(!output.messages.contains { $0["type"] as? String == "changes" })
    }

    @Test("an error quotes what it was sent cut to 40 characters and …, however long it was: a 200 KB command name, post id, gap or row list")
    func errorsQuoteShortly() async throws {
        let (driver, output, _) = try makeDriver("faults")
        driver.start()
        _ = await driver.handle(#"{"cmd":"wait"}"#)
        output.lines.removeAll()
        let huge = String(repeating: "x", count: 200_000)
        let cut = String(repeating: "x", count: 40) + "…"
        let rows = (1...30).map { "\"post:\($0)\(huge.prefix(50))\"" }.joined(separator: ",")
        for line in [
            #"{"cmd":"\#(huge)"}"#, #"{"cmd":"favourite","post":"\#(huge)"}"#, #"{"cmd":"show","post":"\#(huge)"}"#,
            #"{"cmd":"openGap","row":"gap:\#(huge)"}"#, #"{"cmd":"display","rows":[\#(rows)]}"#,
            #"{"cmd":"display","rows":["\#(huge)"]}"#, #"{"cmd":"push","route":{"route":"\#(huge)"}}"#,
            #"{"cmd":"loadMore","screen":"\#(huge)"}"#,
        ] {
            #expect(await driver.handle(line))
        }
        let messages = output.messages.filter { $0["type"] as? String == "error" }.map { $0["message"] as? String ?? "" }
        #expect(messages.count == 8)
        // The unknown command's sentence lists every command, which grows with the features: the
        // bound is that list and a few lines more, however long the input was.
        #expect(messages.allSatisfy { $0.count < JSONLCommandTests.commandList.count + 200 }, "\(messages.map(\.count))")
        #expect(messages.first?.hasPrefix("Unknown command \"\(cut)\". Commands: accept, acceptNotificationRequest, addToList, back,") == true, "\(messages.first?.prefix(120) ?? "")")
        #expect(messages.dropFirst().first == "Unknown post \(cut): no screen on the stack shows it.")
        #expect(messages.dropFirst(3).first == "There is no gap gap:\(String(repeating: "x", count: 36))… on screen 0.")
        #expect(messages.dropFirst(4).first?.hasSuffix(" and 20 more.") == true, "\(messages.dropFirst(4).first ?? "")")
    }

    @Test("malformed lines, unknown commands and unknown ids get an error line; the session goes on")
    func errors() async throws {
        let (driver, output, _) = try makeDriver("faults")
        driver.start()
        _ = await driver.handle(#"{"cmd":"wait"}"#)
        output.lines.removeAll()
        for line in [
            "garbage", #"{"cmd":"fav","id":9}"#, #"{"cmd":"favourite","post":"nope"}"#,
            #"{"cmd":"display","rows":["post:nope"]}"#, #"{"cmd":"openGap","row":"gap:nope"}"#, #"{"cmd":"back"}"#, "",
        ] {
            #expect(await driver.handle(line))
        }
        let errors = output.messages.filter { $0["type"] as? String == "error" }
        #expect(errors.count == 6)
        #expect(errors[1]["id"] as? Int == 9)
        #expect(errors.map { $0["message"] as? String ?? "" }[2] == "Unknown post nope: no screen on the stack shows it.")
        #expect(await driver.handle(#"{"cmd":"quit"}"#) == false)
        #expect(output.messages.last?["type"] as? String == "bye")
    }
}
