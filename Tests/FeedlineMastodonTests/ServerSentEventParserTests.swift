import FeedlineMastodon
import FeedlineTestSupport
import Foundation
import Testing

/// The `text/event-stream` parser, by the WHATWG standard's interpretation: framing, fields,
/// comments, and — the law that matters for a network stream — the same events whichever way
/// the bytes are cut into chunks.
@Suite("Server-sent events parser")
struct ServerSentEventParserTests {
    /// The events of `text` given whole.
    private func events(_ text: String, parser: inout ServerSentEventParser) -> [ServerSentEvent] {
        parser.parse(Array(text.utf8))
    }

    private func events(_ text: String) -> [ServerSentEvent] {
        var parser = ServerSentEventParser()
        return events(text, parser: &parser)
    }

    /// The events of `bytes` fed in the chunks that `cuts` (ascending offsets) make.
    private func events(_ bytes: [UInt8], cutAt cuts: [Int]) -> [ServerSentEvent] {
        var parser = ServerSentEventParser()
        var events: [ServerSentEvent] = []
        var start = 0
        for cut in cuts + [bytes.count] where cut >= start {
            events += parser.parse(bytes[start..<cut])
            start = cut
        }
        return events
    }

    // MARK: - Framing

    @Test("an event is its fields up to a blank line; the type defaults to message")
    func framing() {
        #expect(events("event: update\ndata: {\"id\":\"1\"}\n\n") == [ServerSentEvent(type: "update", data: #"{"id":"1"}"#)])
        #expect(events("data: hello\n\n") == [ServerSentEvent(type: "message", data: "hello")])
        #expect(
            events("event: a\ndata: 1\n\nevent: b\ndata: 2\n\n")
                == [ServerSentEvent(type: "a", data: "1"), ServerSentEvent(type: "b", data: "2")]
        )
    }

    @Test("lines end with LF, CR LF or CR, mixed freely")
    func lineEnds() {
        let expected = [ServerSentEvent(type: "update", data: "a\nb")]
        #expect(events("event: update\ndata: a\ndata: b\n\n") == expected)
        #expect(events("event: update\r\ndata: a\r\ndata: b\r\n\r\n") == expected)
        #expect(events("event: update\rdata: a\rdata: b\r\r") == expected)
        #expect(events("event: update\r\ndata: a\rdata: b\n\r\n") == expected)
    }

    @Test("a blank line without data dispatches nothing, and its type does not leak into the next event")
    func noData() {
        #expect(events("event: update\n\n").isEmpty)
        #expect(events("\n\n\n").isEmpty)
        #expect(events("event: update\n\ndata: x\n\n") == [ServerSentEvent(type: "message", data: "x")])
        #expect(events("id: 3\n\n").isEmpty)
    }

    @Test("comments (Mastodon's :thump heartbeats) are ignored, between events and inside one")
    func comments() {
        #expect(events(":thump\n\n:)\n").isEmpty)
        #expect(events(":thump\nevent: delete\n: a comment\ndata: 42\n\n:thump\n") == [ServerSentEvent(type: "delete", data: "42")])
    }

    @Test("data lines join with line feeds, one space after the colon is dropped, a bare name is an empty value")
    func fields() {
        #expect(events("data: {\ndata: \"a\": 1\ndata: }\n\n") == [ServerSentEvent(data: "{\n\"a\": 1\n}")])
        #expect(events("data:x\n\n") == [ServerSentEvent(data: "x")])
        #expect(events("data:  x \n\n") == [ServerSentEvent(data: " x ")])
        #expect(events("data\n\n") == [ServerSentEvent(data: "")])
        #expect(events("data:\ndata:\n\n") == [ServerSentEvent(data: "\n")])
        #expect(events("data: a:b: c\n\n") == [ServerSentEvent(data: "a:b: c")])
        #expect(events("event:update\ndata: 1\n\n") == [ServerSentEvent(type: "update", data: "1")])
        #expect(events("Data: x\n\n").isEmpty, "field names are case-sensitive")
    }

    @Test("unknown fields are ignored; an unknown event type is still an event (the decoder ignores it)")
    func unknownFields() {
        #expect(events("foo: bar\ndata: x\nbaz\n\n") == [ServerSentEvent(data: "x")])
        #expect(events("event: filters_changed\ndata: \n\n") == [ServerSentEvent(type: "filters_changed", data: "")])
    }

    @Test("id sets the last event id for this and later events, unless it holds NUL; retry takes digits only")
    func idAndRetry() {
        var parser = ServerSentEventParser()
        let first = events("id: 7\ndata: a\n\ndata: b\n\nid: x\0y\ndata: c\n\n", parser: &parser)
        #expect(first.map(\.lastEventID) == ["7", "7", "7"])
        #expect(parser.lastEventID == "7")
        #expect(events("id\ndata: d\n\n", parser: &parser).map(\.lastEventID) == [""])
        #expect(parser.reconnectionTime == nil)
        _ = events("retry: 2500\n", parser: &parser)
        #expect(parser.reconnectionTime == 2500)
        for ignored in ["retry: 2.5\n", "retry: -1\n", "retry: \n", "retry: 1e3\n", "retry: +5\n", "retry: 99999999999999999999999\n"] {
            _ = events(ignored, parser: &parser)
            #expect(parser.reconnectionTime == 2500, "\(ignored.debugDescription) must be ignored")
        }
    }

    @Test("one byte order mark at the very start is skipped, and only there")
    func byteOrderMark() {
        #expect(events("\u{FEFF}data: x\n\n") == [ServerSentEvent(data: "x")])
        let bytes = Array("\u{FEFF}data: x\n\n".utf8)
        for cut in 1..<4 {
            #expect(events(bytes, cutAt: [cut]) == [ServerSentEvent(data: "x")], "a mark cut after byte \(cut)")
        }
        #expect(events("data: a\n\n\u{FEFF}data: b\n\n") == [ServerSentEvent(data: "a")], "a later mark makes an unknown field")
        #expect(events("data: \u{FEFF}x\n\n") == [ServerSentEvent(data: "\u{FEFF}x")])
    }

    @Test("an event the stream ends in the middle of is never dispatched")
    func incompleteAtEnd() {
        #expect(events("data: x\n").isEmpty)
        #expect(events("data: x").isEmpty)
        #expect(events("data: a\n\ndata: b\r").map(\.data) == ["a"])
    }

    @Test("invalid UTF-8 becomes U+FFFD; nothing traps")
    func invalidUTF8() {
        var parser = ServerSentEventParser()
        let bytes: [UInt8] = Array("data: a".utf8) + [0xFF, 0xC3] + Array("\nevent: \u{1F426}".utf8) + [0xE2, 0x82] + Array("\n\n".utf8)
        #expect(parser.parse(bytes) == [ServerSentEvent(type: "\u{1F426}\u{FFFD}", data: "a\u{FFFD}\u{FFFD}")])
    }

    @Test("a line or event over the size limit is dropped whole; the stream goes on")
    func sizeLimit() {
        var parser = ServerSentEventParser(maximumEventSize: 16)
        let text = "data: \(String(repeating: "x", count: 40))\n\ndata: ok\n\n"
            + "data: 0123456789\ndata: 0123456789\n\ndata: fine\n\n"
        #expect(events(text, parser: &parser).map(\.data) == ["ok", "fine"])
    }

    // MARK: - Chunk boundaries

    /// A stream with every feature: CR LF, lone CR, multi-byte characters, comments, ids.
    private static let sample = "\u{FEFF}:)\r\nevent: update\r\ndata: {\"content\":\"café 🐦 ünïcödé\"}\r\n\r\n"
        + ":thump\nevent: delete\ndata: 109\r\rid: 5\nevent: status.update\ndata: {\"a\":\ndata: \"ü\"}\n\n"
        + "event: notification\rdata: 日本語\r\n\r\nevent: announcement\ndata: x\n\n"

    @Test("the same events whichever single byte offset the stream is cut at, inside characters and between CR and LF too")
    func everyCut() {
        let bytes = Array(Self.sample.utf8)
        let whole = events(bytes, cutAt: [])
        #expect(whole.map(\.type) == ["update", "delete", "status.update", "notification", "announcement"])
        #expect(whole[0].data == "{\"content\":\"café 🐦 ünïcödé\"}")
        #expect(whole[2].data == "{\"a\":\n\"ü\"}" && whole[2].lastEventID == "5")
        for cut in 0...bytes.count {
            #expect(events(bytes, cutAt: [cut]) == whole, "cut at byte \(cut)")
        }
        for cut in 0..<bytes.count - 1 {
            #expect(events(bytes, cutAt: [cut, cut + 1]) == whole, "a one-byte chunk at \(cut)")
        }
    }

    @Test("a CR ending one chunk and the LF starting the next are one line end, not a blank line")
    func carriageReturnAcrossChunks() {
        var parser = ServerSentEventParser()
        #expect(parser.parse(Array("data: a\r".utf8)).isEmpty)
        #expect(parser.parse(Array("\ndata: b\r".utf8)).isEmpty)
        #expect(parser.parse(Array("\n\r".utf8)) == [ServerSentEvent(data: "a\nb")])
        #expect(parser.parse(Array("\n".utf8)).isEmpty, "the LF after the CR that dispatched is not another line")
    }

    @Test("byte by byte, and cut at random into many chunks, the events are the same (seeded)")
    func randomChunks() {
        let bytes = Array(Self.sample.utf8)
        let whole = events(bytes, cutAt: [])
        #expect(events(bytes, cutAt: Array(1..<bytes.count)) == whole)
        let seed = testSeed(0x55E)
        var generator = SeededGenerator(seed: seed)
        for round in 0..<300 {
            let cuts = (0..<(1 + generator.next(below: 12))).map { _ in generator.next(below: bytes.count + 1) }.sorted()
            #expect(events(bytes, cutAt: cuts) == whole, "seed \(seed), round \(round), cuts \(cuts)")
        }
    }

    @Test("random bytes never trap, and give the same events however they are cut (seeded)")
    func randomBytes() {
        let seed = testSeed(0xB17E5)
        var generator = SeededGenerator(seed: seed)
        let alphabet: [UInt8] = Array("data:event: id\r\n\n:xé".utf8) + [0xFF, 0x00, 0xF0, 0x9F]
        for round in 0..<300 {
            let bytes = (0..<generator.next(below: 200)).map { _ in alphabet[generator.next(below: alphabet.count)] }
            let whole = events(bytes, cutAt: [])
            let cuts = (0..<generator.next(below: 6)).map { _ in generator.next(below: bytes.count + 1) }.sorted()
            #expect(events(bytes, cutAt: cuts) == whole, "seed \(seed), round \(round)")
        }
    }
}
