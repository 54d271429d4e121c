import FeedlineMastodon
import FeedlineTestSupport
import Foundation

/// The shipped `Fixtures/timeline` statuses, newest first, for the fake server.
enum FixtureStatuses {
    /// The package's `Fixtures/`.
    static func root() throws -> URL {
        try PackagePaths.root().appendingPathComponent("Fixtures")
    }

    /// The home timeline of `Fixtures/timeline` (125 statuses, arrivals held back), newest first.
    static func timeline() throws -> [Mastodon.Status] {
        let fixture = try FixtureLoader.load(from: root().appendingPathComponent("timeline"))
        return fixture.statuses.sorted { lhs, rhs in
            lhs.createdAt != rhs.createdAt ? lhs.createdAt > rhs.createdAt : lhs.id > rhs.id
        }
    }
}

extension FixtureStatuses {
    /// The statuses `Fixtures/timeline` holds back as arrivals (28), newest first.
    static func arrivals() throws -> [Mastodon.Status] {
        let fixture = try FixtureLoader.load(from: root().appendingPathComponent("timeline"))
        return fixture.scenario.arrivals.flatMap(\.statuses).sorted { lhs, rhs in
            lhs.createdAt != rhs.createdAt ? lhs.createdAt > rhs.createdAt : lhs.id > rhs.id
        }
    }
}

extension FixtureStatuses {
    /// The statuses `Fixtures/timeline` knows off the home timeline (older posts, other accounts',
    /// the user's own; 72), newest first.
    static func elsewhere() throws -> [Mastodon.Status] {
        let fixture = try FixtureLoader.load(from: root().appendingPathComponent("timeline"))
        return fixture.elsewhere.sorted { lhs, rhs in
            lhs.createdAt != rhs.createdAt ? lhs.createdAt > rhs.createdAt : lhs.id > rhs.id
        }
    }

    /// The user's notifications in `Fixtures/timeline` (82), newest first, without group keys.
    static func notifications() throws -> [Mastodon.Notification] {
        try FixtureLoader.load(from: root().appendingPathComponent("timeline")).notifications
    }

    /// Kemi, the fixtures' most prolific author: a remote account (`kemi@fieldnotes.science`).
    static let kemi = "kemi@fieldnotes.science"
}
