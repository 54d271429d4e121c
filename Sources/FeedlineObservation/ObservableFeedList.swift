import Feedline
import Observation

/// A list view model as an `@Observable` object, for SwiftUI (or anything that uses
/// Observation): ``rows`` changes only when rows are inserted, removed or moved; a row whose
/// content changed (a favourite made on any screen, a fresher copy) changes only its own
/// ``ObservableListRow/row``, so only views that read that row are invalidated.
///
/// Follows the view model's snapshots on the main actor for as long as it lives.
@MainActor
@Observable
public final class ObservableFeedList {
    /// The view model it follows (inputs go to it: `appeared()`, `loadMore()`, …).
    @ObservationIgnored public let viewModel: FeedListViewModel
    /// The rows, newest first: one object per row, kept while the row exists.
    public private(set) var rows: [ObservableListRow] = []
    /// The status line.
    public private(set) var status: ListStatus
    @ObservationIgnored private var subscription: Subscription?

    /// An observable face of `viewModel`.
    public init(_ viewModel: FeedListViewModel) {
        self.viewModel = viewModel
        status = viewModel.status
        rows = viewModel.rows.map { ObservableListRow($0, list: viewModel) }
        var replayed = false
        subscription = viewModel.snapshot.observe { [weak self] snapshot in
            guard replayed else {
                replayed = true
                return
            }
            self?.receive(snapshot)
        }
    }

    private func receive(_ snapshot: FeedListViewModel.Snapshot) {
        let changes = snapshot.changes
        if !changes.deletions.isEmpty || !changes.insertions.isEmpty || !changes.moves.isEmpty {
            let list = viewModel
            var objects = rows
            let structure = Changeset<ObservableListRow>(
                oldCount: changes.oldCount,
                newCount: changes.newCount,
                deletions: changes.deletions,
                insertions: changes.insertions.map { .init(index: $0.index, element: ObservableListRow($0.element, list: list)) },
                moves: changes.moves.map { .init(from: $0.from, to: $0.to) }
            )
            structure.apply(to: &objects)
            rows = objects
        }
        for update in changes.updates where rows.indices.contains(update.newIndex) {
            rows[update.newIndex].update(update.element)
        }
        let status = snapshot.status
        if status != self.status { self.status = status }
    }
}

/// One row of an ``ObservableFeedList``: its value changes in place, so observers of other rows
/// are not invalidated.
@MainActor
@Observable
public final class ObservableListRow: Identifiable, Equatable {
    /// The row's identity; stable for the object's life.
    public let id: RowID
    /// What the row shows now.
    public private(set) var row: ListRow
    @ObservationIgnored private weak var list: FeedListViewModel?

    init(_ row: ListRow, list: FeedListViewModel) {
        id = row.id
        self.row = row
        self.list = list
    }

    fileprivate func update(_ row: ListRow) {
        if row != self.row { self.row = row }
    }

    /// Toggles `kind` of the post the row shows (see ``FeedListViewModel/toggle(_:row:)``).
    @discardableResult
    public func toggle(_ kind: InteractionKind) -> Bool {
        list?.toggle(kind, row: id) ?? false
    }

    public nonisolated static func == (lhs: ObservableListRow, rhs: ObservableListRow) -> Bool { lhs === rhs }
}

/// A detail view model as an `@Observable` object: ``state`` follows the detail.
@MainActor
@Observable
public final class ObservablePostDetail {
    /// The view model it follows.
    @ObservationIgnored public let viewModel: PostDetailViewModel
    /// The detail's state.
    public private(set) var state: PostDetailState
    @ObservationIgnored private var subscription: Subscription?

    /// An observable face of `viewModel`.
    public init(_ viewModel: PostDetailViewModel) {
        self.viewModel = viewModel
        state = viewModel.current
        subscription = viewModel.state.observe { [weak self] state in
            guard let self, state != self.state else { return }
            self.state = state
        }
    }

    /// Toggles `kind` of the post (see ``PostDetailViewModel/toggle(_:)``).
    @discardableResult
    public func toggle(_ kind: InteractionKind) -> Bool { viewModel.toggle(kind) }
}
