import Feedline
@testable import FeedlineMastodon
import FeedlineTestSupport
import FlyingFox
import FlyingSocks
import Foundation
import Testing

/// The built binary with `--state` against a Mastodon server, killed with SIGKILL while it
/// posts: the next start loses no draft and makes no post twice. Drafts and submissions are
/// saved before `Sending:` is printed, and each submission carries one `Idempotency-Key`
/// across attempts and restarts; the fake server honours the key as Mastodon does (the same key
/// answers the same status), so the server's count of statuses per text is the count of posts
/// the user would see.
///
/// Every wait is for an event (a line of output, a request at the server, the child's end); the
/// deadlines are FeedlineProcess's watchdog and the suite's time limit, safety nets only.
@MainActor
@Suite("Drafts across SIGKILL against a Mastodon server", .timeLimit(.minutes(30)))
struct HTTPDraftsKillTests {
    /// How many kills the seeded loop makes: `FEEDLINE_KILL_RUNS` when set, else 20 (each run
    /// starts the binary at least twice).
    static let killRuns = ProcessInfo.processInfo.environment["FEEDLINE_KILL_RUNS"].flatMap(Int.init) ?? 20

    /// When the first run is killed.
    enum Moment: String, CaseIterable, Sendable, CustomTestStringConvertible {
        /// The moment `Sending:` is on standard output (the request may or may not have left).
        case sendingShown
        /// Once `Sending:` is shown and the server holds the request (it has made the post, and
        /// never answers).
        case requestHeld

        var testDescription: String {
            switch self {
            case .sendingShown: "the moment Sending: is printed"
            case .requestHeld: "once the server holds the POST it made a status of"
            }
        }
    }

    @Test(
        "killed (SIGKILL) when Sending: is printed, the next start sends the post with the same Idempotency-Key and it is posted once",
        arguments: Moment.allCases
    )
    func killedWhenSending(_ moment: Moment) async throws {
        let server = try KillServer()
        let base = try await server.start()
        let scratch = try Scratch()
        defer { scratch.remove() }
        let text = "killed mid-send"
        // Every new POST is made into a status and then never answered while the first run lives.
        server.setPolicy(.holdNew)

        // `post` alone and `.discard` load the account's settings first, so `post TEXT` prints
        // `Sending:` at once, before its answer (which never comes).
        let first = try Self.start(base, state: scratch.url, input: "post\n.discard\npost \(text)\ndrafts\nquit\n")
        let shown = await first.waitForOutput(containing: "Sending: \"\(text)\"")
        if moment == .requestHeld, shown {
            let held = await server.waitForHeld(1, within: .seconds(Deadlines.event))
            #expect(held, "the server never got the POST: \(String(decoding: first.stdout, as: UTF8.self))")
        }
        kill(first.processIdentifier, SIGKILL)
        let killed = await first.finish()
        let firstOutput = String(decoding: first.stdout, as: UTF8.self)
        try #require(shown, "the first run never showed Sending: \(firstOutput) \(killed.stderr)")
        #expect(!firstOutput.contains("Posted:"), "the server never answered: \(firstOutput)")
        // The server answers from now on (a POST of the killed run still on its way is answered too).
        server.setPolicy(.answer)
        await server.releaseHeld()

        let second = try await Self.run(base, state: scratch.url, input: "retry\ndrafts\nquit\n")
        #expect(second.exit.status == 0 && !second.exit.timedOut, "\(second.exit.stderr) \(second.output)")
        #expect(second.exit.stderr.isEmpty, "\(second.exit.stderr)")
        #expect(second.output.contains("Posted: \"\(text)\""), "\(second.output)")
        #expect(Self.listing(second.output) == ["No drafts, and nothing on its way."], "\(second.output)")

        let posts = server.posts
        try #require(!posts.isEmpty, "the post was never sent: \(second.output)")
        if moment == .requestHeld { #expect(posts.count == 2, "one attempt per run: \(posts)") }
        let key = try #require(posts.first?.key, "the first attempt carries an Idempotency-Key")
        #expect(!key.isEmpty)
        #expect(posts.allSatisfy { $0.key == key }, "every attempt carries the first one's key: \(posts)")
        #expect(posts.allSatisfy { $0.text == text })
        #expect(server.made.map(\.text) == [text], "posted exactly once: \(server.made)")

        // A third start sends nothing more.
        let third = try await Self.run(base, state: scratch.url, input: "drafts\nquit\n")
        #expect(third.exit.status == 0, "\(third.exit.stderr)")
        #expect(Self.listing(third.output) == ["No drafts, and nothing on its way."], "\(third.output)")
        #expect(server.posts.count == posts.count, "nothing is sent again: \(server.posts)")
        #expect(server.unexpected.isEmpty, "requests the fake does not serve: \(server.unexpected)")
        await server.stop()
    }

    @Test("killed (SIGKILL) after a random number of output lines while posting, every text shown as Sending is posted exactly once, with one key")
    func killedAtRandomLines() async throws {
        let seed = testSeed(0x5345_4E44)
        print("SIGKILL runs while posting: \(Self.killRuns) from seed \(seed) (FEEDLINE_SEED replays; FEEDLINE_KILL_RUNS sets the count)")
        var random = SeededGenerator(seed: seed)
        let server = try KillServer()
        let base = try await server.start()
        let scratch = try Scratch()
        defer { scratch.remove() }
        var restarts = 0
        var killedRuns = 0
        var heldKills = 0
        var leftDrafts: [String] = []

        for run in 0..<Self.killRuns {
            let state = scratch.file("state-\(run)")
            let texts = ["one", "two", "three", "four"].map { "\($0)-\(run)" }
            let script = "post \(texts[0])\npost \(texts[1])\nretry\npost \(texts[2])\npost \(texts[3])\nretry\ndrafts\nquit\n"
            // A POST is answered, refused for now (503), made and its answer lost (503), or made
            // and held while the server kills the child: by the text and the attempt, from the seed.
            server.setPolicy(.seeded(seed, holds: true))
            let child = try Self.start(base, state: state, input: script)
            server.setVictim(child.processIdentifier)
            let killAt = 1 + random.next(below: 34)
            var lines = 0
            while lines < killAt, await child.nextLine() != nil { lines += 1 }
            let killedByServer = server.setVictim(nil)
            if lines >= killAt, !killedByServer { kill(child.processIdentifier, SIGKILL) }
            let first = await child.finish()
            if killedByServer { heldKills += 1 }
            if lines >= killAt || killedByServer { killedRuns += 1 }
            var outputs = [String(decoding: child.stdout, as: UTF8.self)]
            #expect(!first.timedOut, "run \(run) (seed \(seed)): the first run hung: \(outputs[0])")
            server.setPolicy(.seeded(seed, holds: false))
            await server.releaseHeld()

            // Started again until nothing is on its way (a 503 at a retry queues it again).
            var listed: [String] = []
            for _ in 0..<12 {
                let next = try await Self.run(base, state: state, input: "retry\ndrafts\nquit\n")
                restarts += 1
                outputs.append(next.output)
                #expect(next.exit.status == 0 && !next.exit.timedOut, "run \(run) (seed \(seed)): \(next.exit.stderr) \(next.output)")
                #expect(next.exit.stderr.isEmpty, "run \(run) (seed \(seed)): \(next.exit.stderr)")
                listed = Self.listing(next.output)
                if !listed.contains(where: Self.isOnItsWay) { break }
            }
            #expect(!listed.isEmpty && !listed.contains(where: Self.isOnItsWay), "run \(run) (seed \(seed)): still on its way: \(listed)")

            let shown = outputs.reduce(into: Set<String>()) { $0.formUnion(Self.sendingTexts($1)) }
            let left = Self.draftTexts(listed)
            leftDrafts += left.map { "run \(run): \($0)" }
            let made = server.made
            let posts = server.posts
            var failed = listed.isEmpty || listed.contains(where: Self.isOnItsWay)
            for text in texts {
                let statuses = made.filter { $0.text == text }
                let keys = posts.filter { $0.text == text }.map(\.key)
                let context = "run \(run) (seed \(seed)), \(text): statuses \(statuses), attempts \(posts.filter { $0.text == text }), shown \(shown.sorted()), left \(left)"
                let checks = [
                    (statuses.count <= 1, "posted twice"),
                    (keys.allSatisfy { $0?.isEmpty == false }, "an attempt without a key"),
                    (Set(keys).count <= 1, "two keys for one text"),
                    (!shown.contains(text) || statuses.count == 1, "shown as Sending, never posted"),
                    (statuses.isEmpty && !shown.contains(text) || !left.contains(text), "posted or shown as Sending, yet back as a draft"),
                ]
                for (holds, what) in checks where !holds {
                    Issue.record("\(what): \(context)")
                    failed = true
                }
            }
            // What is left is only ever drafts of this run's texts (or the empty draft a killed
            // `post TEXT` leaves before its text).
            if !left.allSatisfy({ $0 == "(empty)" || texts.contains($0) }) {
                Issue.record("run \(run) (seed \(seed)): drafts left that were never written: \(left)")
                failed = true
            }
            if failed {
                print("run \(run) (seed \(seed)) killed after \(lines) lines (\(killedByServer ? "by the server, holding a POST" : "by the test")):")
                for (index, output) in outputs.enumerated() { print("--- start \(index + 1):\n\(output)") }
                break
            }
        }
        print("SIGKILL runs: \(killedRuns) killed (\(heldKills) on a held POST), \(restarts) restarts, \(server.made.count) statuses made, drafts left: \(leftDrafts)")
        #expect(server.unexpected.isEmpty, "requests the fake does not serve: \(server.unexpected)")
        await server.stop()
    }

    // MARK: - Running the binary

    static func arguments(_ base: URL, state: URL) -> [String] {
        ["--server", base.absoluteString, "--timeline", "home", "--no-stream", "--state", state.path] + HTTPScriptedSessionTests.flags
    }

    /// Starts `feedline` on the server with `--state state`, `input` on standard input (then its end).
    static func start(_ base: URL, state: URL, input: String) throws -> FeedlineProcess {
        let child = try FeedlineProcess(arguments(base, state: state), environment: ["FEEDLINE_TOKEN": secretToken], unset: ["VISUAL", "EDITOR"])
        for line in input.split(separator: "\n") { child.send(String(line)) }
        child.closeInput()
        return child
    }

    /// Runs `feedline` on the server with `--state state` and `input` to its end.
    static func run(_ base: URL, state: URL, input: String) async throws -> (exit: FeedlineProcess.Exit, output: String) {
        let child = try start(base, state: state, input: input)
        let exit = await child.finish()
        return (exit, String(decoding: child.stdout, as: UTF8.self))
    }

    // MARK: - Reading the transcript

    /// The texts of every `Sending: "…"` and `Sending again (attempt N): "…"` line.
    static func sendingTexts(_ output: String) -> Set<String> {
        Set(output.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("Sending: \"") || line.hasPrefix("Sending again (attempt ") else { return nil }
            guard let open = line.firstIndex(of: "\""), let close = line.lastIndex(of: "\""), open < close else { return nil }
            return String(line[line.index(after: open)..<close])
        })
    }

    /// What the last `drafts` printed: its entries (`N. "text" — phase`, wrapped lines joined),
    /// or its one sentence.
    static func listing(_ output: String) -> [String] {
        guard let range = output.range(of: "home> drafts\n", options: .backwards) else { return [] }
        var entries: [String] = []
        for line in output[range.upperBound...].split(separator: "\n") {
            if line.hasPrefix("home> ") || line.hasPrefix("compose> ") { break }
            if line.first?.isNumber == true || entries.isEmpty {
                entries.append(String(line))
            } else {
                entries[entries.count - 1] += " " + line
            }
        }
        return entries
    }

    /// Whether a `drafts` entry is on its way (sending, queued or checking), not a draft.
    static func isOnItsWay(_ entry: String) -> Bool {
        guard let phase = entry.range(of: " — ").map({ entry[$0.upperBound...] }) else { return false }
        return phase.hasPrefix("sending") || phase.hasPrefix("queued") || phase.hasPrefix("checking")
    }

    /// The texts of the `drafts` entries that are drafts (not on their way).
    static func draftTexts(_ listed: [String]) -> [String] {
        listed.filter { $0.first?.isNumber == true && !isOnItsWay($0) }.compactMap { entry in
            guard let dash = entry.range(of: " — ") else { return nil }
            let head = entry[..<dash.lowerBound].drop { $0 != " " }.dropFirst()
            return head.hasPrefix("\"") && head.hasSuffix("\"") ? String(head.dropFirst().dropLast()) : String(head)
        }
    }
}

/// A Mastodon server on 127.0.0.1 for killed sessions: what the binary asks before its first
/// post (the account, its preferences, the instance), an empty home timeline and markers, and
/// `POST /api/v1/statuses` honouring `Idempotency-Key` as Mastodon does — the first request
/// with a key makes a status, every later one with that key answers that status. It records
/// every post attempt, can make a status and never answer (holding the request until
/// ``releaseHeld()``, killing the registered child), and notes every request it does not serve.
private final class KillServer: Sendable {
    /// What the server does with a POST of a status.
    enum Action: Sendable, Hashable {
        /// Makes the status (or finds the key's) and answers it.
        case answer
        /// 503 without making anything.
        case unavailable
        /// Makes the status (or finds the key's), then answers 503: the answer was lost.
        case lostAnswer
        /// Makes the status (or finds the key's), kills the registered child and never answers.
        case hold
    }

    /// How the server picks an ``Action``.
    enum Policy: Sendable, Hashable {
        case answer
        /// ``Action/hold`` for a key not seen yet; ``Action/answer`` for one seen.
        case holdNew
        /// By the text and its attempt number, from the seed; from the fifth attempt of a text
        /// on, answered. Holds only with `holds` and a child registered to kill.
        case seeded(UInt64, holds: Bool)
    }

    /// A status the server made.
    struct Made: Sendable, CustomStringConvertible {
        var id: String
        var text: String
        var key: String?
        var description: String { "\(id) \(text.debugDescription) key \(key ?? "none")" }
    }

    /// A POST of a status as received.
    struct Attempt: Sendable, CustomStringConvertible {
        var key: String?
        var text: String
        var action: Action
        var description: String { "\(text.debugDescription) key \(key ?? "none") \(action)" }
    }

    private struct State: Sendable {
        var policy = Policy.answer
        var posts: [Attempt] = []
        var made: [Made] = []
        var byKey: [String: Int] = [:]
        var unexpected: [String] = []
        var held: [CheckedContinuation<Void, Never>] = []
        var heldCount = 0
        var heldWaiters: [(count: Int, id: UUID, continuation: CheckedContinuation<Void, Never>)] = []
        var victim: Int32?
        var killedVictim = false
        var markers: [String: Mastodon.Marker] = [:]
        /// Set by ``stop()``: nothing is held any more.
        var stopped = false
    }

    /// 2026-11-21T18:00:00Z, the binary's `--now`.
    static let now = Date(timeIntervalSince1970: 1_795_284_000)
    static let me = Mastodon.Account(
        id: "109348023875623790", username: "ada", acct: "ada", displayName: "Ada Lovelace",
        url: "https://example.social/@ada", followersCount: 12, followingCount: 34, statusesCount: 56
    )

    private let state = Locked(State())
    private let listener: LoopbackListener

    init() throws {
        let box = KillServerHandler()
        listener = try LoopbackListener(handler: box)
        box.server.withLock { $0 = KillServerReference(self) }
    }

    func start() async throws -> URL { try await listener.start() }

    func stop() async {
        state.withLock { $0.stopped = true }
        await releaseHeld()
        await listener.stop()
    }

    // MARK: - Test controls

    func setPolicy(_ policy: Policy) { state.withLock { $0.policy = policy } }

    /// Registers the child a held request kills (`nil`: none); returns whether the server killed
    /// the one registered before. A child is killed at most once, and only while registered.
    @discardableResult
    func setVictim(_ pid: Int32?) -> Bool {
        state.withLock { state in
            let killed = state.killedVictim
            state.victim = pid
            state.killedVictim = false
            return killed
        }
    }

    /// Answers nothing to every request held so far: they end (their clients are gone).
    func releaseHeld() async {
        let held = state.withLock { state in
            defer { state.held.removeAll() }
            return state.held
        }
        for continuation in held { continuation.resume() }
    }

    /// Whether the server has held `count` requests in all before `limit` passed (a safety net:
    /// it returns as soon as it has).
    func waitForHeld(_ count: Int, within limit: Duration) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask { (try? await self.waitForHeld(count)) != nil }
            group.addTask {
                try? await Task.sleep(for: limit)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }

    /// Returns once the server has held `count` requests in all (throws when cancelled first).
    private func waitForHeld(_ count: Int) async throws {
        let id = UUID()
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state in
                    if state.heldCount >= count || Task.isCancelled { return true }
                    state.heldWaiters.append((count, id, continuation))
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                let found = state.heldWaiters.first { $0.id == id }
                state.heldWaiters.removeAll { $0.id == id }
                return found
            }
            waiter?.continuation.resume()
        }
        try Task.checkCancellation()
    }

    var posts: [Attempt] { state.withLock { $0.posts } }
    var made: [Made] { state.withLock { $0.made } }
    var unexpected: [String] { state.withLock { $0.unexpected } }

    // MARK: - Serving

    fileprivate func respond(_ request: HTTPRequest) async throws -> HTTPResponse {
        let body = try await request.bodyData
        let route = "\(request.method.rawValue) \(request.path)"
        switch route {
        case "GET /api/v1/accounts/verify_credentials":
            return FakeMastodon.json(Self.me)
        case "GET /api/v1/preferences":
            return FakeMastodon.response(
                200, [:],
                Data(#"{"posting:default:visibility":"public","posting:default:sensitive":false,"posting:default:language":null,"reading:expand:media":"default","reading:expand:spoilers":false}"#.utf8)
            )
        case "GET /api/v2/instance", "GET /api/v1/instance":
            return FakeMastodon.response(
                200, [:],
                Data(
                    """
                    {"domain":"example.social","uri":"example.social","title":"Example","version":"4.3.2",\
                    "configuration":{"urls":{"streaming":"wss://example.social"},\
                    "statuses":{"max_characters":500,"max_media_attachments":4,"characters_reserved_per_url":23}}}
                    """.utf8
                )
            )
        case "GET /api/v1/timelines/home":
            return FakeMastodon.json([Mastodon.Status]())
        case "GET /api/v1/announcements":
            // The start-up check for unread announcements: this server has none.
            return FakeMastodon.response(200, [:], Data("[]".utf8))
        case "GET /api/v1/markers":
            return state.withLock { FakeMastodon.json($0.markers) }
        case "POST /api/v1/markers":
            let form = FakeMastodon.formFields(body)
            return state.withLock { state in
                var saved: [String: Mastodon.Marker] = [:]
                for timeline in ["home", "notifications"] {
                    guard let id = form["\(timeline)[last_read_id]"], !id.isEmpty else { continue }
                    let version = (state.markers[timeline]?.version ?? 0) + 1
                    state.markers[timeline] = Mastodon.Marker(lastReadID: id, version: version, updatedAt: Self.now)
                    saved[timeline] = state.markers[timeline]
                }
                return FakeMastodon.json(saved)
            }
        case "GET /api/v1/accounts/\(Self.me.id)/statuses":
            // Asked only past a key's hour (never with a fixed --now): the statuses made, newest first.
            return state.withLock { state in FakeMastodon.json(state.made.reversed().map { Self.status($0) }) }
        case "POST /api/v1/statuses":
            return await post(body: body, key: request.headers[HTTPHeader("Idempotency-Key")])
        default:
            state.withLock { $0.unexpected.append(route) }
            return FakeMastodon.error(404, "Record not found")
        }
    }

    private func post(body: Data, key: String?) async -> HTTPResponse {
        let json = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
        let text = json?["status"] as? String ?? ""
        let (action, made, ready) = state.withLock { state -> (Action, Made?, [CheckedContinuation<Void, Never>]) in
            let attempt = state.posts.filter { $0.text == text }.count
            var action: Action
            switch state.policy {
            case .answer: action = .answer
            case .holdNew: action = key.flatMap { state.byKey[$0] } == nil ? .hold : .answer
            case .seeded(let seed, let holds):
                action = Self.draw(seed: seed, text: text, attempt: attempt, holds: holds)
            }
            // Holding needs a child to kill: the one registered and not killed yet (else the
            // session would wait for the answer for ever). Without one, the answer is lost.
            if action == .hold, case .seeded = state.policy, state.victim == nil || state.killedVictim { action = .lostAnswer }
            state.posts.append(Attempt(key: key, text: text, action: action))
            guard action != .unavailable else { return (action, nil, []) }
            // The key's status, or a new one.
            let made: Made
            if let key, let index = state.byKey[key] {
                made = state.made[index]
            } else {
                made = Made(id: String(110_000_000_000_000_000 + state.made.count + 1), text: text, key: key)
                state.made.append(made)
                if let key { state.byKey[key] = state.made.count - 1 }
            }
            var ready: [CheckedContinuation<Void, Never>] = []
            if action == .hold {
                state.heldCount += 1
                ready = state.heldWaiters.filter { $0.count <= state.heldCount }.map(\.continuation)
                state.heldWaiters.removeAll { $0.count <= state.heldCount }
                if case .seeded = state.policy, let victim = state.victim, !state.killedVictim {
                    state.killedVictim = true
                    kill(victim, SIGKILL)
                }
            }
            return (action, made, ready)
        }
        for continuation in ready { continuation.resume() }
        switch action {
        case .unavailable, .lostAnswer:
            return FakeMastodon.error(503, "Service Unavailable")
        case .hold:
            await withCheckedContinuation { continuation in
                let stopped = state.withLock { state in
                    if !state.stopped { state.held.append(continuation) }
                    return state.stopped
                }
                if stopped { continuation.resume() }
            }
            return FakeMastodon.error(503, "Service Unavailable")
        case .answer:
            guard let made else { return FakeMastodon.error(500, "no status") }
            return FakeMastodon.json(Self.status(made))
        }
    }

    /// The action for attempt `attempt` (0-based) of `text`: the same for the same seed whatever
    /// order the requests come in.
    private static func draw(seed: UInt64, text: String, attempt: Int, holds: Bool) -> Action {
        guard attempt < 4 else { return .answer }
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        var random = SeededGenerator(seed: seed ^ hash ^ UInt64(attempt) &* 0x9E37_79B9)
        switch random.next(below: 100) {
        case ..<40: return .answer
        case ..<65: return .unavailable
        case ..<85: return .lostAnswer
        default: return holds ? .hold : .answer
        }
    }

    static func status(_ made: Made) -> Mastodon.Status {
        Mastodon.Status(
            id: made.id, uri: "https://example.social/users/ada/statuses/\(made.id)", url: "https://example.social/@ada/\(made.id)",
            createdAt: now, account: me, content: "<p>\(made.text)</p>"
        )
    }
}

/// The server's handler, pointing back at the fake weakly (the fake owns the server).
private final class KillServerHandler: HTTPHandler, Sendable {
    let server = Locked<KillServerReference?>(nil)

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard let fake = server.withLock({ $0?.server }) else { return FakeMastodon.error(503, "gone") }
        return try await fake.respond(request)
    }
}

private struct KillServerReference: Sendable {
    weak var server: KillServer?
    init(_ server: KillServer) { self.server = server }
}
