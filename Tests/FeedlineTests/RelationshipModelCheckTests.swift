@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

/// A seeded model check of relationships across a stack: random pushes of profiles, feeds,
/// threads, searches and followers, follow/mute/block/notify/boosts toggles from any depth, answers in
/// random order, refusals and lost connections. After every step each profile header and
/// account row shows the store's relationship,
/// no two requests run for one account and kind, and no list shows a muted or blocked
/// account's post where the rule forbids it; once everything is answered, the store equals the
/// server.
@MainActor
@Suite("Relationships model check")
struct RelationshipModelCheckTests {
    static let authors = (1...4).map { Author(id: "a\($0)", displayName: "A\($0)", handle: "a\($0)") }

    /// Posts by each author, and boosts of each other's posts.
    static let posts: [Post] = {
        var posts: [Post] = []
        var minute = 0.0
        for (index, author) in authors.enumerated() {
            minute += 1
            posts.append(makePost("p\(index)", minutesAgo: minute, author: author))
            minute += 1
            let other = authors[(index + 1) % authors.count]
            posts.append(makePost("w\(index)", minutesAgo: minute, author: author, reblog: makePost("o\(index)", minutesAgo: 100 + minute, author: other)))
        }
        return posts
    }()

    static var walks: Int { ProcessInfo.processInfo.environment["FEEDLINE_WALKS"].flatMap(Int.init) ?? 5_000 }

    @Test("5,000 seeded walks: headers show the store, one request per account and kind, hidden accounts stay off the lists, and everything converges to the server")
    func walk() async throws {
        let seed = testSeed(0x5245_4C41)
        print("relationship model check: \(Self.walks) walks from seed \(seed) (FEEDLINE_SEED replays)")
        var random = SeededGenerator(seed: seed)
        for walk in 0..<Self.walks {
            if ProcessInfo.processInfo.environment["FEEDLINE_TRACE"] != nil { Self.trace("walk \(walk)") }
            let failed = await run(walk: walk, seed: seed, random: &random)
            if failed { break }
        }
    }

    /// One walk; returns whether it found a broken rule (reported already).
    private func run(walk: Int, seed: UInt64, random: inout SeededGenerator) async -> Bool {
        let locked: Set<AccountID> = random.next(below: 2) == 0 ? [AccountID("a2")] : []
        let start = Self.authors.map { author in
            Relationship(accountID: AccountID(author.id), following: random.next(below: 2) == 0, followedBy: random.next(below: 2) == 0)
        }
        let server = GatedServer.relationships(posts: Self.posts, relationships: start, locked: locked)
        let clock = ManualClock()
        let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: clock)
        session.root.appeared()
        session.loadRelationships(Self.authors.map { AccountID($0.id) })
        await session.settle()
        var log: [String] = []
        func broken(_ message: String) -> Bool {
            Issue.record("walk \(walk) (seed \(seed)): \(message)\n\(log.joined(separator: "\n"))")
            return true
        }
        for _ in 0..<(4 + random.next(below: 10)) {
            let account = AccountID(Self.authors[random.next(below: Self.authors.count)].id)
            switch random.next(below: 13) {
            case 0:
                log.append("push profile \(account)")
                session.navigator.push(.list(.feed(.account(account))))
            case 10:
                log.append("push search")
                session.navigator.push(.list(.search("a")))
            case 11:
                log.append("push followers \(account)")
                session.navigator.push(.list(.accounts(.followers(account))))
            case 12:
                let post = Self.posts[random.next(below: Self.posts.count)].content
                log.append("push thread \(post.id)")
                session.navigator.push(.list(.thread(post.id)))
            case 1:
                log.append("push local")
                session.navigator.push(.list(.feed(.local)))
            case 2:
                log.append("back")
                session.navigator.pop()
            case 3, 4, 5:
                let kind = RelationshipKind.allCases[random.next(below: RelationshipKind.allCases.count)]
                log.append("toggle \(kind) \(account)")
                if kind == .mute {
                    // A mute is made with its options (random), an unmute is a toggle.
                    let notifications = random.next(below: 2) == 0
                    if session.relationship(account)?.relationship.isOn(.mute) == true {
                        session.toggle(.mute, account: account)
                    } else {
                        session.mute(account: account, notifications: notifications)
                    }
                } else {
                    session.toggle(kind, account: account)
                }
            default:
                let waiting = server.waiting
                guard !waiting.isEmpty else { continue }
                let index = random.next(below: waiting.count)
                switch random.next(below: 5) {
                case 0:
                    log.append("refuse \(waiting[index])")
                    server.fail(at: index, transient: false)
                case 1:
                    log.append("lose \(waiting[index])")
                    server.fail(at: index, transient: true)
                default:
                    log.append("answer \(waiting[index])")
                    server.answer(at: index)
                }
            }
            // Let what was answered arrive (the loops deliver on the main actor).
            await Self.drain()
            if let problem = check(session, server) { return broken(problem) }
        }
        // Settle: every change is answered from now on, and the re-sends' backoffs pass.
        server.answerEverything()
        if ProcessInfo.processInfo.environment["FEEDLINE_TRACE"] != nil { Self.trace(log.joined(separator: "\n")) }
        for _ in 0..<50 {
            await session.settle()
            let resends = Self.authorsIDs.reduce(0) { $0 + (session.relationships.state($1)?.resends.count ?? 0) }
            if ProcessInfo.processInfo.environment["FEEDLINE_TRACE"] != nil { Self.trace("settled; resends \(resends)") }
            if resends == 0 { break }
            await clock.waitForSleepers(resends)
            let waited = Set(Self.resendTokens(session).joined())
            clock.advance(by: .seconds(120))
            // Every elapsed backoff reaches the store (a wait is not work that settle waits for).
            var spins = 0
            while !waited.isDisjoint(with: Self.resendTokens(session).joined()) {
                spins += 1
                if spins > 1_000_000 { return broken("an elapsed backoff never reached the store") }
                await Task.yield()
            }
        }
        await session.settle()
        for author in Self.authors {
            let id = AccountID(author.id)
            guard let shown = session.relationships.relationship(id) else { return broken("no relationship for \(id)") }
            let truth = server.truth(id)
            for kind in RelationshipKind.allCases where shown.relationship.isOn(kind) != truth.isOn(kind) {
                return broken("\(id) \(kind): shows \(shown.relationship.isOn(kind)), the server says \(truth.isOn(kind))")
            }
            if !shown.pending.isEmpty { return broken("\(id) still pending \(shown.pending)") }
        }
        return false
    }

    /// The rules that hold after every step; the first one broken, described.
    private func check(_ session: FeedSession, _ server: GatedServer) -> String? {
        var inFlight: Set<String> = []
        for change in server.waiting {
            guard inFlight.insert("\(change.account) \(String(describing: change.relationshipKind))").inserted else { return "two \(String(describing: change.relationshipKind)) requests for \(change.account)" }
        }
        for screen in session.navigator.screens {
            guard case .list(let list) = screen else { continue }
            if let profile = list.profile, let id = profile.accountID, profile.current.relationship != session.relationships.relationship(id) {
                return "the header of \(id) shows \(String(describing: profile.current.relationship)), the store \(String(describing: session.relationships.relationship(id)))"
            }
            for row in list.rows {
                if let account = row.account, account.relationship != session.relationships.relationship(account.id) {
                    return "the row of \(account.id) on \(list.source) shows \(String(describing: account.relationship)), the store \(String(describing: session.relationships.relationship(account.id)))"
                }
                guard let post = row.shownPost?.post else { continue }
                for author in [post.author.id, post.content.author.id] {
                    let id = AccountID(author)
                    guard let r = session.relationships.relationship(id)?.relationship else { continue }
                    let ownProfile = list.source == .feed(.account(id))
                    if r.blocking || (r.muting && !ownProfile) {
                        return "\(list.source) shows \(post.id) of \(id), \(r.blocking ? "blocked" : "muted")"
                    }
                }
            }
        }
        return nil
    }

    /// The re-sends every account waits for now.
    private static func resendTokens(_ session: FeedSession) -> [[StoreEpoch]] {
        authorsIDs.map { session.relationships.state($0)?.resends.map(\.token) ?? [] }
    }

    private static func trace(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    private static let authorsIDs = authors.map { AccountID($0.id) }

    /// Lets the effects that can run now run to their end (answers reach the main actor).
    private static func drain() async {
        for _ in 0..<20 { await Task.yield() }
    }
}
