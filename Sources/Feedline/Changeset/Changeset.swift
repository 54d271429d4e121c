/// The difference between two snapshots of rows, in the shape a list view animates:
/// deletions at old indices, insertions at new indices, moves from an old to a new index, and
/// updates — rows with the same identity whose content (their `==`) changed.
///
/// Rows are matched by `id`; content is compared by value, so a row whose displayed values
/// changed is always reported as updated. Applying the changeset to the old snapshot yields
/// the new one (``apply(to:)->[Element]``, or ``apply(to:)->()`` in place).
///
/// Indices follow UIKit's batch-update rules: deletions and move sources name positions in the
/// old snapshot, insertions and move destinations positions in the new one. A row that moved
/// *and* changed appears in both ``moves`` and ``updates``.
public struct Changeset<Element: Identifiable & Equatable>: Equatable where Element.ID: Hashable {
    /// A row that appears in the new snapshot only.
    public struct Insertion: Equatable {
        public var index: Int
        public var element: Element
        public init(index: Int, element: Element) {
            self.index = index
            self.element = element
        }
    }

    /// A row that kept its identity but is not where its neighbours would put it.
    public struct Move: Hashable, Sendable {
        public var from: Int
        public var to: Int
        public init(from: Int, to: Int) {
            self.from = from
            self.to = to
        }
    }

    /// A row whose identity stayed and whose content changed.
    public struct Update: Equatable {
        public var oldIndex: Int
        public var newIndex: Int
        public var element: Element
        public init(oldIndex: Int, newIndex: Int, element: Element) {
            self.oldIndex = oldIndex
            self.newIndex = newIndex
            self.element = element
        }
    }

    /// The number of rows before and after.
    public var oldCount: Int
    public var newCount: Int
    /// Old indices of removed rows, ascending.
    public var deletions: [Int]
    /// New indices and rows of added rows, ascending by index.
    public var insertions: [Insertion]
    /// Rows that moved, ascending by destination.
    public var moves: [Move]
    /// Rows whose content changed, ascending by new index.
    public var updates: [Update]

    public init(
        oldCount: Int,
        newCount: Int,
        deletions: [Int] = [],
        insertions: [Insertion] = [],
        moves: [Move] = [],
        updates: [Update] = []
    ) {
        self.oldCount = oldCount
        self.newCount = newCount
        self.deletions = deletions
        self.insertions = insertions
        self.moves = moves
        self.updates = updates
    }

    /// No change at all (the counts are equal and nothing is listed).
    public var isEmpty: Bool {
        deletions.isEmpty && insertions.isEmpty && moves.isEmpty && updates.isEmpty
    }

    /// The changeset from an empty snapshot to `rows`: every row inserted.
    public static func initial(_ rows: some Collection<Element>) -> Changeset {
        Changeset(
            oldCount: 0,
            newCount: rows.count,
            insertions: rows.enumerated().map { Insertion(index: $0.offset, element: $0.element) }
        )
    }
}

extension Changeset: Sendable where Element: Sendable {}
extension Changeset.Insertion: Sendable where Element: Sendable {}
extension Changeset.Update: Sendable where Element: Sendable {}

extension Changeset {
    /// The same changes with every row transformed — for a front that keeps its own row values
    /// (rendered lines, cell models) in step with the snapshots. `transform` must keep a row's
    /// identity: rows with equal ids must map to rows with equal ids.
    ///
    /// - Complexity: O(changes), not O(rows).
    public func map<T: Identifiable & Equatable>(_ transform: (Element) throws -> T) rethrows -> Changeset<T> where T.ID: Hashable {
        Changeset<T>(
            oldCount: oldCount,
            newCount: newCount,
            deletions: deletions,
            insertions: try insertions.map { .init(index: $0.index, element: try transform($0.element)) },
            moves: moves.map { .init(from: $0.from, to: $0.to) },
            updates: try updates.map { .init(oldIndex: $0.oldIndex, newIndex: $0.newIndex, element: try transform($0.element)) }
        )
    }
}
