@_spi(FeedService) import Feedline

/// The lines of a quoted post, drawn under the quoting post (a row, or the post screen) behind a
/// `│ ` bar: who wrote it, its age and its marks (the quoted post's own shared state), then its
/// text — on one line in a row, whole on the post screen — or why it is not shown.
struct QuoteLines {
    var style: Style
    var clock: WallClock
    /// The most lines of the quoted post's text shown whole (``DetailRenderer/textLineLimit``).
    var textLineLimit: Int? = nil
    /// The bar every line starts with.
    static let bar = "│ "

    /// The quote's lines in `columns` (bar included); `whole` draws the full text (the post
    /// screen), otherwise one line of it. `opener` names the command that opens the quoted
    /// post ("quote 3", "quote").
    func lines(_ quote: QuoteDisplay, columns: Int, whole: Bool, opener: String) -> [TerminalText] {
        let room = max(1, columns - TextWidth.width(of: Self.bar))
        let bar = style.dim(Self.bar)
        switch quote {
        case .shown(let quoted, let interaction):
            // An empty line keeps the bar without the space after it (no trailing blanks).
            return ([head(quoted, interaction, room: room)] + body(quoted, room: room, whole: whole, opener: opener)).map {
                $0.isEmpty ? style.dim("│") : bar + $0
            }
        case .warned(let quoted, let interaction, let filter):
            let note = "Filtered: " + TextWidth.oneLine(filter.title) + " (\(opener.replacingOccurrences(of: "quote", with: "show")) to see it)"
            return [bar + head(quoted, interaction, room: room)] + wrap(note, room).map { bar + style.magenta($0) }
        case .filtered(let filter):
            return wrap("(quoted post hidden by your filter " + TextWidth.oneLine(filter.title) + ")", room).map { bar + style.dim($0) }
        case .unavailable(let state):
            return wrap("(" + (state.notShownReason ?? "quoted post not available") + ")", room).map { bar + style.dim($0) }
        case .loading:
            return wrap("(quoted post not loaded: \(opener) opens it)", room).map { bar + style.dim($0) }
        }
    }

    /// Name, handle and age, and the quoted post's marks.
    private func head(_ quoted: Post, _ interaction: PostInteraction, room: Int) -> TerminalText {
        let post = ShownPost(quoted)
        let (favourite, boost) = RowRenderer.marks(interaction)
        let marks = favourite + "  " + boost + (interaction.bookmarked ? "  🔖" + interaction.queuedMark(.bookmark) : "")
            + (interaction.pinned ? "  📌" + interaction.queuedMark(.pin) : "")
        let who = TextWidth.oneLine(post.author.name) + " @" + TextWidth.oneLine(post.author.handle) + " · " + clock.relative(post.createdAt)
        let whoRoom = room - TextWidth.width(of: marks) - 2
        guard whoRoom >= 8 else { return TerminalText(TextWidth.truncate(who, to: room)) }
        let shown = TextWidth.truncate(who, to: whoRoom)
        let line = style.bold(shown) + TextWidth.spaces(whoRoom - TextWidth.width(of: shown) + 2)
        return line + (interaction.favourited ? style.yellow(marks) : TerminalText(marks))
    }

    /// The text (or its content warning), media, and a note when it quotes a post itself.
    private func body(_ post: Post, room: Int, whole: Bool, opener: String) -> [TerminalText] {
        let shown = ShownPost(post)
        var lines: [TerminalText] = []
        if let warning = shown.contentWarning {
            lines += wrap("CW: " + TextWidth.oneLine(warning) + " (\(opener) to read)", whole ? room : nil).map(style.magenta)
        } else if whole {
            let text = TextWidth.sanitize(shown.text, keepingLines: true)
            lines += text.isEmpty ? [style.dim("(no text)")] : DetailRenderer.capped(TextWidth.wrap(text, to: room), limit: textLineLimit, columns: room, style: style)
            for media in shown.media { lines += TextWidth.wrap(TextWidth.oneLine(media.summary), to: room).map(TerminalText.init) }
        } else {
            let media = shown.media.map { "[\($0.kind.rawValue)]" }.joined(separator: " ")
            let text = TextWidth.oneLine(shown.text + " " + media, truncatedTo: room)
            lines.append(TerminalText(text.isEmpty ? "(no text)" : text))
        }
        if let inner = post.quote {
            let note = inner.state == .accepted ? "(quotes another post: \(opener) shows it)" : "(" + (inner.state.notShownReason ?? "quotes a post") + ")"
            lines += wrap(note, whole ? room : nil).map(style.dim)
        }
        return lines
    }

    /// `text` wrapped to `room`, or cut to one line when `room` is `nil`.
    private func wrap(_ text: String, _ room: Int?) -> [String] {
        guard let room else { return [text] }
        return TextWidth.wrap(text, to: max(1, room))
    }
}
