/// One family of lists — posts, notifications, a thread, an edit history, accounts, search
/// results, domains, hashtags, conversations, your lists: how its list loads a page, turns what
/// came into the machine's events, and which of the session's stores its rows follow.
///
/// ``FeedListViewModel`` picks one from its ``ListSource`` once (`ListSource/rowSource(_:)`) and
/// runs the loop around it: it sends events, runs the loads through its one `Feedback`, and
/// applies. A new family is a file of this folder and a case of ``ListSource``.
protocol RowSource: Sendable {
    /// What one request brings, before it becomes rows.
    associatedtype Answer: Sendable

    /// How the list's refresh finds new items.
    var refreshStyle: ListState.RefreshStyle { get }

    /// The service call of `request`, with the stores' epochs taken as it started. Throws what
    /// the service threw. Runs on the main actor, as the loop does, so that the calls of every
    /// list start in the order their loops asked (a scripted session replays them the same way).
    @MainActor func load(_ request: ListRequest, epochs: FetchEpochs) async throws -> Answer

    /// What came for `request`, as `list`'s events — what it brought goes into the stores first,
    /// so that the rows show their copies.
    @MainActor func receive(_ answer: Answer, for request: ListRequest, epochs: FetchEpochs, in list: FeedListViewModel) -> Received

    /// Follows the stores the rows show: their changes become `list`'s events. The list keeps
    /// the subscriptions.
    @MainActor func watch(_ list: FeedListViewModel) -> [Subscription]
}

extension RowSource {
    @MainActor func watch(_ list: FeedListViewModel) -> [Subscription] { [] }

    /// `load` and `receive` as one effect of the list's loop: the answer becomes events on the
    /// main actor. The effect runs on the main actor, as `load` and the loop do, so an answer
    /// hops to the main actor once (a nonisolated effect would hop off it and back around every
    /// load, and each hop waits for a thread on a busy machine).
    func loader() -> @MainActor @Sendable (ListRequest, FetchEpochs) async -> Loaded {
        { request, epochs in
            do {
                let answer = try await load(request, epochs: epochs)
                return .answered(request) { list in self.receive(answer, for: request, epochs: epochs, in: list) }
            } catch {
                return .failed(request, FeedFailure(error))
            }
        }
    }
}

/// What a load brought: the row source's answer, which becomes events on the main actor, or
/// the request's failure.
enum Loaded: Sendable {
    case answered(ListRequest, @MainActor @Sendable (FeedListViewModel) -> Received)
    case failed(ListRequest, FeedFailure)
}

/// An answer as a list's events.
struct Received {
    /// The page (or newer page) for the request.
    var event: ListEvent
    /// An event in the same change after it (a page that shows nothing asks for the next).
    var followUp: ListEvent? = nil
    /// What the page tells a store of settings, told once the page is applied (the store then
    /// tells the list back, and the page must not still show as loading).
    var then: (@MainActor () -> Void)? = nil
}

/// The epochs of the stores a load reports to, taken as it starts.
struct FetchEpochs: Sendable {
    var posts: StoreEpoch
    var tags: StoreEpoch
    var domains: StoreEpoch
    var conversations: StoreEpoch
    var lists: StoreEpoch = 0
    var filters: StoreEpoch = 0
    /// The announcement store's (the announcements screen's; 0 for the others).
    var announcements: StoreEpoch = 0
    /// The notification dismissals' (a notifications list's; 0 for the others).
    var notifications: StoreEpoch = 0
    /// The scheduled-post store's (the scheduled screen's; 0 for the others).
    var scheduled: StoreEpoch = 0
    /// The notification-request store's (the filtered-notifications screen's; 0 for the others).
    var notificationRequests: StoreEpoch = 0
    /// The relationship store's, for a list whose account rows show relationships (`nil`:
    /// none): the page's accounts' relationships are fetched with it.
    var relationships: StoreEpoch? = nil
}

/// The relationships of a page's accounts, fetched before the page is shown so that its rows
/// come with them (never first bare, or with an older relationship, then corrected).
/// `nil` when the list shows none or the fetch failed (the rows then ask for them later).
struct PageRelationships: Sendable {
    var relationships: [Relationship]
    var fetchedAt: StoreEpoch

    /// The relationships of `accounts` in one call, for a list that shows them (`epochs`
    /// says); `nil` when it shows none, when there are none to ask for, or when the call failed.
    @MainActor static func of(_ accounts: [AccountID], _ service: any FeedService, _ epochs: FetchEpochs) async -> PageRelationships? {
        // Accounts named by handle only are looked up when shown (as the store's `load` does).
        let wanted = accounts.filter { $0.handle == nil }
        guard let fetchedAt = epochs.relationships, !wanted.isEmpty,
            let relationships = try? await service.relationships(of: wanted)
        else { return nil }
        return PageRelationships(relationships: relationships, fetchedAt: fetchedAt)
    }
}

/// The session's stores a list's rows may show (each `nil` where the source shows none of it).
struct ListStores: Sendable {
    var posts: PostStore
    var relationships: RelationshipStore?
    /// Your reports this session, which account rows show (with the relationships).
    var reports: ReportStore?
    var domainBlocks: DomainBlockStore?
    var tags: TagStore?
    var conversations: ConversationStore?
    var lists: UserListStore?
    var filters: FilterStore? = nil
    var notifications: NotificationDismissals?
    var announcements: AnnouncementStore? = nil
    var scheduled: ScheduledStore?
    /// The requests of filtered notifications: the filtered screen's rows, and what makes a
    /// notifications screen reload (an accept confirmed).
    var notificationRequests: NotificationRequestStore? = nil
}

extension ListSource {
    /// The row source of this list's family, loading from `service`, showing `stores`.
    @MainActor
    func rowSource(_ service: any FeedService, _ stores: ListStores) -> any RowSource {
        switch self {
        case .feed(let feed): PostRows(feed: feed, service: service)
        case .notifications:
            NotificationRows(kinds: [], service: service, dismissals: stores.notifications, requests: stores.notificationRequests)
        case .notificationsOf(let kinds):
            NotificationRows(kinds: kinds, service: service, dismissals: stores.notifications, requests: stores.notificationRequests)
        case .thread(let id): ThreadRows(id: id, service: service)
        case .history(let id): HistoryRows(id: id, service: service)
        case .accounts(let list): AccountRows(list: list, service: service, relationships: stores.relationships, reports: stores.reports, lists: stores.lists)
        case .search(let query): SearchRows(query: query, service: service, relationships: stores.relationships, reports: stores.reports, tags: stores.tags)
        case .domainBlocks: DomainRows(service: service, domainBlocks: stores.domainBlocks)
        case .followedTags: TagRows(followed: true, service: service, tags: stores.tags)
        case .trendingTags: TagRows(followed: false, service: service, tags: stores.tags)
        case .conversations: ConversationRows(service: service, conversations: stores.conversations)
        case .userLists: UserListRows(service: service, lists: stores.lists)
        case .filters: FilterRows(service: service, filters: stores.filters)
        case .announcements: AnnouncementRows(service: service, announcements: stores.announcements)
        case .scheduled: ScheduledRows(service: service, scheduled: stores.scheduled)
        case .notificationRequests: NotificationRequestRows(service: service, requests: stores.notificationRequests)
        }
    }
}
