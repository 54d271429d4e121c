import Foundation

/// A direct conversation as the server sends it (Mastodon's `Conversation`): its id, who takes
/// part (without you), whether it has posts you have not read, and its newest post. The post
/// goes into the session's post store as any post does, so its rows show the shared state.
@_spi(FeedService) public struct Conversation: Hashable, Sendable, Identifiable {
    /// The server's id of the conversation (opaque).
    public var id: String
    /// The accounts taking part, the signed-in user left out.
    public var participants: [Author]
    /// Whether the conversation has posts the user has not read.
    public var unread: Bool
    /// Its newest post, as the server sent it (`nil` when the server sent none).
    public var lastPost: Post?

    public init(id: String, participants: [Author], unread: Bool, lastPost: Post?) {
        self.id = id
        self.participants = participants
        self.unread = unread
        self.lastPost = lastPost
    }

    /// The id of its newest post.
    public var lastPostID: PostID? { lastPost?.id }

    /// "@kemi@fieldnotes.science, @ode" — who takes part, by handle; "only you" when nobody else does.
    static func handles(of participants: [Author]) -> String {
        participants.isEmpty ? "only you" : participants.map { "@\($0.handle)" }.joined(separator: ", ")
    }
}

/// A conversation as every conversations screen shows it: who takes part, whether it is unread
/// (as the user last made it: opening clears it at once), its newest post with that post's
/// shared interaction state, and the last refusal of a change to it.
public struct ConversationRow: Hashable, Sendable, Identifiable {
    /// The server's id of the conversation.
    public var id: String
    /// The accounts taking part, the signed-in user left out.
    public var participants: [Author]
    /// Whether it shows as unread.
    public var unread: Bool
    /// Its newest post as the store shows it (latest copy, shared state).
    public var lastPost: PostRow?
    /// The last refusal of marking it read or removing it ("Could not mark the conversation
    /// with @kemi read: …"), until the next change.
    public var failure: String?

    public init(id: String, participants: [Author], unread: Bool, lastPost: PostRow?, failure: String? = nil) {
        self.id = id
        self.participants = participants
        self.unread = unread
        self.lastPost = lastPost
        self.failure = failure
    }

    /// Whether the newest post is the signed-in user's: its author is none of the participants
    /// (the server leaves the user out of them). `false` without a post.
    public var lastPostIsOwn: Bool {
        guard let author = lastPost?.post.author.id else { return false }
        return !participants.contains { $0.id == author }
    }

    /// "@kemi@fieldnotes.science, @ode" — who takes part, by handle; "only you" when nobody else does.
    public var participantHandles: String {
        Conversation.handles(of: participants)
    }
}
