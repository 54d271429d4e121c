import Foundation

extension Mastodon {
    /// A post (Mastodon's `Status`), possibly a boost whose ``reblog`` is the boosted original.
    ///
    /// Required: `id`, `created_at` and `account`. Everything else is tolerant: texts default to
    /// empty strings, lists to empty, counts to 0, `visibility` to `public`; `favourited`,
    /// `reblogged`, `bookmarked` stay `nil` when absent (signed out).
    public struct Status: Codable, Hashable, Sendable, ReadableEntity {
        /// The status's id on the server that sent it (opaque): a timeline entry's identity.
        public var id: String
        /// The ActivityPub id; empty when the server sent none.
        public var uri: String
        /// The post's web page, if any.
        public var url: String?
        /// When it was posted (for a boost: when it was boosted).
        public var createdAt: Date
        /// When it was last edited, if ever.
        public var editedAt: Date?
        /// Who posted it (for a boost: who boosted).
        public var account: Account
        /// HTML; empty for a boost (the text is the original's).
        public var content: String
        /// The content warning as the server sent it; empty when there is none.
        public var spoilerText: String
        /// Whether its media is marked sensitive.
        public var sensitive: Bool
        /// Who may see it.
        public var visibility: Visibility
        /// Its ISO 639 language code, if known.
        public var language: String?
        /// The status it replies to, if any.
        public var inReplyToID: String?
        /// The author of the status it replies to, if any.
        public var inReplyToAccountID: String?
        /// Its attached files, in order.
        public var mediaAttachments: [MediaAttachment]
        /// The accounts it mentions.
        public var mentions: [Mention]
        /// The hashtags it uses.
        public var tags: [Tag]
        /// The custom emoji used in `content` and `spoiler_text`.
        public var emojis: [CustomEmoji]
        /// A preview of its first link, if the server made one.
        public var card: Card?
        /// Its poll, if any.
        public var poll: Poll?
        /// Replies, as the server counts them.
        public var repliesCount: Int
        /// Boosts, as the server counts them.
        public var reblogsCount: Int
        /// Favourites, as the server counts them.
        public var favouritesCount: Int
        /// Whether the signed-in user favourited it; `nil` when the server did not say (signed out).
        public var favourited: Bool?
        /// Whether the signed-in user boosted it; `nil` when the server did not say (signed out).
        public var reblogged: Bool?
        /// Whether the signed-in user bookmarked it; `nil` when the server did not say.
        public var bookmarked: Bool?
        /// Whether the signed-in user pinned it to their profile; `nil` when the server did not
        /// say (Mastodon says only for the user's own posts that can be pinned).
        public var pinned: Bool?
        /// Whether the signed-in user muted its conversation; `nil` when the server did not say.
        public var muted: Bool?
        /// The signed-in user's filters that matched it (empty when none did, or signed out).
        public var filtered: [FilterResult]
        /// The post it quotes (Mastodon 4.4+), with the quote's state; `nil` for none.
        public var quote: Quote?
        /// Who may quote it and whether the signed-in user may (Mastodon 4.5+); `nil` when the
        /// server says nothing (an older server, or a value that does not decode).
        public var quoteApproval: QuoteApproval?
        private var nested: Nested?

        /// A status with these values; `reblog` is kept as given (see ``original``).
        init(
            id: String, uri: String = "", url: String? = nil, createdAt: Date, editedAt: Date? = nil,
            account: Account, content: String = "", spoilerText: String = "", sensitive: Bool = false,
            visibility: Visibility = .public, language: String? = nil, inReplyToID: String? = nil,
            inReplyToAccountID: String? = nil, mediaAttachments: [MediaAttachment] = [], mentions: [Mention] = [],
            tags: [Tag] = [], emojis: [CustomEmoji] = [], card: Card? = nil, poll: Poll? = nil,
            repliesCount: Int = 0, reblogsCount: Int = 0, favouritesCount: Int = 0,
            favourited: Bool? = nil, reblogged: Bool? = nil, bookmarked: Bool? = nil,
            filtered: [FilterResult] = [], reblog: Status? = nil, quote: Quote? = nil, quoteApproval: QuoteApproval? = nil,
            pinned: Bool? = nil, muted: Bool? = nil
        ) {
            self.id = id
            self.uri = uri
            self.url = url
            self.createdAt = createdAt
            self.editedAt = editedAt
            self.account = account
            self.content = content
            self.spoilerText = spoilerText
            self.sensitive = sensitive
            self.visibility = visibility
            self.language = language
            self.inReplyToID = inReplyToID
            self.inReplyToAccountID = inReplyToAccountID
            self.mediaAttachments = mediaAttachments
            self.mentions = mentions
            self.tags = tags
            self.emojis = emojis
            self.card = card
            self.poll = poll
            self.repliesCount = repliesCount
            self.reblogsCount = reblogsCount
            self.favouritesCount = favouritesCount
            self.favourited = favourited
            self.reblogged = reblogged
            self.bookmarked = bookmarked
            self.pinned = pinned
            self.muted = muted
            self.filtered = filtered
            self.nested = reblog.map(Nested.status)
            self.quote = quote
            self.quoteApproval = quoteApproval
        }

        /// The boosted original when this status is a boost, as the server sent it (a boost of a
        /// boost stays nested here; ``original`` looks through it).
        public var reblog: Status? {
            get {
                guard case .status(let status)? = nested else { return nil }
                return status
            }
            set { nested = newValue.map(Nested.status) }
        }

        /// The innermost status that is not a boost: the status itself, or what its boost
        /// chain finally points to. Interaction state belongs to it.
        public var original: Status {
            var current = self
            while let inner = current.reblog { current = inner }
            return current
        }

        enum CodingKeys: String, SnakeCaseKey {
            case id, uri, url, account, content, sensitive, visibility, language, mentions, tags, emojis, card, poll, reblog
            case favourited, reblogged, bookmarked, pinned, muted, filtered, quote, quoteApproval, createdAt, editedAt
            case spoilerText, inReplyToID, inReplyToAccountID, mediaAttachments, repliesCount, reblogsCount, favouritesCount
        }

        init(reading container: some FieldReader<CodingKeys>) throws {
            id = try container.id(.id)
            uri = try container.value(.uri, or: "")
            url = try container.decodeIfPresent(String.self, forKey: .url)
            createdAt = try container.decode(Date.self, forKey: .createdAt)
            editedAt = try container.decodeIfPresent(Date.self, forKey: .editedAt)
            account = try container.decode(Account.self, forKey: .account)
            content = try container.value(.content, or: "")
            spoilerText = try container.value(.spoilerText, or: "")
            sensitive = try container.value(.sensitive, or: false)
            visibility = try container.value(.visibility, or: .public)
            language = try container.decodeIfPresent(String.self, forKey: .language)
            inReplyToID = try container.optionalID(.inReplyToID)
            inReplyToAccountID = try container.optionalID(.inReplyToAccountID)
            mediaAttachments = try container.value(.mediaAttachments, or: [])
            mentions = try container.value(.mentions, or: [])
            tags = try container.value(.tags, or: [])
            emojis = try container.value(.emojis, or: [])
            card = try container.decodeIfPresent(Card.self, forKey: .card)
            poll = try container.decodeIfPresent(Poll.self, forKey: .poll)
            repliesCount = try container.value(.repliesCount, or: 0)
            reblogsCount = try container.value(.reblogsCount, or: 0)
            favouritesCount = try container.value(.favouritesCount, or: 0)
            favourited = try container.decodeIfPresent(Bool.self, forKey: .favourited)
            reblogged = try container.decodeIfPresent(Bool.self, forKey: .reblogged)
            bookmarked = try container.decodeIfPresent(Bool.self, forKey: .bookmarked)
            pinned = try container.decodeIfPresent(Bool.self, forKey: .pinned)
            muted = try container.decodeIfPresent(Bool.self, forKey: .muted)
            filtered = try container.value(.filtered, or: [])
            nested = try container.decodeIfPresent(Status.self, forKey: .reblog).map(Nested.status)
            quote = try container.decodeIfPresent(Quote.self, forKey: .quote)
            quoteApproval = try? container.decodeIfPresent(QuoteApproval.self, forKey: .quoteApproval)
        }

        /// Writes the status as Mastodon does: `null` for absent optional values, and the
        /// signed-in flags only when known.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(uri, forKey: .uri)
            try container.encode(url, forKey: .url)
            try container.encode(createdAt, forKey: .createdAt)
            try container.encode(editedAt, forKey: .editedAt)
            try container.encode(account, forKey: .account)
            try container.encode(content, forKey: .content)
            try container.encode(spoilerText, forKey: .spoilerText)
            try container.encode(sensitive, forKey: .sensitive)
            try container.encode(visibility, forKey: .visibility)
            try container.encode(language, forKey: .language)
            try container.encode(inReplyToID, forKey: .inReplyToID)
            try container.encode(inReplyToAccountID, forKey: .inReplyToAccountID)
            try container.encode(mediaAttachments, forKey: .mediaAttachments)
            try container.encode(mentions, forKey: .mentions)
            try container.encode(tags, forKey: .tags)
            try container.encode(emojis, forKey: .emojis)
            try container.encode(card, forKey: .card)
            try container.encode(poll, forKey: .poll)
            try container.encode(repliesCount, forKey: .repliesCount)
            try container.encode(reblogsCount, forKey: .reblogsCount)
            try container.encode(favouritesCount, forKey: .favouritesCount)
            try container.encodeIfPresent(favourited, forKey: .favourited)
            try container.encodeIfPresent(reblogged, forKey: .reblogged)
            try container.encodeIfPresent(bookmarked, forKey: .bookmarked)
            try container.encodeIfPresent(pinned, forKey: .pinned)
            try container.encodeIfPresent(muted, forKey: .muted)
            if !filtered.isEmpty { try container.encode(filtered, forKey: .filtered) }
            try container.encode(reblog, forKey: .reblog)
            try container.encodeIfPresent(quote, forKey: .quote)
            try container.encodeIfPresent(quoteApproval, forKey: .quoteApproval)
        }

        private indirect enum Nested: Hashable, Sendable {
            case status(Status)
        }
    }
}
