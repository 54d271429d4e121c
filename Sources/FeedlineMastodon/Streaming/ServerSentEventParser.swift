/// Reads a `text/event-stream` body in chunks, as they arrive, into ``ServerSentEvent``s, by the
/// WHATWG HTML standard's "event stream interpretation" (§9.2.6):
///
/// - lines end with CR LF, LF or CR — a CR at the end of one chunk and the LF at the start of the
///   next are one line end; a chunk may end anywhere, inside a UTF-8 character too (lines are
///   decoded whole, invalid UTF-8 becoming U+FFFD); one leading byte order mark is skipped;
/// - a line starting with `:` is a comment (Mastodon's `:thump` heartbeats); `field: value`
///   drops one space after the colon; a line without a colon is a field with an empty value;
/// - `event` sets the type, `data` lines join with line feeds, `id` sets the last event id (unless
///   it contains NUL), `retry` (digits only) sets ``reconnectionTime``; other fields are ignored;
/// - a blank line dispatches the event — unless no `data` came, which dispatches nothing;
/// - what follows the last blank line is never dispatched (the standard discards an incomplete
///   event at the end of the stream): a connection that drops mid-event loses only that event.
///
/// A line or event larger than ``maximumEventSize`` bytes is dropped whole instead of growing
/// without bound. The parser never traps on any input.
///
/// - Complexity: O(n) in the bytes given, whatever the chunking.
package struct ServerSentEventParser: Sendable {
    /// The largest line, and the largest event's data, kept (4 MiB); larger ones are dropped.
    package static let maximumEventSize = 4 << 20

    private let limit: Int
    private var line: [UInt8] = []
    private var lineTooLong = false
    private var afterCR = false
    private var atStreamStart = true
    private var data = ""
    private var dataSeen = false
    private var eventTooLarge = false
    private var eventType = ""
    private var lastEventIDBuffer = ""

    /// The last event id the stream set (sent back as `Last-Event-ID` by clients that resume).
    package private(set) var lastEventID = ""
    /// The reconnection time the stream asked for with `retry:`, in milliseconds.
    package private(set) var reconnectionTime: Int?

    /// A parser at the start of a stream; `maximumEventSize` is for tests of the limit.
    package init(maximumEventSize: Int = ServerSentEventParser.maximumEventSize) {
        limit = max(1, maximumEventSize)
    }

    /// The events that `bytes`, the next chunk of the stream, completes, in stream order.
    package mutating func parse(_ bytes: some Sequence<UInt8>) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in bytes {
            switch byte {
            case 0x0A where afterCR:
                afterCR = false
            case 0x0A, 0x0D:
                afterCR = byte == 0x0D
                if let event = endLine() { events.append(event) }
            default:
                afterCR = false
                if line.count < limit {
                    line.append(byte)
                } else {
                    lineTooLong = true
                }
            }
        }
        return events
    }

    // MARK: - Lines

    /// Interprets the line just ended; returns the event a blank line dispatches.
    private mutating func endLine() -> ServerSentEvent? {
        defer {
            line.removeAll(keepingCapacity: line.count <= 4096)
            lineTooLong = false
            atStreamStart = false
        }
        if atStreamStart, line.starts(with: [0xEF, 0xBB, 0xBF]) { line.removeFirst(3) }
        if lineTooLong {
            eventTooLarge = true
            return nil
        }
        guard let first = line.first else { return dispatch() }
        if first == UInt8(ascii: ":") { return nil }
        let colon = line.firstIndex(of: UInt8(ascii: ":"))
        let name = line[..<(colon ?? line.endIndex)]
        var valueStart = colon.map { $0 + 1 } ?? line.endIndex
        if valueStart < line.endIndex, line[valueStart] == UInt8(ascii: " ") { valueStart += 1 }
        let value = line[valueStart...]
        switch String(decoding: name, as: UTF8.self) {
        case "event":
            eventType = String(decoding: value, as: UTF8.self)
        case "data":
            dataSeen = true
            if data.utf8.count + value.count + 1 > limit {
                eventTooLarge = true
            } else {
                data += String(decoding: value, as: UTF8.self)
                data += "\n"
            }
        case "id":
            if !value.contains(0) { lastEventIDBuffer = String(decoding: value, as: UTF8.self) }
        case "retry":
            if !value.isEmpty, value.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
                let milliseconds = Int(String(decoding: value, as: UTF8.self))
            {
                reconnectionTime = milliseconds
            }
        default:
            break
        }
        return nil
    }

    /// A blank line: the event gathered so far, if it has data (and was not too large).
    private mutating func dispatch() -> ServerSentEvent? {
        defer {
            data = ""
            dataSeen = false
            eventType = ""
            eventTooLarge = false
        }
        lastEventID = lastEventIDBuffer
        guard dataSeen, !eventTooLarge else { return nil }
        if data.hasSuffix("\n") { data.removeLast() }
        return ServerSentEvent(type: eventType.isEmpty ? "message" : eventType, data: data, lastEventID: lastEventID)
    }
}
