import Feedline
import FlyingFox
import FlyingSocks
import Foundation

/// A FlyingFox server on 127.0.0.1, on a port the system picks: the start and stop the writing
/// test servers share.
final class LoopbackListener: Sendable {
    private let server: HTTPServer
    private let running: Locked<Task<Void, any Error>?> = Locked(nil)

    init(handler: some HTTPHandler) throws {
        server = HTTPServer(address: try .inet(ip4: "127.0.0.1", port: 0), timeout: 24 * 3600, logger: .disabled, handler: handler)
    }

    /// Starts listening; returns the base address.
    func start() async throws -> URL {
        let server = server
        running.withLock { $0 = Task { try await server.run() } }
        // A hang guard, not a speed bar: under ThreadSanitizer with every suite running at once on
        // two cores, the server's task can wait over a minute for a thread (CI saw 60 s run out).
        try await server.waitUntilListening(timeout: 600)
        guard case .ip4(_, let port)? = await server.listeningAddress, let url = URL(string: "http://127.0.0.1:\(port)") else {
            throw URLError(.cannotConnectToHost)
        }
        return url
    }

    func stop() async {
        await server.stop()
        running.withLock { $0?.cancel() }
    }
}
