@_spi(FeedService) import Feedline
import Foundation

/// Draws the post detail screen as text: author and date, content warning, the full text
/// wrapped to the width, media, poll and link, counts, failures, load progress and the thread.
public struct DetailRenderer: Sendable {
    /// The parts of the screen, in the order they are printed. After a change only the parts
    /// whose text changed are printed again.
    public enum Part: Int, CaseIterable, Sendable {
        case post, translation, quote, interaction, failure, loads, thread
    }

    /// Columns available (at least 20).
    public var width: Int
    /// Colours, or none.
    public var style: Style
    /// Where "now" comes from, for ages.
    public var clock: WallClock
    /// Post parts made before, reused while their post is unchanged (none: draw each time).
    public var cache: RenderCache?
    /// The most lines of a post's text (and of a quoted post's) the screen prints; what is
    /// left is counted on a line of its own ("… 1,204 more lines: list all prints the whole
    /// post"). `nil` prints every line (`list all`).
    public var textLineLimit: Int? = DetailRenderer.defaultTextLineLimit

    /// Lines of a post's text printed when it opens: a screen or two, never a 5 MB post's every line.
    public static let defaultTextLineLimit = 60

    /// A renderer for `width` columns, reusing post parts from `cache` if given.
    /// `missingRepliesReason` ends the sentence said when a thread shows fewer replies than its
    /// post counts (see ``missingReplies(counted:shown:reason:)``).
    private let missingRepliesReason: String

    public init(
        width: Int, style: Style = .plain, clock: WallClock, cache: RenderCache? = nil,
        missingRepliesReason: String = DetailRenderer.serverMissingRepliesReason
    ) {
        self.missingRepliesReason = missingRepliesReason
        self.width = max(20, width)
        self.style = style
        self.clock = clock
        self.cache = cache
    }

    /// Every part's lines for `state` (a part with nothing to show has no lines).
    public func parts(_ state: PostDetailState) -> [Part: [TerminalText]] {
        var parts: [Part: [TerminalText]] = [:]
        for part in Part.allCases { parts[part] = lines(part, of: state) }
        return parts
    }

    /// The whole screen for `state`.
    public func lines(_ state: PostDetailState) -> [TerminalText] {
        Part.allCases.flatMap { lines($0, of: state) }
    }

    /// One part's lines.
    public func lines(_ part: Part, of state: PostDetailState) -> [TerminalText] {
        switch part {
        case .post: PostPart(state).map { cachedPostLines($0, id: state.post?.id ?? state.id) } ?? []
        case .translation: translationLines(state)
        case .quote: quoteLines(state)
        case .interaction: state.interaction.map { interactionLines($0, replies: state.post?.repliesCount ?? 0) } ?? []
        case .failure: state.interaction?.failure.map { wrapped("! " + TextWidth.oneLine($0.message)).map(style.red) } ?? []
        case .loads: loadLines(state)
        case .thread: state.context.map { threadLines($0, counted: state.post?.repliesCount ?? 0) } ?? []
        }
    }

    /// A link on a line of its own, indented two columns, never wrapped: a terminal finds and
    /// opens a URL only when it is whole, so a URL longer than the width is the one line allowed
    /// to be wider (the terminal folds it without breaking it).
    private func urlLine(_ url: String) -> TerminalText {
        let url = TextWidth.oneLine(url).replacingOccurrences(of: " ", with: "%20")
        return style.dim("  " + url)
    }

    private func wrapped(_ text: String, indent: String = "") -> [String] {
        let columns = width - TextWidth.width(of: indent)
        let lines = cache?.wrapped(text, columns: columns) ?? TextWidth.wrap(text, to: columns)
        return indent.isEmpty ? lines : lines.map { indent + $0 }
    }

    /// What the post part shows: the post's shown fields and the filter warning that stands in
    /// for them (none once the post was deleted). At one width and age, equal parts draw equal
    /// lines — the post screen skips drawing the part again while it is unchanged.
    struct PostPart: Hashable, Sendable {
        var post: ShownPost
        var warning: PostFilter?

        /// The post part of `state`; `nil` while the post is not known.
        init?(_ state: PostDetailState) {
            guard let post = state.post else { return nil }
            self.post = ShownPost(post)
            warning = state.deleted ? nil : state.warning
        }
    }

    private func cachedPostLines(_ part: PostPart, id: PostID) -> [TerminalText] {
        let pollLeft = part.post.poll.flatMap { PostCarries.state(of: $0, now: clock.now()) }
        let source = RenderCache.PostSource(part: part, age: clock.relative(part.post.createdAt), pollLeft: pollLeft, columns: width, textLineLimit: textLineLimit)
        guard let cache else { return postLines(source) }
        return cache.post(id, source) { postLines(source) }
    }

    /// The post part drawn only from `source`.
    private func postLines(_ source: RenderCache.PostSource) -> [TerminalText] {
        let post = source.part.post
        let warning = source.part.warning
        var lines: [TerminalText] = []
        let name = TextWidth.oneLine(post.author.name)
        let handle = "@" + TextWidth.oneLine(post.author.handle)
        lines.append(style.bold(TextWidth.truncate(name, to: width)) + (TextWidth.width(of: name) + 1 + TextWidth.width(of: handle) <= width ? " " + style.dim(handle) : ""))
        let audience = post.visibility.label
        lines += wrapped(date(post.createdAt) + " · " + source.age + (audience.isEmpty ? "" : " · " + audience)).map(style.dim)
        if let edited = post.editedAt { lines += wrapped("edited " + date(edited)).map(style.dim) }
        lines.append("")
        if let warning = post.contentWarning {
            lines += wrapped("CW: " + TextWidth.oneLine(warning)).map(style.magenta)
            lines.append("")
        }
        if let warning, warning.action == .warn {
            // The text, media, poll and link stay hidden until `show`.
            lines += wrapped("Filtered: " + TextWidth.oneLine(warning.title) + ". Type show to see it.").map(style.magenta)
            lines.append("")
            return lines
        }
        let text = TextWidth.sanitize(post.text, keepingLines: true)
        lines += text.isEmpty ? [style.dim("(no text)")] : capped(wrapped(text))
        if !post.media.isEmpty {
            lines.append("")
            if let warning, warning.action == .blur {
                lines += wrapped(Self.count(post.media.count, "attachment") + " hidden by the filter " + TextWidth.oneLine(warning.title) + ". Type show to see them.").map(style.magenta)
            } else {
                for media in post.media {
                    lines += wrapped(TextWidth.oneLine(media.summary)).map(TerminalText.init)
                    if let url = media.url { lines.append(urlLine(url)) }
                }
            }
        }
        if let poll = post.poll {
            lines.append("")
            lines += wrapped("Poll (" + pollState(poll, left: source.pollLeft) + "):").map(TerminalText.init)
            for (index, option) in poll.options.enumerated() {
                var votes = ""
                if let count = option.votes {
                    votes = " — " + Self.count(count, "vote")
                    if poll.votesCount > 0 { votes += " (\(Self.percent(count, of: poll.votesCount)))" }
                }
                let mark = poll.ownVotes.contains(index) ? "✓ " : "• "
                lines += wrapped("\(index + 1). " + mark + TextWidth.oneLine(option.title) + votes, indent: "     ").map(TerminalText.init)
            }
        }
        if let card = post.card {
            lines.append("")
            lines += wrapped("Link: " + TextWidth.oneLine(card.title)).map(TerminalText.init)
            lines.append(urlLine(card.url))
        }
        if let quotes = Self.quoteLine(post) {
            lines.append("")
            lines += wrapped(quotes).map(style.dim)
        }
        lines.append("")
        return lines
    }

    /// `open until Nov 22, 2026 at 16:00 UTC, 2h left; one choice; 12 votes; you voted`.
    private func pollState(_ poll: Poll, left: String?) -> String {
        var parts: [String] = []
        if let end = poll.expiresAt {
            parts.append(left == "ended" || poll.expired ? "closed " + date(end) : "open until " + date(end) + (left.map { ", " + $0 } ?? ""))
        } else {
            parts.append(poll.expired ? "closed" : "open")
        }
        parts.append(poll.multiple ? "any number of choices" : "one choice")
        parts.append(Self.count(poll.votesCount, "vote"))
        if poll.voted { parts.append("you voted") }
        return parts.joined(separator: "; ")
    }

    /// Who may quote the post and whether you may (`quote-post`), when it is not the plain
    /// "anyone may, you too": "Quotes: followers may quote it; you may not quote it."
    static func quoteLine(_ post: ShownPost) -> String? {
        guard let approval = post.quoteApproval else { return nil }
        guard approval != QuoteApproval(automatic: [.public], manual: [], currentUser: .automatic) else { return nil }
        return "Quotes: \(approval.policyPhrase); \(approval.verdictPhrase)."
    }

    /// The post's translation under the original (``PostInteraction/translatedText``), through
    /// the one sanitiser as the post's own text is; "Translating…" while it is on its way.
    private func translationLines(_ state: PostDetailState) -> [TerminalText] {
        guard let interaction = state.interaction, !state.deleted, state.warning?.action != .warn else { return [] }
        if interaction.isTranslating { return wrapped("Translating…").map(style.dim) + [""] }
        guard let translated = interaction.translatedText else { return [] }
        let from = interaction.translatedFrom.map { " from " + TextWidth.oneLine($0) } ?? ""
        let by = interaction.translatedBy.map { " by " + TextWidth.oneLine($0) } ?? ""
        var lines = wrapped("Translated\(from)\(by) (original shows the post alone):").map(style.dim)
        if let warning = interaction.translatedContentWarning {
            lines += wrapped("CW: " + TextWidth.oneLine(warning)).map(style.magenta)
        }
        let text = TextWidth.sanitize(translated, keepingLines: true)
        lines += text.isEmpty ? [style.dim("(no text)")] : capped(wrapped(text))
        return lines + [""]
    }

    /// The post it quotes, whole, under the post (not while a filter's warning or the post's
    /// deletion stands in for the post).
    private func quoteLines(_ state: PostDetailState) -> [TerminalText] {
        guard let quote = state.quote, !state.deleted, state.warning?.action != .warn else { return [] }
        return QuoteLines(style: style, clock: clock, textLineLimit: textLineLimit).lines(quote, columns: width, whole: true, opener: "quote") + [""]
    }

    private func interactionLines(_ interaction: PostInteraction, replies: Int) -> [TerminalText] {
        let queued = interaction.queuedMark
        let fav = (interaction.favourited ? "★" : "☆") + queued(.favourite) + " " + Self.count(interaction.favouritesCount, "favourite")
        let boost = (interaction.reblogged ? "▲" : "△") + queued(.reblog) + " " + Self.count(interaction.reblogsCount, "boost")
        let bookmark = interaction.bookmarked ? " · 🔖 bookmarked" + queued(.bookmark) : (interaction.queued.contains(.bookmark) ? " · 🔖 unbookmarking…" : "")
        let pin = interaction.pinned ? " · 📌 pinned" + queued(.pin) : (interaction.queued.contains(.pin) ? " · 📌 unpinning…" : "")
        let head = fav + " · " + boost + " · " + Self.count(replies, "reply", "replies")
        let report = interaction.reported.map { $0.isOn ? ($0.pending ? " · ⚑ reporting…" : " · ⚑ reported") : "" } ?? ""
        let lines = TextWidth.wrap(head + bookmark + pin + report, to: width)
        let marked = interaction.favourited || interaction.reblogged ? lines.map(style.yellow) : lines.map(TerminalText.init)
        guard interaction.muted || interaction.queued.contains(.muteThread) else { return marked }
        let muted = interaction.muted
            ? "🔇 Conversation muted\(queued(.muteThread)): no notifications from it (unmute-thread)."
            : "🔇 Unmuting the conversation…"
        return marked + TextWidth.wrap(muted, to: width).map(style.dim)
    }

    /// `lines` up to ``textLineLimit``, then a note that counts the rest and says how to see
    /// them (one line more than the limit is printed rather than counted).
    func capped(_ lines: [String]) -> [TerminalText] {
        Self.capped(lines, limit: textLineLimit, columns: width, style: style)
    }

    /// `lines` up to `limit`, then the note counting the rest, wrapped to `columns` as every
    /// line of the screen is.
    static func capped(_ lines: [String], limit: Int?, columns: Int, style: Style) -> [TerminalText] {
        guard let limit, lines.count > limit + 1 else { return lines.map { TerminalText($0) } }
        let rest = lines.count - limit
        let note = TextWidth.wrap("… \(ProfileRenderer.count(rest)) more lines: list all prints the whole post.", to: columns)
        return lines.prefix(limit).map { TerminalText($0) } + note.map(style.dim)
    }

    /// `60%`, rounded to the nearest whole percent (`<1%` for a few votes of many).
    static func percent(_ part: Int, of whole: Int) -> String {
        guard whole > 0 else { return "0%" }
        let value = (Double(part) * 100 / Double(whole)).rounded()
        return part > 0 && value < 1 ? "<1%" : "\(Int(value))%"
    }

    /// `1 boost`, `2 boosts`.
    static func count(_ number: Int, _ one: String, _ many: String? = nil) -> String {
        "\(number) " + (number == 1 ? one : many ?? one + "s")
    }

    private func loadLines(_ state: PostDetailState) -> [TerminalText] {
        var lines: [TerminalText] = []
        if state.deleted { lines += wrapped("This post was deleted.").map(style.red) }
        switch state.postLoad {
        case .loading: lines.append(style.dim("Loading the post…"))
        case .failed(let failure): lines += wrapped("Could not load the post: " + Self.retryable(failure)).map(style.red)
        case .idle, .loaded: break
        }
        switch state.contextLoad {
        case .loading: lines.append(style.dim("Loading the thread…"))
        case .failed(let failure): lines += wrapped("Could not load the thread: " + Self.retryable(failure)).map(style.red)
        case .idle, .loaded: break
        }
        return lines
    }

    /// The failure's sentence, and "Type retry to try again." when trying again may help.
    static func retryable(_ failure: FeedFailure) -> String {
        RowRenderer.sentence(failure.message) + (failure.isTransient ? " Type retry to try again." : "")
    }

    /// Why a server shows fewer replies than a post counts (a sentence).
    public static let serverMissingRepliesReason = "A server sends only the replies it knows of and you may see."
    /// Why the sandbox shows fewer replies than a post counts (a sentence).
    public static let sandboxMissingRepliesReason = "The sandbox serves only the replies in its fixtures."

    /// The sentence for a thread that shows `shown` of the `counted` replies of its post, e.g.
    /// "The post counts 10 replies, but none is shown here. The sandbox serves only the replies in
    /// its fixtures."
    public static func missingReplies(counted: Int, shown: Int, reason: String) -> String {
        let missing = counted - shown
        return shown == 0
            ? "The post counts \(count(counted, "reply", "replies")), but none is shown here. \(reason)"
            : "The post counts \(count(counted, "reply", "replies")); \(missing) \(missing == 1 ? "is" : "are") not shown here. \(reason)"
    }

    private func threadLines(_ context: PostContext, counted: Int) -> [TerminalText] {
        var lines: [TerminalText] = []
        if context.descendants.count < counted {
            lines += wrapped(Self.missingReplies(counted: counted, shown: context.descendants.count, reason: missingRepliesReason)).map(style.dim)
        } else if context.ancestors.isEmpty, context.descendants.isEmpty {
            return [style.dim("No replies.")]
        }
        if !context.ancestors.isEmpty {
            lines.append(style.bold("In reply to:"))
            lines += context.ancestors.map(threadLine).map(TerminalText.init)
        }
        if !context.descendants.isEmpty {
            lines.append(style.bold("Replies (\(context.descendants.count)):"))
            lines += context.descendants.map(threadLine).map(TerminalText.init)
        }
        if !context.ancestors.isEmpty || !context.descendants.isEmpty { lines += wrapped(Self.threadHint).map(style.dim) }
        return lines
    }

    private func threadLine(_ post: Post) -> String {
        let content = ShownPost(post.content)
        let head = TextWidth.oneLine(content.author.name) + " · " + clock.relative(content.createdAt) + ": "
        let body = content.contentWarning.map { "CW: " + TextWidth.oneLine($0) } ?? TextWidth.oneLine(content.text)
        return "  " + TextWidth.truncate(head + body, to: width - 2)
    }

    /// Lines after the thread: how to open it as a list of rows.
    private static let threadHint = "thread opens it as rows you can open, favourite and boost."

    private func date(_ date: Date) -> String {
        let parts = CivilTime(date, in: clock.timeZone)
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let month = months[max(0, min(11, parts.month - 1))]
        let time = ClockTime.text(hour: parts.hour, minute: parts.minute)
        return "\(month) \(parts.day), \(parts.year) at \(time) \(clock.timeZone.shownName(at: date))"
    }
}
