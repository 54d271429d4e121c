@_spi(FeedService) import Feedline
import Foundation

/// One list as the REPL prints it: the ``ListViewport`` (which rows, which numbers, what
/// changed) and the lines last printed for each row, so a row whose content changed is printed
/// again (`~`) only when its lines did.
struct ListScreen {
    private(set) var viewport = ListViewport()
    /// The lines each drawn row was printed with (unmarked).
    private var printed: [RowID: [TerminalText]] = [:]
    /// What `list` drew for each row, reused while the row, its number, its age and the width
    /// are the same (a long session lists hundreds of rows many times; a resized terminal draws
    /// them again).
    private var listed: [RowID: (row: ListRow, number: Int, age: String?, width: Int, lines: [TerminalText])] = [:]
    private var lastStatus: [TerminalText]?
    /// The clock's "now" at the last `list`.
    private var listedAt: Date?
    /// What the last status line was drawn from, so an unchanged one is not drawn again.
    private var lastStatusInput: (status: ListStatus, shown: Int, total: Int)?
    /// Rows moved since the note that says so was last considered (at a final flush).
    private var moved = false
    /// The count of waiting rows printed last.
    private var lastWaiting = 0
    private var lastBeyond = 0
    /// Rows restored from the last run that no server answer has confirmed yet: printed with `·`
    /// in the marker column.
    private var unconfirmed: Set<RowID> = []

    /// The marker column's character for `id` when nothing else marks it.
    static let savedCopyMarker: Character = "·"

    private func plainMarker(_ id: RowID) -> Character {
        unconfirmed.contains(id) ? Self.savedCopyMarker : " "
    }

    /// Rows the user asked to see that were not loaded yet.
    var owed: Int {
        get { viewport.owed }
        set { viewport.owed = newValue }
    }

    mutating func receive(_ snapshot: FeedListViewModel.Snapshot) {
        unconfirmed = snapshot.unconfirmed
        viewport.receive(snapshot)
    }

    @discardableResult
    mutating func reveal(_ count: Int, rows: RowList) -> Int {
        viewport.reveal(count, rows: rows)
    }

    mutating func takeDisplayed() -> [RowID] {
        viewport.takeDisplayed()
    }

    /// The lines that show what changed since the last flush: removed rows, new rows (`+` when
    /// inserted above rows already seen), changed rows (`~`), and the status line when it
    /// changed. A `final` flush (a command's last) also says, once, when rows moved so that a
    /// number typed now names a row other than the one at that place (``ListViewport/displacement(in:)``).
    ///
    /// Each row is drawn as `present` gives it (the driver leaves out notes already seen).
    mutating func flush(
        rows: RowList, renderer: RowRenderer, wording: ListWording, final: Bool = true, holding: Set<RowID> = [],
        present: (ListRow) -> ListRow = { $0 }
    ) -> [TerminalText] {
        let plan = viewport.plan(rows: rows, holding: holding)
        var lines: [TerminalText] = []
        if !plan.removed.isEmpty { moved = true }
        for (row, number) in plan.removed {
            lines.append(removedLine(row, number: number, renderer: renderer))
            printed[row.id] = nil
            listed[row.id] = nil
        }
        for item in plan.items {
            let id = item.row.id
            switch item.kind {
            case .new(let inserted):
                let drawn = renderer.lines(present(item.row), number: item.number)
                lines += RowRenderer.marked(drawn, inserted ? "+" : plainMarker(id))
                printed[id] = drawn
            case .touched(let previous):
                let drawn = renderer.lines(present(item.row), number: item.number)
                if drawn != printed[id] {
                    lines += RowRenderer.marked(drawn, "~")
                } else if previous != item.number {
                    moved = true
                }
                printed[id] = drawn
            case .renumbered:
                // Moved, not printed: it keeps the number it is shown with.
                moved = true
            }
        }
        if final, moved {
            moved = false
            if let shift = viewport.displacement(in: rows) {
                let direction = shift > 0 ? "down" : "up"
                lines += renderer.note(
                    "Rows seen before moved \(direction) by \(abs(shift)); a number names the row last printed with it until list renumbers them."
                )
            }
        }
        for note in plan.notes {
            switch note {
            case .nothingNewer: lines += renderer.note("No newer \(wording.items).")
            case .skipped(let count):
                let what = count == 1 ? "1 \(wording.item) the server sent could not be read and is left out"
                    : "\(count) \(wording.items) the server sent could not be read and are left out"
                lines += renderer.note(what + ".")
            }
        }
        lines += statusIfChanged(renderer, wording: wording)
        return lines
    }

    /// The rows of `range` and the status line (the `list` command): the current screen (the
    /// last `pageSize` rows shown), a screen from row N, or every row shown; a partial listing
    /// says how to see the rest. `nil` with a sentence when row N is not shown.
    mutating func redraw(
        _ range: ListRange, pageSize: Int, rows: RowList, renderer: RowRenderer, wording: ListWording, present: (ListRow) -> ListRow = { $0 }
    ) -> [TerminalText] {
        let shown = min(viewport.shown, rows.count)
        let bounds: Range<Int>
        switch range {
        case .screen: bounds = max(0, shown - pageSize)..<shown
        case .all: bounds = 0..<shown
        case .from(let number):
            guard number >= 1, number <= shown else {
                let which = shown == 0 ? "No rows are shown yet." : shown == 1 ? "Row 1 is the only row shown." : "Rows 1–\(shown) are shown."
                return TextWidth.wrap("There is no row \(number). \(which)", to: renderer.width).map(TerminalText.init)
            }
            bounds = (number - 1)..<min(number - 1 + pageSize, shown)
        }
        var lines: [TerminalText] = []
        moved = false
        // While "now" stands still (scripts), a row equal to the one listed before has its age.
        let now = renderer.clock.now()
        let sameNow = now == listedAt
        listedAt = now
        for var item in viewport.redraw(rows: rows, in: bounds) {
            item.row = present(item.row)
            let cached = listed[item.row.id].flatMap { $0.width == renderer.width ? $0 : nil }
            if sameNow, let cached, cached.number == item.number, cached.row == item.row {
                lines += RowRenderer.marked(cached.lines, plainMarker(item.row.id))
                printed[item.row.id] = cached.lines
                continue
            }
            let age = item.row.shownPost?.relativeTime(renderer.clock)
            let drawn: [TerminalText]
            if let cached, cached.number == item.number, cached.age == age, cached.row == item.row {
                drawn = cached.lines
            } else {
                drawn = renderer.lines(item.row, number: item.number)
                listed[item.row.id] = (item.row, item.number, age, renderer.width, drawn)
            }
            lines += RowRenderer.marked(drawn, plainMarker(item.row.id))
            printed[item.row.id] = drawn
        }
        var main = viewport.status
        main.waiting = 0
        let status = renderer.statusLine(main, shown: viewport.shown, total: viewport.total, wording: wording)
        lastStatus = status
        lastStatusInput = (main, viewport.shown, viewport.total)
        lastWaiting = viewport.status.waiting
        lastBeyond = viewport.status.waitingBeyond
        lines += status + renderer.waitingLine(viewport.status.waiting, beyond: lastBeyond, wording: wording)
        if bounds.count < shown, !bounds.isEmpty {
            lines += renderer.note("Listed rows \(bounds.lowerBound + 1)–\(bounds.upperBound) of the \(shown) shown; list all lists every row, list N a screen from row N.")
        }
        return lines
    }

    /// The status line, when it differs from the one printed last, then the count of rows
    /// waiting above, when it changed (and is not zero).
    mutating func statusIfChanged(_ renderer: RowRenderer, wording: ListWording) -> [TerminalText] {
        var main = viewport.status
        main.waiting = 0
        var lines: [TerminalText] = []
        let input = (status: main, shown: viewport.shown, total: viewport.total)
        if lastStatusInput.map({ $0.status != input.status || $0.shown != input.shown || $0.total != input.total }) ?? true {
            lastStatusInput = input
            let status = renderer.statusLine(main, shown: viewport.shown, total: viewport.total, wording: wording)
            if status != lastStatus {
                lastStatus = status
                lines += status
            }
        }
        if viewport.status.waiting != lastWaiting || viewport.status.waitingBeyond != lastBeyond {
            lastWaiting = viewport.status.waiting
            lastBeyond = viewport.status.waitingBeyond
            lines += renderer.waitingLine(lastWaiting, beyond: lastBeyond, wording: wording)
        }
        return lines
    }

    private func removedLine(_ row: ListRow, number: Int, renderer: RowRenderer) -> TerminalText {
        renderer.style.dim(TextWidth.truncate("-     removed: " + Self.describe(row) + " (was row \(number))", to: renderer.width))
    }

    /// `post by Ana Lima`, `notification: …`, `gap (nothing is missing there any more)`.
    static func describe(_ row: ListRow) -> String {
        switch row {
        case .post(let post): "post by " + TextWidth.oneLine(post.author.name)
        case .gap: "gap (nothing is missing there any more)"
        case .notification(let notification): "notification: " + TextWidth.oneLine(notification.group.summary)
        case .account(let account): "account @" + TextWidth.oneLine(account.author.handle)
        case .tag(let tag): "hashtag #" + TextWidth.oneLine(tag.name)
        case .domain(let domain, _): "domain " + TextWidth.oneLine(domain)
        case .conversation(let row): "conversation with " + TextWidth.oneLine(row.participantHandles)
        case .userList(let row): "list " + TextWidth.oneLine(row.title)
        case .filter(let filter, _): "filter " + TextWidth.oneLine(filter.title)
        case .announcement(let announcement, _): "announcement " + TextWidth.truncate(TextWidth.oneLine(announcement.text), to: 40)
        case .scheduled(let post, _): "scheduled " + TextWidth.oneLine(post.text)
        case .notificationRequest(let request, _): "filtered notifications from @" + TextWidth.oneLine(request.account.handle)
        }
    }
}

/// What the REPL has shown of the open post: the parts printed last, so after a change only the
/// parts whose text changed are printed again. `package` so tests can drive it as the driver does.
package struct DetailScreen {
    package private(set) var state: PostDetailState?
    private var printed: [DetailRenderer.Part: [TerminalText]] = [:]
    /// The state the last flush or redraw drew.
    private var flushed: PostDetailState?

    package init() {}

    /// Takes in the detail's latest state.
    package mutating func receive(_ state: PostDetailState) {
        self.state = state
    }

    /// The parts whose lines changed since the last flush (all of them the first time).
    package mutating func flush(_ renderer: DetailRenderer) -> [TerminalText] {
        guard let state else { return [] }
        var lines: [TerminalText] = []
        defer { flushed = state }
        for part in DetailRenderer.Part.allCases {
            // The post and the thread are the long parts: skip them while their input is unchanged
            // (the post part shows no interaction state, so a favourite does not redraw it; its
            // input is the same `PostPart` value the renderer draws it from).
            if let flushed, printed[part] != nil {
                if part == .post, DetailRenderer.PostPart(flushed) == DetailRenderer.PostPart(state) { continue }
                if part == .thread, flushed.context == state.context, flushed.post?.repliesCount == state.post?.repliesCount { continue }
            }
            let drawn = renderer.lines(part, of: state)
            if drawn != (printed[part] ?? []) { lines += drawn }
            printed[part] = drawn
        }
        return lines
    }

    /// The whole screen (the `list` command).
    package mutating func redraw(_ renderer: DetailRenderer) -> [TerminalText] {
        guard let state else { return [] }
        printed = renderer.parts(state)
        flushed = state
        return renderer.lines(state)
    }
}
