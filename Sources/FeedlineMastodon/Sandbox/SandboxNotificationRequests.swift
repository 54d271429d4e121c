@_spi(FeedService) import Feedline

/// The sandbox's requests of filtered notifications, kept as Mastodon keeps them: newest first
/// (by id when two changed at once); an answered one is gone, and the policy's summary counts it
/// no more; an unknown id is refused with Mastodon's sentence.
struct SandboxNotificationRequests: Sendable {
    private(set) var requests: [NotificationRequest]
    /// Each request as the scenario gave it, by id: what an accept lets through.
    private let given: [String: Mastodon.NotificationRequest]

    init(_ requests: [Mastodon.NotificationRequest]) {
        self.requests = requests.map { NotificationRequest($0) }.sorted {
            ($0.updatedAt, $0.id.count, $0.id) > ($1.updatedAt, $1.id.count, $1.id)
        }
        given = Dictionary(requests.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The request `id` as the scenario gave it (its account and last status as Mastodon sends them).
    func given(_ id: String) -> Mastodon.NotificationRequest? { given[id] }

    /// A page of `size` after the request `cursor` names (its id), and the next cursor.
    func page(after cursor: PageCursor?, size: Int) -> Page<NotificationRequest> {
        let start = cursor.flatMap { cursor in requests.firstIndex { $0.id == cursor.rawValue }.map { $0 + 1 } } ?? 0
        let items = Array(requests.dropFirst(start).prefix(size))
        let more = start + items.count < requests.count
        return Page(items: items, next: more ? items.last.map { PageCursor($0.id) } : nil)
    }

    /// Takes the request `id` away (accepted or dismissed) and returns it.
    mutating func answer(_ id: String) throws(SandboxError) -> NotificationRequest {
        guard let index = requests.firstIndex(where: { $0.id == id }) else { throw .refused("Record not found") }
        return requests.remove(at: index)
    }
}
