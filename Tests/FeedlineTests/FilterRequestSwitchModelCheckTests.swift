@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

/// Issue 36's seeded model check: your filters (made, changed, deleted) and your filtered
/// notifications (accepted or dismissed, one by one or all at once) on two accounts, switched
/// between inside the walk as a front does — the session on the account left is dropped with its
/// requests still on the wire, a new one opens on the other account's server. The servers answer
/// in any order, refuse, or lose a request (sent again at `retry`).
///
/// At every step: every home screen shows exactly the posts no wanted hide filter matches (a
/// change applies on every open screen at once), both filtered-notifications screens show the
/// store's unanswered requests, and nothing of the other account shows. Once every server has
/// answered everything, a refresh brings the open account to its server's filters and requests;
/// and switching to the other account shows that server's state too, whatever the dropped
/// session's late answers did.
@MainActor
@Suite("Filters, filtered notifications and account switches model check", .timeLimit(.minutes(10)))
struct FilterRequestSwitchModelCheckTests {
    /// How many walks: `FEEDLINE_WALKS` when set, else 2,000.
    static let walks = ProcessInfo.processInfo.environment["FEEDLINE_WALKS"].flatMap(Int.init) ?? 2_000
    static let words = ["frog", "toad", "newt"]

    /// One account's server: five home posts, each naming animals, and three filtered requests.
    static func server(_ account: String) -> GatedServer {
        let author = Author(id: "\(account)-friend", displayName: "Friend of \(account)", handle: "friend.\(account)")
        let texts = ["a frog at dawn", "toad and newt", "only the pond", "frog, toad, newt", "a newt"]
        let posts = texts.enumerated().map { index, text in
            makePost("\(account)\(index)", minutesAgo: Double(index + 1), author: author, text: text)
        }
        var model = ServerModel(posts)
        model.timelines.feeds[.home] = posts.map(\.id)
        model.notificationRequests = (1...3).map { number in
            let requester = Author(id: "\(account)-r\(number)", displayName: "R\(number)", handle: "r\(number)@\(account).example")
            let at = testNow.addingTimeInterval(Double(-60 * number))
            return NotificationRequest(id: "\(account)-q\(number)", account: requester, notificationsCount: number, lastPost: nil, createdAt: at, updatedAt: at)
        }
        let server = GatedServer(model, answering: [.page, .newer, .filters, .notificationRequests])
        server.hold(.createFilter, .updateFilter, .deleteFilter, .answerNotificationRequest)
        return server
    }

    /// Marks each post with the server's filters that match it, as Mastodon does on every post it
    /// sends (`filtered`): a session that loads posts after a filter was made learns it from them.
    static func markFiltered(_ server: GatedServer) {
        server.update { model in
            let filters = model.filters.filters
            for id in model.timelines.feeds[.home] ?? [] {
                guard let text = model.entry(id)?.text else { continue }
                let words = Set(text.split { !$0.isLetter }.map(String.init))
                let matching = filters.filter { filter in filter.keywords.contains { words.contains($0.keyword) } }
                _ = model.update(id) { $0.filters = matching }
            }
        }
    }

    /// A front's session on one account: home twice, the filters screen, the filtered
    /// notifications twice with a timeline between.
    @MainActor
    struct Open {
        let account: Int
        let session: FeedSession
        let homes: [FeedListViewModel]
        let filters: FeedListViewModel
        let requests: [FeedListViewModel]

        init(account: Int, server: GatedServer) async {
            self.account = account
            session = FeedSession(service: server, clock: .fixed(testNow), retryClock: ManualClock())
            session.root.appeared()
            session.navigator.push(.list(.filters))
            session.navigator.push(.list(.notificationRequests))
            session.navigator.push(.list(.feed(.local)))
            session.navigator.push(.list(.notificationRequests))
            session.navigator.push(.list(.feed(.home)))
            await session.settle()
            let lists = session.navigator.screens.compactMap(\.list)
            homes = lists.filter { $0.source == .feed(.home) }
            filters = lists.first { $0.source == .filters } ?? session.root
            requests = lists.filter { $0.source == .notificationRequests }
        }

        var screens: [FeedListViewModel] { homes + [filters] + requests }
    }

    @Test("a deleted filter brings its posts back in their places while a filter being made hides others (walk 15 of seed 1179208788)")
    func deletedFilterRestoresOrder() async throws {
        let server = Self.server("bo")
        let open = await Open(account: 1, server: server)
        @MainActor func home() -> [String] { DomainBlockSessionTests.ids(open.homes[0]) }
        #expect(home() == ["bo0", "bo1", "bo2", "bo3", "bo4"])
        let newt = PostFilter(title: "No newt", contexts: [.home], action: .hide, keywords: [PostFilter.Keyword(keyword: "newt", wholeWord: true)])
        _ = try open.session.createFilter(newt)
        #expect(home() == ["bo0", "bo2"])
        await server.waitForHeld(1)
        server.answerHeld(at: 0)
        await server.waitForCalls(1, of: .createFilter)
        while open.session.filters.rows.contains(where: { if case .filter(_, let state) = $0 { state.pending } else { false } }) { await Task.yield() }
        let frog = PostFilter(title: "No frog", contexts: [.home], action: .hide, keywords: [PostFilter.Keyword(keyword: "frog", wholeWord: true)])
        _ = try open.session.createFilter(frog)
        #expect(home() == ["bo2"])
        try open.session.deleteFilter("f1")
        #expect(home() == ["bo1", "bo2", "bo4"])
    }

    @Test("2,000 seeded walks over filters, filtered notifications and account switches: every screen shows the store at once, and everything converges to each account's server")
    func converges() async throws {
        let seed = testSeed(0x4649_4C54)
        print("filters, requests and switches model check: \(Self.walks) walks from seed \(seed) (FEEDLINE_SEED replays)")
        var random = SeededGenerator(seed: seed)
        for walk in 0..<Self.walks {
            if await !run(walk: walk, seed: seed, random: &random) { return }
        }
    }

    private func run(walk: Int, seed: UInt64, random: inout SeededGenerator) async -> Bool {
        let names = ["ana", "bo"]
        let servers = names.map(Self.server)
        var open = await Open(account: 0, server: servers[0])
        /// Sessions dropped at a switch, with their account: their requests may still be answered.
        var dropped: [(account: Int, session: FeedSession)] = []
        var log: [String] = []
        func fail(_ message: String) -> Bool {
            Issue.record("walk \(walk) (seed \(seed), FEEDLINE_SEED=\(seed) replays): \(message)\n\(log.joined(separator: "\n"))")
            return false
        }
        /// Every held call of every server, with its server.
        func held() -> [(server: Int, call: GatedCall)] {
            servers.indices.flatMap { index in servers[index].waiting.map { (index, $0) } }
        }
        /// Waits until each server holds one call per effect working in the sessions on it:
        /// every request sent has reached its server and every answer given was handled.
        /// Then marks the posts with the filters the servers have now (an answer changes a model
        /// in its own task, after the test released it).
        func sync() async -> Bool {
            defer { for server in servers { Self.markFiltered(server) } }
            for _ in 0..<100_000 {
                let settled = servers.indices.allSatisfy { index in
                    let sessions = dropped.filter { $0.account == index }.map(\.session) + (open.account == index ? [open.session] : [])
                    return servers[index].waiting.count == sessions.reduce(0) { $0 + $1.activity.running }
                }
                if settled { return true }
                await Task.yield()
            }
            return false
        }
        func check() -> String? {
            let session = open.session
            let prefix = names[open.account]
            let wanted = session.filters.rows.compactMap { row -> PostFilter? in
                guard case .filter(let filter, _) = row, filter.action == .hide, filter.contexts.contains(.home) else { return nil }
                return filter
            }
            let hidden = Set(wanted.flatMap { $0.keywords.map(\.keyword) })
            let home = servers[open.account].model.timelines.feeds[.home] ?? []
            let expected = home.filter { id in
                let words = Set((servers[open.account].model.entry(id)?.text ?? "").split { !$0.isLetter }.map(String.init))
                return words.isDisjoint(with: hidden)
            }.map(\.rawValue)
            for screen in open.homes where DomainBlockSessionTests.ids(screen) != expected {
                let marks = home.map { id in "\(id.rawValue): \(servers[open.account].model.entry(id)?.filters.map(\.id) ?? [])" }
                return "a home screen shows \(DomainBlockSessionTests.ids(screen)), but with the hide filters on \(hidden.sorted()) it should show \(expected) (the server marks \(marks); the session has \(wanted.map(\.id)))"
            }
            let requests = session.notificationRequests.rows.map(\.request.id)
            for screen in open.requests {
                let shown = screen.rows.compactMap { $0.notificationRequest?.id }
                if shown != requests { return "a filtered screen shows \(shown) but the store \(requests)" }
            }
            if session.notificationRequests.rows.contains(where: \.state.pending) { return "an answered request still shows" }
            let filterRows = open.filters.rows.compactMap { row -> String? in if case .filter(let filter, _) = row { filter.id } else { nil } }
            let stored = session.filters.rows.compactMap { row -> String? in if case .filter(let filter, _) = row { filter.id } else { nil } }
            if filterRows != stored { return "the filters screen shows \(filterRows) but the store \(stored)" }
            let foreign = (requests + DomainBlockSessionTests.ids(open.homes[0])).filter { !$0.hasPrefix(prefix) }
            if !foreign.isEmpty { return "\(prefix)'s session shows the other account's \(foreign)" }
            return nil
        }
        /// The filters as `(title, keywords)`, to compare a session's with a server's (ids differ while made).
        func summary(_ filters: [PostFilter]) -> [String] {
            filters.map { "\($0.title): \($0.keywords.map(\.keyword).joined(separator: ","))" }.sorted()
        }
        /// Answers (0), refuses (1) or loses (2) the held call `index` of all of them.
        func answerSome(_ index: Int, _ how: Int) {
            var index = index
            guard let server = servers.firstIndex(where: { server in
                if index < server.waiting.count { return true }
                index -= server.waiting.count
                return false
            }) else { return }
            log.append("\(["answer", "refuse", "lose"][how]) \(servers[server].waiting[index]) (\(names[server]))")
            switch how {
            case 0: servers[server].answerHeld(at: index)
            case 1: servers[server].refuse(at: index)
            default: servers[server].lose(at: index)
            }
        }

        if await !sync() { return fail("the first loads never settled") }
        if let problem = check() { return fail(problem) }
        for _ in 0..<16 {
            let session = open.session
            let filters = session.filters.rows.compactMap { row -> PostFilter? in if case .filter(let filter, _) = row { filter } else { nil } }
            let requests = session.notificationRequests.rows.map(\.request.id)
            switch Int.random(in: 0..<13, using: &random) {
            case 0:
                let word = Self.words.randomElement(using: &random) ?? "frog"
                let filter = PostFilter(title: "No \(word)", contexts: [.home], action: .hide, keywords: [PostFilter.Keyword(keyword: word, wholeWord: true)])
                log.append("create a filter on \(word): \((try? session.createFilter(filter)) ?? "refused")")
            case 1:
                guard var filter = filters.randomElement(using: &random) else { continue }
                let word = Self.words.randomElement(using: &random) ?? "frog"
                filter.keywords = [PostFilter.Keyword(keyword: word, wholeWord: true)]
                let id = filter.id
                log.append("change filter \(id) to \(word): \((try? session.updateFilter(id, to: filter)) == nil ? "refused" : "asked")")
            case 2:
                guard let filter = filters.randomElement(using: &random) else { continue }
                log.append("delete filter \(filter.id): \((try? session.deleteFilter(filter.id)) == nil ? "refused" : "asked")")
            case 3, 4:
                guard let id = requests.randomElement(using: &random) else { continue }
                let answer: NotificationRequest.Answer = Bool.random(using: &random) ? .accept : .dismiss
                log.append("\(answer) request \(id): \((try? session.answerNotificationRequest(id, answer)) == nil ? "refused" : "asked")")
            case 5:
                let answer: NotificationRequest.Answer = Bool.random(using: &random) ? .accept : .dismiss
                do throws(FeedFailure) {
                    log.append("\(answer) all: \(try session.answerAllNotificationRequests(answer))")
                } catch {
                    log.append("\(answer) all: \(error.message)")
                }
            case 6:
                let screen = open.screens.randomElement(using: &random) ?? open.filters
                log.append("refresh \(screen.source)")
                screen.refresh()
            case 7, 8:
                let all = held()
                guard !all.isEmpty else { continue }
                answerSome(Int.random(in: 0..<all.count, using: &random), 0)
            case 9:
                let all = held()
                guard !all.isEmpty else { continue }
                answerSome(Int.random(in: 0..<all.count, using: &random), 1)
            case 10:
                let all = held()
                guard !all.isEmpty else { continue }
                answerSome(Int.random(in: 0..<all.count, using: &random), 2)
            case 11:
                log.append("retry: \(session.retry())")
            default:
                let next = 1 - open.account
                log.append("switch to \(names[next])")
                dropped.append((open.account, open.session))
                open = await Open(account: next, server: servers[next])
            }
            if await !sync() { return fail("the servers hold \(held().map(\.call)) but other requests still run") }
            if let problem = check() { return fail(problem) }
        }
        // Every server answers everything, in random order, some refused or lost (sent again at retry).
        var rounds = 0
        while !held().isEmpty || open.session.hasFailures {
            rounds += 1
            if rounds > 300 { return fail("requests never stop: \(held().map(\.call))") }
            let all = held()
            if all.isEmpty {
                log.append("retry: \(open.session.retry())")
            } else {
                answerSome(Int.random(in: 0..<all.count, using: &random), Int.random(in: 0..<(rounds > 100 ? 2 : 3), using: &random))
            }
            if await !sync() { return fail("the servers hold \(held().map(\.call)) but other requests still run") }
            if let problem = check() { return fail(problem) }
        }
        // A refresh of the open account brings its server's filters and requests; then the other account's.
        for step in 0..<2 {
            if step == 1 {
                log.append("switch to \(names[1 - open.account]) at the end")
                dropped.append((open.account, open.session))
                open = await Open(account: 1 - open.account, server: servers[1 - open.account])
            }
            for screen in open.screens { screen.refresh() }
            await open.session.settle()
            let server = servers[open.account]
            let shown = open.session.filters.rows.compactMap { row -> PostFilter? in if case .filter(let filter, _) = row { filter } else { nil } }
            if summary(shown) != summary(server.model.filters.filters) {
                return fail("\(names[open.account]) shows the filters \(summary(shown)) but its server has \(summary(server.model.filters.filters))")
            }
            if open.session.filters.rows.contains(where: { if case .filter(_, let state) = $0 { state.pending } else { false } }) {
                return fail("a filter is still pending after every answer")
            }
            let requests = open.session.notificationRequests.rows.map(\.request.id)
            if requests != server.model.notificationRequests.map(\.id) {
                return fail("\(names[open.account]) shows the requests \(requests) but its server has \(server.model.notificationRequests.map(\.id))")
            }
            if let problem = check() { return fail(problem) }
        }
        return true
    }
}
