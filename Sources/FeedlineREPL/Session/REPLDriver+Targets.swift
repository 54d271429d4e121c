import Feedline

/// The one lookup of what a command names — row N of the list on top, or the post on top — with
/// its refusal sentences: every command that acts on a row or a post goes through it.
extension REPLDriver {
    /// What a command acts on.
    enum Target {
        /// Row `number` of the list `entry` (the row printed with that number last).
        case row(ListEntry, ListRow, number: Int)
        /// The post screen on top.
        case post(PostEntry)
    }

    /// What `name` acts on: row `number` on a list, the open post on a post screen (`onPost`
    /// says what it does there: "acts on that post", "opens that post's thread"). `nil` after
    /// saying why not: a number on a post, none on a list, a row not there or removed.
    func target(_ number: Int?, name: CommandName, onPost: String = "acts on that post") -> Target? {
        switch (stack.last, number) {
        case (.post(let entry)?, nil):
            return .post(entry)
        case (.post?, _?):
            refuse("On a post, \(name.rawValue) \(onPost): type \(name.rawValue) alone, or back to pick a row.")
        case (.list(let entry)?, let number?):
            guard let row = row(number, in: entry) else { return nil }
            return .row(entry, row, number: number)
        case (.list?, nil):
            refuse(ParseError.missingRow(name).message)
        case (nil, _):
            break
        }
        return nil
    }

    /// The row shown as `number` on `entry` — the row printed with that number last, even if it
    /// moved since — or `nil` after saying that it was removed, or which rows exist.
    func row(_ number: Int, in entry: ListEntry) -> ListRow? {
        switch entry.screen.viewport.lookup(number, in: entry.list.rows) {
        case .row(let row):
            return row
        case .removed(let row):
            refuse("Row \(number) was removed (\(ListScreen.describe(row))); list shows the rows as they are now.")
        case .none:
            refuse("There is no row \(number). " + rangeSentence())
        }
        return nil
    }

    /// The post row `number` shows (a notification's post too), or `nil` after saying why not:
    /// a gap, a row about no post.
    func post(of row: ListRow, number: Int) -> PostRow? {
        if let post = row.shownPost {
            guard !post.isSending else {
                refuse("Row \(number) is your post on its way to the server; it can be acted on once it is posted (drafts says where it is).")
                return nil
            }
            guard !post.isVersion else {
                refuse("Row \(number) is a past version of the post; back returns to the post.")
                return nil
            }
            return post
        }
        refuse(row.gap != nil ? gapSentence(number) : "Row \(number) is not about a post.")
        return nil
    }

    /// The post `name` acts on: row `number`'s (a boost row's as shown, its original through
    /// ``Post/content``) or the open post's; `nil` after saying why there is none.
    func targetPost(_ number: Int?, name: CommandName, onPost: String) -> Post? {
        switch target(number, name: name, onPost: onPost) {
        case .post(let entry)?: loadedPost(entry)
        case .row(_, let row, let number)?: post(of: row, number: number)?.post
        case nil: nil
        }
    }

    /// The open post, when it can be acted on; `nil` after saying why not: deleted, not loaded,
    /// still loading.
    func loadedPost(_ entry: PostEntry) -> Post? {
        let state = entry.detail.current
        if state.deleted {
            refuse("This post was deleted.")
        } else if let post = state.post {
            return post
        } else if case .failed = state.postLoad {
            refuse("The post could not be loaded; type retry to load it again.")
        } else {
            refuse("The post is still loading; try again when it is shown.")
        }
        return nil
    }

    func gapSentence(_ number: Int) -> String {
        "Row \(number) is a gap: gap \(number) loads the missing posts."
    }

    func rangeSentence() -> String {
        guard case .list(let entry)? = stack.last else { return "This screen has no rows." }
        let shown = entry.screen.viewport.shown
        switch shown {
        case 0: return "No rows are shown yet."
        case 1: return "Row 1 is the only row shown."
        default: return "Rows 1–\(shown) are shown."
        }
    }
}
