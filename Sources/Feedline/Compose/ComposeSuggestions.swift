/// What the server suggests for a word typed into a draft, loaded when first asked and kept for
/// the session: accounts by the start of their handle (each start asked once), the hashtags you
/// follow and those trending, and the server's custom emoji. A front's completion offers what the
/// session has seen first and these after. Accounts come from any service's search (the
/// package's own services ask Mastodon's account search); emoji only from the package's own.
///
/// Main actor. A request that fails counts as answered with nothing (completion never waits on
/// it again in the session); every load counts in the session's activity.
@MainActor
public final class ComposeSuggestions {
    /// What can be asked (a front asks through ``loadAccounts(startingWith:then:)``,
    /// ``loadTags(then:)`` and ``loadEmoji(then:)``).
    package enum Request: Hashable, Sendable {
        /// Accounts whose handle starts with this (lowercased, no `@`).
        case accounts(String)
        /// The hashtags you follow and those trending.
        case tags
        /// The server's custom emoji.
        case emoji
    }

    /// Handles (`user` or `user@host`, without `@`) of the accounts found so far, in the order found.
    public private(set) var handles: [String] = []
    /// The account starts asked for and answered (lowercased).
    public private(set) var searched: Set<String> = []
    /// The hashtags you follow and then those trending (without `#`, each once), once loaded;
    /// `nil` before.
    public private(set) var tags: [String]?
    /// The shortcodes of the server's custom emoji (without colons), sorted, once loaded; `nil` before.
    public private(set) var emoji: [String]?

    /// How many accounts one start asks for.
    public static let accountLimit = 10

    /// What one request found.
    private enum Answer: Sendable {
        case accounts(start: String, handles: [String])
        case tags([String])
        case emoji([String])
    }

    /// The requests on their way, each with who waits for its answer.
    private var waiting: [Request: [@MainActor @Sendable () -> Void]] = [:]
    private var loop: Feedback<Request, Answer>?

    package init(service: any FeedService, activity: Activity) {
        loop = Feedback(
            activity: activity,
            effect: { request in await Self.answer(request, from: service) },
            handle: { [weak self] answer in self?.receive(answer) }
        )
    }

    /// Asks the server for the accounts whose handle starts with `start` (an `@` before it is
    /// left out; case does not matter) unless that start was answered (``searched``) or is on
    /// its way; `then` runs on the main actor once it is answered (at once when it was). What
    /// is found joins ``handles``.
    public func loadAccounts(startingWith start: String, then: @escaping @MainActor @Sendable () -> Void = {}) {
        load(.accounts(start), then: then)
    }

    /// Asks the server for the hashtags you follow and those trending, once (``tags`` is `nil`
    /// until they are answered); `then` runs on the main actor once they are.
    public func loadTags(then: @escaping @MainActor @Sendable () -> Void = {}) {
        load(.tags, then: then)
    }

    /// Asks the server for its custom emoji, once (``emoji`` is `nil` until they are answered);
    /// `then` runs on the main actor once they are.
    public func loadEmoji(then: @escaping @MainActor @Sendable () -> Void = {}) {
        load(.emoji, then: then)
    }

    /// Whether `request` was answered (found something or not).
    package func answered(_ request: Request) -> Bool {
        switch Self.normalized(request) {
        case .accounts(let start): searched.contains(start)
        case .tags: tags != nil
        case .emoji: emoji != nil
        }
    }

    /// Asks the server for `request` unless it was answered or is on its way (one request each);
    /// `then` runs on the main actor once it is answered (at once when it was).
    package func load(_ request: Request, then: @escaping @MainActor @Sendable () -> Void = {}) {
        let request = Self.normalized(request)
        guard !answered(request) else {
            then()
            return
        }
        waiting[request, default: []].append(then)
        loop?.react(to: waiting.keys)
    }

    private func receive(_ answer: Answer) {
        let request: Request
        switch answer {
        case .accounts(let start, let handles):
            found(handles, for: start)
            request = .accounts(start)
        case .tags(let names):
            tags = names
            request = .tags
        case .emoji(let shortcodes):
            emoji = shortcodes
            request = .emoji
        }
        let waiters = waiting.removeValue(forKey: request) ?? []
        loop?.react(to: waiting.keys)
        for then in waiters { then() }
    }

    /// What the server answers `request` (a failure answers nothing).
    nonisolated private static func answer(_ request: Request, from service: any FeedService) async -> Answer {
        switch request {
        case .accounts(let start):
            return .accounts(start: start, handles: await accounts(start, from: service))
        case .tags:
            async let followed = try? service.followedTags(after: nil).items.map(\.name)
            async let trending = try? service.trendingTags(after: nil).items.map(\.name)
            let all = (await followed ?? []) + (await trending ?? [])
            var seen = Set<String>()
            return .tags(all.filter { seen.insert($0.lowercased()).inserted })
        case .emoji:
            let loaded = (try? await (service as? any ComposeSuggestionService)?.customEmoji()) ?? []
            return .emoji(Set(loaded.map(\.shortcode)).sorted())
        }
    }

    private func found(_ handles: [String], for start: String) {
        searched.insert(start)
        for handle in handles where !self.handles.contains(where: { $0.caseInsensitiveCompare(handle) == .orderedSame }) {
            self.handles.append(handle)
        }
    }

    /// The handles the server finds for `start`: through ``ComposeSuggestionService`` when the
    /// service has it, else the accounts of a search, kept to those whose handle starts so.
    nonisolated private static func accounts(_ start: String, from service: any FeedService) async -> [String] {
        let authors: [Author]
        if let suggestions = service as? any ComposeSuggestionService {
            authors = (try? await suggestions.accounts(matching: start, limit: accountLimit)) ?? []
        } else {
            let results = (try? await service.search("@" + start, after: nil).items) ?? []
            authors = results.compactMap { result in
                if case .account(let profile) = result { return profile.author }
                return nil
            }
        }
        return authors.map { String($0.handle.drop { $0 == "@" }) }.filter { $0.lowercased().hasPrefix(start) }
    }

    private static func normalized(_ request: Request) -> Request {
        guard case .accounts(let start) = request else { return request }
        return .accounts(String(start.drop { $0 == "@" }).lowercased())
    }
}
