@_spi(FeedService) import Feedline
import FeedlineREPL
import Foundation

// The REPL's targets: the command parser and the text renderers.
extension FuzzTarget {
    /// Any bytes as a typed line. Invariants beyond "returns":
    /// - bytes and their UTF-8 decoding parse the same;
    /// - a command's canonical text (``Command/text``) parses to the same command, and so do the
    ///   line in upper case (a post's or reply's text in upper case too) and the line between tabs;
    /// - an error's message is one non-empty line without control characters, at most 200
    ///   characters however long the input.
    static func command(_ data: Data) throws(Finding) {
        let line = String(decoding: data, as: UTF8.self)
        let parsed = CommandParser.parse(line)
        if CommandParser.parse(bytes: data) != parsed {
            throw Finding(description: "parse(bytes:) and parse(_:) disagree on \(line.debugDescription)")
        }
        switch parsed {
        case .success(let command):
            let again = CommandParser.parse(command.text)
            if again != .success(command) {
                throw Finding(description: "\(line.debugDescription) → \(command) whose text \(command.text.debugDescription) parses as \(again)")
            }
            let upper = CommandParser.parse(line.uppercased())
            if upper != .success(Self.uppercased(command)) {
                throw Finding(description: "\(line.debugDescription) → \(command) but in upper case → \(upper)")
            }
        case .failure(let error):
            let message = error.message
            if message.isEmpty { throw Finding(description: "empty message for \(line.debugDescription)") }
            if message.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == "\u{2028}" || $0 == "\u{2029}" }) {
                throw Finding(description: "message with a control character or line break: \(message.debugDescription)")
            }
            if message.count > 200 { throw Finding(description: "message of \(message.count) characters for \(line.count)") }
        }
        let padded = CommandParser.parse("\t" + line + "\t")
        if padded != parsed { throw Finding(description: "\(line.debugDescription) → \(parsed) but between tabs → \(padded)") }
    }

    /// `command` as a line typed in upper case parses: the same command, its free text (a post's,
    /// a reply's, an edit's, a search's) and a handle it names in upper case (handles keep their case as
    /// typed; the session compares them without it).
    static func uppercased(_ command: Command) -> Command {
        switch command {
        case .post(let text): return .post(text: text?.uppercased())
        case .reply(let row, let text): return .reply(row: row, text: text?.uppercased())
        case .edit(let row, let text): return .edit(row: row, text: text?.uppercased())
        case .profile(.handle(let handle)?): return .profile(.handle(handle.uppercased()))
        case .accountList(let kind, .handle(let handle)?): return .accountList(kind, .handle(handle.uppercased()))
        case .search(let query): return .search(query.uppercased())
        // A hashtag's timeline keeps the name as typed.
        case .tag(let name): return .tag(name.uppercased())
        // A hashtag is keyed lower-cased: its upper case keyed again (ß → SS → ss).
        case .followTag(let tag, let value): return .followTag(TagStore.key(tag.uppercased()), value)
        // A list's name, a new title and a handle keep the case typed.
        case .lists(let lists): return .lists(Self.uppercased(lists))
        // A scheduled post's time is kept as typed (the session reads it without regard to case).
        case .scheduled(.edit(let row, let time)): return .scheduled(.edit(row: row, time: time.uppercased()))
        case .relationship(var relationship):
            if case .handle(let handle)? = relationship.target { relationship.target = .handle(handle.uppercased()) }
            return .relationship(relationship)
        default: return command
        }
    }

    /// A `lists` command typed in upper case: names, titles and handles in upper case.
    static func uppercased(_ command: ListsCommand) -> ListsCommand {
        func upper(_ list: ListReference) -> ListReference {
            if case .name(let name) = list { return .name(name.uppercased()) }
            return list
        }
        switch command {
        case .show: return .show
        case .create(let title): return .create(title.uppercased())
        case .rename(let list, let title): return .rename(upper(list), title.uppercased())
        case .delete(let list, let confirmed): return .delete(upper(list), confirmed: confirmed)
        case .membership(let list, let handle, let add): return .membership(upper(list), handle: handle.uppercased(), add: add)
        case .accounts(let list): return .accounts(upper(list))
        case .open(let list): return .open(upper(list))
        }
    }

    /// Bytes as a post and a width: byte 0 picks the width (20…140), byte 1 the flags (favourited,
    /// boosted, a boost entry, a content warning, a failure, a poll, a media URL, a thread row),
    /// byte 2 the row number and the counts (and a thread row's depth, 0…12, and whether it is the
    /// focus); the rest, split at NUL, is the display name, text, warning, failure message and
    /// handle. Invariants: no line but a media URL's own is wider than the width, none holds a control character (escape
    /// sequences included); a row's first line is exactly the width, its marks right-aligned,
    /// whenever the counts and age leave room for a name; wrapping keeps every character but
    /// the spaces and line breaks it breaks at and a joiner a break leaves last on a line.
    static func render(_ data: Data) throws(Finding) {
        let bytes = [UInt8](data)
        func byte(_ index: Int) -> Int { index < bytes.count ? Int(bytes[index]) : 0 }
        let width = 20 + byte(0) % 121
        let flags = byte(1)
        let number = 1 + byte(2) * 7
        let count = byte(2) * byte(2) * 13
        let fields = String(decoding: bytes.dropFirst(3), as: UTF8.self).split(separator: "\u{0}", omittingEmptySubsequences: false).map(String.init)
        func field(_ index: Int) -> String { index < fields.count ? fields[index] : "" }

        let now = Date(timeIntervalSince1970: 1_795_284_000)
        let clock = WallClock.fixed(now)
        let author = Author(id: "1", displayName: field(0), handle: field(4).isEmpty ? "someone@example.social" : field(4))
        let poll = flags & 32 == 0 ? nil : Poll(options: [Poll.Option(title: field(1), votes: count), Poll.Option(title: field(2), votes: nil)], votesCount: count, expired: false)
        let original = Post(
            id: PostID("1"), author: author, text: field(1), createdAt: now.addingTimeInterval(-Double(count) * 60),
            contentWarning: flags & 8 == 0 ? nil : field(2), media: [Media(kind: .image, description: field(3), url: flags & 64 == 0 ? nil : field(2))], poll: poll,
            repliesCount: count, reblogsCount: count / 3, favouritesCount: count, favourited: flags & 1 != 0, reblogged: flags & 2 != 0
        )
        let post = flags & 4 == 0 ? original : Post(id: PostID("2"), author: Author(id: "2", displayName: field(3), handle: "b"), text: "", createdAt: now, reblog: original)
        var interaction = PostInteraction(serverCopy: post)
        if flags & 16 != 0 { interaction.failure = InteractionFailure(kind: .favourite, value: true, message: field(3)) }
        let thread = flags & 128 == 0 ? nil : ThreadPlace(depth: byte(2) % 13, isFocus: byte(2) & 1 == 0)
        let row = PostRow(post: post, interaction: interaction, thread: thread)

        func check(_ lines: [String], _ what: String) throws(Finding) {
            for line in lines {
                // A link's line is kept whole (a terminal opens a URL only when it is unbroken).
                let isLink = what == "detail" && flags & 64 != 0 && line == "  " + TextWidth.oneLine(field(2)).replacingOccurrences(of: " ", with: "%20")
                if TextWidth.width(of: line) > width, !isLink {
                    throw Finding(description: "\(what) line of \(TextWidth.width(of: line)) columns at width \(width): \(line.debugDescription)")
                }
                if line.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                    throw Finding(description: "\(what) line with a control character: \(line.debugDescription)")
                }
                // Made safe once, a line stays as it is: no control, bidirectional control or
                // hidden character is left for the sanitiser to find.
                if TextSafety.clean(line) != line {
                    throw Finding(description: "\(what) line the sanitiser would change: \(line.debugDescription)")
                }
            }
        }

        let rows = RowRenderer(width: width, clock: clock)
        let rowLines = rows.lines(.post(row), number: number, marker: "~").map(\.text)
        try check(rowLines, "row")
        // Unmarked, a thread's focus carries its mark; indented or not, nothing is wider.
        let plainLines = rows.lines(.post(row), number: number).map(\.text)
        try check(plainLines, "unmarked row")
        if thread?.isFocus == true, plainLines.first?.first != RowRenderer.focusMarker {
            throw Finding(description: "a thread's focus row without its mark: \(plainLines.debugDescription)")
        }
        let threadIndent = thread.map { RowRenderer.threadIndent(depth: $0.depth, width: width) } ?? 0
        // One line with the marks at the right edge while the name keeps 8 columns (or all of
        // itself); else the marks on a line of their own, whole when they fit.
        let marks = TextWidth.width(of: "★ \(interaction.favouritesCount)  ▲ \(interaction.reblogsCount)") + (interaction.bookmarked ? 4 : 0)
        let age = TextWidth.width(of: " · " + row.relativeTime(clock) + (row.content.editedAt == nil ? "" : " · edited"))
        let lead = 3 + max(3, String(number).count) + threadIndent
        let nameRoom = width - lead - marks - 2 - age
        let name = TextWidth.width(of: TextWidth.oneLine(row.author.name))
        if let first = rowLines.first {
            if nameRoom >= min(name, 8), nameRoom >= 1 {
                if TextWidth.width(of: first) != width {
                    throw Finding(description: "first row line of \(TextWidth.width(of: first)) columns at width \(width): \(first.debugDescription)")
                }
            } else if rowLines.count < 2 || !(rowLines[1].contains("☆") || rowLines[1].contains("★")) {
                throw Finding(description: "a narrow row without its marks on the second line: \(rowLines.debugDescription)")
            }
        }

        var detail = PostDetailState(id: post.id, known: PostChange(originalID: original.id, post: original, interaction: interaction))
        detail.context = PostContext(ancestors: [original], descendants: [post])
        detail.postLoad = flags & 64 == 0 ? .loaded : .failed(FeedFailure(message: field(3), isTransient: true))
        try check(DetailRenderer(width: width, clock: clock).lines(detail).map(\.text), "detail")

        let text = TextWidth.sanitize(field(1), keepingLines: true)
        try check(TextWidth.wrap(text, to: width), "wrapped")
        try check([TextWidth.truncate(TextWidth.oneLine(field(1)), to: width)], "truncated")
        // Every character stays but the spaces and line breaks it breaks at, and a joiner
        // (U+200D, U+200C) a break between characters leaves last on a line: cleaned again on its
        // way out, that one would print as `<U+200D>`, so the wrap drops it there and nowhere else.
        let kept = { (text: String) in Array(text.filter { $0 != " " && $0 != "\n" }.unicodeScalars) }
        let wrappedLines = TextWidth.wrap(text, to: width)
        var shown: [Unicode.Scalar] = []
        var lineEnds: Set<Int> = []
        for line in wrappedLines {
            shown += kept(line)
            lineEnds.insert(shown.count)
        }
        var read = 0
        for scalar in kept(text) {
            if read < shown.count, shown[read] == scalar {
                read += 1
            } else if scalar.value == 0x200D || scalar.value == 0x200C, lineEnds.contains(read), read < shown.count {
                continue
            } else {
                read = -1
                break
            }
        }
        if read != shown.count {
            let wrapped = wrappedLines.joined(separator: "\n")
            throw Finding(description: "wrapping lost or added characters: \(text.debugDescription) → \(wrapped.debugDescription)")
        }
    }
}
