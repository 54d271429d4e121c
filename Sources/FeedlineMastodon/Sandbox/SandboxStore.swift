@_spi(FeedService) import Feedline
import Foundation

/// The sandbox server's data: every status by id, the home timeline in order, the user's boosts,
/// bookmarks and favourites, and every other feed derived from them.
///
/// Boosts are stored flattened (their `reblog` is the innermost original) and rendered with the
/// current copy of that original, so an interaction shows in every entry that boosts the post.
struct SandboxStore: Sendable {
    private(set) var statuses: [String: Mastodon.Status] = [:]
    /// Timeline entry ids, newest first.
    private(set) var timeline: [String] = []
    private var positions: [String: Int] = [:]
    /// Originals the user bookmarked, most recently bookmarked first.
    private var bookmarks: [String] = []
    /// Originals the user favourited, most recently favourited first.
    private var favourites: [String] = []
    /// Posts pinned to their author's profile, most recently pinned first (Mastodon's order).
    private(set) var pins: [String] = []
    /// The conversations the user muted, by their first post's id (``conversation(of:)``).
    private(set) var mutedConversations: Set<String> = []
    /// Every other feed's ids, newest first, with positions; dropped when statuses change.
    private var feeds: [Feed: (ids: [String], positions: [String: Int])] = [:]
    /// The trending posts as last ranked, kept until ``forgetTrending()`` (not when statuses
    /// change: pages read by offset must not move under the reader).
    private var trending: (ids: [String], positions: [String: Int])?
    /// The accounts on each of the user's lists, by list id (``setListMembers(_:_:)``).
    private var listMembers: [String: Set<String>] = [:]
    /// Each status (boosts without their original) as a domain post: converting HTML to text
    /// is the costly part of answering, so it is done once per status and version.
    private var converted: [String: Post] = [:]
    /// The user's boost of each original, by original id.
    private var boosts: [String: String] = [:]
    private var lastLocalID: UInt64 = 0
    /// Each edited status's versions, oldest first.
    private var versions: [String: [Mastodon.StatusEdit]] = [:]
    /// The text and warning as typed, of posts made or edited here.
    private var sources: [String: (text: String, spoilerText: String)] = [:]
    /// Ids the store must not give to a new boost: statuses that will arrive later.
    private let reserved: Set<String>
    /// Reply ids by parent id, oldest first: built on the first thread request, dropped when a
    /// status that could be a reply is added, so a thread costs its own size, not the store's.
    private var repliesIndex: [String: [String]]?
    /// Deleted statuses. They keep their place in every feed — a cursor or a bound naming one
    /// still works, as Mastodon's ids do — but are never served.
    private(set) var deleted: Set<String> = []
    /// The sandbox server's own domain (`tidepool.social`), if known: a local account `mira` is
    /// `mira@tidepool.social` to the world.
    private let domain: String?
    /// The signed-in account's id: its own feed shows its followers-only and direct posts too.
    private let signedIn: String?

    /// A store holding `entries` as the home timeline and `elsewhere` as statuses the server knows
    /// that the timeline does not show, on a server whose domain is `domain`. Throws on a repeated id.
    init(
        entries: [Mastodon.Status], elsewhere: [Mastodon.Status] = [], reserving reserved: Set<String> = [], domain: String? = nil,
        signedIn: String? = nil
    ) throws(SandboxError) {
        self.reserved = reserved
        self.domain = domain
        self.signedIn = signedIn
        // Made once at their size: grown entry by entry, the tables were rehashed a dozen times.
        statuses.reserveCapacity(entries.count + elsewhere.count)
        positions.reserveCapacity(entries.count)
        try insert(entries)
        for status in elsewhere {
            guard statuses[status.id] == nil || positions[status.id] == nil else { throw .duplicateStatus(status.id) }
            var flattened = status
            flattened.reblog = status.reblog?.original
            if statuses[status.id] == nil { statuses[status.id] = flattened }
            if let original = status.reblog?.original, statuses[original.id] == nil { statuses[original.id] = original }
        }
        let originals = statuses.values.compactMap { status in
            status.reblog == nil
                ? (key: SortKey(status), bookmarked: status.bookmarked == true, favourited: status.favourited == true, pinned: status.pinned == true)
                : nil
        }.sorted { $0.key.isNewer(than: $1.key) }
        bookmarks = originals.filter(\.bookmarked).map(\.key.id)
        favourites = originals.filter(\.favourited).map(\.key.id)
        pins = originals.filter(\.pinned).map(\.key.id)
        for status in statuses.values where status.reblog == nil && status.muted == true { mutedConversations.insert(conversation(of: status.id)) }
    }

    /// Adds timeline entries (and the originals they boost, unless already known) and reorders.
    /// A standalone entry wins over a copy of the same post inside a boost.
    mutating func insert(_ entries: [Mastodon.Status]) throws(SandboxError) {
        repliesIndex = nil
        feeds.removeAll()
        for entry in entries {
            guard positions[entry.id] == nil else { throw .duplicateStatus(entry.id) }
            positions[entry.id] = -1
            timeline.append(entry.id)
            var flattened = entry
            flattened.reblog = entry.reblog?.original
            // A post known so far only inside a boost keeps the copy the sandbox already has.
            if statuses[entry.id] == nil { statuses[entry.id] = flattened }
        }
        for entry in entries {
            if let original = entry.reblog?.original, statuses[original.id] == nil {
                statuses[original.id] = original
            }
        }
        // Sorted by key: comparing statuses copied two of them (every field retained) per step.
        timeline = timeline.map { SortKey(id: $0, createdAt: statuses[$0]?.createdAt) }.sorted { $0.isNewer(than: $1) }.map(\.id)
        for (index, id) in timeline.enumerated() { positions[id] = index }
    }

    /// What the store orders statuses by: newest first by `created_at`; equal dates by id,
    /// numeric ids by value, others by text.
    private struct SortKey {
        var id: String
        /// `nil` for an id the store does not hold: ordered by id only.
        var createdAt: Date?

        init(id: String, createdAt: Date?) {
            self.id = id
            self.createdAt = createdAt
        }

        init(_ status: Mastodon.Status) {
            self.init(id: status.id, createdAt: status.createdAt)
        }

        func isNewer(than other: SortKey) -> Bool {
            if let mine = createdAt, let theirs = other.createdAt, mine != theirs { return mine > theirs }
            let numeric = !id.isEmpty && !other.id.isEmpty && id.utf8.allSatisfy(Self.isDigit) && other.id.utf8.allSatisfy(Self.isDigit)
            if numeric, id.utf8.count != other.id.utf8.count { return id.utf8.count > other.id.utf8.count }
            return id > other.id
        }

        private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
    }

    func position(of id: String) -> Int? { positions[id] }

    /// The post as the server would send it now (see ``rendered(_:)``), converted once.
    mutating func post(_ id: String) -> Post? {
        guard let status = statuses[id], !isDeleted(id), var post = ownPost(id) else { return nil }
        if let original = status.reblog {
            post.reblog = self.post(original.id) ?? Post(original)
        }
        post.quote = quote(of: status)
        return post
    }

    /// The status `id` alone (without the original it boosts and with its quote as the fixture
    /// has it), converted once.
    private mutating func ownPost(_ id: String) -> Post? {
        if let cached = converted[id] { return cached }
        guard var own = statuses[id] else { return nil }
        own.reblog = nil
        let post = Post(own)
        converted[id] = post
        return post
    }

    /// The quote of `status` as the server would send it now: an accepted quote carries the
    /// quoted post's current copy (its own quote a placeholder), or says `deleted` once that
    /// post is gone; other states as the fixture says.
    private mutating func quote(of status: Mastodon.Status) -> Quote? {
        guard let quote = status.quote else { return nil }
        let state = QuoteState(serverName: quote.state)
        guard state == .accepted, let id = quote.quotedStatusID else { return Quote(quote) }
        guard !isDeleted(id), var quoted = ownPost(id) else { return Quote(state: .deleted, postID: PostID(id)) }
        quoted.quote = quoted.quote?.placeholder
        return Quote(state: .accepted, postID: PostID(id), post: quoted)
    }

    /// `status` — an original as the store now holds it — converted (once, see ``post(_:)``).
    mutating func converted(_ status: Mastodon.Status) -> Post {
        post(status.id) ?? Post(status)
    }

    /// The status as the server would send it now: a boost carries the current original.
    func rendered(_ id: String) -> Mastodon.Status? {
        guard var status = statuses[id], !isDeleted(id) else { return nil }
        if let reblog = status.reblog {
            status.reblog = statuses[reblog.id] ?? reblog
        }
        return status
    }

    /// The id of the original a status shows: the boosted one for a boost, else itself.
    func originalID(of id: String) throws(SandboxError) -> String {
        guard let status = statuses[id], !isDeleted(id) else { throw .notFound(PostID(id)) }
        return status.reblog?.id ?? id
    }

    func original(of id: String) throws(SandboxError) -> Mastodon.Status {
        let originalID = try originalID(of: id)
        guard let original = statuses[originalID] else { throw .notFound(PostID(id)) }
        return original
    }

    mutating func replace(_ status: Mastodon.Status) {
        if statuses[status.id]?.inReplyToID != status.inReplyToID {
            repliesIndex = nil  // a new status, or one whose place in a thread changed
        }
        let before = statuses[status.id]
        statuses[status.id] = status
        if let before, var post = converted[status.id], Self.differOnlyInInteraction(before, status) {
            // A favourite, boost or bookmark: the converted post keeps its text (converting
            // the HTML again is most of what a toggle costs the sandbox).
            post.favourited = status.favourited ?? false
            post.favouritesCount = status.favouritesCount
            post.reblogged = status.reblogged ?? false
            post.reblogsCount = status.reblogsCount
            post.bookmarked = status.bookmarked ?? false
            post.pinned = status.pinned ?? false
            post.muted = status.muted ?? false
            converted[status.id] = post
        } else {
            converted[status.id] = nil
        }
        if before?.favourited != status.favourited {
            favourites.removeAll { $0 == status.id }
            if status.favourited == true { favourites.insert(status.id, at: 0) }
            feeds[.favourites] = nil
        }
        if before?.bookmarked != status.bookmarked {
            bookmarks.removeAll { $0 == status.id }
            if status.bookmarked == true { bookmarks.insert(status.id, at: 0) }
            feeds[.bookmarks] = nil
        }
        if before?.pinned != status.pinned {
            pins.removeAll { $0 == status.id }
            if status.pinned == true { pins.insert(status.id, at: 0) }
        }
    }

    /// Whether `after` is `before` with only its favourite, boost and bookmark state changed.
    private static func differOnlyInInteraction(_ before: Mastodon.Status, _ after: Mastodon.Status) -> Bool {
        var adjusted = before
        adjusted.favourited = after.favourited
        adjusted.favouritesCount = after.favouritesCount
        adjusted.reblogged = after.reblogged
        adjusted.reblogsCount = after.reblogsCount
        adjusted.bookmarked = after.bookmarked
        adjusted.pinned = after.pinned
        adjusted.muted = after.muted
        return adjusted == after
    }

    // MARK: - Feeds

    /// The entry ids of `feed`, newest first, and each one's position.
    ///
    /// - home: the timeline. - local: public posts of the server's own accounts (`acct` without
    ///   `@`). - public: every public post known. - tag: public posts with the tag (any case).
    /// - account: the account's posts and boosts (public and unlisted). - bookmarks, favourites:
    ///   most recently marked first. Boosts appear only in home and the booster's account.
    /// - trending: the public posts, most engaged first (favourites + boosts), then newest:
    ///   ranked when first asked after ``forgetTrending()`` and kept as it was (as a server ranks
    ///   its trends now and then), so neither an interaction nor an arrival moves posts under a
    ///   reader's offset.
    /// - list: the home timeline's entries by the list's accounts (their posts and boosts), as
    ///   Mastodon's list timelines are made of the followed accounts on the list.
    /// - Throws: ``SandboxError/unknownList(_:)`` for a list the sandbox does not have.
    mutating func feed(_ feed: Feed) throws(SandboxError) -> (ids: [String], positions: [String: Int]) {
        if feed == .home { return (timeline, positions) }
        if case .account(let id) = feed, let handle = id.handle {
            guard let account = account(named: handle) else { throw .unknownAccount(handle) }
            return try self.feed(.account(AccountID(account.id)))
        }
        if feed == .trending, let trending { return trending }
        if let cached = feeds[feed] { return cached }
        let ids: [String]
        switch feed {
        case .home: ids = timeline
        case .bookmarks: ids = bookmarks.filter { statuses[$0] != nil }
        case .favourites: ids = favourites.filter { statuses[$0] != nil }
        case .list(let id):
            guard let members = listMembers[id] else { throw .unknownList(id) }
            ids = timeline.filter { statuses[$0].map { members.contains($0.account.id) } ?? false }
        case .trending:
            let ranked = try self.feed(.public).ids.compactMap { id -> (key: SortKey, engagement: Int)? in
                guard let status = statuses[id] else { return nil }
                return (SortKey(status), status.favouritesCount + status.reblogsCount)
            }
            ids = ranked.sorted { lhs, rhs in
                lhs.engagement != rhs.engagement ? lhs.engagement > rhs.engagement : lhs.key.isNewer(than: rhs.key)
            }.map(\.key.id)
        case .local, .public, .tag, .account:
            let matching = statuses.values.compactMap { status -> SortKey? in
                let shown = switch feed {
                case .local: status.reblog == nil && status.visibility == .public && !status.account.acct.contains("@")
                case .public: status.reblog == nil && status.visibility == .public
                case .tag(let name):
                    status.reblog == nil && status.visibility == .public
                        && status.tags.contains { $0.name.caseInsensitiveCompare(name) == .orderedSame }
                case .account(let id):
                    // As Mastodon shows them: public and unlisted posts; to the account itself, all of its own.
                    status.account.id == id.rawValue
                        && (status.visibility == .public || status.visibility == .unlisted || id.rawValue == signedIn)
                default: false
                }
                return shown ? SortKey(status) : nil
            }
            ids = matching.sorted { $0.isNewer(than: $1) }.map(\.id)
        }
        var positions: [String: Int] = [:]
        for (index, id) in ids.enumerated() { positions[id] = index }
        if feed == .trending {
            trending = (ids, positions)
        } else {
            feeds[feed] = (ids, positions)
        }
        return (ids, positions)
    }

    /// Sets who is on the list `id` (`nil`: the list is gone), for its timeline.
    mutating func setListMembers(_ id: String, _ members: Set<String>?) {
        listMembers[id] = members
        feeds[.list(id)] = nil
    }

    /// Drops the trending posts' ranking: the next ``feed(_:)`` of them ranks them again, with
    /// the statuses and counts of then (a reader starting again from the top).
    mutating func forgetTrending() {
        trending = nil
    }

    /// The account a handle names: `user` (a local account) or `user@host`, any case, with or
    /// without a leading `@`; searched among every status's author. A local account (an `acct`
    /// without a host) is also named by its full handle: `mira@tidepool.social` when `tidepool.social`
    /// is the sandbox's ``domain`` or the host of the account's own profile `url`.
    ///
    /// - Complexity: O(statuses).
    func account(named handle: String) -> Mastodon.Account? {
        Self.account(named: handle, among: statuses.values.lazy.map(\.account), domain: domain)
    }

    /// The account among `accounts` (repeats allowed) that `handle` names by the rules of
    /// ``account(named:)`` on a server whose domain is `domain`; the lowest id when several do.
    /// The sandbox's account directory (``SandboxAccounts``) finds accounts with it too.
    ///
    /// - Complexity: O(accounts).
    static func account(named handle: String, among accounts: some Sequence<Mastodon.Account>, domain: String?) -> Mastodon.Account? {
        var wanted = handle.trimmingBlanks(newlines: false)
        if wanted.hasPrefix("@") { wanted.removeFirst() }
        guard !wanted.isEmpty else { return nil }
        let parts = wanted.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        let user = String(parts[0])
        let host = parts.count == 2 ? String(parts[1]) : nil
        func names(_ account: Mastodon.Account) -> Bool {
            if Self.sameIgnoringCase(account.acct, wanted) { return true }
            guard let host, !account.acct.contains("@"), Self.sameIgnoringCase(account.acct, user) else { return false }
            let own = account.url.flatMap { URL(string: $0)?.host }
            return [domain, own].contains { $0.map { Self.sameIgnoringCase($0, host) } ?? false }
        }
        var found: Mastodon.Account?
        var asked = Set<String>()  // account ids: most statuses share their author with others
        for account in accounts where asked.insert(account.id).inserted && names(account) {
            if found.map({ account.id < $0.id }) ?? true { found = account }
        }
        return found
    }

    /// Whether two handles are equal but for case: ASCII compared byte by byte, anything else by
    /// Foundation (which a sandbox start called some thousand times, for every status's author).
    private static func sameIgnoringCase(_ lhs: String, _ rhs: String) -> Bool {
        let ascii = lhs.utf8.allSatisfy { $0 < 0x80 } && rhs.utf8.allSatisfy { $0 < 0x80 }
        guard ascii else { return lhs.caseInsensitiveCompare(rhs) == .orderedSame }
        func lower(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }
        return lhs.utf8.count == rhs.utf8.count && zip(lhs.utf8, rhs.utf8).allSatisfy { lower($0) == lower($1) }
    }

    // MARK: - Deletes and edits

    /// Whether the status `id` is deleted, or boosts one that is.
    func isDeleted(_ id: String) -> Bool {
        guard !deleted.isEmpty else { return false }
        return deleted.contains(id) || statuses[id]?.reblog.map { deleted.contains($0.id) } == true
    }

    /// Deletes the status `id` (an original takes its boosts with it: they are not served
    /// either). Returns `false` for an unknown or already deleted status.
    mutating func delete(_ id: String) -> Bool {
        guard statuses[id] != nil, !deleted.contains(id) else { return false }
        deleted.insert(id)
        repliesIndex = nil
        return true
    }

    /// A new version of the status `id`: `text` as its content (one paragraph per line),
    /// edited `at`. Returns `false` for an unknown or deleted status.
    mutating func edit(_ id: String, text: String, contentWarning: String?? = nil, at date: Date) -> Bool {
        guard var status = statuses[id], status.reblog == nil, !isDeleted(id) else { return false }
        if versions[id] == nil { versions[id] = [Self.version(of: status, at: status.createdAt)] }
        sources[id] = (text, contentWarning.map { $0 ?? "" } ?? status.spoilerText)
        status.content = text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { "<p>" + Self.escaped(String($0)) + "</p>" }.joined()
        if let contentWarning { status.spoilerText = contentWarning ?? "" }
        status.editedAt = date
        statuses[id] = status
        converted[id] = nil
        versions[id, default: []].append(Self.version(of: status, at: date))
        return true
    }

    /// The text and warning of status `id` as typed: kept for posts made or edited here, else
    /// its HTML as plain text.
    func source(of id: String) -> (text: String, spoilerText: String)? {
        guard let status = statuses[id], status.reblog == nil, !isDeleted(id) else { return nil }
        return sources[id] ?? (HTMLText.plainText(from: status.content), status.spoilerText)
    }

    /// Every version of status `id`, oldest first (one, for a post never edited).
    func history(of id: String) -> [Mastodon.StatusEdit]? {
        guard let status = statuses[id], status.reblog == nil, !isDeleted(id) else { return nil }
        return versions[id] ?? [Self.version(of: status, at: status.createdAt)]
    }

    private static func version(of status: Mastodon.Status, at date: Date) -> Mastodon.StatusEdit {
        Mastodon.StatusEdit(
            content: status.content, spoilerText: status.spoilerText, sensitive: status.sensitive, createdAt: date,
            mediaAttachments: status.mediaAttachments,
            poll: status.poll.map { Mastodon.StatusEdit.PollVersion(options: $0.options.map { .init(title: $0.title) }) }
        )
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }

    // MARK: - Posts of the signed-in account

    /// A new post of `draft` by `account` at `date`, with an id like a snowflake made then: on
    /// top of home unless direct, in the account's feed and in its parent's thread; the
    /// parent's reply count goes up. Mentions name the known accounts its `@handles` name.
    /// Returns its id.
    ///
    /// - Throws: ``SandboxError/notFound(_:)`` when the reply target is unknown or deleted.
    mutating func addPost(
        _ draft: Draft, by account: Mastodon.Account, at date: Date, uploads: [Mastodon.MediaAttachment] = []
    ) throws(SandboxError) -> String {
        if let parentID = draft.inReplyTo {
            guard var parent = statuses[parentID.rawValue], parent.reblog == nil, !isDeleted(parentID.rawValue) else { throw .notFound(parentID) }
            parent.repliesCount += 1
            replace(parent)
        }
        let id = newLocalID(at: date)
        let profile = account.url ?? "https://sandbox.example/@\(account.username)"
        // A quote: accepted at once unless its author reviews quotes (then pending); a quote of a
        // followers-only post is followers-only at least.
        var quote: Mastodon.Quote?
        var visibility = draft.visibility
        if let quotedID = draft.quoting, let quoted = statuses[quotedID.rawValue] {
            let reviewed = quoted.account.id != account.id && quoted.quoteApproval?.currentUser == "manual"
            quote = Mastodon.Quote(state: reviewed ? "pending" : "accepted", quotedStatus: quoted)
            if PostVisibility(serverName: quoted.visibility.rawValue) == .private, visibility < .private { visibility = .private }
        }
        let policy = visibility >= .private ? QuotePolicy.nobody : draft.quotePolicy ?? .public
        let approval = Mastodon.QuoteApproval(
            automatic: policy == .nobody ? [] : [policy.rawValue], manual: [], currentUser: "automatic"
        )
        var mentions: [Mastodon.Mention] = []
        for word in draft.text.split(whereSeparator: \.isWhitespace) where word.hasPrefix("@") {
            let handle = String(word.drop { $0 == "@" }.prefix { $0.isLetter || $0.isNumber || "_.@-".contains($0) }).trimmingCharacters(in: CharacterSet(charactersIn: ".-"))
            guard let named = self.account(named: handle), !mentions.contains(where: { $0.id == named.id }) else { continue }
            mentions.append(Mastodon.Mention(id: named.id, username: named.username, acct: named.acct, url: named.url ?? ""))
        }
        let status = Mastodon.Status(
            id: id,
            uri: "\(profile)/statuses/\(id)",
            url: "\(profile)/\(id)",
            createdAt: date,
            account: account,
            content: Self.paragraphs(draft.text),
            spoilerText: draft.warning ?? "",
            sensitive: draft.sensitive || draft.warning != nil,
            visibility: Mastodon.Visibility(rawValue: visibility.rawValue),
            language: draft.language,
            inReplyToID: draft.inReplyTo?.rawValue,
            inReplyToAccountID: draft.inReplyTo.flatMap { statuses[$0.rawValue]?.account.id },
            mediaAttachments: uploads.enumerated().map { index, upload in
                var attachment = upload
                attachment.id = "\(id)-\(index + 1)"
                return attachment
            },
            mentions: mentions,
            poll: draft.poll.map { poll in
                Mastodon.Poll(
                    id: id, expiresAt: date.addingTimeInterval(TimeInterval(poll.expiresIn)), expired: false, multiple: poll.multiple,
                    votesCount: 0, options: poll.options.map { Mastodon.Poll.Option(title: $0, votesCount: 0) }
                )
            },
            favourited: false,
            reblogged: false,
            bookmarked: false,
            quote: quote,
            quoteApproval: approval,
            pinned: false,
            muted: draft.inReplyTo.map { isMuted($0.rawValue) } ?? false
        )
        sources[id] = (draft.text, draft.warning ?? "")
        if visibility == .direct {
            statuses[id] = status
            repliesIndex = nil
            feeds.removeAll()
        } else {
            try insert([status])
        }
        return id
    }

    /// A snowflake-like id for a status made at `date`, above every id made or reserved.
    private mutating func newLocalID(at date: Date) -> String {
        let milliseconds = UInt64(max(0, (date.timeIntervalSince1970 * 1000).rounded(.down)))
        var candidate = max(milliseconds << 16, lastLocalID + 1)
        while statuses[String(candidate)] != nil || reserved.contains(String(candidate)) { candidate += 1 }
        lastLocalID = candidate
        return String(candidate)
    }

    /// Text as Mastodon's HTML: one paragraph per blank-line-separated block, `<br>` between lines.
    static func paragraphs(_ text: String) -> String {
        text.components(separatedBy: "\n\n").map { block in
            "<p>" + block.split(separator: "\n", omittingEmptySubsequences: false).map { escaped(String($0)) }.joined(separator: "<br>") + "</p>"
        }.joined()
    }

    // MARK: - Boosts

    func boost(of originalID: String) -> String? {
        boosts[originalID].flatMap { statuses[$0] == nil ? nil : $0 }
    }

    /// Creates the user's boost of `original` at `date`, with an id like a snowflake made then.
    mutating func addBoost(of original: Mastodon.Status, by account: Mastodon.Account, at date: Date) -> String {
        let id = newLocalID(at: date)
        let profile = account.url ?? "https://sandbox.example/@\(account.username)"
        dropAccountFeeds()
        statuses[id] = Mastodon.Status(
            id: id,
            uri: "\(profile)/statuses/\(id)/activity",
            url: nil,
            createdAt: date,
            account: account,
            visibility: original.visibility,
            favourited: false,
            reblogged: true,
            reblog: original
        )
        boosts[original.id] = id
        return id
    }

    mutating func removeBoost(of originalID: String) {
        if let boostID = boosts.removeValue(forKey: originalID) {
            statuses[boostID] = nil
            converted[boostID] = nil
            dropAccountFeeds()
        }
    }

    /// Forgets the account feeds: a boost shows in its booster's (and in home, which is not
    /// derived). The local, public and tag feeds hold no boosts; deriving them again after every
    /// boost was most of what opening a tag cost a session that boosts.
    private mutating func dropAccountFeeds() {
        feeds = feeds.filter { feed, _ in
            if case .account = feed { return false }
            return true
        }
    }

    // MARK: - Threads

    /// The thread around the original that `id` shows: ancestors root first, descendants depth
    /// first with siblings oldest first. Cycles and missing parents end a walk.
    mutating func thread(of id: String) throws(SandboxError) -> (ancestors: [Mastodon.Status], descendants: [Mastodon.Status]) {
        let focus = try original(of: id)
        var ancestors: [Mastodon.Status] = []
        var seen: Set<String> = [focus.id]
        var parentID = focus.inReplyToID
        while let id = parentID, !seen.contains(id), let parent = statuses[id], parent.reblog == nil, !isDeleted(id) {
            seen.insert(id)
            ancestors.append(parent)
            parentID = parent.inReplyToID
        }
        let children = repliesIndex ?? buildRepliesIndex()
        repliesIndex = children
        var descendants: [Mastodon.Status] = []
        var stack: [String] = (children[focus.id] ?? []).reversed()
        while let next = stack.popLast() {
            guard !seen.contains(next), let status = statuses[next], !isDeleted(next) else { continue }
            seen.insert(next)
            descendants.append(status)
            stack.append(contentsOf: (children[next] ?? []).reversed())
        }
        return (ancestors.reversed(), descendants)
    }

    /// The conversation the status `id` is part of, named by its first post: the root of its
    /// chain of replies as far as the store knows it.
    func conversation(of id: String) -> String {
        var root = statuses[id]?.reblog?.id ?? id
        var seen: Set<String> = [root]
        while let parent = statuses[root]?.inReplyToID, statuses[parent] != nil, seen.insert(parent).inserted { root = parent }
        return root
    }

    /// Mutes (`true`) or unmutes the conversation of the status `id`: every status of it the
    /// store holds says so (`muted`), and so will replies added to it later.
    mutating func setMuted(_ value: Bool, conversationOf id: String) {
        let root = conversation(of: id)
        if value { mutedConversations.insert(root) } else { mutedConversations.remove(root) }
        for status in statuses.values where status.reblog == nil && (status.muted ?? false) != value && conversation(of: status.id) == root {
            var changed = status
            changed.muted = value
            replace(changed)
        }
    }

    /// Whether the status `id` is part of a conversation the user muted.
    func isMuted(_ id: String) -> Bool {
        !mutedConversations.isEmpty && mutedConversations.contains(conversation(of: id))
    }

    /// Every non-boost status's id under its parent's, each list oldest first.
    private func buildRepliesIndex() -> [String: [String]] {
        var children: [String: [SortKey]] = [:]
        for status in statuses.values where status.reblog == nil {
            if let parent = status.inReplyToID { children[parent, default: []].append(SortKey(status)) }
        }
        return children.mapValues { replies in
            replies.sorted { $1.isNewer(than: $0) }.map(\.id)
        }
    }
}
