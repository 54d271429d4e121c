import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The HTTP transport end to end (issue 33): the real `feedline` binary against a server on
/// 127.0.0.1 that answers the public timeline with generated pages (ids counting down, a
/// `Link` to the next page, keep-alive), timed (1) from launch to the first row printed and
/// (2) over a script of 1,000 `more`, each loading one page of 20 posts. With `--baseline PATH`
/// the older binary takes its turn in the same rotation, so the two transports are compared in
/// one run against the same server.
enum LoopbackBench {
    static let pages = 1_000
    static let postsPerPage = 20

    static func run(binary: String, baseline: String?, _ options: Options) -> [Result] {
        let names = ("loopback.start to first rows", "loopback.1,000-page scroll")
        progress("loopback server")
        func skipped(_ reason: String) -> [Result] { [Result(name: names.0, skipped: reason), Result(name: names.1, skipped: reason)] }
        guard FileManager.default.isExecutableFile(atPath: binary) else { return skipped("feedline binary not found at \(binary)") }
        guard let template = statusTemplate() else { return skipped("no status to copy in Fixtures/timeline") }
        guard let server = TimelineServer(template: template) else { return skipped("could not listen on 127.0.0.1") }
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("feedline-bench-loopback-\(UUID().uuidString)", isDirectory: true)
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("scroll.feedline")
        let body = "# args: --now 2026-11-21T18:00:00Z --width 80\n" + String(repeating: "more\n", count: pages - 1) + "quit\n"
        guard (try? body.write(to: script, atomically: true, encoding: .utf8)) != nil else { return skipped("could not write the script") }
        let common = [
            "--server", "http://127.0.0.1:\(server.port)", "--timeline", "public", "--no-state", "--no-stream",
            "--page-size", String(postsPerPage), "--posts-per-page", String(postsPerPage),
        ]
        var environment = Spawn.feedlineEnvironment()
        environment["FEEDLINE_TOKEN"] = nil
        let binaries = [("ours", binary)] + (baseline.map { [("baseline", $0)] } ?? [])
        var first = [[Double]](repeating: [], count: binaries.count)
        var scroll = [[Double]](repeating: [], count: binaries.count)
        for round in 0..<(1 + options.rounds(9, quick: 2)) {
            for index in binaries.indices.map({ ($0 + round) % binaries.count }) {
                let path = binaries[index].1
                switch StartBench.firstRow(path, common + ["--now", "2026-11-21T18:00:00Z", "--width", "80"]) {
                case .failure(let message): return skipped("\(binaries[index].0): \(message)")
                case .success(let milliseconds): if round > 0 { first[index].append(milliseconds) }
                }
            }
        }
        for round in 0..<(1 + options.rounds(3, quick: 1)) {
            for index in binaries.indices.map({ ($0 + round) % binaries.count }) {
                let before = server.requests
                guard let outcome = Spawn.run(binaries[index].1, common + ["--script", script.path], environment: environment), outcome.status == 0 else {
                    return skipped("\(binaries[index].0) did not finish the scroll")
                }
                guard server.requests - before >= pages else { return skipped("\(binaries[index].0) asked \(server.requests - before) pages, not \(pages)") }
                if round > 0 { scroll[index].append(outcome.milliseconds) }
            }
        }
        return [
            Result(name: names.0, oursMilliseconds: median(first[0]), peer: baseline == nil ? nil : "baseline binary",
                   peerMilliseconds: baseline == nil ? nil : median(first[1]),
                   note: "launch to row 1 of the public timeline from 127.0.0.1 (a page of \(postsPerPage), --no-stream, --no-state)"),
            Result(name: names.1, oursMilliseconds: median(scroll[0]), peer: baseline == nil ? nil : "baseline binary",
                   peerMilliseconds: baseline == nil ? nil : median(scroll[1]),
                   note: "--script of \(pages) commands, each loading one page of \(postsPerPage) posts from 127.0.0.1, launch to exit"),
        ]
    }

    /// The first status of the bundled timeline, as JSON with its id replaced by `__ID__`.
    private static func statusTemplate() -> String? {
        let folder = ScriptStartBench.root.appendingPathComponent("Fixtures/timeline")
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path).filter({ $0.hasPrefix("home-") }).sorted(),
            let name = names.first, let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path),
            let list = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]], var status = list.first
        else { return nil }
        status["id"] = "__ID__"
        status["in_reply_to_id"] = NSNull()
        status["in_reply_to_account_id"] = NSNull()
        guard let encoded = try? JSONSerialization.data(withJSONObject: status) else { return nil }
        return String(decoding: encoded, as: UTF8.self)
    }
}

/// A Mastodon public timeline on 127.0.0.1, endless: `GET /api/v1/timelines/public?limit=N`
/// (and `max_id=M`) answers N copies of one status with ids counting down below M, and a `Link`
/// to the next page. One thread accepts, one per connection answers (keep-alive); anything else
/// is a 404.
final class TimelineServer: @unchecked Sendable {
    // @unchecked: `listener` is set once in init; `count` is behind `lock`.
    let port: Int
    private let listener: Int32
    private let template: String
    private let lock = NSLock()
    private var count = 0

    init?(template: String) {
        self.template = template
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { return nil }
        var yes: Int32 = 1
        setsockopt(socketFD, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(socketFD, 64) == 0 else {
            close(socketFD)
            return nil
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketFD, $0, &length) }
        }
        listener = socketFD
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in accept() }
        thread.start()
    }

    var requests: Int { lock.withLock { count } }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func accept() {
        while true {
            let client = Glibc.accept(listener, nil, nil)
            guard client >= 0 else { return }
            let thread = Thread { [self] in serve(client) }
            thread.start()
        }
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        var pending = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            // One request head (no request here has a body).
            while !pending.containsHeadEnd {
                let read = recv(client, &buffer, buffer.count, 0)
                guard read > 0 else { return }
                pending += buffer[0..<read]
            }
            guard let end = pending.headEnd else { return }
            let head = String(decoding: pending[0..<end], as: UTF8.self)
            pending.removeFirst(end + 4)
            lock.withLock { count += 1 }
            let response = answer(head)
            var sent = 0
            let bytes = Array(response.utf8)
            while sent < bytes.count {
                let wrote = bytes[sent...].withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                guard wrote > 0 else { return }
                sent += wrote
            }
        }
    }

    private func answer(_ head: String) -> String {
        let target = head.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
        guard let components = URLComponents(string: target), components.path == "/api/v1/timelines/public" else {
            return "HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nContent-Length: 31\r\n\r\n{\"error\":\"Record not found\"}  "
        }
        let items = components.queryItems ?? []
        let limit = items.first { $0.name == "limit" }?.value.flatMap(Int.init) ?? 20
        let below = items.first { $0.name == "max_id" }?.value.flatMap(Int.init) ?? 1_000_000_000_000
        let ids = (1...max(1, min(limit, 40))).map { below - $0 }
        let body = "[" + ids.map { template.replacingOccurrences(of: "__ID__", with: String($0)) }.joined(separator: ",") + "]"
        let next = "http://127.0.0.1:\(port)/api/v1/timelines/public?limit=\(limit)&max_id=\(ids.last ?? 0)"
        return "HTTP/1.1 200 OK\r\nContent-Type: application/json; charset=utf-8\r\nLink: <\(next)>; rel=\"next\"\r\n"
            + "Content-Length: \(body.utf8.count)\r\n\r\n" + body
    }
}

private extension Array where Element == UInt8 {
    /// Where the first `\r\n\r\n` starts.
    var headEnd: Int? {
        guard count >= 4 else { return nil }
        for index in 0...(count - 4) where self[index] == 13 && self[index + 1] == 10 && self[index + 2] == 13 && self[index + 3] == 10 {
            return index
        }
        return nil
    }

    var containsHeadEnd: Bool { headEnd != nil }
}
