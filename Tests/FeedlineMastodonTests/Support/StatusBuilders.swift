import Foundation

@_spi(FeedService) import Feedline
@_spi(FeedService) @testable import FeedlineMastodon

/// Small statuses for sandbox tests: ids are numbers as text, `minute` orders them in time.
enum Build {
    static let epoch = Date(timeIntervalSince1970: 1_795_000_000)

    static func account(_ name: String) -> Mastodon.Account {
        Mastodon.Account(id: "a-\(name)", username: name, acct: "\(name)@example.social", displayName: name.capitalized)
    }

    static func status(
        _ id: Int, minute: Int? = nil, author: String = "alice", replyTo: Int? = nil, favourites: Int = 0,
        reblogs: Int = 0, favourited: Bool? = nil, reblogged: Bool? = nil, reblog: Mastodon.Status? = nil
    ) -> Mastodon.Status {
        Mastodon.Status(
            id: String(id),
            uri: "https://example.social/users/\(author)/statuses/\(id)",
            url: "https://example.social/@\(author)/\(id)",
            createdAt: epoch.addingTimeInterval(Double(minute ?? id) * 60),
            account: account(author),
            content: reblog == nil ? "<p>post \(id)</p>" : "",
            inReplyToID: replyTo.map(String.init),
            reblogsCount: reblogs,
            favouritesCount: favourites,
            favourited: favourited,
            reblogged: reblogged,
            reblog: reblog
        )
    }

    /// Statuses `1...count`, one a minute, so the newest has the highest id.
    static func timeline(_ count: Int) -> [Mastodon.Status] {
        (1...count).map { status($0) }
    }
}

extension Page where Item == Post {
    var ids: [String] { posts.map(\.id.rawValue) }
}

extension NewerPage where Item == Post {
    var ids: [String] { posts.map(\.id.rawValue) }
}
