/// Who may quote a post one writes (Mastodon 4.5's `quote_approval_policy`): set per post, and
/// always ``nobody`` for a followers-only or direct post (the server makes it so).
public enum QuotePolicy: String, Hashable, Sendable, Codable, CaseIterable {
    /// Anyone (but accounts the author blocked) may quote it, approved at once.
    case `public`
    /// The author's followers may quote it, approved at once.
    case followers
    /// Only the author.
    case nobody

    /// The policy a person types: `public` (or `anyone`), `followers`, `nobody` (or `me`).
    public init?(typed: String) {
        switch typed.lowercased() {
        case "public", "anyone", "everyone": self = .public
        case "followers": self = .followers
        case "nobody", "me", "just-me", "none": self = .nobody
        default: return nil
        }
    }

    /// As a sentence part: "anyone may quote it".
    public var phrase: String {
        switch self {
        case .public: "anyone may quote it"
        case .followers: "followers may quote it"
        case .nobody: "only you may quote it"
        }
    }
}

/// How a post may be quoted, as the server says (Mastodon 4.5's `QuoteApproval`): who is expected
/// to be approved at once, who after the author's review, and what that means for the
/// signed-in user. A service's value: a front reads the post's ``Post/quotePolicyPhrase``,
/// ``Post/quoteVerdictPhrase``, ``Post/quoteAwaitsApproval`` and ``Post/quoteRefusal(by:)``.
@_spi(FeedService) public struct QuoteApproval: Hashable, Sendable, Codable {
    /// A group a quote policy names. Any group this version does not know is ``unsupported``.
    @_spi(FeedService) public enum Audience: String, Hashable, Sendable, Codable {
        case `public`
        case followers
        /// A policy Mastodon does not support (some accounts outside the groups above may quote).
        case unsupported = "unsupported_policy"

        /// The group a server names; any other name is ``unsupported``.
        public init(serverName: String) {
            self = Audience(rawValue: serverName) ?? .unsupported
        }
    }

    /// What the policy means for the signed-in user. Any answer this version does not know is ``unknown``.
    @_spi(FeedService) public enum Verdict: String, Hashable, Sendable, Codable {
        /// May quote it, approved at once.
        case automatic
        /// May quote it; the quote shows once the author approved it.
        case manual
        /// May not quote it (the server refuses).
        case denied
        /// The policy is one the server cannot judge: treated as denied.
        case unknown

        /// The verdict a server names; any other name is ``unknown``.
        public init(serverName: String) {
            self = Verdict(rawValue: serverName) ?? .unknown
        }
    }

    /// Who is approved at once; empty: nobody.
    @_spi(FeedService) public var automatic: [Audience]
    /// Who is approved after the author's review; empty: nobody.
    @_spi(FeedService) public var manual: [Audience]
    /// What it means for the signed-in user.
    @_spi(FeedService) public var currentUser: Verdict

    @_spi(FeedService) public init(automatic: [Audience] = [.public], manual: [Audience] = [], currentUser: Verdict = .automatic) {
        self.automatic = automatic
        self.manual = manual
        self.currentUser = currentUser
    }

    /// Who may quote it, as a sentence part: "anyone may quote it", "followers may quote it,
    /// others may ask its author", "anyone may ask its author to quote it", "only its author may
    /// quote it".
    public var policyPhrase: String {
        let now = automatic.contains(.public) ? "anyone may quote it" : automatic.contains(.followers) ? "followers may quote it" : nil
        let asked = manual.contains(.public) ? "anyone" : manual.contains(.followers) ? "followers" : nil
        switch (now, asked) {
        case (let now?, nil): return now
        case (nil, let asked?): return "\(asked) may ask its author to quote it"
        case (let now?, _?): return now + ", others may ask its author"
        case (nil, nil): return "only its author may quote it"
        }
    }

    /// Whether the signed-in user's quote of it waits for its author's approval before it shows.
    public var quoteAwaitsApproval: Bool { currentUser == .manual }

    /// What the signed-in user may do, as a sentence part: "you may", "you may ask (your quote
    /// shows once approved)", "you may not".
    public var verdictPhrase: String {
        switch currentUser {
        case .automatic: "you may"
        case .manual: "you may ask (your quote shows once approved)"
        case .denied, .unknown: "you may not"
        }
    }
}

extension Post {
    /// Who may quote the post (a boost: its original), as the server says, as a sentence part:
    /// "anyone may quote it", "followers may quote it, others may ask its author", "anyone may
    /// ask its author to quote it", "only its author may quote it"; `nil` when the server said
    /// nothing of quotes.
    public var quotePolicyPhrase: String? { content.quoteApproval?.policyPhrase }

    /// What the signed-in user may do with the post (a boost: its original), as the server
    /// says, as a sentence part: "you may", "you may ask (your quote shows once approved)",
    /// "you may not"; `nil` when the server said nothing of quotes.
    public var quoteVerdictPhrase: String? { content.quoteApproval?.verdictPhrase }

    /// Whether the signed-in user's quote of the post (a boost: its original) waits for its
    /// author's approval before it shows.
    public var quoteAwaitsApproval: Bool { content.quoteApproval?.quoteAwaitsApproval == true }

    /// Why the account `me` (`nil`: not known yet) may not quote this post (a boost: its
    /// original), as one sentence; `nil` when it may. As Mastodon rules: a direct post is never
    /// quoted; one's own post always may be; a followers-only post only by its author;
    /// otherwise the server's quote approval decides (`denied` and `unknown` refuse, naming
    /// followers when they may); a post whose server said nothing of quotes may be tried (the
    /// server decides).
    public func quoteRefusal(by me: Author?) -> String? {
        let original = content
        if original.visibility == .direct { return "A private mention cannot be quoted." }
        if let me, me.id == original.author.id { return nil }
        if original.visibility == .private { return "A followers-only post can be quoted by its author only." }
        guard let approval = original.quoteApproval else { return nil }
        switch approval.currentUser {
        case .automatic, .manual:
            return nil
        case .denied, .unknown:
            let followers = approval.automatic.contains(.followers) || approval.manual.contains(.followers)
            return followers ? "Only @\(original.author.handle)'s followers may quote this post." : "You may not quote this post: \(approval.policyPhrase)."
        }
    }
}
