import Foundation

/// The domains the signed-in user blocks, as a Mastodon server keeps them: the domain-blocks
/// slice of ``ServerModel``.
///
/// Its laws (``set(_:to:)``): a domain is named in any case with or without a leading `@`; the
/// newest block comes first; blocking twice is blocking once; an unblock leaves no block;
/// something that is no domain name, or the server's own domain, is refused.
package struct ServerDomainBlocks: Hashable, Sendable {
    /// The blocked domains, lower-cased, the newest block first.
    package private(set) var domains: [String]
    /// The server's own domain, which cannot be blocked.
    package var own: String

    package init(_ domains: [String] = [], own: String = "server.example") {
        self.domains = domains.map(Self.key)
        self.own = own
    }

    /// Blocks (`true`) or unblocks `domain`.
    ///
    /// - Throws: ``ServerRefusal``; nothing changes then.
    package mutating func set(_ domain: String, to value: Bool) throws(ServerRefusal) {
        let key = Self.key(domain)
        guard Self.isDomainName(key) else { throw ServerRefusal("\"\(key)\" is not a domain name.") }
        guard value else {
            domains.removeAll { $0 == key }
            return
        }
        guard key != Self.key(own) else { throw ServerRefusal("You cannot block your own domain.") }
        guard !domains.contains(key) else { return }
        domains.insert(key, at: 0)
    }

    /// Whether `domain` (any case, `@` optional) is blocked.
    package func isBlocked(_ domain: String) -> Bool { domains.contains(Self.key(domain)) }

    /// `domain` trimmed, without leading `@`, lower-cased.
    package static func key(_ domain: String) -> String {
        var name = Substring(domain.trimmingCharacters(in: .whitespacesAndNewlines))
        while name.hasPrefix("@") { name = name.dropFirst() }
        return name.lowercased()
    }

    /// Labels of letters, digits and hyphens joined by dots, at least two of them.
    package static func isDomainName(_ key: String) -> Bool {
        let labels = key.split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2 && labels.allSatisfy { label in
            !label.isEmpty && label.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }
        }
    }
}
