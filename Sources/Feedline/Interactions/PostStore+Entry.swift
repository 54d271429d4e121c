/// A post as the store keeps it.
extension PostStore {
    final class Entry {
        /// The latest copy; `nil` for a post known only from a restored outbox, until a copy of
        /// it or a reply arrives. Such an entry shows nowhere and is forgotten when it settles
        /// without a copy.
        var post: Post?
        var contentEpoch: StoreEpoch
        /// The post's interaction machine: the engine takes it from here when it first changes,
        /// and its `changed` keeps this copy in step from then on (every change of a machine
        /// goes through the engine).
        var state: InteractionState
        /// Reblog entry ids that resolve to this original, with the account that boosted.
        var wrappers: [PostID: AccountID] = [:]
        /// Who shows it, in the order they started, with the rows that show it (none for a detail).
        var holders: [Showing] = []
        /// Who shows it as the quote inside their rows (or details), in the order they started.
        var quoting: [(id: Int, rows: [RowID])] = []
        /// Set while the entry waits in the unused queue.
        var unusedStamp: UInt64?
        /// Whether the user revealed it past a filter's warning (shared by every row and detail).
        var revealed = false
        /// Its author muted or blocked (or their domain): quotes of it are not shown. Only
        /// quotes hear of it (``quotedDisplay``): the post's own rows do not show it.
        var authorHidden: QuoteState?
        /// Its translation (shared by every row and detail, as the reveal is).
        var translation: TranslationState = .original
        /// Its report, when it is attached to one (shared by every row and detail).
        var reported: ToggleDisplay?

        /// Whether no row or detail shows it, on its own or as a quote.
        var isUnshown: Bool { holders.isEmpty && quoting.isEmpty }

        /// What rows and details show: the interaction state, the reveal and the translation.
        var display: PostInteraction {
            var display = state.display
            display.revealed = revealed
            display.translation = translation
            display.reported = reported
            return display
        }

        /// What a quote of it shows: ``display`` and whether its author is hidden.
        var quotedDisplay: PostInteraction {
            var display = display
            display.authorHidden = authorHidden
            return display
        }

        /// An entry of `post` whose machine is `state`.
        init(post: Post?, contentEpoch: StoreEpoch, state: InteractionState) {
            self.post = post
            self.contentEpoch = contentEpoch
            self.state = state
        }
    }
}
