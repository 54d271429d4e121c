/// A screen as data. Fronts render the top route of the ``Navigator``'s stack.
public enum Route: Hashable, Sendable, CustomStringConvertible {
    /// The timeline: always the bottom of the stack.
    case timeline
    /// The detail of a post (by entry or original id).
    case post(PostID)

    public var description: String {
        switch self {
        case .timeline: "timeline"
        case .post(let id): "post(\(id))"
        }
    }
}

/// A route with the view model that serves it.
@MainActor
public enum Screen {
    case timeline(TimelineViewModel)
    case post(PostDetailViewModel)

    /// The route this screen serves.
    public var route: Route {
        switch self {
        case .timeline: .timeline
        case .post(let detail): .post(detail.id)
        }
    }
}
