import Feedline

/// Followed hashtags: `followTag` and `unfollowTag` set a hashtag's follow in the session's one
/// tag store (every screen that shows the hashtag follows at once), and every change of a
/// hashtag's follow there is written as a `tagFollow` message.
///
/// Nothing happens when the hashtag already shows the value (once the session has learnt it):
/// a client can repeat itself.
extension JSONLinesDriver {
    /// Follows the header of `list` when it is a hashtag's timeline (a list of `tag:…`): writes
    /// one `tagHeader` message each time a load of it ends — loaded, or failed —; whether you
    /// follow it later is said by `tagFollow` messages. `nil` for any other list. Lasts as long
    /// as the returned token.
    func followTagHeader(of list: FeedListViewModel) -> Subscription? {
        guard let header = list.tagHeader else { return nil }
        var written: TagHeader?
        return header.header.observe { [weak self, weak list] header in
            guard let self, let list else { return }
            guard !header.isLoading else {
                written = nil
                return
            }
            guard written?.tag?.name != header.tag?.name || written?.failure != header.failure else { return }
            written = header
            guard let index = self.session.navigator.screens.firstIndex(where: { $0.list === list }) else { return }
            self.emit(JSONLMessage.tagHeader(header, screen: index))
        }
    }

    /// Follows (`value` true) or unfollows the hashtag `key`, a key the command checked; the
    /// error's sentence when the store refuses it.
    ///
    /// A follow is optimistic: the `tagFollow` message says it is `pending`, then every list
    /// screen with the hashtag's row writes it updated in place (`changes`) — all before the
    /// `ok`; the server's answer follows later (a refusal puts the row back and says why in
    /// `failure`).
    func setTagFollow(_ key: String, _ value: Bool) -> String? {
        guard session.setTagFollow(key, value) else { return "\(JSONLCommand.echo(key)) is not a hashtag that can be followed." }
        return nil
    }

    /// Writes a `tagFollow` message after every change of any hashtag's follow as the store
    /// shows it, in the order they happen. Lasts as long as the returned token.
    ///
    /// Only changes the message shows: the store also reports its quiet bookkeeping (a second
    /// list of hashtags that says again what the session knew), which would repeat the last line.
    func followTags() -> Subscription {
        var written: [String: ToggleDisplay] = [:]
        return session.tags.observe { [weak self] change in
            guard written[change.tag] != change.display else { return }
            written[change.tag] = change.display
            self?.emit(JSONLMessage.tagFollow(change))
        }
    }
}
