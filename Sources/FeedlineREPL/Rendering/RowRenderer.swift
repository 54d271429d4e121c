@_spi(FeedService) import Feedline

/// Draws list rows as text lines at a given width: the number, author, age and the
/// favourite / boost marks with counts on the first line; "boosted by" for a boost; the text on
/// one line (or the content warning instead); the last failure, if any. A thread's rows are
/// indented by their depth (``threadIndent(depth:width:)``) and the post the thread was opened
/// for carries ``focusMarker`` before its number.
public struct RowRenderer: Sendable {
    /// Columns available (at least 20).
    public var width: Int
    /// Colours, or none.
    public var style: Style
    /// Where "now" comes from, for ages.
    public var clock: WallClock
    /// Row and body lines made before, reused while what they show is unchanged (none: draw
    /// each time).
    public var cache: RenderCache?

    /// Columns before the author: a one-character marker, the number, two spaces.
    static let indent = 6

    /// The last refusal under a row, wrapped and in red, below the row's text (indented `deeper`
    /// more, as a reply in a thread is); none without one.
    func failureLines(_ failure: String?, indent deeper: Int = 0) -> [TerminalText] {
        guard let failure else { return [] }
        let indent = TextWidth.spaces(Self.indent + deeper)
        return TextWidth.wrap("! " + TextWidth.oneLine(failure), to: width - Self.indent - deeper).map { indent + style.red($0) }
    }

    /// The fewest columns a row's name keeps beside its marks before the marks move below it.
    static let minimumName = 8
    /// Columns a thread row is indented per level of depth.
    package static let threadIndentPerLevel = 2
    /// The deepest level indented further: deeper replies line up with it, so a long chain of
    /// replies still leaves room for text.
    package static let maximumThreadLevels = 5
    /// The marker-column character of the post a thread was opened for, when no `+` or `~`
    /// stands there.
    package static let focusMarker: Character = "▸"

    /// A renderer for `width` columns (at least 20), reusing lines from `cache` if given.
    public init(width: Int, style: Style = .plain, clock: WallClock, cache: RenderCache? = nil) {
        self.width = max(20, width)
        self.style = style
        self.clock = clock
        self.cache = cache
    }

    /// The lines of `row` shown as number `number`; `marker` is `+` for a new row, `~` for a
    /// changed one, a space otherwise.
    public func lines(_ row: ListRow, number: Int, marker: Character = " ") -> [TerminalText] {
        switch row {
        case .post(let post): lines(post, number: number, marker: marker)
        case .gap(let gap): gapLines(gap, number: number, marker: marker)
        case .notification(let notification): lines(notification, number: number, marker: marker)
        case .account(let account): lines(account, number: number, marker: marker)
        case .tag(let tag): lines(tag, number: number, marker: marker)
        case .domain(let domain, let block): lines(domain: domain, block, number: number, marker: marker)
        case .conversation(let row): lines(row, number: number, marker: marker)
        case .userList(let row): lines(row, number: number, marker: marker)
        case .filter(let filter, let state): lines(filter, state, number: number, marker: marker)
        case .announcement(let announcement, let read): lines(announcement, read: read, number: number, marker: marker)
        case .scheduled(let post, let state): lines(post, state, number: number, marker: marker)
        case .notificationRequest(let request, let state): lines(request, state, number: number, marker: marker)
        }
    }

    /// A request of filtered notifications: the account's name and handle, how many were
    /// filtered, `answering…` while its answer waits for the server; the last post's excerpt;
    /// the last refusal.
    private func lines(_ request: NotificationRequest, _ state: ToggleDisplay, number: Int, marker: Character) -> [TerminalText] {
        let lead = prefix(number, marker)
        let count = request.notificationsCount == 1 ? "1 notification" : "\(request.notificationsCount) notifications"
        let detail = " @" + TextWidth.oneLine(request.account.handle) + " · " + count + (state.pending ? " · answering…" : "")
        let room = width - TextWidth.width(of: lead)
        let name = TextWidth.truncate(TextWidth.oneLine(request.account.name), to: max(1, room / 2))
        var result = [lead + style.bold(name) + style.dim(TextWidth.truncate(detail, to: max(1, room - TextWidth.width(of: name))))]
        let indent = TextWidth.spaces(Self.indent)
        if let post = request.lastPost {
            let text = (post.contentWarning.map { "CW: \($0) · " } ?? "") + (post.text.isEmpty ? "(no text)" : post.text)
            result.append(indent + style.dim(TextWidth.truncate(TextWidth.oneLine(text), to: max(1, width - Self.indent))))
        }
        result += failureLines(state.failure)
        return result
    }

    /// An account: name, handle and markers; how you relate (or the answer to its follow
    /// request); the bio's first line.
    private func lines(_ row: AccountRow, number: Int, marker: Character) -> [TerminalText] {
        let lead = prefix(number, marker)
        let indent = TextWidth.spaces(Self.indent)
        let available = width - Self.indent
        let profile = row.profile
        var markers: [String] = []
        if profile.bot { markers.append("bot") }
        if profile.locked { markers.append("approves followers") }
        if profile.group { markers.append("group") }
        if let moved = profile.movedTo { markers.append("moved to @" + TextWidth.oneLine(moved.handle)) }
        if let reported = row.reported, reported.isOn { markers.append(reported.pending ? "⚑ reporting…" : "⚑ reported") }
        let name = TextWidth.oneLine(profile.author.name)
        let handle = " @" + TextWidth.oneLine(profile.author.handle) + (markers.isEmpty ? "" : " · " + markers.joined(separator: " · "))
        let room = width - TextWidth.width(of: lead)
        let shownName = TextWidth.truncate(name, to: max(1, room / 2))
        var result = [lead + style.bold(shownName) + style.dim(TextWidth.truncate(handle, to: max(1, room - TextWidth.width(of: shownName))))]
        var relation: [String] = []
        if let display = row.relationship {
            if let line = display.line(formattingDates: { ProfileRenderer(width: width, timeZone: clock.timeZone).moment($0) }) {
                relation.append(line)
            }
        }
        if !relation.isEmpty { result.append(TerminalText(indent + TextWidth.truncate(relation.joined(separator: " · "), to: available))) }
        let bio = profile.bio.split(separator: "\n", omittingEmptySubsequences: true).first.map { TextWidth.oneLine(String($0)) } ?? ""
        if !bio.isEmpty { result.append(indent + style.dim(TextWidth.truncate(bio, to: available))) }
        let failures = [row.relationship?.failure?.message, row.relationship?.requestAnswer?.failure].compactMap { $0 }
        for failure in failures {
            for line in TextWidth.wrap("! " + TextWidth.oneLine(failure.replacingOccurrences(of: "this account", with: "@" + profile.author.handle)), to: available) {
                result.append(indent + style.red(line))
            }
        }
        return result
    }

    /// A post row's mark of your report of it: `  ⚑` once filed, `  ⚑…` while it waits.
    static func reportMark(_ reported: ToggleDisplay?) -> String {
        guard let reported, reported.isOn else { return "" }
        return reported.pending ? "  ⚑…" : "  ⚑"
    }

    /// A blocked domain: its name and whether it is blocked (`…` while the server has not answered).
    private func lines(domain: String, _ block: ToggleDisplay, number: Int, marker: Character) -> [TerminalText] {
        let lead = prefix(number, marker)
        let state = " · " + (block.isOn ? "blocked" : "not blocked") + (block.pending ? "…" : "")
        let room = width - TextWidth.width(of: lead)
        let name = TextWidth.truncate(TextWidth.oneLine(domain), to: max(1, room - TextWidth.width(of: state)))
        var result = [lead + style.bold(name) + style.dim(TextWidth.truncate(state, to: max(0, room - TextWidth.width(of: name))))]
        result += failureLines(block.failure)
        return result
    }

    /// One of your scheduled posts: when it goes and who may see it, `saving…` while a change
    /// waits for the server; its warning and text on one line; the last refusal.
    private func lines(_ post: ScheduledPost, _ state: ToggleDisplay, number: Int, marker: Character) -> [TerminalText] {
        let lead = prefix(number, marker)
        var detail = " · " + (post.visibility.label.isEmpty ? "public" : post.visibility.label)
        if post.mediaCount > 0 { detail += " · \(post.mediaCount) attachment\(post.mediaCount == 1 ? "" : "s")" }
        if !post.pollOptions.isEmpty { detail += " · poll" }
        if post.inReplyTo != nil { detail += " · reply" }
        if state.pending { detail += " · saving…" }
        let room = width - TextWidth.width(of: lead)
        let when = TextWidth.truncate(ProfileRenderer(width: width, timeZone: clock.timeZone).moment(post.scheduledAt), to: max(1, room))
        var result = [lead + style.bold(when) + style.dim(TextWidth.truncate(detail, to: max(0, room - TextWidth.width(of: when))))]
        let indent = TextWidth.spaces(Self.indent)
        let text = (post.contentWarning.map { "CW: \($0) · " } ?? "") + (post.text.isEmpty ? "(no text)" : post.text)
        result.append(indent + TerminalText(stringLiteral: TextWidth.truncate(TextWidth.oneLine(text), to: max(1, width - Self.indent))))
        result += failureLines(state.failure)
        return result
    }

    /// One of your server filters: its title, what it does and where, `saving…` while a change
    /// waits for the server; its keywords (`"word"` for a whole word); when it expires; the last refusal.
    private func lines(_ filter: PostFilter, _ state: ToggleDisplay, number: Int, marker: Character) -> [TerminalText] {
        let lead = prefix(number, marker)
        let contexts = FilterContext.allCases.filter(filter.contexts.contains).map(\.rawValue).joined(separator: ", ")
        let detail = " · \(filter.action.rawValue) in \(contexts.isEmpty ? "nowhere" : contexts)" + (state.pending ? " · saving…" : "")
        let room = width - TextWidth.width(of: lead)
        let name = TextWidth.truncate(TextWidth.oneLine(filter.title), to: max(1, room - TextWidth.width(of: detail)))
        var result = [lead + style.bold(name) + style.dim(TextWidth.truncate(detail, to: max(0, room - TextWidth.width(of: name))))]
        let indent = TextWidth.spaces(Self.indent)
        var words = filter.keywords.map { $0.wholeWord ? "\"\($0.keyword)\"" : $0.keyword }.joined(separator: ", ")
        if words.isEmpty { words = "no keywords" }
        if let expiresAt = filter.expiresAt { words += " · until " + ProfileRenderer(width: width, timeZone: clock.timeZone).moment(expiresAt) }
        result.append(indent + style.dim(TextWidth.truncate(TextWidth.oneLine(words), to: max(1, width - Self.indent))))
        result += failureLines(state.failure)
        return result
    }

    /// One of your lists: its title, `…` while a change waits for the server, and the last
    /// refusal of a rename.
    private func lines(_ row: UserListRow, number: Int, marker: Character) -> [TerminalText] {
        let lead = prefix(number, marker)
        let state = row.pending ? " · saving…" : ""
        let room = width - TextWidth.width(of: lead)
        let name = TextWidth.truncate(TextWidth.oneLine(row.title), to: max(1, room - TextWidth.width(of: state)))
        var result = [lead + style.bold(name) + style.dim(TextWidth.truncate(state, to: max(0, room - TextWidth.width(of: name))))]
        result += failureLines(row.failure)
        return result
    }

    /// A hashtag: its name and how much it was used over the last week.
    private func lines(_ tag: Hashtag, number: Int, marker: Character) -> [TerminalText] {
        let lead = prefix(number, marker)
        var parts = Self.weeklyUse(of: tag).map { [$0] } ?? []
        if tag.following == true { parts.append("followed") }
        let detail = parts.isEmpty ? "" : " · " + parts.joined(separator: " · ")
        let room = width - TextWidth.width(of: lead)
        let name = TextWidth.truncate("#" + TextWidth.oneLine(tag.name), to: max(1, room))
        return [lead + style.bold(name) + style.dim(TextWidth.truncate(detail, to: max(0, room - TextWidth.width(of: name))))]
    }

    /// "12 posts this week by 5 people": a hashtag's use over the last week, when the server says.
    static func weeklyUse(of tag: Hashtag) -> String? {
        guard let uses = tag.weeklyUses else { return nil }
        var used = "\(uses) post\(uses == 1 ? "" : "s") this week"
        if let accounts = tag.weeklyAccounts { used += " by \(accounts) \(accounts == 1 ? "person" : "people")" }
        return used
    }

    /// A post's favourite and boost marks with their counts ("★ 3", "△… 0"): `…` after a kind
    /// queued until the server can be reached.
    static func marks(_ interaction: PostInteraction) -> (favourite: String, boost: String) {
        let queued = interaction.queuedMark
        return (
            (interaction.favourited ? "★" : "☆") + queued(.favourite) + " " + String(interaction.favouritesCount),
            (interaction.reblogged ? "▲" : "△") + queued(.reblog) + " " + String(interaction.reblogsCount)
        )
    }

    /// `text` as dim note lines, wrapped to the width.
    func note(_ text: String) -> [TerminalText] {
        wrap(text).map(style.dim)
    }

    /// `text` wrapped to the width (through the cache when there is one).
    private func wrap(_ text: String) -> [String] {
        cache?.wrapped(text, columns: width) ?? TextWidth.wrap(text, to: width)
    }

    /// Columns a thread row at `depth` is indented by at `width`: ``threadIndentPerLevel`` per
    /// level up to ``maximumThreadLevels``, and never more than half of what the row's text has
    /// beside the number, so a narrow terminal still shows text.
    package static func threadIndent(depth: Int, width: Int) -> Int {
        let levels = min(max(0, depth), maximumThreadLevels)
        let half = (max(20, width) - indent) / 2
        return min(levels * threadIndentPerLevel, half - half % threadIndentPerLevel)
    }

    /// `lines` (drawn with the blank marker) with `marker` in the marker column instead, so a
    /// row need not be drawn twice to be printed marked and remembered unmarked. A `+` or `~`
    /// stands in for the focus mark too; a blank marker leaves the lines as drawn.
    static func marked(_ lines: [TerminalText], _ marker: Character) -> [TerminalText] {
        guard marker != " ", let first = lines.first, first.first == " " || first.first == focusMarker else { return lines }
        var result = lines
        result[0] = first.replacingFirstCharacter(with: marker)
        return result
    }

    func prefix(_ number: Int, _ marker: Character) -> String {
        let digits = String(number)
        let padded = TextWidth.spaces(3 - digits.count) + digits
        return String(marker) + padded + "  "
    }

    private func lines(_ row: PostRow, number: Int, marker: Character) -> [TerminalText] {
        var interaction = row.interaction
        interaction.pending = []  // not shown: a request's answer that changes nothing draws nothing new
        let threadIndent = row.threadDepth.map { Self.threadIndent(depth: $0, width: width) } ?? 0
        let source = RenderCache.RowSource(
            body: RenderCache.BodySource(
                post: ShownPost(row.content), columns: width - Self.indent - threadIndent, number: number, warning: row.warning,
                carries: PostCarries.note(media: row.content.media, poll: row.content.poll, now: clock.now()),
                textUnderWarning: row.isVersion
            ),
            booster: row.boostedBy?.name, interaction: interaction, age: row.isSending ? "sending…" : row.relativeTime(clock), width: width, style: style,
            threadIndent: threadIndent, isFocus: row.isThreadFocus, quote: row.quote,
            quoteAge: row.quote?.post.map { clock.relative($0.createdAt) }
        )
        guard let cache else { return draw(source, id: row.id, marker: marker) }
        return Self.marked(cache.row(row.id, source) { draw(source, id: row.id, marker: " ") }, marker)
    }

    /// The lines of a post row drawn from what it shows; `id` (the row's: a post and its boost
    /// are two rows with two numbers) keys its body line in the cache.
    private func draw(_ source: RenderCache.RowSource, id: PostID, marker: Character) -> [TerminalText] {
        let indent = TextWidth.spaces(Self.indent + source.threadIndent)
        let available = width - Self.indent - source.threadIndent
        let interaction = source.interaction
        let queued = interaction.queuedMark
        let (fav, boost) = Self.marks(interaction)
        let bookmark = (interaction.bookmarked || interaction.queued.contains(.bookmark) ? "  🔖" + queued(.bookmark) : "")
            + (interaction.pinned || interaction.queued.contains(.pin) ? "  📌" + queued(.pin) : "") + Self.reportMark(interaction.reported)
        let marksWidth = TextWidth.width(of: fav) + 2 + TextWidth.width(of: boost) + TextWidth.width(of: bookmark)
        let marks = (interaction.favourited ? style.yellow(fav) : TerminalText(fav)) + "  " + (interaction.reblogged ? style.green(boost) : TerminalText(boost)) + bookmark
        let lead = prefix(source.body.number, marker == " " && source.isFocus ? Self.focusMarker : marker) + TextWidth.spaces(source.threadIndent)
        let name = TextWidth.oneLine(source.body.post.author.name)
        let audience = source.body.post.visibility.label
        let age = " · " + source.age + (source.body.post.editedAt != nil ? " · edited" : "") + (audience.isEmpty ? "" : " · " + audience)
        // One line of exactly `width` columns, marks at the right edge, while the name keeps at
        // least `Self.minimumName` columns (or all of itself); otherwise the name and age on the
        // first line and the marks on their own — a narrow terminal never cuts the marks or
        // squeezes the name to nothing.
        let headRoom = width - TextWidth.width(of: lead) - marksWidth - 2
        let nameRoom = headRoom - TextWidth.width(of: age)
        let first: TerminalText
        var marksLine: TerminalText?
        if nameRoom >= min(TextWidth.width(of: name), Self.minimumName), nameRoom >= 1 {
            let shownName = TextWidth.truncate(name, to: nameRoom)
            let gapWidth = headRoom + 2 - TextWidth.width(of: shownName + age)
            first = lead + style.bold(shownName) + style.dim(age) + TextWidth.spaces(gapWidth) + marks
        } else {
            let room = width - TextWidth.width(of: lead)
            let shownAge = TextWidth.width(of: age) + min(TextWidth.width(of: name), Self.minimumName) <= room ? age : ""
            let shownName = TextWidth.truncate(name, to: max(1, room - TextWidth.width(of: shownAge)))
            first = lead + style.bold(shownName) + style.dim(TextWidth.truncate(shownAge, to: max(0, room - TextWidth.width(of: shownName))))
            marksLine = indent + (marksWidth <= available ? marks : TerminalText(TextWidth.truncate(fav + "  " + boost + bookmark, to: available)))
        }
        var result = [first]
        if let marksLine { result.append(marksLine) }
        if let booster = source.booster {
            result.append(indent + style.dim(TextWidth.truncate("▲ boosted by " + TextWidth.oneLine(booster), to: available)))
        }
        if source.body.textUnderWarning {
            // A version: its warning, then its whole text under it.
            if let warning = source.body.post.contentWarning {
                result += TextWidth.wrap("CW: " + TextWidth.oneLine(warning), to: available).map { indent + style.magenta($0) }
            }
            let text = TextWidth.sanitize(source.body.post.text, keepingLines: true)
            let lines = text.isEmpty ? [] : TextWidth.wrap(text, to: available)
            result += (lines.isEmpty ? ["(no text)"] : lines).map { TerminalText(indent + $0) }
            if let carries = source.body.carries { result.append(TerminalText(indent + TextWidth.truncate(carries, to: available))) }
        } else {
            let body = cache?.body(id, source.body) { bodyLine(source.body) } ?? bodyLine(source.body)
            result.append(indent + (source.body.post.contentWarning == nil && source.body.warning?.action != .warn ? TerminalText(body) : style.magenta(body)))
        }
        // The quote, under the text — unless a warning stands in for the whole post.
        if let quote = source.quote, source.body.warning?.action != .warn, source.body.post.contentWarning == nil {
            let lines = QuoteLines(style: style, clock: clock).lines(quote, columns: available - 2, whole: false, opener: "quote \(source.body.number)")
            result += lines.map { indent + "  " + $0 }
        }
        result += failureLines(interaction.failure?.message, indent: source.threadIndent)
        return result
    }

    /// The row's second line: the text on one line, or the content warning instead.
    private func bodyLine(_ source: RenderCache.BodySource) -> String {
        let post = source.post
        if let filter = source.warning, filter.action == .warn {
            return TextWidth.truncate("Filtered: " + TextWidth.oneLine(filter.title) + " (show \(source.number) to see it)", to: source.columns)
        }
        if let warning = post.contentWarning, !source.textUnderWarning {
            let text = "CW: " + TextWidth.oneLine(warning) + " (open \(source.number) to read)"
            return TextWidth.truncate(text, to: source.columns)
        }
        if source.warning?.action == .blur, !post.media.isEmpty {
            // The note first, so a long text never cuts it.
            let note = "[\(post.media.count == 1 ? "media" : "\(post.media.count) media") hidden: show \(source.number)] "
            return TextWidth.oneLine(note + post.text, truncatedTo: source.columns)
        }
        guard let carries = source.carries else {
            let text = TextWidth.oneLine(post.text, truncatedTo: source.columns)
            return text.isEmpty ? "(no text)" : text
        }
        // What the post carries ends the line, whole: a long text is cut before it.
        let room = source.columns - TextWidth.width(of: carries) - 1
        guard room >= 8 else { return TextWidth.truncate(carries, to: source.columns) }
        let text = TextWidth.oneLine(post.text, truncatedTo: room)
        return text.isEmpty ? carries : text + " " + carries
    }

    /// The gap row, wrapped (never cut) after the number.
    private func gapLines(_ gap: Gap, number: Int, marker: Character) -> [TerminalText] {
        let text: String
        if gap.isLoading {
            text = "┄┄ loading the missing posts… ┄┄"
        } else if let failure = gap.failure {
            text = "┄┄ could not load the missing posts: \(Self.sentence(failure.message)) gap \(number) tries again ┄┄"
        } else {
            text = "┄┄ posts may be missing here: gap \(number) loads them ┄┄"
        }
        let indent = TextWidth.spaces(Self.indent)
        return TextWidth.wrap(text, to: width - Self.indent).enumerated().map { index, line in
            (index == 0 ? prefix(number, marker) : indent) + style.cyan(line)
        }
    }

    /// A notification group: its summary after the number and age; the post it is about
    /// (indented, with its marks) when there is one.
    private func lines(_ row: NotificationRow, number: Int, marker: Character) -> [TerminalText] {
        let lead = prefix(number, marker)
        let indent = TextWidth.spaces(Self.indent)
        let age = " · " + clock.relative(row.group.latestAt)
        let summary = TextWidth.oneLine(row.group.summary)
        let room = width - TextWidth.width(of: lead)
        var result = [lead + style.bold(TextWidth.truncate(summary, to: max(1, room - TextWidth.width(of: age)))) + style.dim(age)]
        if let postRow = row.post {
            let interaction = postRow.interaction
            let post = ShownPost(postRow.content)
            let marks = (interaction.favourited ? "★ " : "☆ ") + String(interaction.favouritesCount) + "  "
                + (interaction.reblogged ? "▲ " : "△ ") + String(interaction.reblogsCount) + (interaction.bookmarked ? "  🔖" : "")
                + (interaction.pinned ? "  📌" : "") + Self.reportMark(interaction.reported)
            let available = width - Self.indent
            let carries = PostCarries.note(media: post.media, poll: post.poll, now: clock.now())
            let text = post.contentWarning.map { "CW: " + TextWidth.oneLine($0) }
                ?? carries.map { TextWidth.oneLine(post.text).isEmpty ? $0 : TextWidth.oneLine(post.text) + " " + $0 } ?? TextWidth.oneLine(post.text)
            let room = available - TextWidth.width(of: marks) - 2
            if room >= 8 {
                let shown = TextWidth.truncate(text.isEmpty ? "(no text)" : text, to: room)
                result.append(TerminalText(indent + shown + TextWidth.spaces(max(2, room - TextWidth.width(of: shown) + 2)) + marks))
            } else {
                result.append(TerminalText(indent + TextWidth.truncate(text.isEmpty ? "(no text)" : text, to: available)))
            }
            result += failureLines(interaction.failure?.message)
        }
        return result
    }

    /// The status line under the rows: what is loading, the failure (and `retry` when trying
    /// again can help), the end of the list, or which rows are shown — wrapped, never cut. None
    /// for a list with no rows that is not loading, failed or ended (it has not appeared yet).
    public func statusLine(_ status: ListStatus, shown: Int, total: Int, wording: ListWording = ListWording()) -> [TerminalText] {
        let text: String
        var failed = false
        switch status.loading {
        case .firstPage?: text = "Loading \(wording.loading)…"
        case .olderPage?: text = "Loading older \(wording.items)…"
        case .refresh?: text = "Loading newer \(wording.items)…"
        case .reload?: text = "Loading \(wording.loading) again…"
        case .gap?: text = "Loading the missing \(wording.items)…"
        case .catchUp?: text = "Looking for newer \(wording.items)…"
        // Confirming saved rows is quiet (the status never shows it as loading).
        case nil, .confirm?:
            if let failure = status.failure {
                failed = true
                let what = switch failure.intent {
                case .firstPage, .olderPage: total == 0 ? "Could not load \(wording.loading)" : "Could not load older \(wording.items)"
                case .refresh: "Could not refresh"
                case .reload: "Could not load \(wording.loading) again"
                case .gap: "Could not load the missing \(wording.items)"
                case .catchUp: "Could not look for newer \(wording.items)"
                // Never a list's failure (a confirmation that fails is quiet); worded all the same.
                case .confirm: "Could not check the saved \(wording.items)"
                }
                text = "\(what): \(Self.sentence(failure.message))" + (failure.failure.isTransient ? " Type retry." : "")
            } else if total == 0 {
                // A list that has not started loading (it is about to): nothing to say yet.
                guard status.reachedEnd else { return [] }
                text = wording.empty
            } else if shown == 0 {
                text = total == 1 ? "1 row loaded; more shows it." : "\(total) rows loaded; more shows them."
            } else if shown < total {
                text = "Rows 1–\(shown) of \(total) shown; more shows the next."
            } else if status.reachedEnd {
                text = "Rows 1–\(shown) shown. End of \(wording.end)."
            } else {
                text = "Rows 1–\(shown) shown; more loads older \(wording.items)."
            }
        }
        return wrap(text).map(failed ? style.red : style.dim)
    }

    /// The line that counts the rows waiting above ("2 newer posts above; newer shows them."),
    /// and those let go past the most that wait ("1,200 more newer posts: refresh loads
    /// them."); none when nothing waits.
    public func waitingLine(_ count: Int, beyond: Int = 0, wording: ListWording = ListWording()) -> [TerminalText] {
        guard count > 0 else { return [] }
        let what = count == 1 ? "1 newer \(wording.item)" : "\(count) newer \(wording.items)"
        var text = "\(what) above; newer shows \(count == 1 ? "it" : "them")."
        if beyond > 0 {
            let more = beyond == 1 ? "1 more newer \(wording.item)" : "\(beyond) more newer \(wording.items)"
            text += " \(more): refresh loads \(beyond == 1 ? "it" : "them")."
        }
        return wrap(text).map(style.bold)
    }

    /// `message` on one line, ending in a full stop (or its own `?` or `!`).
    static func sentence(_ message: String) -> String {
        let line = TextWidth.oneLine(message)
        guard let last = line.last else { return line }
        return ".?!".contains(last) ? line : line + "."
    }
}

/// How a status line names a list: "Loading the timeline…", "End of bookmarks.".
public struct ListWording: Hashable, Sendable {
    /// The list in a sentence: "the timeline", "your bookmarks".
    public var title: String
    /// What loads at first: "Loading \(loading)…", "Could not load \(loading)".
    public var loading: String
    /// The line of an empty list.
    public var empty: String
    /// "End of \(end)."
    public var end: String
    /// What the list holds: "posts", "notifications".
    public var items: String
    /// One of them: "post", "notification".
    public var item: String { items.hasSuffix("s") ? String(items.dropLast()) : items }

    public init(title: String = "the timeline", loading: String = "the timeline", empty: String = "The timeline is empty.", end: String = "timeline", items: String = "posts") {
        self.title = title
        self.loading = loading
        self.empty = empty
        self.end = end
        self.items = items
    }
}

extension PostInteraction {
    /// "…" after the mark of a kind queued until the server can be reached (the outbox), on rows
    /// and the post screen alike; "" otherwise.
    func queuedMark(_ kind: InteractionKind) -> String {
        queued.contains(kind) ? "…" : ""
    }
}
