extension NotificationGroup.Kind {
    /// The kinds a notifications screen can be filtered by, in the order a front lists them, each
    /// with its plural name: `mentions`, `follows`, `favourites`, `boosts`, `polls`, `edits`,
    /// `requests` (follow requests).
    public static let filterable: [(name: String, kind: NotificationGroup.Kind)] = [
        ("mentions", .mention), ("follows", .follow), ("favourites", .favourite), ("boosts", .reblog),
        ("polls", .poll), ("edits", .update), ("requests", .followRequest),
    ]

    /// Other spellings a person may type for a filter: the singular, American spelling, the API's
    /// names.
    private static let filterAliases: [String: NotificationGroup.Kind] = [
        "mention": .mention, "follow": .follow, "favourite": .favourite, "favorites": .favourite, "favorite": .favourite,
        "favs": .favourite, "fav": .favourite, "boost": .reblog, "reblogs": .reblog, "reblog": .reblog, "poll": .poll,
        "edit": .update, "update": .update, "updates": .update, "request": .followRequest,
        "follow_request": .followRequest, "follow-requests": .followRequest, "follow_requests": .followRequest,
    ]

    /// The kind a filter names (`mentions`, `favorites`, `reblogs`…, any case); `nil` for no kind.
    public init?(filterName: String) {
        let name = filterName.lowercased()
        guard let kind = Self.filterable.first(where: { $0.name == name })?.kind ?? Self.filterAliases[name] else { return nil }
        self = kind
    }

    /// Its plural name as a filter (`mentions`, `boosts`), or its API name for a kind no filter names.
    public var filterName: String {
        Self.filterable.first { $0.kind == self }?.name ?? apiName
    }

    /// The filter names of `kinds`, comma-separated, in ``filterable``'s order (others after, by name).
    public static func filterNames(of kinds: Set<NotificationGroup.Kind>) -> String {
        let known = filterable.filter { kinds.contains($0.kind) }.map(\.name)
        let others = kinds.filter { kind in !filterable.contains { $0.kind == kind } }.map(\.apiName).sorted()
        return (known + others).joined(separator: ",")
    }

    /// The valid filter names, for an error message: `mentions, follows, …, edits or requests`.
    public static var filterNameList: String {
        let names = filterable.map(\.name)
        return names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
    }
}

extension Set<NotificationGroup.Kind> {
    /// Whether a list of these kinds (every kind when empty) shows a group of `kind`.
    package func accepts(_ kind: NotificationGroup.Kind) -> Bool {
        isEmpty || contains(kind)
    }
}
