import FeedlineTestSupport
import Foundation
import Testing

/// `feedline --jsonl` end to end through the built binary: commands written to its standard
/// input one at a time, every line of its standard output read and parsed as it comes.
/// `{"cmd":"wait"}` (→ `idle`) synchronises; nothing sleeps.
@MainActor
@Suite("feedline --jsonl through the binary", .timeLimit(.minutes(10)))
struct JSONLBinaryTests {
    /// The sandbox's scenario streams new posts, an edit and a delete after the first commands; these
    /// tests count rows the fixture pages bring, so they run without the stream (its own test below).
    static let flags = ["--jsonl", "--no-stream", "--now", "2026-11-21T18:00:00Z"]

    @Test("a client that applies only the changes messages ends equal to a fresh timeline snapshot")
    func mirror() async throws {
        let client = try Conversation(Self.flags)
        // The greeting, the route stack and the (empty) first snapshot come unasked, in that order.
        let opening = await client.settle()
        #expect(Array(opening.prefix(3).map(\.type)) == ["hello", "routes", "timeline"])
        #expect((opening.first?["commands"] as? [String])?.contains("openGap") == true)
        #expect(client.rowIDs.count == 20)

        // loadMore: its ok comes at once; the page is pushed when it arrives, with no further input.
        client.send(#"{"cmd":"loadMore","id":"more"}"#)
        await client.read { $0.type == "changes" && ($0["count"] as? Int) == 40 }
        #expect(client.messages.contains { $0.type == "ok" && $0.id == "more" })
        await client.settle()

        // Displaying the last rows prefetches the next page.
        let lastRows = client.rowIDs.suffix(3).map { "\"\($0)\"" }.joined(separator: ",")
        await client.command(#"{"cmd":"display","rows":[\#(lastRows)],"id":"seen"}"#, id: "seen")
        await client.settle()
        #expect(client.rowIDs.count == 60)

        // Favourite and boost from the timeline: the post's state is pushed, then settles.
        let first = try #require(client.mirror.rows.first?["post"] as? String)
        let second = try #require(client.mirror.rows.dropFirst().first?["post"] as? String)
        var interactions = await client.command(#"{"cmd":"favourite","post":"\#(first)","id":"f1"}"#, id: "f1")
        // At once, before ok: the row's change and the post's state, optimistic and pending.
        #expect(interactions.map(\.type).sorted { ($0 ?? "") < ($1 ?? "") } == ["changes", "ok", "post"])
        #expect(interactions.last?.type == "ok")
        let optimisticRow = interactions.first { $0.type == "changes" }.flatMap { ($0["updated"] as? [Message])?.first?["row"] as? Message }
        #expect(optimisticRow?["favourited"] as? Bool == true)
        #expect(interactions.first { $0.type == "post" }?["pending"] as? [String] == ["favourite"])
        interactions += await client.command(#"{"cmd":"reblog","post":"\#(second)","id":"r1"}"#, id: "r1")
        interactions += await client.settle()
        let postStates = interactions.filter { $0.type == "post" }
        #expect(postStates.contains { $0["post"] as? String == first && ($0["pending"] as? [String]) == [] && $0["favourited"] as? Bool == true })
        #expect(postStates.contains { $0["post"] as? String == second && $0["reblogged"] as? Bool == true })

        // Refresh: 28 posts arrive, a page of 20 comes above a gap row; opening the gap fills it.
        await client.command(#"{"cmd":"refresh","id":"r"}"#, id: "r")
        await client.settle()
        let gap = try #require(client.mirror.rows.first { $0["kind"] as? String == "gap" }?["id"] as? String)
        #expect(client.rowIDs.firstIndex(of: gap) == 20)
        await client.command(#"{"cmd":"openGap","row":"\#(gap)","id":"g"}"#, id: "g")
        await client.settle()
        #expect(!client.rowIDs.contains(gap))

        // Open the favourited post (now below the arrivals), favourite and boost it from its detail, go back.
        let opened = first
        #expect(client.mirror.rows.firstIndex { $0["post"] as? String == opened } == 28)
        let openReplies = await client.command(#"{"cmd":"open","post":"\#(opened)","id":"o"}"#, id: "o")
        #expect(openReplies.map(\.type).first == "routes")
        #expect(openReplies.last?.type == "ok")
        #expect((openReplies.first?["routes"] as? [Message])?.count == 2)
        await client.settle()
        #expect(client.messages.contains { $0.type == "detail" && $0["post"] as? String == opened && $0["content"] is Message })
        await client.command(#"{"cmd":"favourite","post":"\#(opened)","id":"f2"}"#, id: "f2")
        await client.command(#"{"cmd":"reblog","post":"\#(opened)","id":"r2"}"#, id: "r2")
        let fromDetail = await client.settle()
        let lastDetail = try #require(fromDetail.last { $0.type == "detail" }?["interaction"] as? Message)
        #expect(lastDetail["favourited"] as? Bool == false)  // it was favourited from the timeline: now undone
        #expect(lastDetail["reblogged"] as? Bool == true)
        let back = await client.command(#"{"cmd":"back","id":"b"}"#, id: "b")
        #expect((back.first { $0.type == "routes" }?["routes"] as? [Message])?.count == 1)

        // The mirror, built only from changes, equals a fresh snapshot.
        let snapshot = await client.command(#"{"cmd":"timeline","id":"final"}"#, id: "final")
        let final = try #require(snapshot.first { $0.type == "timeline" && $0.id == "final" })
        let rows = try #require(final["rows"] as? [Message])
        #expect(client.mirrors.problems.isEmpty, "\(client.mirrors.problems)")
        #expect(client.mirror.changesApplied > 10)
        #expect(rows.count == 60 + 28)
        #expect(rows.allSatisfy { $0["kind"] as? String == "post" })
        let difference = firstDifference(client.mirror.rows, rows)
        #expect(difference == nil)
        let openedRow = try #require(rows.first { $0["post"] as? String == opened })
        #expect(openedRow["favourited"] as? Bool == false && openedRow["reblogged"] as? Bool == true)

        let bye = await client.command(#"{"cmd":"quit","id":"q"}"#, id: "q")
        #expect(bye.last?.type == "ok")
        await client.read { $0.type == "bye" }
        let exit = await client.child.finish()
        #expect(exit.status == 0 && !exit.timedOut)
        #expect(exit.stderr.isEmpty)
        #expect(client.strayLines.isEmpty, "not JSON objects: \(client.strayLines)")
    }

    @Test("bad lines get an error line with the command's id and the session goes on; end of input says bye")
    func badLines() async throws {
        let client = try Conversation(Self.flags + ["--fixtures", "Fixtures/faults"])
        await client.settle()
        let rowID = try #require(client.rowIDs.first)
        func next(_ bytes: Data) async -> Message? {
            client.child.send(bytes: bytes)
            return await client.read { _ in true }.last
        }
        func errorLine(_ line: String) async -> Message? { await next(Data((line + "\n").utf8)) }

        #expect(await errorLine("{\"cmd\":")?.type == "error")
        #expect(await errorLine("[\"timeline\"]")?["message"] as? String == #"A command is a JSON object such as {"cmd":"timeline"}."#)
        let unknown = await errorLine(#"{"cmd":"favorite","post":"1","id":41}"#)
        #expect(unknown?.type == "error" && unknown?["id"] as? Int == 41)
        #expect((unknown?["message"] as? String)?.hasPrefix(#"Unknown command "favorite". Did you mean "favourite"?"#) == true)
        let unknownPost = await errorLine(#"{"cmd":"reblog","post":"nope","id":"p"}"#)
        #expect(unknownPost?["message"] as? String == "Unknown post nope: no screen on the stack shows it.")
        #expect(unknownPost?.id == "p")
        let unknownRow = await errorLine(#"{"cmd":"display","rows":["post:nope"],"id":{"n":[1]}}"#)
        #expect(unknownRow?["message"] as? String == "Unknown rows: post:nope.")
        #expect(unknownRow.map { sameJSON($0["id"] ?? NSNull(), ["n": [1]]) } == true)
        #expect(await errorLine(#"{"cmd":"openGap","row":"gap:nope"}"#)?["message"] as? String == "There is no gap gap:nope on screen 0.")
        #expect(await errorLine(#"{"cmd":"openGap","row":"\#(rowID)"}"#)?.type == "error")
        #expect(await errorLine(#"{"cmd":"back","id":null}"#)?["message"] as? String == "Already at the bottom screen.")
        // Invalid UTF-8, alone and inside a string: an error line, never a crash.
        #expect(await next(Data([0xFF, 0xFE, 0x0A]))?["message"] as? String == "The line is not valid JSON.")
        var broken = Data(#"{"cmd":"open","post":""#.utf8)
        broken.append(contentsOf: [0xC3, 0x28])
        broken.append(contentsOf: Data("\"}\n".utf8))
        #expect(await next(broken)?.type == "routes")
        await client.settle()

        // An empty line says nothing: the next message is the reply to the command after it.
        let count = client.messages.count
        client.send("")
        client.send("   ")
        let reply = await client.command(#"{"cmd":"back","id":"after-blank"}"#, id: "after-blank")
        #expect(reply.first?.type == "routes")
        #expect(client.messages[count...].allSatisfy { $0.type != "error" })

        // The session goes on: a snapshot with the echoed id.
        client.send(#"{"cmd":"timeline","id":7}"#)
        let snapshot = await client.read { $0.type == "ok" }
        #expect(snapshot.map(\.type) == ["timeline", "ok"])
        #expect(snapshot.allSatisfy { $0["id"] as? Int == 7 })

        // End of input: what runs finishes, then bye, exit 0.
        client.send(#"{"cmd":"loadMore"}"#)
        client.child.closeInput()
        let tail = await client.read { $0.type == "bye" }
        #expect(tail.contains { $0.type == "changes" && ($0["status"] as? Message)?["loading"] is NSNull })
        let exit = await client.child.finish()
        #expect(exit.status == 0 && !exit.timedOut && exit.stderr.isEmpty)
        #expect(client.messages.last?.type == "bye")
        #expect(client.strayLines.isEmpty, "not JSON objects: \(client.strayLines)")
    }

    @Test("quit answers ok and bye, ignores the lines after it and exits 0")
    func quit() async throws {
        let child = try FeedlineProcess(Self.flags)
        child.send(#"{"cmd":"quit","id":"q"}"#)
        child.send(#"{"cmd":"timeline","id":"late"}"#)
        child.closeInput()
        let exit = await child.finish()
        #expect(exit.status == 0 && !exit.timedOut && exit.stderr.isEmpty)
        let lines = String(decoding: child.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(Array(lines.suffix(2)) == [#"{"type":"ok","cmd":"quit","id":"q"}"#, #"{"type":"bye","unsent":[],"kept":false}"#])
        #expect(!lines.contains { $0.contains(#""id":"late""#) })
    }

    @Test("fixtures that cannot be read: exit 1, one sentence on stderr, nothing on stdout")
    func unreadableFixtures() async throws {
        let (exit, stdout) = try await FeedlineProcess.run(Self.flags + ["--fixtures", "/nonexistent"])
        #expect(exit.status == 1 && !exit.timedOut)
        #expect(stdout.isEmpty)
        #expect(exit.stderr == "The fixture directory /nonexistent does not exist.\n")
    }

    @Test("the worked example in Docs/JSONL.md is what the binary prints (… stands for trimmed text)")
    func documentedExample() async throws {
        let doc = try String(contentsOf: PackagePaths.root().appendingPathComponent("Docs/JSONL.md"), encoding: .utf8)
        let example = try #require(doc.components(separatedBy: "## Example session").last)
        let blocks = example.components(separatedBy: "```").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        try #require(blocks.count >= 2)
        let commands = blocks[0].split(separator: "\n").compactMap { line -> String? in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("'{") || trimmed.hasPrefix("'not"), let end = trimmed.lastIndex(of: "'") else { return nil }
            return String(trimmed[trimmed.index(after: trimmed.startIndex)..<end])
        }
        #expect(blocks[0].contains("--jsonl --no-stream --now 2026-11-21T18:00:00Z --posts-per-page 3"))
        let documented = blocks[1].split(separator: "\n").map(String.init)
        let child = try FeedlineProcess(["--jsonl", "--no-stream", "--now", "2026-11-21T18:00:00Z", "--posts-per-page", "3"])
        for command in commands { child.send(command) }
        child.closeInput()
        let exit = await child.finish()
        #expect(exit.status == 0)
        let actual = String(decoding: child.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(actual.count == documented.count)
        // Requests in flight at once may finish in either order (a hashtag's page and its header,
        // as the document says): between two `idle` lines, each line the binary prints fits one
        // documented line of that stretch, in any order; the stretches themselves are in order.
        var index = 0
        for (real, shown) in zip(Self.stretches(actual), Self.stretches(documented)) {
            var left = shown
            for line in real {
                index += 1
                guard let match = left.firstIndex(where: { Self.fits(line, $0) }) else {
                    Issue.record("line \(index) of the example differs from the binary's: \(line.prefix(160))")
                    continue
                }
                left.remove(at: match)
            }
        }
    }

    /// `lines` cut after each `idle` line: what may come in either order lies within one stretch.
    static func stretches(_ lines: [String]) -> [[String]] {
        var stretches: [[String]] = [[]]
        for line in lines {
            stretches[stretches.count - 1].append(line)
            if line.hasPrefix(#"{"type":"idle""#) { stretches.append([]) }
        }
        return stretches
    }

    /// Whether `real` is the documented line `shown`, where … stands for trimmed text: each piece
    /// between ellipses appears in order; the ends match exactly.
    static func fits(_ real: String, _ shown: String) -> Bool {
        let pieces = shown.components(separatedBy: "…")
        var rest = Substring(real)
        guard rest.hasPrefix(pieces[0]), rest.hasSuffix(pieces[pieces.count - 1]) else { return false }
        for piece in pieces where !piece.isEmpty {
            guard let range = rest.range(of: piece) else { return false }
            rest = rest[range.upperBound...]
        }
        return true
    }

    @Test("--help points to the protocol document")
    func help() async throws {
        let (exit, stdout) = try await FeedlineProcess.run(["--help"])
        #expect(exit.status == 0)
        #expect(stdout.contains("--jsonl") && stdout.contains("Docs/JSONL.md"))
    }
}

/// `--jsonl --state DIR`: what a client learns of saved state — rows restored from the last run
/// marked `unconfirmed` until an answer confirms them, and a favourite the server could not take
/// `queued` (issue 14).
@MainActor
@Suite("feedline --jsonl with a state directory", .timeLimit(.minutes(10)))
struct JSONLStateTests {
    @Test("restored rows come unconfirmed, a changes message confirms them, and the mirror ends equal to a fresh snapshot")
    func restoredRows() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("feedline-jsonl-state-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let flags = JSONLBinaryTests.flags + ["--state", directory.path]
        let first = try Conversation(flags)
        await first.settle()
        let shown = first.rowIDs.prefix(3).map { "\"\($0)\"" }.joined(separator: ",")
        await first.command(#"{"cmd":"display","rows":[\#(shown)],"id":"seen"}"#, id: "seen")
        await first.command(#"{"cmd":"quit","id":"q"}"#, id: "q")
        _ = await first.child.finish()

        let second = try Conversation(flags)
        let opening = await second.settle()
        let timeline = try #require(opening.first { $0.type == "timeline" })
        let restored = try #require(timeline["rows"] as? [Message])
        #expect(restored.count == 20, "the saved rows, before any answer")
        #expect(restored.allSatisfy { $0["unconfirmed"] as? Bool == true || $0["kind"] as? String != "post" })
        let confirmed = opening.filter { $0.type == "changes" }.flatMap { $0["confirmed"] as? [String] ?? [] }
        #expect(confirmed.contains(try #require(restored.first?["id"] as? String)), "the catch-up confirms the first screen")
        let fresh = await second.command(#"{"cmd":"timeline","id":"t"}"#, id: "t").first { $0.type == "timeline" }
        let freshRows = try #require(fresh?["rows"] as? [Message])
        #expect(sameJSON(second.mirror.rows, freshRows), "\(firstDifference(second.mirror.rows, freshRows) ?? "")")
        #expect(second.mirror.problems.isEmpty)
    }

    @Test("a favourite the server cannot take is queued, and still queued at the next start")
    func queued() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("feedline-jsonl-state-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        // The faults fixture: favouriting the third row's post always fails with HTTP 500.
        let flags = JSONLBinaryTests.flags + ["--fixtures", "Fixtures/faults", "--state", directory.path]
        let first = try Conversation(flags)
        await first.settle()
        let post = try #require(first.mirror.rows.dropFirst(2).first?["original"] as? String)
        await first.command(#"{"cmd":"favourite","post":"\#(post)","id":"f"}"#, id: "f")
        let states = await first.settle().filter { $0.type == "post" && $0["post"] as? String == post }
        #expect(states.last?["queued"] as? [String] == ["favourite"], "\(states)")
        #expect(states.last?["favourited"] as? Bool == true, "kept, not rolled back")
        await first.command(#"{"cmd":"quit","id":"q"}"#, id: "q")
        _ = await first.child.finish()

        let second = try Conversation(flags)
        await second.settle()
        let row = second.mirror.rows.first { $0["original"] as? String == post }
        #expect(row?["queued"] as? [String] == ["favourite"], "\(String(describing: row))")
    }
}
