import Feedline

/// `follow #tag`, `unfollow #tag` (and `follow` on a hashtag's row or timeline): follow a hashtag
/// through the session's one tag store — every screen showing it follows at once — and say what
/// the server answered.
extension REPLDriver {
    /// A hashtag timeline's header, once it loaded (before its first rows when both came
    /// together): the hashtag, its use this week and whether you follow it as every screen shows
    /// it (a follow made later is reported as it goes, not by printing the header again). A
    /// failed load says why once.
    func tagHeaderLines(_ entry: ListEntry) -> [TerminalText] {
        guard let header = entry.list.tagHeader?.current, !header.isLoading, !entry.headerShown else { return [] }
        if let failure = header.failure {
            guard !entry.headerShown else { return [] }
            entry.headerShown = true
            return wrapped("Could not load #\(header.name): \(RowRenderer.sentence(failure.message)) retry loads it again.")
                .map(options.style.dim)
        }
        guard let tag = header.tag else { return [] }
        var parts = ["#" + tag.name]
        if let used = RowRenderer.weeklyUse(of: tag) { parts.append(used) }
        if let following = header.follow?.isOn ?? tag.following {
            let pending = header.follow?.pending == true ? "…" : ""
            parts.append((following ? "you follow it" : "you do not follow it") + pending)
        }
        entry.headerShown = true
        return wrapped(parts.joined(separator: " · ")).map(options.style.bold)
    }

    func followTag(_ tag: String, _ value: Bool) {
        if let shown = session.tagFollow(tag), shown.isOn == value, !shown.pending {
            say(value ? "Already following #\(tag)." : "Not following #\(tag).")
            return
        }
        guard session.setTagFollow(tag, value) else {
            refuse(ParseError.notAHashtag(tag).message)
            return
        }
        say(value ? "Following #\(tag)…" : "Unfollowing #\(tag)…")
    }

    /// The hashtag a `follow` or `unfollow` names by context: a hashtag's row, or — alone — the
    /// hashtag timeline on top. `nil` when it names an account (or nothing yet).
    func followedTag(_ command: RelationshipCommand) -> String? {
        switch (command.target, stack.last) {
        case (.row(let number)?, .list(let entry)?):
            if case .row(let row) = entry.screen.viewport.lookup(number, in: entry.list.rows), let tag = row.tag { return tag.name }
            return nil
        case (nil, .list(let entry)?):
            if case .feed(.tag(let name)) = entry.list.source, entry.list.profile == nil { return name }
            return nil
        default:
            return nil
        }
    }
}
