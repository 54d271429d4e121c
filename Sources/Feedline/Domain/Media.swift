import Foundation

/// One attachment of a post, reduced to what a text or accessibility front shows.
public struct Media: Hashable, Sendable, Codable {
    /// What kind of attachment this is.
    public enum Kind: String, Hashable, Sendable, Codable {
        case audio, gifv, image, unknown, video
    }

    public var kind: Kind
    /// The author's description (alt text), if any.
    public var description: String?
    /// Where the media lives, if known.
    public var url: String?
    /// The attachment's id on the server (what an edit that keeps it names); `nil` when unknown.
    public var id: String?

    public init(kind: Kind, description: String? = nil, url: String? = nil, id: String? = nil) {
        self.kind = kind
        self.description = description
        self.url = url
        self.id = id
    }

    /// `[image: a cat on a mat]`, or `[image]` without a description.
    public var summary: String {
        let text = description?.trimmingBlanks(newlines: true) ?? ""
        let flattened = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return flattened.isEmpty ? "[\(kind.rawValue)]" : "[\(kind.rawValue): \(flattened)]"
    }
}
