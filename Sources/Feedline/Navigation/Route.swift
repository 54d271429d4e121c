/// A screen as data: a list of a ``ListSource`` or a post. Fronts render the top route of the
/// ``Navigator``'s stack.
///
/// A list screen is named by what it lists, so a new kind of list is a new ``ListSource`` case
/// and nothing here.
public enum Route: Hashable, Sendable, CustomStringConvertible {
    /// A list screen: a feed, a thread, the notifications, an edit history, accounts, search
    /// results, your blocked domains, hashtags, conversations or lists — whatever `ListSource` names.
    case list(ListSource)
    /// The detail of a post (by entry or original id).
    case post(PostID)

    /// What the list of a list route shows; `nil` for a post route.
    public var listSource: ListSource? {
        if case .list(let source) = self { return source }
        return nil
    }

    /// `list(home)`, `list(thread:123)`, `list(notifications)`, `post(123)`.
    public var description: String {
        switch self {
        case .list(let source): "list(\(source))"
        case .post(let id): "post(\(id))"
        }
    }
}

/// A route with the view model that serves it.
@MainActor
public enum Screen {
    case list(FeedListViewModel)
    case post(PostDetailViewModel)

    /// The route this screen serves.
    public var route: Route {
        switch self {
        case .list(let list): .list(list.source)
        case .post(let detail): .post(detail.id)
        }
    }

    /// The list view model, when this is a list screen.
    public var list: FeedListViewModel? {
        if case .list(let list) = self { return list }
        return nil
    }

    /// The detail view model, when this is a post screen.
    public var detail: PostDetailViewModel? {
        if case .post(let detail) = self { return detail }
        return nil
    }
}
