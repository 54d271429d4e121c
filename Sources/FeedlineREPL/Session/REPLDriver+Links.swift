import Feedline

/// `link` and `browse`: a post's web address and what it links to, and opening one of them.
extension REPLDriver {
    /// `link [N]`: the post's own address, then its links numbered as `browse N K` takes them.
    func printLinks(row number: Int?) {
        guard let (post, name) = linkedPost(number, command: .link) else { return }
        let targets = post.linkTargets
        var lines: [TerminalText] = []
        if let address = post.webAddress {
            lines.append(TerminalText(urlLine(address)))
        } else {
            lines += TextWidth.wrap("The post has no web address\(post.content.id.isSending ? " yet: it is on its way to the server" : "").", to: options.width)
                .map(TerminalText.init)
        }
        for (index, target) in targets.enumerated() {
            lines.append(TerminalText(urlLine(target.url, label: "\(index + 1). " + Self.label(target))))
        }
        let browse = "browse" + (name.map { " \($0)" } ?? "")
        let hint = targets.isEmpty
            ? (post.webAddress == nil ? "It links to nothing." : "It links to nothing else; \(browse) opens the post.")
            : "\(browse) opens the post, \(browse) K its K-th link."
        lines += TextWidth.wrap(hint, to: options.width).map(options.style.dim)
        emit(lines)
    }

    /// `browse [N] [K]`: opens the post (or its K-th link) in the browser, in an interactive
    /// session; elsewhere says so with the address.
    func browse(row: Int?, item: Int?) {
        // On a post the one number given is the link's.
        let onPost = if case .post? = stack.last { true } else { false }
        let (number, index) = onPost && item == nil ? (nil, row) : (row, item)
        if onPost, item != nil {
            refuse("On a post, browse opens that post or its K-th link: type browse or browse K.")
            return
        }
        guard let (post, name) = linkedPost(number, command: .browse) else { return }
        let address: String
        if let index {
            let targets = post.linkTargets
            guard index >= 1, index <= targets.count else {
                let which = name.map { "link \($0)" } ?? "link"
                refuse(targets.isEmpty
                    ? "The post links to nothing; browse\(name.map { " \($0)" } ?? "") opens the post itself."
                    : "There is no link \(index): the post has \(targets.count == 1 ? "1 link" : "\(targets.count) links") (\(which) lists them).")
                return
            }
            address = targets[index - 1].url
        } else {
            guard let own = post.webAddress else {
                refuse("The post has no web address to open.")
                return
            }
            address = own
        }
        guard let openURL = options.openURL else {
            refuse("browse opens a browser only in an interactive session; the address is:")
            emit([urlLine(address)])
            return
        }
        switch openURL(address) {
        case .success(let program):
            say("Opened with \(TextWidth.oneLine(program)):")
            emit([urlLine(address)])
        case .failure(let failure):
            refuse(failure.message + " The address is:")
            emit([urlLine(address)])
        }
    }

    /// The post row N (or the open post) shows, with how to name it again (`3`, or nothing on
    /// a post); `nil` after saying why not.
    private func linkedPost(_ number: Int?, command: CommandName) -> (Post, String?)? {
        switch target(number, name: command) {
        case .row(_, let row, let number)?:
            guard let post = post(of: row, number: number) else { return nil }
            return (post.post, String(number))
        case .post(let entry)?:
            guard let post = loadedPost(entry) else { return nil }
            return (post, nil)
        case nil:
            return nil
        }
    }

    /// `image "a heron": `, `link preview "Title": `, or nothing for a link of the text.
    private static func label(_ target: PostLink) -> String {
        switch target {
        case .link: ""
        case .card(let card, _): "link preview \"" + TextWidth.truncate(TextWidth.oneLine(card.title), to: 40) + "\": "
        case .media(let media, _):
            media.kind.rawValue + (media.description.map { " \"" + TextWidth.truncate(TextWidth.oneLine($0), to: 40) + "\"" } ?? "") + ": "
        }
    }

    /// A web address on a line of its own after `label`, never wrapped (a terminal opens only a
    /// whole address), indented two columns; control characters and spaces cannot be in it.
    private func urlLine(_ address: String, label: String = "") -> String {
        "  " + label + TextWidth.oneLine(address)
    }
}
