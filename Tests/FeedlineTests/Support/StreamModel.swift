@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

/// The stream model check's server: a ``GatedServer`` whose feeds change while the client reads,
/// and a ledger of every entry written — the reference the stream model check compares the lists
/// with.
///
/// Posts arrive, are boosted, edited and deleted by the test (``write(tagged:)``,
/// ``boost(_:)``, ``edit(_:)``, ``delete(_:)``), each a change of the model; each returns the
/// stream events a connected client would be sent, and the test decides whether they reach it.
/// A page or a range bounded by an entry deleted since still means what it meant, as Mastodon's
/// ids order it (the model's feeds keep the ids of what they listed).
///
/// Two feeds: home (every original and boost) and `#t` (the originals that carry the tag, no
/// boosts). Some originals carry a server filter whose action is `hide` (``filters(of:)``): in
/// home only, or in home and public (which `#t` filters in); a boost carries its original's.
/// The user writes too (``GatedServer/publish(_:idempotencyKey:)``, by ``me``, never filtered):
/// the model's writing laws make the post once per key (in home, and a stream copy for
/// ``takeEchoes()``).
///
/// Every call the session makes (pages, newer pages, interactions, posts) is held until the
/// test answers it, in any order, in an order of waiting that does not depend on how concurrent
/// calls happened to arrive, so that a seed replays. Its answer is computed when the server
/// *serves* it — as soon as it arrived when ``servesOnArrival`` (``serveArrived()``), at
/// ``serve(at:)``, or at the latest when answered — from the model then, so a response can be
/// older than the stream events the client saw before it arrives. ``mutations`` counts the
/// changes, so that a test can keep a late stream no later than the answers served after its
/// events. A failed answer is one the server never served: it changed nothing; a lost answer
/// (``answer(at:failing:losing:)``) was served — the server did what it asked — and the client
/// hears a failure. A hashtag's header is refused at once; any other call fails the test.
@MainActor
final class StreamModel {
    /// One entry the test or the user wrote: an original (`p<number>`, or the user's `post<n>`)
    /// or a boost of one (`b<number>`).
    struct Entry: Hashable {
        var id: PostID
        /// The original, for a boost.
        var boosts: PostID?
        var tagged: Bool
        var deleted = false
        /// Written by the user (``StreamModel/me``).
        var mine = false
    }

    static let epoch = Date(timeIntervalSince1970: 1_795_000_000)
    static let tag = "t"
    static let authors = (0..<3).map { Author(id: "a\($0)", displayName: "Author \($0)", handle: "author\($0)@stream.example") }
    /// The signed-in user.
    static let me = Author(id: "me", displayName: "Me", handle: "me@stream.example")
    /// The calls the session makes here, each held until the test answers it.
    static let calls: [GatedCall.Kind] = [.page, .newer, .interaction, .publish]

    let server: GatedServer
    let pageSize: Int
    /// Whether calls are served as soon as they arrive (else when the test serves or answers them).
    var servesOnArrival = false
    /// How many changes the server has made: a stream event sent after change n was made
    /// reaches a client before any answer served after it (see ``answer(at:failing:losing:)``).
    private(set) var mutations = 0
    /// Every entry ever written, oldest first, deleted ones included.
    private var written: [Entry] = []
    private var index: [PostID: Int] = [:]
    private var versions: [PostID: Int] = [:]
    private var nextNumber = 1
    /// ``mutations`` when each waiting call was served, by its number (``HeldCalls/number(at:)``).
    private var servedAt: [Int: Int] = [:]
    /// Stream copies of the user's posts made since ``takeEchoes()`` last took them.
    private var echoes: [StreamEvent] = []

    init(pageSize: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        self.pageSize = pageSize
        server = GatedServer(ServerModel(), me: Self.me, pageSize: pageSize, answering: [.composeSettings], heldInOrder: true, sourceLocation: sourceLocation)
        for kind in Self.calls { server.hold(kind) }
        // A hashtag's header is not in this model: refused at once.
        server.fail(.tag, with: AccountsUnsupported())
    }

    // MARK: - The content

    /// Every entry ever written, oldest first, deleted ones included.
    var entries: [Entry] {
        syncOwnPosts()
        return written
    }

    /// The entry `id` names, deleted or not.
    func entry(_ id: PostID) -> Entry? {
        syncOwnPosts()
        return index[id].map { written[$0] }
    }

    /// The ids of `feed` now, newest first.
    func feed(_ feed: Feed) -> [PostID] { server.model.timeline(feed).map(\.id) }

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
        server.model.timeline(feed).filter { post in
            !(post.reblog ?? post).filters.contains { filter in feed.filterContext.map(filter.contexts.contains) == true }
        }.map(\.id)
    }

    /// The version of the original `id` now (0 until edited).
    func version(_ id: PostID) -> Int { versions[id] ?? 0 }

    /// Whether the entry `id` is the user's own post, or a boost of one.
    func isMine(_ id: PostID) -> Bool {
        guard let entry = entry(id) else { return false }
        return entry.mine || entry.boosts.flatMap { self.entry($0) }?.mine == true
    }

    /// The stream copies of the user's posts made since the last call (what a connected client
    /// would be sent), oldest first.
    func takeEchoes() -> [StreamEvent] {
        syncOwnPosts()
        defer { echoes = [] }
        return echoes
    }

    /// The interaction state of the live original `id` now.
    func flags(_ id: PostID) -> ServerInteractions? { server.model.interactions(of: id) }

    /// Writes a new original (in home, and in `#t` when `tagged`); returns what the stream sends.
    func write(tagged: Bool) -> [StreamEvent] {
        let number = takeNumber()
        let post = Post(
            id: PostID("p\(number)"), author: Self.authors[number % Self.authors.count], text: "post \(number) v0",
            createdAt: Self.epoch.addingTimeInterval(Double(number) * 60),
            reblogsCount: number % 2, favouritesCount: number % 3,
            tags: tagged ? [Self.tag] : [], filters: Self.filters(of: number)
        )
        server.update { model in
            model.add([post])
            model.timelines.prepend(post.id, to: tagged ? [.home, .tag(Self.tag)] : [.home])
        }
        append(Entry(id: post.id, tagged: tagged))
        return [.posted(post, in: .home)] + (tagged ? [.posted(post, in: .tag(Self.tag))] : [])
    }

    /// Someone boosts the live original `id` (a new home entry); returns what the stream sends.
    func boost(_ id: PostID) -> [StreamEvent] {
        guard let original = entry(id), !original.deleted, original.boosts == nil, let boosted = server.model.entry(id) else { return [] }
        let number = takeNumber()
        let boost = Post(
            id: PostID("b\(number)"), author: Self.authors[(number + 1) % Self.authors.count], text: "",
            createdAt: Self.epoch.addingTimeInterval(Double(number) * 60), reblog: boosted
        )
        server.update { model in
            model.add([boost])
            model.timelines.prepend(boost.id, to: [.home])
        }
        append(Entry(id: boost.id, boosts: id, tagged: false))
        return [.posted(boost, in: .home)]
    }

    /// The author edits the live original `id`; returns what the stream sends.
    func edit(_ id: PostID) -> [StreamEvent] {
        guard let entry = entry(id), !entry.deleted, entry.boosts == nil else { return [] }
        let version = versions[id, default: 0] + 1
        versions[id] = version
        mutations += 1
        let number = Self.number(id)
        let edited = server.update { model in
            model.update(id) { post in
                post.text = "post \(number) v\(version)"
                post.editedAt = Self.epoch.addingTimeInterval(Double(number) * 60 + Double(version))
            }
        }
        return edited.map { [.edited($0)] } ?? []
    }

    /// Deletes the live entry `id` — an original takes its boosts with it, as Mastodon does;
    /// returns what the stream sends (one delete, of the id given).
    func delete(_ id: PostID) -> [StreamEvent] {
        guard let at = entry(id).flatMap({ index[$0.id] }), !written[at].deleted else { return [] }
        written[at].deleted = true
        mutations += 1
        if written[at].boosts == nil {
            for other in written.indices where written[other].boosts == id { written[other].deleted = true }
        }
        server.update { model in model.remove(id) }
        return [.deleted(id)]
    }

    /// The number in an id (`p12`, `b11`, `post3`).
    private static func number(_ id: PostID) -> Int { Int(id.rawValue.drop { !$0.isNumber }) ?? 0 }

    private func takeNumber() -> Int {
        defer { nextNumber += 1 }
        mutations += 1
        return nextNumber
    }

    private func append(_ entry: Entry) {
        index[entry.id] = written.count
        written.append(entry)
    }

    /// Takes the posts the user's submissions made since last asked into the ledger, each with
    /// its stream copy.
    private func syncOwnPosts() {
        let model = server.model
        let made = model.writing.publishedTexts.keys.filter { index[$0] == nil }
            .sorted { Self.number($0) < Self.number($1) }
        for id in made {
            append(Entry(id: id, tagged: false, mine: true))
            if let post = model.entry(id) {
                echoes.append(.posted(post, in: .home))
            } else {
                written[written.count - 1].deleted = true
            }
        }
    }

    // MARK: - The calls

    /// Calls waiting for an answer.
    var pendingCount: Int { server.held.count }
    /// The effects waiting for an answer (an effect makes one call here).
    var waitingEffects: Int { server.held.waitingEffects }
    /// Descriptions of the waiting calls, in their order, the served ones marked.
    var pendingCalls: [String] {
        server.waiting.indices.map { "\(server.waiting[$0])" + (server.isServedHeld(at: $0) ? " (served)" : "") }
    }
    /// Broken promises (two requests in flight for one post and kind): every call waits here
    /// until answered, so two in flight at once wait at once.
    var violations: [String] { server.twoInteractionsWaiting.map { [$0] } ?? [] }

    /// Serves every waiting call not served yet, in order (what ``servesOnArrival`` asks for,
    /// done by the test once the calls have arrived, so that the order is fixed).
    func serveArrived() {
        guard servesOnArrival else { return }
        for index in 0..<pendingCount where !server.isServedHeld(at: index) { serve(at: index) }
    }

    /// Serves the waiting call at `index` now (its answer is computed from the model now and
    /// waits to be delivered); nothing when it was served already.
    func serve(at index: Int) {
        guard let number = server.held.number(at: index), !server.isServedHeld(at: index) else { return }
        let write = server.waiting.indices.contains(index) && GatedCall.Kind.writes.contains(server.waiting[index].kind)
        if write { mutations += 1 }
        server.serveHeld(at: index)
        servedAt[number] = mutations
    }

    /// Delivers the answer of the waiting call at `index` — served now if it was not yet, or
    /// failed for lack of a connection when `failing` and not served yet. Returns
    /// ``mutations`` when it was served (`nil` when failed): the stream events of the changes
    /// up to then must reach the client first — the answer is handled once the caller yields.
    ///
    /// `losing`: the answer is lost on its way — the call is served (now, if it was not yet),
    /// and the client hears it failed for lack of a connection instead.
    @discardableResult
    func answer(at index: Int, failing: Bool, losing: Bool = false) -> Int? {
        guard let number = server.held.number(at: index) else { return nil }
        if !server.isServedHeld(at: index) {
            if failing {
                server.lose(at: index)
                return nil
            }
            serve(at: index)
        }
        let served = servedAt.removeValue(forKey: number)
        if losing { server.lose(at: index) } else { server.answer(at: index) }
        return served
    }
}
