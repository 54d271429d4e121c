import Foundation

extension SandboxScenario {
    /// Another identity of the sandbox, for `account NAME`: its name (the sandbox's own identity
    /// is named by its account's handle) and its fixture directory — a path inside the
    /// directory whose scenario lists it, with its own statuses, home and scenario. The
    /// directory is read only when the identity is switched to, so a start reads nothing more.
    public struct Identity: Hashable, Sendable {
        /// The name `account NAME` takes and the prompt shows: letters, digits, `.`, `_`, `-`,
        /// starting with a letter or a digit.
        public var name: String
        /// The identity's fixture directory, relative to the directory whose scenario lists it.
        public var fixtures: String

        public init(name: String, fixtures: String) {
            self.name = name
            self.fixtures = fixtures
        }

        /// Whether `name` may name an identity (it also names its state file).
        static func isName(_ name: String) -> Bool {
            // A letter or digit first: never `.`, `..` or what reads as a flag.
            guard let first = name.unicodeScalars.first, first.isASCII, CharacterSet.alphanumerics.contains(first) else { return false }
            return name.count <= 64
                && name.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0)) }
        }
    }

    /// The first thing wrong with `identities`, naming the field: a name that is not one, or
    /// that is the signed-in account's or another identity's (any case), or fixtures outside
    /// the directory.
    func problem(of identities: [Identity]) -> String? {
        var seen: Set<String> = [account.acct.lowercased()]
        for (index, identity) in identities.enumerated() {
            guard Identity.isName(identity.name) else {
                return "identities[\(index)].name: \"\(identity.name)\" is not a name (letters, digits, '.', '_' and '-', starting with a letter or a digit)"
            }
            guard seen.insert(identity.name.lowercased()).inserted else {
                return identity.name.lowercased() == account.acct.lowercased()
                    ? "identities[\(index)].name: \(identity.name) is the signed-in account's own"
                    : "identities[\(index)].name: \(identity.name) is listed twice"
            }
            let parts = identity.fixtures.split(separator: "/", omittingEmptySubsequences: true)
            if identity.fixtures.hasPrefix("/") || parts.isEmpty || parts.contains("..") || parts.allSatisfy({ $0 == "." }) {
                return "identities[\(index)].fixtures: \"\(identity.fixtures)\" is not a directory inside the fixtures"
            }
        }
        return nil
    }
}
