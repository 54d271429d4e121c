import Foundation

/// A draft's identity on this device: chosen by an injected generator when the draft starts
/// (see ``Drafts``), kept through saves, restarts and sends.
public struct DraftID: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible, Comparable {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    /// Ordered by their raw value, shortest first (generated ids are numbered, so this is the
    /// order they were made in).
    public static func < (lhs: DraftID, rhs: DraftID) -> Bool {
        (lhs.rawValue.count, lhs.rawValue) < (rhs.rawValue.count, rhs.rawValue)
    }
}

/// A post being written: everything the server is sent, as plain values. Several drafts can
/// exist at once (see ``Drafts``); starting a reply never touches another draft.
public struct Draft: Hashable, Sendable, Codable, Identifiable {
    /// A poll to attach.
    public struct PollDraft: Hashable, Sendable, Codable {
        /// The choices, in order.
        public var options: [String]
        /// How long it stays open, in seconds.
        public var expiresIn: Int
        /// Whether a voter may pick several choices.
        public var multiple: Bool

        /// A poll of `options` open for `expiresIn` seconds (a day by default).
        public init(options: [String], expiresIn: Int = 86_400, multiple: Bool = false) {
            self.options = options
            self.expiresIn = expiresIn
            self.multiple = multiple
        }
    }

    /// A file to attach: where it is on this device, and what it shows for those who cannot see it.
    public struct MediaDraft: Hashable, Sendable, Codable {
        /// The file's path (a front reads it; the core never does).
        public var file: String
        /// The description (alt text).
        public var description: String
        /// The id on the server of an attachment the post already has (an edit keeps it):
        /// nothing is uploaded for it.
        public var existingID: String?

        public init(file: String, description: String = "", existingID: String? = nil) {
            self.file = file
            self.description = description
            self.existingID = existingID
        }
    }

    public let id: DraftID
    /// The text as typed.
    public var text: String
    /// The content warning (spoiler text); `nil` or empty for none.
    public var contentWarning: String?
    /// Whether the media are marked sensitive.
    public var sensitive: Bool
    public var visibility: PostVisibility
    /// The language (ISO 639 code); `nil` lets the server guess.
    public var language: String?
    public var poll: PollDraft?
    public var media: [MediaDraft]
    /// The post it replies to: always an *original*'s id, never a boost wrapper's.
    public internal(set) var inReplyTo: PostID?
    /// The post it edits, for an edit of one's own post.
    public internal(set) var editing: PostID?
    /// The post it quotes (an original's id; Mastodon 4.5's `quoted_status_id`), set through
    /// ``Drafts/quote(_:in:)`` so that the quoted post's policy is respected. An edit cannot
    /// change it.
    public internal(set) var quoting: PostID?
    /// Who may quote the post (Mastodon 4.5's `quote_approval_policy`); `nil` leaves it to the
    /// account's default. The server makes a followers-only or direct post ``QuotePolicy/nobody``.
    public var quotePolicy: QuotePolicy?
    /// When the post is to go out (Mastodon's `scheduled_at`); `nil` posts it at once. The
    /// server keeps a scheduled post apart (`ScheduledPost`) until that time.
    public var scheduledAt: Date?
    /// When the draft was started (by the session's wall clock).
    public let createdAt: Date

    /// An empty public post.
    public init(
        id: DraftID, text: String = "", contentWarning: String? = nil, sensitive: Bool = false, visibility: PostVisibility = .public,
        language: String? = nil, poll: PollDraft? = nil, media: [MediaDraft] = [], inReplyTo: PostID? = nil, editing: PostID? = nil,
        quoting: PostID? = nil, quotePolicy: QuotePolicy? = nil, scheduledAt: Date? = nil, createdAt: Date
    ) {
        self.id = id
        self.text = text
        self.contentWarning = contentWarning
        self.sensitive = sensitive
        self.visibility = visibility
        self.language = language
        self.poll = poll
        self.media = media
        self.inReplyTo = inReplyTo
        self.editing = editing
        self.quoting = quoting
        self.quotePolicy = quotePolicy
        self.scheduledAt = scheduledAt
        self.createdAt = createdAt
    }

    /// Whether it is scheduled: a new post with a time (an edit is never scheduled).
    public var isScheduled: Bool { scheduledAt != nil && editing == nil }

    /// The content warning when it says something, else `nil`.
    public var warning: String? {
        guard let contentWarning, !contentWarning.allSatisfy(\.isWhitespace) else { return nil }
        return contentWarning
    }
}
