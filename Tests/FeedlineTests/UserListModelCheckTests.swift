@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

/// A seeded model check of lists: random creates, renames, deletes, adds and removes, answered
/// in random order or refused, with refreshes of the lists screen between — every lists screen
/// shows the store at every step, at most one rename per list and one change per (list,
/// account) is in flight, and once everything is answered the store converges to the server.
@MainActor
@Suite("Lists model check")
struct UserListModelCheckTests {
    static let walks = 300
    static let titles = ["Birders", "Field notes", "Moths", "Ferns", "birders", "Notes"]
    static let accounts: [AccountID] = ["kemi", "ada", "lin"]

    @Test("300 seeded walks: screens show the store, one request per list and per membership, and everything converges to the server")
    func converges() async throws {
        let seed = testSeed(0x4C49_5354)
        print("lists model check: \(Self.walks) walks from seed \(seed) (FEEDLINE_SEED replays)")
        var random = SeededGenerator(seed: seed)
        for walk in 0..<Self.walks {
            if await !run(walk: walk, seed: seed, random: &random) { return }
        }
    }

    private func run(walk: Int, seed: UInt64, random: inout SeededGenerator) async -> Bool {
        let server = GatedServer.lists(
            [UserList(id: "L1", title: "Birders"), UserList(id: "L2", title: "Field notes")], members: ["L1": ["kemi"]]
        )
        let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: ManualClock())
        session.navigator.push(.list(.userLists))
        session.navigator.push(.list(.accounts(.members("L1"))))
        session.navigator.push(.list(.accounts(.members("L2"))))
        session.navigator.push(.list(.userLists))
        await session.settle()
        let screens = session.navigator.screens.compactMap(\.list).filter { $0.source == .userLists }
        var log: [String] = []
        /// The last title asked for each list: unless a refusal shows on its row, it is the title the list ends with.
        var wished: [String: String] = [:]
        func fail(_ message: String) -> Bool {
            Issue.record("walk \(walk) (seed \(seed)): \(message)\n\(log.joined(separator: "\n"))")
            return false
        }
        func inFlight() -> Int { session.lists.operationsInFlight + session.lists.membershipRequestsInFlight.count }
        /// Waits until every request the store runs reached the server and every answer given was handled.
        func sync() async -> Bool {
            for _ in 0..<100_000 {
                if server.waiting.count == inFlight() { return true }
                await Task.yield()
            }
            return false
        }
        func check() -> String? {
            let shown = session.userLists.map(ListRow.userList)
            for screen in screens where screen.rows.array != shown {
                return "a lists screen shows \(screen.rows.map(\.id)) but the store \(shown.map(\.id))"
            }
            var renames: [String: Int] = [:]
            var keys: [String: Int] = [:]
            for call in server.held.calls {
                switch call.kind {
                case .renameList: renames[call.key, default: 0] += 1
                case .setListMembership: keys[call.description.replacingOccurrences(of: ", \(call.value == true))", with: ""), default: 0] += 1
                default: break
                }
            }
            if let (id, count) = renames.first(where: { $0.value > 1 }) { return "\(count) renames of \(id) in flight" }
            if let (key, count) = keys.first(where: { $0.value > 1 }) { return "\(count) membership changes of \(key) in flight" }
            return nil
        }
        for _ in 0..<14 {
            let shown = session.userLists.filter { !$0.list.isProvisional }
            let action = Int.random(in: 0..<9, using: &random)
            switch action {
            case 0:
                let title = Self.titles.randomElement(using: &random) ?? "x"
                log.append("create \(title): \((try? session.createList(title: title))?.id ?? "refused")")
            case 1:
                guard let list = shown.randomElement(using: &random) else { continue }
                let title = Self.titles.randomElement(using: &random) ?? "x"
                let renamed = try? session.renameList(list.id, to: title)
                if renamed == true { wished[list.id] = title }
                log.append("rename \(list.id) \(title): \(renamed.map { "\($0)" } ?? "refused")")
            case 2:
                guard let list = shown.randomElement(using: &random) else { continue }
                log.append("delete \(list.id)")
                try? session.deleteList(list.id)
            case 3, 4:
                guard let list = shown.randomElement(using: &random), let account = Self.accounts.randomElement(using: &random),
                    let profile = server.model.relationships.profiles[account]
                else { continue }
                // As a front does: remove whom the list shows, add whom it does not.
                let member = session.listMembership(list: list.id, account: account)?.isOn == true
                log.append("\(member ? "remove" : "add") \(account) \(list.id)")
                try? session.setListMembership(list: list.id, account: profile, !member)
            case 5, 6:
                let waiting = server.waiting
                guard !waiting.isEmpty else { continue }
                let index = Int.random(in: 0..<waiting.count, using: &random)
                log.append("answer \(waiting[index])")
                server.answerHeld(at: index)
            case 7:
                let waiting = server.waiting
                guard !waiting.isEmpty else { continue }
                let index = Int.random(in: 0..<waiting.count, using: &random)
                log.append("fail \(waiting[index])")
                server.refuse(at: index)
            default:
                log.append("refresh")
                screens[Int.random(in: 0..<screens.count, using: &random)].refresh()
            }
            if await !sync() { return fail("the server holds \(server.waiting) but \(inFlight()) requests run") }
            if let problem = check() { return fail(problem) }
        }
        // Everything answered, in random order, some refused.
        var rounds = 0
        while !server.waiting.isEmpty || inFlight() > 0 {
            rounds += 1
            if rounds > 200 { return fail("requests never stop: \(server.waiting)") }
            let waiting = server.waiting
            if !waiting.isEmpty {
                let index = Int.random(in: 0..<waiting.count, using: &random)
                if Bool.random(using: &random) {
                    log.append("answer \(waiting[index])")
                    server.answerHeld(at: index)
                } else {
                    log.append("fail \(waiting[index])")
                    server.refuse(at: index)
                }
            }
            if await !sync() { return fail("the server holds \(server.waiting) but \(inFlight()) requests run") }
            if let problem = check() { return fail(problem) }
        }
        await session.settle()
        let stored = Set(session.userLists.map(\.list))
        if stored != Set(server.model.lists.lists) { return fail("the store shows \(session.userLists.map(\.list)) but the server has \(server.model.lists.lists)") }
        if session.userLists.contains(where: \.pending) { return fail("still pending: \(session.userLists)") }
        for row in session.userLists where row.failure == nil {
            if let wish = wished[row.id], wish != row.title { return fail("\(row.id) was last renamed to \(wish) and nothing refused it, but it is \(row.title)") }
        }
        for list in server.model.lists.lists {
            for account in Self.accounts {
                guard let display = session.listMembership(list: list.id, account: account) else { continue }
                if display.pending || display.isOn != server.members(list.id).contains(account) {
                    return fail("\(account) on \(list.id): shown \(display), server \(server.members(list.id))")
                }
            }
        }
        // A refresh brings the server's order.
        screens[0].refresh()
        await session.settle()
        if session.userLists.map(\.list) != server.model.lists.lists { return fail("after a refresh \(session.userLists.map(\.list)) ≠ \(server.model.lists.lists)") }
        if let problem = check() { return fail(problem) }
        return true
    }
}
