/// Why an account's posts leave the lists — and so which rows of which lists go.
///
/// - ``block``: everywhere — their posts (with every boost and notification of them), their
///   boosts, and notifications from them;
/// - ``mute``: the same, except on their own profile (which says they are muted);
/// - ``unfollow``: home only — their posts and their boosts (boosts of their posts by accounts
///   you follow stay, as the server shows them).
public enum AccountHiding: String, Hashable, Sendable, CaseIterable {
    case block
    case mute
    case unfollow

    /// Whether it takes rows off a list of `source` for the account `account`.
    public func applies(to source: ListSource, account: AccountID) -> Bool {
        switch self {
        case .block: true
        case .mute: source != .feed(.account(account))
        case .unfollow: source == .feed(.home)
        }
    }

    /// Whether it takes the rows of other accounts' boosts of their posts too.
    var takesBoostsOfTheirPosts: Bool { self != .unfollow }
}
