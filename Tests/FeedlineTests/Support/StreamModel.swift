@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

/// A server whose feeds change while the client reads — the reference the stream model check
/// compares the lists with.
///
/// Posts arrive, are boosted, edited and deleted by the test (``write(tagged:)``,
/// ``boost(_:)``, ``edit(_:)``, ``delete(_:)``); each returns the stream events a connected
/// client would be sent, and the test decides whether they reach it. Ids grow with time
/// (`p12` is newer than `b11`), and ranges compare them by number as Mastodon's `max_id` and
/// `since_id` do, so a range whose bound was deleted still means what it meant.
///
/// Two feeds: home (every original and boost) and `#t` (the originals that carry the tag, no
/// boosts). Some originals carry a server filter whose action is `hide` (``filters(of:)``): in
/// home only, or in home and public (which `#t` filters in); a boost carries its original's.
/// The user writes too (``publish(_:idempotencyKey:)``, by ``me``, never filtered): the first
/// call with a key makes the post (in home, and a stream copy for ``takeEchoes()``), and every
/// later call with that key answers with the same post, as Mastodon's idempotency does. Every call waits until the test answers it, in any order; waiting calls are kept in
/// an order that does not depend on how concurrent calls happened to arrive, so that a seed
/// replays. Its answer is computed when the server *serves* it — as soon as it arrived when
/// ``servesOnArrival`` (``serveArrived()``), at ``serve(at:)``, or at the latest when answered —
/// from the server's state then, so a response can be older than
/// the stream events the client saw before it arrives. ``mutations`` counts the changes, so
/// that a test can keep a late stream no later than the answers served after its events. A failed answer is one the server never
/// served: it changed nothing; a lost answer (``answer(at:failing:losing:)``) was served — the
/// server did what it asked — and the client hears a failure. Every `set` call records a violation when another `set` of the
/// same original and kind is still waiting. The posts and what interactions do to them are a
/// ``ServerModel``. It serves pages, newer pages, interactions and the user's posts, nothing
/// else: any other call fails the test.
final class StreamModelServer: PartialService {
    /// The navigation model check's failures: "The server is unavailable." is transient, every
    /// other one a refusal.
    typealias Failure = ModelServer.Failure

    /// One entry of a feed: an original (`p<number>`) or a boost of one (`b<number>`).
    struct Entry: Hashable {
        var number: Int
        /// The original's number, for a boost.
        var boosts: Int?
        var tagged: Bool
        var deleted = false
        /// Written by the user (``StreamModelServer/me``).
        var mine = false

        var id: PostID { PostID((boosts == nil ? "p" : "b") + String(number)) }
    }

    private enum Answer: Sendable {
        case page(Page<Post>)
        case newer(NewerPage<Post>)
        case post(Post)
    }

    private struct Pending: Sendable {
        let description: String
        let effect: Int?
        let interaction: (PostID, InteractionKind)?
        /// The answer from the server's state (which a `set` changes).
        let compute: @Sendable (inout State) throws -> Answer
        var served: Result<Answer, Failure>?
        /// ``mutations`` when it was served.
        var servedAt: Int?
        let continuation: CheckedContinuation<Answer, any Error>
    }

    private struct State {
        /// Every entry ever written, oldest first (so in id order).
        var entries: [Entry] = []
        var index: [Int: Int] = [:]
        var versions: [Int: Int] = [:]
        /// The live entries' posts, as the server shows them.
        var server = ServerModel<Post>()
        var nextNumber = 1
        /// Changes made so far (writes, boosts, edits, deletes, interactions): a clock.
        var mutations = 0
        var pending: [Pending] = []
        var violations: [String] = []
        var servesOnArrival = false
        /// The post each idempotency key made (its number).
        var made: [String: Int] = [:]
        /// Stream copies of the user's posts made since ``takeEchoes()`` last took them.
        var echoes: [StreamEvent] = []
    }

    static let epoch = Date(timeIntervalSince1970: 1_795_000_000)
    static let tag = "t"
    static let authors = (0..<3).map { Author(id: "a\($0)", displayName: "Author \($0)", handle: "author\($0)@stream.example") }
    /// The signed-in user.
    static let me = Author(id: "me", displayName: "Me", handle: "me@stream.example")

    let pageSize: Int
    private let state = Locked(State())
    private let expectations: CallExpectations

    init(pageSize: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        self.pageSize = pageSize
        expectations = CallExpectations("StreamModelServer", expecting: [.pages, .newer, .interactions, .writing], sourceLocation: sourceLocation)
    }

    // MARK: - The test's side: the content

    /// Whether calls are served as soon as they arrive (else when the test serves or answers them).
    var servesOnArrival: Bool {
        get { state.withLock { $0.servesOnArrival } }
        set { state.withLock { $0.servesOnArrival = newValue } }
    }

    /// How many changes the server has made: a stream event sent after change n was made
    /// reaches a client before any answer served after it (see ``answer(at:failing:)``).
    var mutations: Int { state.withLock { $0.mutations } }

    /// Every entry ever written, oldest first, deleted ones included.
    var entries: [Entry] { state.withLock { $0.entries } }

    /// The entry `id` names, deleted or not.
    func entry(_ id: PostID) -> Entry? {
        state.withLock { state in Self.number(id).flatMap { state.index[$0] }.map { state.entries[$0] } }
    }

    /// The ids of `feed` now, newest first.
    func feed(_ feed: Feed) -> [PostID] {
        state.withLock { state in Self.items(of: feed, in: state).map(\.id) }
    }

    /// The filters the server attaches to the original `number`: every fifth original (from the
    /// third) is hidden in home, every seventh (from the fifth) in home and public too.
    static func filters(of number: Int) -> [PostFilter] {
        if number % 7 == 4 { return [PostFilter(title: "Everywhere", contexts: [.home, .public], action: .hide)] }
        if number % 5 == 2 { return [PostFilter(title: "Home", contexts: [.home], action: .hide)] }
        return []
    }

    /// The ids of `feed` the client should show: `feed(_:)` less the entries a filter hides in
    /// the feed's context.
    func shown(_ feed: Feed) -> [PostID] {
        state.withLock { state in
            Self.items(of: feed, in: state).filter { entry in
                !Self.filters(of: entry.boosts ?? entry.number, in: state).contains { filter in
                    feed.filterContext.map(filter.contexts.contains) == true
                }
            }.map(\.id)
        }
    }

    /// The version of the original `id` now (0 until edited).
    func version(_ id: PostID) -> Int { state.withLock { state in Self.number(id).flatMap { state.versions[$0] } ?? 0 } }

    /// The filters of the original `number` (none for the user's own posts).
    private static func filters(of number: Int, in state: State) -> [PostFilter] {
        state.index[number].map { state.entries[$0].mine } == true ? [] : filters(of: number)
    }

    /// Whether the entry `id` is the user's own post, or a boost of one.
    func isMine(_ id: PostID) -> Bool {
        state.withLock { state in
            guard let number = Self.number(id), let at = state.index[number] else { return false }
            let entry = state.entries[at]
            return entry.mine || entry.boosts.flatMap { state.index[$0] }.map { state.entries[$0].mine } == true
        }
    }

    /// The stream copies of the user's posts made since the last call (what a connected client
    /// would be sent), oldest first.
    func takeEchoes() -> [StreamEvent] {
        state.withLock { state in
            defer { state.echoes = [] }
            return state.echoes
        }
    }

    /// How many posts the user's submissions made.
    var postsMade: Int { state.withLock { $0.made.count } }

    /// The interaction state of the live original `id` now.
    func flags(_ id: PostID) -> ServerInteractions? { state.withLock { $0.server.interactions(of: id) } }

    /// Writes a new original (in home, and in `#t` when `tagged`); returns what the stream sends.
    func write(tagged: Bool) -> [StreamEvent] {
        state.withLock { state in
            let number = state.nextNumber
            state.nextNumber += 1
            state.mutations += 1
            state.versions[number] = 0
            let post = Self.original(number, tagged: tagged)
            state.server.add([post])
            Self.append(Entry(number: number, tagged: tagged), to: &state)
            return [.posted(post, in: .home)] + (tagged ? [.posted(post, in: .tag(Self.tag))] : [])
        }
    }

    /// Someone boosts the live original `id` (a new home entry); returns what the stream sends.
    func boost(_ id: PostID) -> [StreamEvent] {
        state.withLock { state in
            guard let original = Self.number(id), let at = state.index[original], !state.entries[at].deleted,
                let boosted = state.server.entry(id)
            else { return [] }
            let number = state.nextNumber
            state.nextNumber += 1
            state.mutations += 1
            let entry = Entry(number: number, boosts: original, tagged: false)
            Self.append(entry, to: &state)
            let boost = Post(
                id: entry.id, author: Self.authors[(entry.number + 1) % Self.authors.count], text: "",
                createdAt: Self.epoch.addingTimeInterval(Double(entry.number) * 60), reblog: boosted
            )
            state.server.add([boost])
            return [.posted(boost, in: .home)]
        }
    }

    /// The author edits the live original `id`; returns what the stream sends.
    func edit(_ id: PostID) -> [StreamEvent] {
        state.withLock { state in
            guard let number = Self.number(id), let at = state.index[number], !state.entries[at].deleted,
                state.entries[at].boosts == nil
            else { return [] }
            state.versions[number, default: 0] += 1
            state.mutations += 1
            let version = state.versions[number] ?? 0
            guard let edited = state.server.update(id, { post in
                post.text = "post \(number) v\(version)"
                post.editedAt = Self.epoch.addingTimeInterval(Double(number) * 60 + Double(version))
            }) else { return [] }
            return [.edited(edited)]
        }
    }

    /// Deletes the live entry `id` — an original takes its boosts with it, as Mastodon does;
    /// returns what the stream sends (one delete, of the id given).
    func delete(_ id: PostID) -> [StreamEvent] {
        state.withLock { state in
            guard let number = Self.number(id), let at = state.index[number], !state.entries[at].deleted else { return [] }
            state.entries[at].deleted = true
            state.mutations += 1
            if state.entries[at].boosts == nil {
                for index in state.entries.indices where state.entries[index].boosts == number { state.entries[index].deleted = true }
            }
            state.server.remove(id)
            return [.deleted(id)]
        }
    }

    // MARK: - The test's side: the calls

    /// Calls waiting for an answer.
    var pendingCount: Int { state.withLock { $0.pending.count } }
    /// The effects waiting for an answer (an effect makes one call here).
    var waitingEffects: Int { state.withLock { state in Set(state.pending.compactMap(\.effect)).count + state.pending.count { $0.effect == nil } } }
    /// Descriptions of the waiting calls, oldest first.
    var pendingCalls: [String] { state.withLock { $0.pending.map { $0.description + ($0.served == nil ? "" : " (served)") } } }
    /// Broken promises seen so far (two requests in flight for one post and kind).
    var violations: [String] { state.withLock { $0.violations } }

    /// Serves every waiting call not served yet, in order (what ``servesOnArrival`` asks for,
    /// done by the test once the calls have arrived, so that the order is fixed).
    func serveArrived() {
        state.withLock { state in
            guard state.servesOnArrival else { return }
            for index in state.pending.indices where state.pending[index].served == nil {
                let compute = state.pending[index].compute
                let served = Self.run { try compute(&state) }
                state.pending[index].served = served
                state.pending[index].servedAt = state.mutations
            }
        }
    }

    private static func precedes(_ lhs: Pending, _ rhs: Pending) -> Bool {
        if lhs.description != rhs.description { return lhs.description < rhs.description }
        return (lhs.effect ?? .max) < (rhs.effect ?? .max)
    }

    /// Serves the waiting call at `index` now (its answer is computed from the state now and
    /// waits to be delivered); nothing when it was served already.
    func serve(at index: Int) {
        state.withLock { state in
            guard state.pending.indices.contains(index), state.pending[index].served == nil else { return }
            let compute = state.pending[index].compute
            let served = Self.run { try compute(&state) }
            state.pending[index].served = served
            state.pending[index].servedAt = state.mutations
        }
    }

    /// Delivers the answer of the waiting call at `index` — served now if it was not yet, or
    /// refused with "The server is unavailable." when `failing` and not served yet. Returns
    /// ``mutations`` when it was served (`nil` when refused): the stream events of the changes
    /// up to then must reach the client first — the answer is handled once the caller yields.
    ///
    /// `losing`: the answer is lost on its way — the call is served (now, if it was not yet),
    /// and the client hears "The server is unavailable." instead.
    @discardableResult
    func answer(at index: Int, failing: Bool, losing: Bool = false) -> Int? {
        let answered: (Pending, Result<Answer, Failure>, Int?)? = state.withLock { state in
            guard state.pending.indices.contains(index) else { return nil }
            let taken = state.pending.remove(at: index)
            let lost = Failure(message: "The server is unavailable.")
            if let served = taken.served { return (taken, losing ? .failure(lost) : served, taken.servedAt) }
            if failing { return (taken, .failure(Failure(message: "The server is unavailable.")), nil) }
            let result = Self.run { try taken.compute(&state) }
            return (taken, losing ? .failure(lost) : result, state.mutations)
        }
        guard let (taken, result, servedAt) = answered else { return nil }
        defer {
            switch result {
            case .success(let answer): taken.continuation.resume(returning: answer)
            case .failure(let failure): taken.continuation.resume(throwing: failure)
            }
        }
        return servedAt
    }

    // MARK: - Content

    static func number(_ id: PostID) -> Int? { Int(id.rawValue.dropFirst()) }
    private static func number(_ cursor: String) -> Int? { Int(cursor.dropFirst()) }

    private static func append(_ entry: Entry, to state: inout State) {
        state.index[entry.number] = state.entries.count
        state.entries.append(entry)
    }

    private static func run(_ compute: () throws -> Answer) -> Result<Answer, Failure> {
        do {
            return .success(try compute())
        } catch let failure as Failure {
            return .failure(failure)
        } catch {
            return .failure(Failure(message: (error as? any LocalizedError)?.errorDescription ?? "\(error)"))
        }
    }

    /// The original `number` as it is written, not yet edited or interacted with: by one of
    /// ``authors``, or by ``me`` (never filtered).
    private static func original(_ number: Int, by author: Author? = nil, tagged: Bool) -> Post {
        Post(
            id: PostID("p\(number)"), author: author ?? authors[number % authors.count], text: "post \(number) v0",
            createdAt: epoch.addingTimeInterval(Double(number) * 60),
            reblogsCount: number % 2, favouritesCount: number % 3,
            tags: tagged ? [tag] : [],
            filters: author == nil ? filters(of: number) : []
        )
    }

    /// The live entries of `feed`, newest first.
    private static func items(of feed: Feed, in state: State) -> [Entry] {
        state.entries.reversed().filter { entry in
            guard !entry.deleted else { return false }
            switch feed {
            case .home: return true
            case .tag(let name): return name == tag && entry.tagged && entry.boosts == nil
            default: return false
            }
        }
    }

    // MARK: - Waiting

    private func wait(
        _ kind: FeedCalls, _ description: String, interaction: (PostID, InteractionKind)? = nil, _ compute: @escaping @Sendable (inout State) throws -> Answer
    ) async throws -> Answer {
        try expectations.check(kind, description)
        return try await withCheckedThrowingContinuation { continuation in
            state.withLock { state in
                if let (id, kind) = interaction,
                    state.pending.contains(where: { $0.interaction.map { $0.0 == id && $0.1 == kind } ?? false }) {
                    state.violations.append("two \(kind) requests in flight for \(id)")
                }
                // In a fixed order, whatever order concurrent calls arrive in: by what they ask,
                // then by the effect that asks (effects are numbered in the order they start).
                let pending = Pending(
                    description: description, effect: CurrentEffect.number, interaction: interaction, compute: compute,
                    served: nil, servedAt: nil, continuation: continuation
                )
                let index = state.pending.firstIndex { Self.precedes(pending, $0) } ?? state.pending.count
                state.pending.insert(pending, at: index)
            }
        }
    }

    // MARK: - FeedService

    func page(of feed: Feed, after cursor: PageCursor?) async throws -> Page<Post> {
        let size = pageSize
        let answer = try await wait(.pages, "page(\(feed), \(cursor?.rawValue ?? "nil"))") { state in
            let below = cursor.flatMap { Self.number($0.rawValue) } ?? Int.max
            let older = Self.items(of: feed, in: state).filter { $0.number < below }
            let slice = older.prefix(size)
            return .page(Page(posts: slice.compactMap { state.server.entry($0.id) }, next: older.count > size ? slice.last.map { PageCursor($0.id.rawValue) } : nil))
        }
        guard case .page(let page) = answer else { throw Failure(message: "wrong answer") }
        return page
    }

    func newer(in feed: Feed, than lower: PostID, olderThan upper: PostID?) async throws -> NewerPage<Post> {
        let size = pageSize
        let answer = try await wait(.newer, "newer(\(feed), \(lower), \(upper?.rawValue ?? "nil"))") { state in
            let low = Self.number(lower) ?? Int.max
            let high = upper.flatMap(Self.number) ?? Int.max
            let range = Self.items(of: feed, in: state).filter { $0.number > low && $0.number < high }
            return .newer(NewerPage(posts: range.prefix(size).compactMap { state.server.entry($0.id) }, hasMore: range.count > size))
        }
        guard case .newer(let page) = answer else { throw Failure(message: "wrong answer") }
        return page
    }

    func composeSettings() async throws -> ComposeSettings {
        try expectations.check(.writing, "composeSettings()")
        return ComposeSettings(account: Self.me)
    }

    func publish(_ draft: Draft, idempotencyKey key: String) async throws -> Post {
        let answer = try await wait(.writing, "publish(\(key))") { state in
            if let number = state.made[key] {
                // The same key: the post it made, as it is now (Mastodon keeps it for the key's hour).
                let id = PostID("p\(number)")
                return .post(state.server.entry(id) ?? Self.original(number, by: Self.me, tagged: false))
            }
            let number = state.nextNumber
            state.nextNumber += 1
            state.mutations += 1
            state.versions[number] = 0
            state.made[key] = number
            let post = Self.original(number, by: Self.me, tagged: false)
            state.server.add([post])
            Self.append(Entry(number: number, tagged: false, mine: true), to: &state)
            state.echoes.append(.posted(post, in: .home))
            return .post(post)
        }
        guard case .post(let post) = answer else { throw Failure(message: "wrong answer") }
        return post
    }

    func set(_ kind: InteractionKind, to value: Bool, postID: PostID) async throws -> Post {
        let original = entry(postID).flatMap { $0.boosts.map { PostID("p\($0)") } } ?? postID
        let answer = try await wait(.interactions, "\(kind)(\(value), \(postID))", interaction: (original, kind)) { state in
            let answer = try state.server.set(kind, to: value, on: original)
            state.mutations += 1
            return .post(answer)
        }
        guard case .post(let post) = answer else { throw Failure(message: "wrong answer") }
        return post
    }

    // Not in this model: each fails the test.

    func notifications(after cursor: PageCursor?) async throws -> Page<NotificationGroup> {
        throw expectations.unexpected("notifications(\(cursor?.rawValue ?? "nil"))")
    }

    func newerNotifications(than lower: ItemID, olderThan upper: ItemID?) async throws -> NewerPage<NotificationGroup> {
        throw expectations.unexpected("newerNotifications(\(lower), \(upper?.rawValue ?? "nil"))")
    }

    func post(_ id: PostID) async throws -> Post { throw expectations.unexpected("post(\(id))") }
    func context(of id: PostID) async throws -> PostContext { throw expectations.unexpected("context(\(id))") }
    func account(named handle: String) async throws -> Author { throw expectations.unexpected("account(\(handle))") }
}
