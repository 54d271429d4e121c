import Foundation

/// Why an account's posts leave the lists — and so which rows of which lists go.
///
/// - ``block``: everywhere — their posts (with every boost and notification of them), their
///   boosts, and notifications from them;
/// - ``mute``: the same, except on their own profile (which says they are muted);
/// - ``unfollow``: home only — their posts and their boosts (boosts of their posts by accounts
///   you follow stay, as the server shows them).
/// - ``boosts``: their boosts in home and your lists (`boosts off`), as Mastodon leaves them out
///   of those timelines — their own posts stay.
package enum AccountHiding: String, Hashable, Sendable, CaseIterable {
    case block
    case mute
    case unfollow
    case boosts

    /// Whether it takes rows off a list of `source` for the account `account`, whose handle is
    /// `handle` when known (a profile opened by handle names the account by it).
    package func applies(to source: ListSource, account: AccountID, handle: String? = nil) -> Bool {
        switch self {
        case .block: true
        case .mute: !Self.isProfile(source, of: account, handle: handle)
        case .unfollow: source == .feed(.home)
        case .boosts:
            switch source {
            case .feed(.home), .feed(.list): true
            default: false
            }
        }
    }

    /// Whether it keeps `post` off a list it applies to, for `account`: any post by or boosted
    /// by them — but for ``boosts``, only their boosts.
    func hides(_ post: Post, of account: AccountID) -> Bool {
        if self == .boosts { return post.boostedBy?.id == account.rawValue }
        return post.author.id == account.rawValue || post.content.author.id == account.rawValue
    }

    /// Whether `source` is the profile of the account, by id or by handle.
    static func isProfile(_ source: ListSource, of account: AccountID, handle: String?) -> Bool {
        guard case .feed(.account(let shown)) = source else { return false }
        if shown == account { return true }
        guard let named = shown.handle, let handle else { return false }
        return named.caseInsensitiveCompare(handle) == .orderedSame
    }

    /// Whether it takes the rows of other accounts' boosts of their posts too.
    var takesBoostsOfTheirPosts: Bool { self == .block || self == .mute }

    /// Whether it takes their own posts (not only their boosts).
    var takesTheirPosts: Bool { self != .boosts }
}
