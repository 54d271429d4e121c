import Feedline
import Foundation

/// Draws the post detail screen as text: author and date, content warning, the full text
/// wrapped to the width, media, poll and link, counts, failures, load progress and the thread.
public struct DetailRenderer: Sendable {
    /// The parts of the screen, in the order they are printed. After a change only the parts
    /// whose text changed are printed again.
    public enum Part: Int, CaseIterable, Sendable {
        case post, interaction, failure, loads, thread
    }

    /// Columns available (at least 20).
    public var width: Int
    /// Colours, or none.
    public var style: Style
    /// Where "now" comes from, for ages.
    public var clock: WallClock
    /// Post parts made before, reused while their post is unchanged (none: draw each time).
    public var cache: RenderCache?

    /// A renderer for `width` columns, reusing post parts from `cache` if given.
    public init(width: Int, style: Style = .plain, clock: WallClock, cache: RenderCache? = nil) {
        self.width = max(20, width)
        self.style = style
        self.clock = clock
        self.cache = cache
    }

    /// Every part's lines for `state` (a part with nothing to show has no lines).
    public func parts(_ state: PostDetailState) -> [Part: [String]] {
        var parts: [Part: [String]] = [:]
        for part in Part.allCases { parts[part] = lines(part, of: state) }
        return parts
    }

    /// The whole screen for `state`.
    public func lines(_ state: PostDetailState) -> [String] {
        Part.allCases.flatMap { lines($0, of: state) }
    }

    /// One part's lines.
    public func lines(_ part: Part, of state: PostDetailState) -> [String] {
        switch part {
        case .post: state.post.map(cachedPostLines) ?? []
        case .interaction: state.interaction.map { [interactionLine($0, replies: state.post?.repliesCount ?? 0)] } ?? []
        case .failure: state.interaction?.failure.map { wrapped("! " + TextWidth.oneLine($0.message)).map(style.red) } ?? []
        case .loads: loadLines(state)
        case .thread: state.context.map(threadLines) ?? []
        }
    }

    private func wrapped(_ text: String, indent: String = "") -> [String] {
        TextWidth.wrap(text, to: width - TextWidth.width(of: indent)).map { indent + $0 }
    }

    private func cachedPostLines(_ post: Post) -> [String] {
        guard let cache else { return postLines(post) }
        let source = RenderCache.PostSource(
            id: post.id, author: post.author, text: post.text, createdAt: post.createdAt, contentWarning: post.contentWarning,
            media: post.media, poll: post.poll, card: post.card, editedAt: post.editedAt, age: clock.relative(post.createdAt),
            columns: width
        )
        return cache.post(post.id, source) { postLines(post) }
    }

    private func postLines(_ post: Post) -> [String] {
        var lines: [String] = []
        let name = TextWidth.oneLine(post.author.name)
        let handle = "@" + TextWidth.oneLine(post.author.handle)
        lines.append(style.bold(TextWidth.truncate(name, to: width)) + (TextWidth.width(of: name) + 1 + TextWidth.width(of: handle) <= width ? " " + style.dim(handle) : ""))
        lines.append(style.dim(TextWidth.truncate(date(post.createdAt) + " · " + clock.relative(post.createdAt), to: width)))
        lines.append("")
        if let warning = post.contentWarning {
            lines += wrapped("CW: " + TextWidth.oneLine(warning)).map(style.magenta)
            lines.append("")
        }
        let text = TextWidth.sanitize(post.text, keepingLines: true)
        lines += text.isEmpty ? [style.dim("(no text)")] : wrapped(text)
        if !post.media.isEmpty {
            lines.append("")
            for media in post.media { lines += wrapped(TextWidth.oneLine(media.summary)) }
        }
        if let poll = post.poll {
            lines.append("")
            let state = poll.expired ? "closed" : "open"
            lines += wrapped("Poll (\(state), \(poll.votesCount) votes):")
            for option in poll.options {
                let votes = option.votes.map { " — \($0)" } ?? ""
                lines += wrapped("• " + TextWidth.oneLine(option.title) + votes, indent: "  ")
            }
        }
        if let card = post.card {
            lines.append("")
            lines += wrapped("Link: " + TextWidth.oneLine(card.title) + " — " + TextWidth.oneLine(card.url))
        }
        lines.append("")
        return lines
    }

    private func interactionLine(_ interaction: PostInteraction, replies: Int) -> String {
        let fav = (interaction.favourited ? "★ " : "☆ ") + Self.count(interaction.favouritesCount, "favourite")
        let boost = (interaction.reblogged ? "▲ " : "△ ") + Self.count(interaction.reblogsCount, "boost")
        let line = TextWidth.truncate(fav + " · " + boost + " · " + Self.count(replies, "reply", "replies"), to: width)
        return interaction.favourited || interaction.reblogged ? style.yellow(line) : line
    }

    /// `1 boost`, `2 boosts`.
    static func count(_ number: Int, _ one: String, _ many: String? = nil) -> String {
        "\(number) " + (number == 1 ? one : many ?? one + "s")
    }

    private func loadLines(_ state: PostDetailState) -> [String] {
        var lines: [String] = []
        switch state.postLoad {
        case .loading: lines.append(style.dim("Loading the post…"))
        case .failed(let failure): lines += wrapped("Could not load the post: \(TextWidth.oneLine(failure.message)) Type retry to try again.").map(style.red)
        case .idle, .loaded: break
        }
        switch state.contextLoad {
        case .loading: lines.append(style.dim("Loading the thread…"))
        case .failed(let failure): lines += wrapped("Could not load the thread: \(TextWidth.oneLine(failure.message)) Type retry to try again.").map(style.red)
        case .idle, .loaded: break
        }
        return lines
    }

    private func threadLines(_ context: PostContext) -> [String] {
        if context.ancestors.isEmpty, context.descendants.isEmpty { return [style.dim("No replies.")] }
        var lines: [String] = []
        if !context.ancestors.isEmpty {
            lines.append(style.bold("In reply to:"))
            lines += context.ancestors.map(threadLine)
        }
        if !context.descendants.isEmpty {
            lines.append(style.bold("Replies (\(context.descendants.count)):"))
            lines += context.descendants.map(threadLine)
        }
        return lines
    }

    private func threadLine(_ post: Post) -> String {
        let content = post.content
        let head = TextWidth.oneLine(content.author.name) + " · " + clock.relative(content.createdAt) + ": "
        let body = content.contentWarning.map { "CW: " + TextWidth.oneLine($0) } ?? TextWidth.oneLine(content.text)
        return "  " + TextWidth.truncate(head + body, to: width - 2)
    }

    private func date(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = clock.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let month = months[max(0, min(11, (parts.month ?? 1) - 1))]
        let time = String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
        let zone = clock.timeZone.identifier == "UTC" || clock.timeZone.identifier == "GMT" ? "UTC" : (clock.timeZone.abbreviation(for: date) ?? clock.timeZone.identifier)
        return "\(month) \(parts.day ?? 1), \(parts.year ?? 0) at \(time) \(zone)"
    }
}
