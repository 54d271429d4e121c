/// Rows a pending removal took off a list (a mute, block or unfollow, a domain block, a delete,
/// a conversation's removal, an account taken off a list, notifications dismissed), each with its place, until the
/// server answers: a confirmation releases them, a refusal puts them back where they were —
/// but for those another cause still hides. A value inside ``ListState``, changed only by its
/// transitions (`ListEvent/rowsTaken(_:by:)`, `ListEvent/removalConfirmed(_:)`,
/// `ListEvent/removalRefused(_:current:stillHidden:)`).
///
/// A row's place is kept as its index in the list *with every row still taken in it* (by any
/// cause): so rows two causes took, answered in any order, go back in the order they had —
/// a place counted among the rows shown would shift by the rows another cause took meanwhile.
/// Rows that will not come back (confirmed, or still hidden) leave the count.
///
/// Rows an account's hiding takes are **held**: the store still counts them as shown by the
/// list (taking them does not tell it), so a refusal puts them back without showing them again
/// — O(rows put back), not O(rows taken) twice — and a confirmation releases them then.
package struct TakenRows: Sendable, Equatable {
    /// Why rows were taken: one pending removal.
    package enum Cause: Hashable, Sendable {
        /// A mute, block or unfollow of the account (its rows are held, see ``TakenRows``).
        case account(AccountID)
        /// A block of the domain.
        case domain(String)
        /// A delete of the post.
        case delete(PostID)
        /// The removal of the conversation.
        case conversation(String)
        /// The account's removal from the list a screen shows (pending until it is on it again).
        case membership(AccountID)
        /// A hide filter of yours (by id) changed to hide them: kept while it does, put back
        /// where they were when it no longer does (deleted, or changed).
        case filter(String)
        /// A dismissal of notifications: one group's, or a clear of every one shown.
        case notifications(NotificationDismissals.Key)

        /// Whether the store still counts the rows it takes as shown by the list.
        var holds: Bool {
            if case .account = self { return true }
            return false
        }

        /// Whether it takes one row, whose place a later taking replaces (rather than adds to).
        var takesOne: Bool {
            switch self {
            case .conversation, .membership: true
            case .notifications(let key): key != .all
            case .account, .domain, .delete, .filter: false
            }
        }
    }

    /// The rows each pending removal took, with their places (counted with every taken row, see
    /// ``TakenRows``), in the order taken.
    package private(set) var byCause: [Cause: [ReinsertedRow]] = [:]
    /// Rows taken by an account's hiding that the store still counts as shown by this list,
    /// none of them a row of the list (``ListState/checkInvariants()``).
    package private(set) var held: Set<RowID> = []

    package init() {}

    /// Rows taken by these causes, `held` of them held (tests write expected values this way).
    package init(_ byCause: [Cause: [ReinsertedRow]], held: Set<RowID> = []) {
        self.byCause = byCause
        self.held = held
    }

    /// Whether no removal is pending.
    package var isEmpty: Bool { byCause.isEmpty }

    /// The hide filters that took rows, ordered by id.
    var filterCauses: [Cause] {
        byCause.keys.compactMap { if case .filter(let id) = $0 { id } else { nil } }.sorted().map(Cause.filter)
    }

    /// The rows `cause` took, with their places (empty when it took none or was answered).
    package func rows(of cause: Cause) -> [ReinsertedRow] { byCause[cause] ?? [] }

    /// `cause` took `taken`: rows of the list with the indices they had among the rows shown
    /// (ascending, each counted before any of them left, as `RowList/remove(ids:)` gives them).
    ///
    /// - Complexity: O(t log t + k) for t rows taken before and k taken now; O(k) when none was.
    mutating func take(_ taken: [ReinsertedRow], by cause: Cause) {
        guard !taken.isEmpty else { return }
        if cause.takesOne, let replaced = byCause.removeValue(forKey: cause) {
            // The earlier row will not come back: it leaves the count.
            drop(replaced)
        }
        let taken = withTakenCounted(taken)
        if cause.takesOne {
            byCause[cause] = taken
        } else {
            byCause[cause, default: []] += taken
        }
        if cause.holds {
            held.reserveCapacity(held.count + taken.count)
            for row in taken { held.insert(row.row.id) }
        }
    }

    /// The server answered `cause`: it takes no rows any more. Those of its rows `isBack`
    /// picks come back, returned with the indices they go to among the rows shown (ascending:
    /// insert them in order); the others are gone for good, returned as taken.
    ///
    /// - Complexity: O(t log t) for the t rows taken by every cause.
    mutating func answered(_ cause: Cause, back isBack: (ReinsertedRow) -> Bool = { _ in false }) -> (back: [ReinsertedRow], gone: [ReinsertedRow]) {
        guard let rows = byCause.removeValue(forKey: cause) else { return ([], []) }
        let gone = rows.filter { !isBack($0) }
        let back = rows.filter(isBack)
        return (placed(drop(gone, also: back)), gone)
    }

    /// Of the rows `cause` took, those named in `ids` come back: returned with the indices they
    /// go to among the rows shown (ascending: insert them in order); the rest stay taken.
    ///
    /// - Complexity: O(t log t) for the t rows taken by every cause.
    mutating func putBack(_ ids: Set<RowID>, of cause: Cause) -> [ReinsertedRow] {
        guard var rows = byCause[cause] else { return [] }
        let back = rows.filter { ids.contains($0.row.id) }
        rows.removeAll { ids.contains($0.row.id) }
        byCause[cause] = rows.isEmpty ? nil : rows
        return placed(back)
    }

    // MARK: - Places counted with the taken rows

    /// Every place taken now, ascending.
    private var takenPlaces: [Int] { byCause.values.flatMap { $0.map(\.index) }.sorted() }

    /// `taken` (indices among the rows shown, ascending) with their indices counted with every
    /// row taken now: a row shown at index p has the taken rows placed before it in front.
    private func withTakenCounted(_ taken: [ReinsertedRow]) -> [ReinsertedRow] {
        let places = takenPlaces
        guard !places.isEmpty else { return taken }
        var before = 0
        return taken.map { item in
            while before < places.count, places[before] <= item.index + before { before += 1 }
            return ReinsertedRow(index: item.index + before, row: item.row)
        }
    }

    /// Rows no longer taken and not coming back leave the count: every place after one of them
    /// moves up by one — those still taken and those of `also` (returned so moved).
    @discardableResult
    private mutating func drop(_ gone: [ReinsertedRow], also: [ReinsertedRow] = []) -> [ReinsertedRow] {
        guard !gone.isEmpty else { return also }
        let places = gone.map(\.index).sorted()
        let moved = { (item: ReinsertedRow) in ReinsertedRow(index: item.index - places.count(below: item.index), row: item.row) }
        for cause in Array(byCause.keys) { byCause[cause] = byCause[cause]?.map(moved) }
        return also.map(moved)
    }

    /// Rows leaving the taken ones to be shown again (already out of ``byCause``), with the
    /// indices they go to among the rows shown: each place less the taken rows still before it,
    /// ascending (each inserted in turn counts for those after it).
    private func placed(_ back: [ReinsertedRow]) -> [ReinsertedRow] {
        let places = takenPlaces
        return back.sorted { $0.index < $1.index }.map { item in
            ReinsertedRow(index: item.index - (places.isEmpty ? 0 : places.count(below: item.index)), row: item.row)
        }
    }

    /// Rows that will not come back: those of them still held, which the store must stop
    /// counting as shown by the list. They are held no more.
    mutating func release(_ taken: [ReinsertedRow]) -> [ListRow] {
        guard !held.isEmpty else { return [] }
        return taken.compactMap { held.remove($0.row.id) != nil ? $0.row : nil }
    }

    /// Held rows that are rows of the list again (a page or a put-back brought them): the store
    /// counts them already. They are held no more. O(held).
    mutating func shownAgain(in rows: RowList) -> Set<RowID> {
        guard !held.isEmpty else { return [] }
        let back = held.filter { rows.contains($0) }
        held.subtract(back)
        return back
    }
}
