import Foundation
@_spi(FeedService) import Feedline

/// A Mastodon server's posts as the tests' fakes keep them: one copy of each original and each
/// boost entry, with a boost always showing its original as it is now. Every fake server holds
/// one (behind its own lock), so what a server does when the user favourites, boosts or
/// bookmarks (``set(_:to:on:)``, in `ServerModel+Interactions.swift`) is written once.
///
/// Beside the posts it keeps one slice per feature of the service, each a value with its laws
/// written once: ``timelines``, ``relationships``, ``domainBlocks``, ``tags``, ``lists``,
/// ``conversations``, ``writing`` and ``markers`` (see each slice's type). ``GatedServer`` answers every
/// call from one model; the contract suite (`ServerContractTests`) holds the model and the
/// shipped sandbox to the same laws.
public struct ServerModel<Entry: ServerEntry>: Sendable {
    /// Which entries each feed lists, newest first, and the notifications.
    package var timelines = ServerTimelines<Entry.ID>()
    /// The signed-in user's relationships and the profiles the server knows.
    package var relationships = ServerRelationships()
    /// The domains the user blocks.
    package var domainBlocks = ServerDomainBlocks()
    /// The user's server filters.
    package var filters = ServerFilters()
    /// The hashtags the user follows.
    package var tags = ServerTags()
    /// The user's lists and their members.
    package var lists = ServerLists()
    /// The user's direct conversations.
    package var conversations = ServerConversations()
    /// The user's own posts' edits and publishing keys.
    package var writing = ServerWriting<Entry.ID>()
    /// The user's reading positions (Mastodon's markers).
    package var markers = ServerMarkers()
    /// The reports filed with the moderators, in the order filed.
    package var reports: [AccountReport] = []
    /// The instance's rules, in order.
    package var rules: [InstanceRule] = []
    /// The instance's announcements, in order, each read or not for the user.
    package var announcements: [Announcement] = []
    /// The translations the server makes, by original id (none: it offers no translations).
    package var translations: [Entry.ID: PostTranslation] = [:]
    /// The scheduled posts, soonest first, and the one scheduled for each idempotency key.
    package var scheduled: [ScheduledPost] = []
    package var scheduledKeys: [String: String] = [:]
    package var scheduledMade = 0
    /// The notification policy (Mastodon 4.3's defaults: private mentions and moderated
    /// accounts filtered).
    package var notificationPolicy = NotificationPolicy([.privateMentions: .filter, .limitedAccounts: .filter])
    /// The requests of filtered notifications, newest first.
    package var notificationRequests: [NotificationRequest] = []
    /// Your own profile as you wrote it; `nil`: the signed-in account's, empty (the gated
    /// server's `me`).
    package var ownProfile: OwnProfile?
    /// The server's clock: what it dates itself (a marker's save, the end of a mute).
    package var now = Date(timeIntervalSince1970: 1_795_000_000)

    /// Originals by id, each with `reblog == nil`.
    var originals: [Entry.ID: Entry] = [:]
    /// Boost entries by id, as written; ``entry(_:)`` puts the current original inside.
    var boosts: [Entry.ID: Entry] = [:]
    /// The original each boost entry boosts.
    var boosted: [Entry.ID: Entry.ID] = [:]
    /// The signed-in user's boost of each original they boosted here.
    var userBoosts: [Entry.ID: Entry.ID] = [:]
    /// How many boosts the user has made here (numbers their ids).
    var boostsMade = 0

    /// A server holding `entries` (see ``add(_:)``).
    public init(_ entries: some Sequence<Entry>) {
        add(entries)
    }

    /// A server holding nothing yet.
    public init() {}

    /// Takes `entries` as the server's copies: each replaces the entry of its id; the original
    /// inside a boost is taken only when the server does not know it yet (its own copy wins).
    public mutating func add(_ entries: some Sequence<Entry>) {
        for entry in entries {
            guard let inner = entry.reblog?.innermost else {
                originals[entry.id] = entry
                continue
            }
            boosts[entry.id] = entry
            boosted[entry.id] = inner.id
            if originals[inner.id] == nil { originals[inner.id] = inner }
        }
    }

    /// The entry `id` as the server shows it now: an original, or a boost entry with the current
    /// copy of its original inside; `nil` when the server has no such entry.
    public func entry(_ id: Entry.ID) -> Entry? {
        if let original = originals[id] { return original }
        guard var boost = boosts[id], let original = boosted[id].flatMap({ originals[$0] }) else { return nil }
        boost.reblog = original
        return boost
    }

    /// The current copy of the original `id` names: the original itself, or a boost entry's.
    public func original(of id: Entry.ID) -> Entry? {
        originals[id] ?? boosted[id].flatMap { originals[$0] }
    }

    /// The user's flags and the counts of the original `id` names.
    public func interactions(of id: Entry.ID) -> ServerInteractions? {
        original(of: id)?.interactions
    }

    /// Changes the stored copy of the entry `id` (an original, or a boost entry itself; a boost's
    /// original changes through its own id), telling nobody — as an edit no stream reported.
    /// Returns the entry as the server shows it afterwards; `nil` when there is none.
    @discardableResult
    public mutating func update(_ id: Entry.ID, _ change: (inout Entry) -> Void) -> Entry? {
        if var original = originals[id] {
            change(&original)
            originals[id] = original
        } else if var boost = boosts[id] {
            change(&boost)
            boosts[id] = boost
        } else {
            return nil
        }
        return entry(id)
    }

    /// Deletes the entry `id`; an original takes its boosts with it, as on Mastodon.
    public mutating func remove(_ id: Entry.ID) {
        if originals.removeValue(forKey: id) != nil {
            for (boost, original) in boosted where original == id { removeBoost(boost) }
            userBoosts[id] = nil
        } else {
            removeBoost(id)
        }
    }

    mutating func removeBoost(_ id: Entry.ID) {
        boosts[id] = nil
        guard let original = boosted.removeValue(forKey: id) else { return }
        if userBoosts[original] == id { userBoosts[original] = nil }
    }
}
