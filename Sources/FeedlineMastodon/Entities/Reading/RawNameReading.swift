/// A value that decodes from any string, as its raw name (``Mastodon/Visibility``,
/// ``Mastodon/MediaAttachment/Kind``): read from a tree the same way.
extension TreeReadable where Self: RawRepresentable<String> {
    init(tree: JSONTree, doubts: TreeDoubts) throws {
        guard case .string(let name) = tree, let value = Self(rawValue: name) else { throw TreeMismatch() }
        self = value
    }
}
