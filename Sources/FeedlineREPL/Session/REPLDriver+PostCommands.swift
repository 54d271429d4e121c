@_spi(FeedService) import Feedline

/// Commands on a post: the open post's, or row N's — favourite, boost, bookmark and their undo,
/// show, thread, profile — each through the one lookup (``target(_:name:onPost:)``).
extension REPLDriver {
    /// `fav`, `boost`, `bookmark` toggle; with `undo` (`unfav` …) the kind is only ever set off,
    /// and a post without it is left alone with a sentence saying so.
    func interact(_ kind: InteractionKind, undo: Bool = false, row number: Int?, name: CommandName) {
        switch target(number, name: name) {
        case .post(let entry)?:
            guard loadedPost(entry) != nil else { return }
            if undo, entry.detail.current.interaction?.isOn(kind) != true {
                say("This post is not \(Self.participle(kind)); nothing to undo.")
                return
            }
            _ = undo ? entry.detail.set(kind, false) : entry.detail.toggle(kind)
        case .row(let entry, let row, let number)?:
            guard let post = post(of: row, number: number) else { return }
            if undo, !post.interaction.isOn(kind) {
                say("Row \(number)'s post is not \(Self.participle(kind)); nothing to undo.")
                return
            }
            _ = undo ? entry.list.set(kind, false, row: row.id) : entry.list.toggle(kind, row: row.id)
        case nil:
            break
        }
    }

    /// `favourited`, `boosted`, `bookmarked`, `pinned`, `in a muted conversation`.
    static func participle(_ kind: InteractionKind) -> String {
        switch kind {
        case .favourite: "favourited"
        case .reblog: "boosted"
        case .bookmark: "bookmarked"
        case .pin: "pinned"
        case .muteThread: "in a muted conversation"
        }
    }

    /// `pin`, `unpin`, `mute-thread`, `unmute-thread` (and any kind set to a value): what it
    /// names is set to `value` unless it already is. Turning on is checked first by the core's
    /// rules (``FeedSession/interactionRefusal(_:_:post:)``: your own post, a conversation you take
    /// part in), once the session knows who you are: refused in words, nothing sent.
    func setInteraction(_ kind: InteractionKind, _ value: Bool, row number: Int?, accountAsked: Bool = false) {
        let name = Command.setName(kind, value) ?? Command.undoName(kind)
        let target = self.target(number, name: name)
        let post: PostID
        let what: String
        let shown: PostInteraction?
        switch target {
        case .post(let entry)?:
            guard let loaded = loadedPost(entry) else { return }
            post = loaded.id
            what = "This post"
            shown = entry.detail.current.interaction
        case .row(_, let row, let number)?:
            guard let found = self.post(of: row, number: number) else { return }
            post = found.post.originalID
            what = "Row \(number)'s post"
            shown = found.interaction
        case nil:
            return
        }
        if value, session.drafts.account == nil, session.drafts.settingsFailure == nil, !accountAsked {
            // Who you are decides what may be pinned or muted: asked first, once a session.
            session.drafts.load { [weak self] in
                self?.setInteraction(kind, value, row: number, accountAsked: true)
                self?.flushIfFollowing()
            }
            return
        }
        if let refusal = session.interactionRefusal(kind, value, post: post) {
            refuse(refusal.message)
            return
        }
        if let shown, shown.isOn(kind) == value, !shown.pending.contains(kind) {
            say(value ? "\(what) is \(Self.participle(kind)) already." : "\(what) is not \(Self.participle(kind)); nothing to undo.")
            return
        }
        switch target {
        case .post(let entry)?: _ = entry.detail.set(kind, value)
        case .row(let entry, let row, let number)?:
            _ = entry.list.set(kind, value, row: row.id)
            // A row shows no mark of a muted conversation (its post screen does): said here.
            if kind == .muteThread {
                say(value ? "Row \(number)'s conversation is muted: no notifications from it." : "Row \(number)'s conversation is unmuted.")
            }
        case nil: break
        }
    }

    /// `show [N]`: reveals a post a filter warns about, everywhere it is shown.
    func reveal(row number: Int?) {
        switch target(number, name: .show) {
        case .post(let entry)?:
            guard loadedPost(entry) != nil else { return }
            if !entry.detail.reveal() { refuse("No filter hides anything of this post.") }
        case .row(let entry, let row, let number)?:
            guard post(of: row, number: number) != nil else { return }
            if !entry.list.reveal(row: row.id) { refuse("No filter hides anything of row \(number).") }
        case nil:
            break
        }
    }

    /// `thread [N]`: the thread of row N's post or the open post, as rows.
    func openThread(_ number: Int?) {
        switch target(number, name: .thread, onPost: "opens that post's thread") {
        case .post(let entry)?:
            // By id: a thread loads even while the post itself does.
            let detail = entry.detail
            session.navigator.push(.list(.thread(detail.current.post?.id ?? session.store.originalID(of: detail.id) ?? detail.id)))
        case .row(_, let row, let number)?:
            guard let post = post(of: row, number: number) else { return }
            session.navigator.push(.list(.thread(post.originalID)))
        case nil:
            break
        }
    }

    /// `quote [N]`: the post row N's post (or the open post) quotes, as a post screen; why not,
    /// for a post that quotes none or whose quote is not shown.
    func openQuote(_ number: Int?) {
        let quote: Quote?
        let what: String
        switch target(number, name: .quote, onPost: "opens the post it quotes") {
        case .post(let entry)?:
            guard let post = loadedPost(entry) else { return }
            quote = post.quote
            what = "This post"
        case .row(_, let row, let number)?:
            // The row's copy: a delete the store told the row of shows in its quote's state.
            guard let post = post(of: row, number: number) else { return }
            quote = post.content.quote
            what = "Row \(number)"
        case nil:
            return
        }
        guard let quote else { return refuse("\(what) quotes no post.") }
        guard quote.state == .accepted, let id = quote.postID else {
            return refuse("\(what) quotes a post that is not shown: \(quote.state.notShownReason ?? "not available").")
        }
        session.navigator.push(.post(id))
    }

    /// `profile N|@user@host`: an account's posts — row N's author (a notification's first
    /// account), a handle's, or the open post's author.
    func openProfile(_ target: ProfileTarget?) {
        switch target {
        case .handle(let handle)?:
            let id = AccountID(handle: handle)
            handles[id.rawValue] = handle
            session.navigator.push(.list(.feed(.account(id))))
        case .row(let number)?:
            guard case .row(_, let row, let number)? = self.target(number, name: .profile, onPost: "opens its author's posts") else { return }
            let account = self.account(namedBy: row, number: number) { row in
                switch row {
                case .tag(let tag): "Row \(number) is the hashtag #\(tag.name): open \(number) shows its posts."
                case .userList(let list): "Row \(number) is the list \(list.title): open \(number) shows its posts."
                default: nil
                }
            }
            if let account { pushProfile(account) }
        case nil:
            switch stack.last {
            case .post(let entry)?:
                guard let post = loadedPost(entry) else { return }
                pushProfile(post.author)
            case .list?:
                refuse("profile needs a row number or a handle, for example: profile 3 or profile @kemi@fieldnotes.science.")
            case nil:
                break
            }
        }
    }

    func pushProfile(_ author: Author) {
        handles[author.id] = author.handle
        session.navigator.push(.list(.feed(.account(AccountID(author.id)))))
    }
}
