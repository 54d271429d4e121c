@_spi(FeedService) import Feedline
import Foundation

extension Post {
    /// The domain post for a Mastodon status.
    ///
    /// - The post's `id` is the status's own id (a boost keeps its own identity in a list);
    ///   ``Feedline/Post/originalID`` then names the boosted original, which owns the
    ///   interaction state.
    /// - `content` and `spoiler_text` become plain text with ``HTMLText/plainText(from:)``;
    ///   an empty content warning is `nil`. Custom emoji stay `:shortcode:`. The links of
    ///   `content` (mentions and hashtags left out) become ``Feedline/Post/links``
    ///   (``HTMLLinks/links(in:)``).
    /// - A boost of a boost (which Mastodon never sends, but a relay might) is flattened: the
    ///   entry keeps its own id, author and date, and its ``Feedline/Post/reblog`` is the innermost
    ///   original; the booster in the middle is not kept.
    /// - `favourited` / `reblogged` / `bookmarked` / `pinned` / `muted` absent (signed out, or
    ///   `pinned` of someone else's post) read as `false`.
    /// - `filtered` becomes ``Feedline/Post/filters``; a boost's filters also go to its original
    ///   (which is what a row shows and filters apply to).
    /// - `quote` becomes ``Feedline/Post/quote``, one level deep (the quoted status's own quote
    ///   a placeholder); an unknown state is `unauthorized`. The `quote-inline` fallback that
    ///   servers put in `content` for clients without quotes is left out of the text of a post
    ///   that has a quote (the quote is shown instead).
    public init(_ status: Mastodon.Status) {
        var inner = status.reblog.map { Post(mapping: $0.original) }
        self = Post(mapping: status)
        // A filter that matched the boost matches what it shows: the original.
        for filter in filters where inner?.filters.contains(filter) == false { inner?.filters.append(filter) }
        self.reblog = inner
    }

    /// The status alone, without its boost.
    private init(mapping status: Mastodon.Status) {
        let warning = HTMLText.plainText(from: status.spoilerText)
        self.init(
            id: PostID(status.id),
            author: Author(status.account),
            text: HTMLText.plainText(from: status.content, hidingQuoteFallback: status.quote != nil),
            createdAt: status.createdAt,
            contentWarning: warning.isEmpty ? nil : warning,
            media: status.mediaAttachments.map(Media.init),
            poll: status.poll.map(Poll.init),
            card: status.card.map(LinkCard.init),
            repliesCount: status.repliesCount,
            reblogsCount: status.reblogsCount,
            favouritesCount: status.favouritesCount,
            favourited: status.favourited ?? false,
            reblogged: status.reblogged ?? false,
            bookmarked: status.bookmarked ?? false,
            editedAt: status.editedAt,
            tags: status.tags.map(\.name),
            inReplyToID: status.inReplyToID.map { PostID($0) },
            url: status.url ?? (status.uri.isEmpty ? nil : status.uri),
            filters: status.filtered.map { PostFilter($0.filter) },
            visibility: PostVisibility(serverName: status.visibility.rawValue),
            mentions: status.mentions.map(\.acct),
            language: status.language,
            links: HTMLLinks.links(in: status.content),
            pinned: status.pinned ?? false,
            muted: status.muted ?? false
        )
        if let quote = status.quote { self.quote = Quote(quote) }
        if let approval = status.quoteApproval { quoteApproval = QuoteApproval(approval) }
    }
}

extension QuoteApproval {
    /// The domain's approval for a status's `quote_approval`: names this version does not know
    /// read as `unsupported_policy` and `unknown`.
    @_spi(FeedService) public init(_ approval: Mastodon.QuoteApproval) {
        self.init(
            automatic: approval.automatic.map(Audience.init(serverName:)), manual: approval.manual.map(Audience.init(serverName:)),
            currentUser: Verdict(serverName: approval.currentUser)
        )
    }
}

extension Quote {
    /// The domain quote for a status's `quote`: its state (unknown ones `unauthorized`), the
    /// quoted post's id, and the quoted post when the server sent it, one level deep.
    @_spi(FeedService) public init(_ quote: Mastodon.Quote) {
        self.init(
            state: QuoteState(serverName: quote.state),
            postID: quote.quotedStatusID.map { PostID($0) },
            post: quote.quotedStatus.map { Post($0) }
        )
    }
}

extension PostFilter {
    /// The domain filter for a Mastodon v2 filter: unknown contexts are dropped, and an
    /// action other than `hide` or `blur` is `warn` (see ``Mastodon/Filter``).
    public init(_ filter: Mastodon.Filter) {
        let action: Action =
            switch filter.filterAction {
            case "hide": .hide
            case "blur": .blur
            default: .warn
            }
        self.init(
            id: filter.id, title: filter.title, contexts: Set(filter.context.compactMap(FilterContext.init(rawValue:))), action: action,
            keywords: (filter.keywords ?? []).map { PostFilter.Keyword(id: $0.id, keyword: $0.keyword, wholeWord: $0.wholeWord) },
            expiresAt: filter.expiresAt
        )
    }
}

extension Mastodon.Filter {
    /// The v2 filter for a domain filter, as the server sends it.
    public init(_ filter: PostFilter) {
        self.init(
            id: filter.id, title: filter.title, context: FilterContext.allCases.filter(filter.contexts.contains).map(\.rawValue),
            filterAction: filter.action.rawValue, expiresAt: filter.expiresAt,
            keywords: filter.keywords.map { Mastodon.FilterKeyword(id: $0.id, keyword: $0.keyword, wholeWord: $0.wholeWord) }
        )
    }
}

extension Author {
    /// The author for a Mastodon account: its id, `display_name` as sent (custom emoji stay
    /// `:shortcode:`), and `acct` as the handle (`user` or `user@host`).
    public init(_ account: Mastodon.Account) {
        self.init(id: account.id, displayName: account.displayName, handle: account.acct)
    }
}

extension Media {
    /// The media for an attachment: its kind (`unknown` for kinds Feedline does not know), its
    /// description (`nil` when absent or blank) and its address (`url`, else `remote_url`).
    public init(_ attachment: Mastodon.MediaAttachment) {
        let description = attachment.description?.trimmingBlanks(newlines: true)
        self.init(
            kind: Media.Kind(rawValue: attachment.type.rawValue) ?? .unknown,
            description: description?.isEmpty == false ? description : nil,
            url: attachment.url ?? attachment.remoteURL,
            id: attachment.id.isEmpty ? nil : attachment.id
        )
    }
}

extension Poll {
    /// The poll for a Mastodon poll: options with their votes (`nil` while hidden), totals and state.
    public init(_ poll: Mastodon.Poll) {
        self.init(
            options: poll.options.map { Option(title: $0.title, votes: $0.votesCount) },
            votesCount: poll.votesCount,
            expired: poll.expired,
            expiresAt: poll.expiresAt,
            multiple: poll.multiple,
            id: poll.id,
            voted: poll.voted ?? false,
            ownVotes: poll.ownVotes ?? []
        )
    }
}

extension LinkCard {
    /// The link card for a preview card: its address, title and description.
    public init(_ card: Mastodon.Card) {
        self.init(url: card.url, title: card.title, summary: card.description)
    }
}
