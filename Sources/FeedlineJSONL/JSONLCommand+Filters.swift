@_spi(FeedService) import Feedline
import Foundation

/// Your server filters: `createFilter`, `updateFilter` and `deleteFilter`, which name a filter by
/// its id (`"filter":"2"`, as a filter row's `"filter"` has it).
///
/// `createFilter` takes `"title"`, `"keywords"` (strings, or `{"keyword":"…","wholeWord":true}`),
/// `"wholeWord"` (for the keywords given as strings; false when absent), `"contexts"` (of
/// `home`, `notifications`, `public`, `thread`, `account`; all when absent), `"action"` (`warn`,
/// `hide` or `blur`; `warn` when absent) and `"expiresIn"` (seconds; never when absent).
/// `updateFilter` takes the same fields, each optional (what is absent stays; `"keywords"`
/// replaces the keywords, a keyword the filter had keeping its id).
extension JSONLCommand {
    /// A change of your filters, as the driver hands it to the session's filter store.
    public enum FilterChange: Sendable, Equatable {
        case create(FilterFields)
        case update(filter: String, FilterFields)
        case delete(filter: String)
    }

    /// The fields of a `createFilter` or `updateFilter` line (`nil`: absent).
    public struct FilterFields: Sendable, Equatable {
        public var title: String?
        public var keywords: [(keyword: String, wholeWord: Bool)]?
        /// The contexts' names (checked), in Mastodon's order.
        public var contexts: [String]?
        public var action: PostFilter.Action?
        public var expiresIn: Int?

        public static func == (lhs: FilterFields, rhs: FilterFields) -> Bool {
            lhs.title == rhs.title && lhs.keywords?.map(\.keyword) == rhs.keywords?.map(\.keyword)
                && lhs.keywords?.map(\.wholeWord) == rhs.keywords?.map(\.wholeWord) && lhs.contexts == rhs.contexts
                && lhs.action == rhs.action && lhs.expiresIn == rhs.expiresIn
        }
    }

    static let filterCommandNames: Set<String> = ["createFilter", "updateFilter", "deleteFilter"]

    static func filterChange(_ name: String, _ value: JSONLValue) -> Result<Action, FieldProblem> {
        func problem(_ message: String) -> Result<Action, FieldProblem> { .failure(FieldProblem(message: "\(name): \(message)")) }
        let idUsage = "\"filter\": a filter's id such as \"2\" (a filter row's \"filter\")"
        var filterID: String?
        if name != "createFilter" {
            guard let field = value["filter"] else { return .failure(FieldProblem(message: "\(name) needs \(idUsage).")) }
            guard let id = field.string, !id.allSatisfy(\.isWhitespace) else { return problem("\"filter\" is a filter's id such as \"2\", not \(echo(field.json)).") }
            filterID = id
        }
        if name == "deleteFilter", let filterID { return .success(.filterChange(.delete(filter: filterID))) }
        var fields = FilterFields()
        if let field = value["title"] {
            guard let title = field.string, !title.allSatisfy(\.isWhitespace) else { return problem("\"title\" is a filter's title such as \"Spoilers\", not \(echo(field.json)).") }
            fields.title = title
        }
        var wholeWord = false
        if let field = value["wholeWord"] {
            guard case .bool(let flag) = field else { return problem("\"wholeWord\" is true or false, not \(echo(field.json)).") }
            wholeWord = flag
        }
        if let field = value["keywords"] {
            guard case .array(let items) = field, !items.isEmpty else {
                return problem("\"keywords\" is a list such as [\"finale\"] or [{\"keyword\":\"finale\",\"wholeWord\":true}], not \(echo(field.json)).")
            }
            var keywords: [(keyword: String, wholeWord: Bool)] = []
            for item in items {
                if let word = item.string, !word.allSatisfy(\.isWhitespace) {
                    keywords.append((word, wholeWord))
                } else if let word = item["keyword"]?.string, !word.allSatisfy(\.isWhitespace) {
                    var whole = wholeWord
                    if let flag = item["wholeWord"] {
                        guard case .bool(let set) = flag else { return problem("a keyword's \"wholeWord\" is true or false, not \(echo(flag.json)).") }
                        whole = set
                    }
                    keywords.append((word, whole))
                } else {
                    return problem("\(echo(item.json)) is not a keyword: a word such as \"finale\", or {\"keyword\":\"finale\",\"wholeWord\":true}.")
                }
            }
            fields.keywords = keywords
        } else if wholeWord, name == "createFilter" {
            return problem("\"wholeWord\" applies to \"keywords\", and there are none.")
        }
        if let field = value["contexts"] {
            guard case .array(let items) = field, !items.isEmpty else {
                return problem("\"contexts\" is a list of home, notifications, public, thread and account, such as [\"home\",\"public\"], not \(echo(field.json)).")
            }
            var contexts: Set<FilterContext> = []
            for item in items {
                guard let context = item.string.flatMap(FilterContext.init(rawValue:)) else {
                    return problem("\(echo(item.json)) is not a place filters apply: home, notifications, public, thread or account.")
                }
                contexts.insert(context)
            }
            fields.contexts = FilterContext.allCases.filter(contexts.contains).map(\.rawValue)
        }
        if let field = value["action"] {
            guard let action = field.string.flatMap(PostFilter.Action.init(rawValue:)) else { return problem("\"action\" is warn, hide or blur, not \(echo(field.json)).") }
            fields.action = action
        }
        if let field = value["expiresIn"] {
            guard case .number(let number) = field, number >= 1, number <= 366 * 86_400, number == number.rounded(), let seconds = Int(exactly: number) else {
                return problem("\"expiresIn\" is a number of seconds such as 86400 (a day), not \(echo(field.json)).")
            }
            fields.expiresIn = seconds
        }
        if name == "createFilter" {
            guard fields.title != nil else { return problem("needs \"title\": a filter's title such as \"Spoilers\".") }
            guard fields.keywords != nil else { return problem("needs \"keywords\": a list such as [\"finale\"].") }
            return .success(.filterChange(.create(fields)))
        }
        return .success(.filterChange(.update(filter: filterID ?? "", fields)))
    }
}

extension JSONLCommand.FilterFields {
    /// `filter` with these fields applied (a keyword it had keeps its id); for a new filter,
    /// `filter` holds the defaults. Expiry counts from `now`.
    func applied(to filter: PostFilter, now: Date) -> PostFilter {
        var changed = filter
        if let title { changed.title = title }
        if let keywords {
            changed.keywords = keywords.map { word in
                let id = filter.keywords.first { $0.keyword.lowercased() == word.keyword.lowercased() }?.id ?? ""
                return PostFilter.Keyword(id: id, keyword: word.keyword, wholeWord: word.wholeWord)
            }
        }
        if let contexts { changed.contexts = Set(contexts.compactMap(FilterContext.init(rawValue:))) }
        if let action { changed.action = action }
        if let expiresIn { changed.expiresAt = now.addingTimeInterval(TimeInterval(expiresIn)) }
        return changed
    }
}
