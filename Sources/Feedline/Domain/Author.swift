import Foundation

/// Who wrote (or boosted) a post.
public struct Author: Hashable, Sendable, Codable {
    /// The account's id on the server (opaque).
    public var id: String
    /// The name the author chose; may be empty, may contain `:shortcode:` custom emoji.
    public var displayName: String
    /// The account handle without the leading `@`: `user` on the local server, `user@host` for remote ones.
    public var handle: String

    public init(id: String, displayName: String, handle: String) {
        self.id = id
        self.displayName = displayName
        self.handle = handle
    }

    /// The display name, or the handle when the display name is empty.
    public var name: String {
        displayName.allSatisfy(\.isWhitespace) ? handle : displayName
    }
}
