import Feedline
import FeedlineMastodon
import FlyingFox
import FlyingSocks
import Foundation

/// The fake's user stream, `GET /api/v1/streaming/user`: server-sent events over a chunked
/// body that stays open until the test drops it, as Mastodon's streaming server serves them
/// (a `:)` line first, then events and `:thump` heartbeats as the test sends them). Off unless a
/// test turns it on: then the route answers 404, as a server without a stream does. The server's
/// description (`GET /api/v2/instance`, `/api/v1/instance`) is served when a test sets one.
extension FakeMastodon {
    static let userStreamPath = "/api/v1/streaming/user"

    struct StreamingState: Sendable {
        /// Whether the user stream is served (else 404).
        var served = false
        /// The open connections' bodies, by the order they were opened in.
        var open: [Int: AsyncThrowingStream<[UInt8], any Error>.Continuation] = [:]
        /// Connections opened so far.
        var opened = 0
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        /// What `GET /api/v2/instance` answers (404 when `nil`).
        var description: Mastodon.Instance?
        /// What `GET /api/v1/instance` answers (404 when `nil`).
        var legacyDescription: Mastodon.Instance?
    }

    /// Serves the user stream from now on.
    func serveStream() {
        state.withLock { $0.streaming.served = true }
    }

    /// Sets what the server's descriptions say (`nil`: 404).
    func describe(v2: Mastodon.Instance?, v1: Mastodon.Instance? = nil) {
        state.withLock { state in
            state.streaming.description = v2
            state.streaming.legacyDescription = v1
        }
    }

    /// User-stream connections opened so far.
    var streamsOpened: Int { state.withLock { $0.streaming.opened } }

    /// Returns once `count` user-stream connections have been opened (at once if they have).
    func waitForStreams(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state in
                if state.streaming.opened >= count { return true }
                state.streaming.waiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Sends one event to every open connection, as `event:` and one `data:` line, cut into
    /// chunks of `chunkSize` bytes (each flushed on its own) when given.
    func streamEvent(_ type: String, _ data: String, chunkSize: Int? = nil) {
        streamBytes(Array("event: \(type)\ndata: \(data)\n\n".utf8), chunkSize: chunkSize)
    }

    /// Sends `status` as an `update` (a new post) or a `status.update` (an edit).
    func streamStatus(_ status: Mastodon.Status, edit: Bool = false, chunkSize: Int? = nil) {
        let json = String(decoding: (try? Mastodon.makeEncoder().encode(status)) ?? Data(), as: UTF8.self)
        streamEvent(edit ? "status.update" : "update", json, chunkSize: chunkSize)
    }

    /// Sends raw bytes (comments, heartbeats, odd framing) to every open connection.
    func streamBytes(_ bytes: [UInt8], chunkSize: Int? = nil) {
        let connections = state.withLock { Array($0.streaming.open.sorted { $0.key < $1.key }.map(\.value)) }
        let size = max(1, chunkSize ?? bytes.count)
        for connection in connections {
            var start = 0
            while start < bytes.count {
                connection.yield(Array(bytes[start..<min(start + size, bytes.count)]))
                start += size
            }
        }
    }

    /// Ends every open connection: cleanly (the chunked body's last chunk) or `abruptly` (the
    /// socket closes mid-body, as when the network breaks).
    func dropStreams(abruptly: Bool = false) {
        let connections = state.withLock { state in
            defer { state.streaming.open = [:] }
            return Array(state.streaming.open.values)
        }
        for connection in connections {
            if abruptly {
                connection.finish(throwing: URLError(.networkConnectionLost))
            } else {
                connection.finish()
            }
        }
    }

    /// The user stream's answer: an open event stream, or 404 when not served.
    func userStream() -> HTTPResponse {
        let (chunks, continuation) = AsyncThrowingStream.makeStream(of: [UInt8].self, throwing: (any Error).self)
        let opened: (Int, [CheckedContinuation<Void, Never>])? = state.withLock { state in
            guard state.streaming.served else { return nil }
            let index = state.streaming.opened
            state.streaming.opened += 1
            state.streaming.open[index] = continuation
            let ready = state.streaming.waiters.filter { $0.count <= state.streaming.opened }.map(\.continuation)
            state.streaming.waiters.removeAll { $0.count <= state.streaming.opened }
            return (index, ready)
        }
        guard let (index, ready) = opened else { return Self.error(404, "Record not found") }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.streaming.open.removeValue(forKey: index) }
        }
        continuation.yield(Array(":)\n".utf8))
        for waiter in ready { waiter.resume() }
        let headers: HTTPHeaders = [
            HTTPHeader("Content-Type"): "text/event-stream",
            HTTPHeader("Cache-Control"): "no-store",
        ]
        return HTTPResponse(statusCode: .ok, headers: headers, body: HTTPBodySequence(from: EventStreamBody(chunks: chunks)))
    }

    /// `GET /api/v2/instance` or `/api/v1/instance`: the description a test set, else 404.
    func serverDescription(version: String) -> HTTPResponse {
        let description = state.withLock { version == "v2" ? $0.streaming.description : $0.streaming.legacyDescription }
        return description.map { Self.json($0) } ?? Self.error(404, "Record not found")
    }
}

/// The bytes of an event stream's body as the test sends them: each chunk the test yields is
/// one buffer, written (as one chunk of the chunked body) as soon as it comes.
struct EventStreamBody: AsyncBufferedSequence, Sendable {
    typealias Element = UInt8

    let chunks: AsyncThrowingStream<[UInt8], any Error>

    func makeAsyncIterator() -> Iterator {
        Iterator(chunks: chunks.makeAsyncIterator())
    }

    struct Iterator: ChunkedBytesIterator {
        typealias Element = UInt8
        typealias Buffer = [UInt8]
        typealias Failure = any Error

        var chunks: AsyncThrowingStream<[UInt8], any Error>.AsyncIterator
        var pending: [UInt8] = []

        mutating func nextChunk() async throws -> [UInt8]? {
            while let chunk = try await chunks.next() {
                if !chunk.isEmpty { return chunk }
            }
            return nil
        }
    }
}

/// A body of `piece` sent `times` times over, made as it is sent (so a 512 MB body costs the
/// server one piece of memory): what a hostile server's endless answer looks like.
struct RepeatedBody: AsyncBufferedSequence, Sendable {
    typealias Element = UInt8

    let piece: [UInt8]
    let times: Int

    func makeAsyncIterator() -> Iterator {
        Iterator(piece: piece, left: times)
    }

    struct Iterator: ChunkedBytesIterator {
        typealias Element = UInt8
        typealias Buffer = [UInt8]
        typealias Failure = any Error

        let piece: [UInt8]
        var left: Int
        var pending: [UInt8] = []

        mutating func nextChunk() async throws -> [UInt8]? {
            guard left > 0, !piece.isEmpty else { return nil }
            left -= 1
            return piece
        }
    }
}

/// A test body's iterator that hands out whole chunks: byte by byte (`next`) or a chunk at a
/// time (`nextBuffer`), from what is left of the last chunk, then ``nextChunk()``.
protocol ChunkedBytesIterator: AsyncBufferedIteratorProtocol where Element == UInt8, Buffer == [UInt8] {
    /// What is left of the chunk `next` started.
    var pending: [UInt8] { get set }
    /// The next non-empty chunk, `nil` at the end.
    mutating func nextChunk() async throws -> [UInt8]?
}

extension ChunkedBytesIterator {
    mutating func next() async throws -> UInt8? {
        if pending.isEmpty {
            guard let buffer = try await nextBuffer(suggested: 1) else { return nil }
            pending = buffer
        }
        return pending.removeFirst()
    }

    mutating func nextBuffer(suggested count: Int) async throws -> [UInt8]? {
        if !pending.isEmpty {
            defer { pending = [] }
            return pending
        }
        return try await nextChunk()
    }
}
