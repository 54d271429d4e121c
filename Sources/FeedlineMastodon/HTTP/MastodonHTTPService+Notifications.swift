@_spi(FeedService) import Feedline
import Foundation

extension MastodonHTTPService {
    static let groupedPath = "/api/v2/notifications"
    static let plainPath = "/api/v1/notifications"

    /// A page of notification groups: `GET /api/v2/notifications` (Mastodon 4.3's grouped
    /// notifications), or — on a server that answers it with 404 — `GET /api/v1/notifications`
    /// grouped on the client (see ``Feedline/NotificationGroup/grouping(_:)``). A cursor is the
    /// `rel="next"` link of the page before, so it keeps to the endpoint that made it. `kinds`
    /// (when not empty) go as `types[]`, which both endpoints read.
    @_spi(FeedService) public func notifications(of kinds: Set<NotificationGroup.Kind>, after cursor: PageCursor?) async throws -> Page<NotificationGroup> {
        let cursorPath = cursor.flatMap { URL(string: $0.rawValue) }.map(\.path)
        let types = Self.typesQuery(kinds)
        return try await withNotificationsPath(known: cursorPath) { path in
            let url = self.pageURL(path: path, fixedQuery: types, after: cursor)
            let (groups, response, _, skipped) = try await self.fetchGroups(url, path: path)
            let next = groups.isEmpty ? nil : self.nextCursor(response, after: url, path: path, fixedQuery: types)
            return Page(items: groups, next: next, skipped: skipped)
        }
    }

    /// The newest notification groups of `kinds` (every kind when empty) strictly between
    /// `lower` and `upper` (notification ids).
    @_spi(FeedService) public func newerNotifications(
        of kinds: Set<NotificationGroup.Kind>, than lower: ItemID, olderThan upper: ItemID?
    ) async throws -> NewerPage<NotificationGroup> {
        try await withNotificationsPath(known: nil) { path in
            let limit = min(self.pageSize + 1, Self.maximumPageSize)
            var query = Self.typesQuery(kinds)
            query.append(URLQueryItem(name: "since_id", value: lower.rawValue))
            if let upper { query.append(URLQueryItem(name: "max_id", value: upper.rawValue)) }
            query.append(URLQueryItem(name: "limit", value: String(limit)))
            let (groups, response, counted, skipped) = try await self.fetchGroups(self.server.url(path: path, query: query), path: path)
            // `limit` counts what the server counts: groups on /api/v2, notifications on /api/v1
            // (where a full answer may fold into a few groups, with more of the range unread).
            let hasMore = counted > self.pageSize || (counted == limit && response.links.next != nil)
            return NewerPage(items: Array(groups.prefix(self.pageSize)), hasMore: hasMore, skipped: skipped)
        }
    }

    /// `types[]=…` for each of `kinds`, by API name in order (none when `kinds` is empty: every kind).
    static func typesQuery(_ kinds: Set<NotificationGroup.Kind>) -> [URLQueryItem] {
        kinds.map(\.apiName).sorted().map { URLQueryItem(name: "types[]", value: $0) }
    }

    /// Dismisses the notification group `key`: `POST /api/v2/notifications/:group_key/dismiss`,
    /// or — on a server without grouped notifications — `POST /api/v1/notifications/:id/dismiss`
    /// for each notification of the group as its pages brought them.
    ///
    /// - Throws: `MastodonHTTPError` as the server answers; `unprocessable` on `/api/v1` for a
    ///   group no page brought.
    @_spi(FeedService) public func dismissNotificationGroup(_ key: String) async throws {
        guard !key.isEmpty else { throw MastodonHTTPError.unprocessable(serverMessage: "there is no notification group to dismiss") }
        let what = "dismissing the notification group \(key)"
        try await withNotificationsPath(known: nil) { path in
            guard path == Self.plainPath else {
                _ = try await writing { try await send(APIRequest(method: "POST", url: server.url(path: path + "/" + URLPath.encode(key) + "/dismiss"), what: what)) }
                return
            }
            let ids = plainGroupMembers.withLock { $0[key] } ?? (key.hasPrefix("ungrouped-") ? [String(key.dropFirst("ungrouped-".count))] : [])
            guard !ids.isEmpty else { throw MastodonHTTPError.unprocessable(serverMessage: "no page brought the notifications of the group \(key)") }
            for id in ids {
                _ = try await writing { try await send(APIRequest(method: "POST", url: server.url(path: path + "/" + URLPath.encode(id) + "/dismiss"), what: what)) }
            }
            plainGroupMembers.withLock { _ = $0.removeValue(forKey: key) }
        }
    }

    /// Dismisses every notification of the user: `POST /api/v1/notifications/clear`.
    @_spi(FeedService) public func clearNotifications() async throws {
        _ = try await writing { try await send(APIRequest(method: "POST", url: server.url(path: Self.plainPath + "/clear"), what: "clearing your notifications")) }
        plainGroupMembers.withLock { $0.removeAll() }
    }

    /// Runs `body` on the grouped endpoint unless the server is known to lack it (or `known`, a
    /// cursor's path, names the plain one); a 404 from the grouped endpoint marks it missing and
    /// runs `body` again on the plain one.
    private func withNotificationsPath<Result>(known: String?, _ body: (String) async throws -> Result) async throws -> Result {
        if known == Self.plainPath || groupedNotifications.withLock({ $0 }) == false {
            return try await body(Self.plainPath)
        }
        do {
            let result = try await body(Self.groupedPath)
            groupedNotifications.withLock { $0 = true }
            return result
        } catch let error as MastodonHTTPError where groupedNotifications.withLock({ $0 }) != true && error.isMissingEndpoint {
            groupedNotifications.withLock { $0 = false }
            return try await body(Self.plainPath)
        }
    }

    /// The groups at `url` on `path` (grouped or plain), the answer they came in, and how many
    /// items the server counted against `limit` (groups, or plain notifications), and how many
    /// plain notifications could not be read and were left out.
    private func fetchGroups(_ url: URL, path: String) async throws -> ([NotificationGroup], APIResponse, Int, Int) {
        let what = "your notifications"
        let response = try await send(APIRequest(method: "GET", url: url, what: what))
        if path == Self.groupedPath {
            let answer = try decode(Mastodon.GroupedNotifications.self, from: response, what: what)
            let accounts = Dictionary(answer.accounts.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            let statuses = Dictionary(answer.statuses.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            // No request asks for more than the largest page: more is a server's to keep.
            let groups = answer.notificationGroups.prefix(Self.maximumPageSize).map { NotificationGroup($0, accounts: accounts, statuses: statuses) }
            return (groups, response, groups.count, 0)
        }
        let plain = try decodePage(Mastodon.Notification.self, from: response, what: what, limit: Self.maximumPageSize)
        let keys = NotificationGroup.groupKeys(plain.items)
        plainGroupMembers.withLock { members in
            for (notification, key) in zip(plain.items, keys) where !(members[key]?.contains(notification.id) ?? false) {
                members[key, default: []].append(notification.id)
            }
        }
        return (NotificationGroup.grouping(plain.items), response, plain.sent, plain.skipped)
    }
}

extension MastodonHTTPError {
    /// A 404 (with Mastodon's error body or a web page): the endpoint may not exist on this
    /// server version, so an older one is worth asking.
    var isMissingEndpoint: Bool {
        switch self {
        case .notFound: true
        case .notMastodon(_, _, let status, _): status == 404
        default: false
        }
    }
}
