@_spi(FeedService) import Feedline
import Foundation

/// `filters new|edit|delete …`: your server filters through the session's one filter store —
/// the filters screen and every list of posts follow at once — and what the server answered.
extension REPLDriver {
    func runFilters(_ command: FiltersCommand) {
        switch command {
        case .create(let title, let options):
            var filter = PostFilter(
                title: title, contexts: options.contexts.map(Self.contexts) ?? Set(FilterContext.allCases), action: options.action ?? .warn,
                keywords: options.keywords.map { PostFilter.Keyword(keyword: $0, wholeWord: options.wholeWord) }
            )
            filter.expiresAt = options.expiresIn.map { session.clock.now().addingTimeInterval(TimeInterval($0)) }
            do {
                try session.createFilter(filter)
                say("Making the filter \(filter.title)… \(Self.effect(of: filter))")
            } catch {
                refuse(error.message)
            }
        case .edit(let number, let title, let options):
            guard let filter = filterRow(number, for: "edit") else { return }
            let changed = Self.edited(filter, title: title, options, now: session.clock.now())
            guard changed != filter else {
                say("The filter \(filter.title) is so already.")
                return
            }
            do {
                try session.updateFilter(filter.id, to: changed)
                say("Changing the filter \(filter.title)… \(Self.effect(of: changed))")
            } catch {
                refuse(error.message)
            }
        case .delete(let number, let confirmed):
            guard let filter = filterRow(number, for: "delete") else { return }
            guard confirmed else {
                guard options.live else {
                    refuse("filters delete asks first, and a script cannot answer: type filters delete \(number) --yes to delete the filter \(filter.title).")
                    return
                }
                say("Delete the filter \(filter.title)? The posts it filters show again. [y/N]")
                confirming = .deleteFilter(id: filter.id, title: filter.title)
                return
            }
            deleteFilter(id: filter.id, title: filter.title)
        }
    }

    /// Deletes the filter `id` (named `title`), asked and answered.
    func deleteFilter(id: String, title: String) {
        do {
            try session.deleteFilter(id)
            say("Deleting the filter \(title)… the posts it filtered are back on every screen.")
        } catch {
            refuse(error.message)
        }
    }

    /// What a filter does, in a sentence: "It hides posts with frog (whole word) in home, public."
    static func effect(of filter: PostFilter) -> String {
        let verb =
            switch filter.action {
            case .hide: "hides"
            case .warn: "puts a warning on"
            case .blur: "blurs the media of"
            }
        let words = filter.keywords.map { $0.wholeWord ? "\"\($0.keyword)\"" : $0.keyword }.joined(separator: ", ")
        let places = FilterContext.allCases.filter(filter.contexts.contains).map(\.rawValue).joined(separator: ", ")
        return "It \(verb) posts with \(words) in \(places)."
    }

    /// `filter` with what `filters edit` gives: the title, the keywords (a keyword it had keeps
    /// its id), whole words, places, action and expiry; what is not given stays.
    static func edited(_ filter: PostFilter, title: String?, _ options: FilterOptions, now: Date) -> PostFilter {
        var changed = filter
        if let title { changed.title = title }
        if !options.keywords.isEmpty {
            changed.keywords = options.keywords.map { word in
                let id = filter.keywords.first { $0.keyword.lowercased() == word.lowercased() }?.id ?? ""
                return PostFilter.Keyword(id: id, keyword: word, wholeWord: options.wholeWord)
            }
        } else if options.wholeWord {
            for index in changed.keywords.indices { changed.keywords[index].wholeWord = true }
        }
        if let contexts = options.contexts { changed.contexts = Self.contexts(contexts) }
        if let action = options.action { changed.action = action }
        if let expiresIn = options.expiresIn { changed.expiresAt = now.addingTimeInterval(TimeInterval(expiresIn)) }
        return changed
    }

    /// The contexts the parser named.
    static func contexts(_ names: [String]) -> Set<FilterContext> { Set(names.compactMap(FilterContext.init(rawValue:))) }

    /// The filter at row `number` of the filters screen on top, `nil` after saying why there is none.
    private func filterRow(_ number: Int, for action: String) -> PostFilter? {
        guard case .list(let entry)? = stack.last, entry.list.source == .filters else {
            refuse("filters \(action) N names row N of the filters screen; type filters first.")
            return nil
        }
        guard case .row(let row) = entry.screen.viewport.lookup(number, in: entry.list.rows), case .filter(let filter, _) = row else {
            refuse("There is no filter at row \(number).")
            return nil
        }
        guard !filter.id.hasPrefix(FilterStore.localPrefix) else {
            refuse(FilterProblem.provisional(filter.title).message)
            return nil
        }
        return session.filter(filter.id) ?? filter
    }

    /// What a filter's outcome says: "Created the filter Frogs." or "Could not create the
    /// filter Frogs: … It is gone." / "… It is back as it was."
    static func filterSentence(id: String, title: String?, was: String?, refused: String?) -> String {
        namedChangeSentence(
            "filter", created: id.hasPrefix(FilterStore.localPrefix), title: title, was: was, refused: refused,
            changeVerb: "change", changed: { "Changed the filter \($0)." }
        )
    }
}
