// The code examples of the DocC catalog (Sources/Feedline/Feedline.docc), compiled: each
// example's lines stand here as they stand in its article (DocExamplesTests checks that), around
// the few declarations an example leaves out. The SwiftUI and UIKit ones compile where those
// frameworks exist (Apple platforms); the rest compile everywhere.
import Feedline
import FeedlineObservation

// Feedline.md, the overview.
@MainActor
func overviewExample(server: some FeedServer, id: PostID) {
    let session = FeedSession(server: server)
    session.root.appeared()                                   // loads the first page
    session.root.toggle(.favourite, row: .post(id))           // optimistic; converges with the server
    session.navigator.push(.list(.thread(id)))                // a list of the thread, same store
}

// WritingAFront.md.

@MainActor
final class LogFront {
    let session: FeedSession
    private var subscriptions: [Subscription] = []

    init(server: some FeedServer) {
        session = FeedSession(server: server)
        subscriptions.append(session.root.snapshot.observe { snapshot in
            for insertion in snapshot.changes.insertions {
                print("+", insertion.index, insertion.element.post?.text ?? "gap")
            }
            for update in snapshot.changes.updates {
                print("~", update.newIndex, update.element.post?.interaction.favourited ?? false)
            }
            if let failure = snapshot.status.failure { print("!", failure.message, "(retry)") }
        })
        session.root.appeared()
    }

    /// A script front waits for every effect before reading the next input.
    func run(_ commands: [String]) async {
        for command in commands {
            switch command {
            case "more": session.root.loadMore()
            case "retry": session.retry()
            default: break
            }
            await session.settle()
        }
    }
}

#if canImport(SwiftUI)
import SwiftUI

// UsingWithSwiftUI.md.

struct FeedView: View {
    let list: ObservableFeedList

    var body: some View {
        List(list.rows) { row in
            RowView(row: row, list: list.viewModel)
                .onAppear { list.viewModel.rowWillDisplay(row.id) }   // prefetches near the end
        }
        .refreshable { list.viewModel.refresh() }
        .onAppear { list.viewModel.appeared() }                      // loads the first page
        .overlay(alignment: .bottom) { StatusView(status: list.status) }
    }
}

struct RowView: View {
    let row: ObservableListRow
    let list: FeedListViewModel

    var body: some View {
        switch row.row {
        case .post(let post):
            HStack {
                Text(post.text)
                Button(post.interaction.favourited ? "★ \(post.interaction.favouritesCount)" : "☆ \(post.interaction.favouritesCount)") {
                    row.toggle(.favourite)
                }
            }
        case .gap:
            Button("Load missing posts") { list.openGap(row.id) }
        case .notification(let notification):
            Text(notification.group.summary)
        default:
            EmptyView()   // accounts, hashtags, domains, conversations, lists: rows of other lists
        }
    }
}

struct StatusView: View {
    let status: ListStatus
    var body: some View { Text(status.failure?.message ?? "") }
}

struct PostView: View {
    let detail: ObservablePostDetail
    var body: some View { Text(detail.state.post?.text ?? "") }
}

struct RootView: View {
    @State private var stack: ObservableNavigator

    init(session: FeedSession) {
        _stack = State(initialValue: ObservableNavigator(session.navigator))
    }

    var body: some View {
        NavigationStack(path: $stack.path) {
            FeedView(list: stack.root)
                .navigationDestination(for: ObservableNavigator.Entry.self) { entry in
                    switch stack.destination(for: entry) {
                    case .list(let list)?: FeedView(list: list)
                    case .post(let detail)?: PostView(detail: detail)
                    case nil: EmptyView()
                    }
                }
        }
    }
}

@MainActor
func navigationExample(stack: ObservableNavigator, session: FeedSession, post: Post) {
    stack.path.append(ObservableNavigator.Entry(.list(.thread(post.id))))
    session.navigator.open(post.id)
}
#endif

#if canImport(UIKit)
import UIKit

// UsingWithUIKit.md.

final class FeedController: UITableViewController {
    private let list: FeedListViewModel
    private var rows: [ListRow] = []
    private var subscription: Subscription?

    init(list: FeedListViewModel) {
        self.list = list
        super.init(style: .plain)
    }

    required init?(coder: NSCoder) { nil }

    override func viewDidLoad() {
        super.viewDidLoad()
        var first = true
        subscription = list.snapshot.observe { [weak self] snapshot in
            guard let self else { return }
            if first {                                   // the replay: show it as it is
                first = false
                rows = Array(snapshot.rows)
                tableView.reloadData()
                return
            }
            let changes = snapshot.changes
            tableView.performBatchUpdates {
                rows = changes.apply(to: rows)
                tableView.deleteRows(at: changes.deletions.map { IndexPath(row: $0, section: 0) }, with: .fade)
                tableView.insertRows(at: changes.insertions.map { IndexPath(row: $0.index, section: 0) }, with: .fade)
                for move in changes.moves {
                    tableView.moveRow(at: IndexPath(row: move.from, section: 0), to: IndexPath(row: move.to, section: 0))
                }
            }
            // Updates are reloaded after the structural changes, at their new indices.
            tableView.reloadRows(at: changes.updates.map { IndexPath(row: $0.newIndex, section: 0) }, with: .none)
        }
        list.appeared()
    }

    override func tableView(_ tableView: UITableView, willDisplay cell: UITableViewCell, forRowAt indexPath: IndexPath) {
        list.rowWillDisplay(rows[indexPath.row].id)     // prefetches the next page near the end
    }

    override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { rows.count }
}
#endif
