@_spi(FeedService) import Feedline
import Foundation

/// One law of the service: calls made in order, then reads, and what every server must show —
/// each call's outcome (`ok` or `refused`) then each read rendered as a line. Written against
/// named subjects (``ContractSubjects``) so one table holds for the test model and the sandbox.
package struct ContractLaw: Sendable, CustomStringConvertible {
    /// A call the law makes.
    package enum Step: Sendable {
        case interaction(InteractionKind, Bool)
        case relationship(RelationshipKind, Bool, ContractSubjects.Account)
        case domainBlock(String, Bool)
        case tagFollow(String, Bool)
        case createList(String)
        case renameList(ContractSubjects.List, String)
        case deleteList(ContractSubjects.List)
        case listMembership(ContractSubjects.List, ContractSubjects.Account, Bool)
        case markRead(ContractSubjects.Conversation)
        case removeConversation(ContractSubjects.Conversation)
        case publish(String)
        case edit(String)
        case delete(ContractSubjects.Post)
        /// The last ``publish(_:)`` sent again as it was, with its idempotency key (an outbox
        /// resending a post whose answer it never saw).
        case resend
        /// The server's clock moves past an idempotency key's lifetime (an hour and a second).
        case keyExpires
    }

    /// What the law reads after its calls.
    package enum Read: Sendable {
        /// The flags of someone's post and how its counts moved since before the calls.
        case interactions
        /// Your relationship with the account.
        case relationship(ContractSubjects.Account)
        /// Whether the domain is blocked, and how many times the block list names it.
        case domain(String)
        /// Whether you follow the hashtag as `tag(named:)` says, and as the followed list says.
        case tag(String)
        /// The list's title as the next `lists()` reads it, or `gone`.
        case list(ContractSubjects.List)
        /// Whether the account is a member of the list.
        case member(ContractSubjects.List, ContractSubjects.Account)
        /// Whether the conversation is unread, or `gone`.
        case conversation(ContractSubjects.Conversation)
        /// The post's text and how many versions its history has, or `gone`; and whether home
        /// lists it.
        case post(ContractSubjects.Post)
    }

    package var name: String
    package var steps: [Step]
    package var reads: [Read]
    package var expected: [String]

    package var description: String { name }
}

/// The subjects a server offers a law: ids each server fills from what it holds.
package struct ContractSubjects: Sendable {
    package enum Account: Sendable { case stranger, locked, followed }
    package enum List: Sendable { case existing, created }
    package enum Conversation: Sendable { case unread, read }
    package enum Post: Sendable { case someones, mine }

    /// Someone else's original post on home.
    package var post: PostID
    /// An account you neither follow nor block, that approves no follows.
    package var stranger: AccountID
    /// An account that approves its followers, which you do not follow.
    package var locked: AccountID
    /// An account you follow.
    package var followed: AccountID
    /// One of your lists.
    package var list: String
    /// An unread conversation and a read one.
    package var unread: String
    package var read: String

    package init(post: PostID, stranger: AccountID, locked: AccountID, followed: AccountID, list: String, unread: String, read: String) {
        self.post = post
        self.stranger = stranger
        self.locked = locked
        self.followed = followed
        self.list = list
        self.unread = unread
        self.read = read
    }

    package func id(_ account: Account) -> AccountID {
        switch account {
        case .stranger: stranger
        case .locked: locked
        case .followed: followed
        }
    }

    package func id(_ conversation: Conversation) -> String {
        switch conversation {
        case .unread: unread
        case .read: read
        }
    }
}

extension ContractLaw {
    /// The law table: every server the tests use, and the sandbox, obey each row.
    package static let table: [ContractLaw] = [
        // Interactions
        ContractLaw(
            name: "favouriting twice is favouriting once", steps: [.interaction(.favourite, true), .interaction(.favourite, true)],
            reads: [.interactions], expected: ["ok", "ok", "favourited true +1, reblogged false +0, bookmarked false"]
        ),
        ContractLaw(
            name: "a favourite undone leaves the post as it was", steps: [.interaction(.favourite, true), .interaction(.favourite, false)],
            reads: [.interactions], expected: ["ok", "ok", "favourited false +0, reblogged false +0, bookmarked false"]
        ),
        ContractLaw(
            name: "a boost counts once; undone it leaves no boost", steps: [.interaction(.reblog, true), .interaction(.reblog, true)],
            reads: [.interactions], expected: ["ok", "ok", "favourited false +0, reblogged true +1, bookmarked false"]
        ),
        ContractLaw(
            name: "an unboost undoes the boost", steps: [.interaction(.reblog, true), .interaction(.reblog, false)],
            reads: [.interactions], expected: ["ok", "ok", "favourited false +0, reblogged false +0, bookmarked false"]
        ),
        ContractLaw(
            name: "a bookmark has no count", steps: [.interaction(.bookmark, true)],
            reads: [.interactions], expected: ["ok", "favourited false +0, reblogged false +0, bookmarked true"]
        ),
        // Relationships
        ContractLaw(
            name: "follow then unfollow leaves no follow", steps: [.relationship(.follow, true, .stranger), .relationship(.follow, false, .stranger)],
            reads: [.relationship(.stranger)], expected: ["ok", "ok", "following false, requested false, muting false, blocking false, notifying false"]
        ),
        ContractLaw(
            name: "following an account that approves followers is a request", steps: [.relationship(.follow, true, .locked)],
            reads: [.relationship(.locked)], expected: ["ok", "following false, requested true, muting false, blocking false, notifying false"]
        ),
        ContractLaw(
            name: "a block ends your follow", steps: [.relationship(.block, true, .followed)],
            reads: [.relationship(.followed)], expected: ["ok", "following false, requested false, muting false, blocking true, notifying false"]
        ),
        ContractLaw(
            name: "an account you block cannot be followed", steps: [.relationship(.block, true, .stranger), .relationship(.follow, true, .stranger)],
            reads: [.relationship(.stranger)], expected: ["ok", "refused", "following false, requested false, muting false, blocking true, notifying false"]
        ),
        ContractLaw(
            name: "mute then unmute leaves no mute", steps: [.relationship(.mute, true, .stranger), .relationship(.mute, false, .stranger)],
            reads: [.relationship(.stranger)], expected: ["ok", "ok", "following false, requested false, muting false, blocking false, notifying false"]
        ),
        ContractLaw(
            name: "post notifications need a follow", steps: [.relationship(.notify, true, .stranger), .relationship(.notify, true, .followed)],
            reads: [.relationship(.stranger), .relationship(.followed)],
            expected: [
                "refused", "ok",
                "following false, requested false, muting false, blocking false, notifying false",
                "following true, requested false, muting false, blocking false, notifying true",
            ]
        ),
        // Domain blocks
        ContractLaw(
            name: "a domain blocked twice, in any case, is blocked once",
            steps: [.domainBlock("@Spam.Example", true), .domainBlock("spam.example", true)],
            reads: [.domain("spam.example")], expected: ["ok", "ok", "spam.example blocked, listed 1"]
        ),
        ContractLaw(
            name: "a domain block undone leaves no block", steps: [.domainBlock("spam.example", true), .domainBlock("SPAM.example", false)],
            reads: [.domain("spam.example")], expected: ["ok", "ok", "spam.example not blocked, listed 0"]
        ),
        ContractLaw(
            name: "something that is no domain cannot be blocked", steps: [.domainBlock("not a domain", true)],
            reads: [.domain("not a domain")], expected: ["refused", "not a domain not blocked, listed 0"]
        ),
        // Tags
        ContractLaw(
            name: "a followed hashtag is followed in any case and listed once", steps: [.tagFollow("#Birdwatch", true), .tagFollow("birdwatch", true)],
            reads: [.tag("BIRDWATCH")], expected: ["ok", "ok", "#BIRDWATCH following true, listed 1"]
        ),
        ContractLaw(
            name: "follow then unfollow a hashtag leaves no follow", steps: [.tagFollow("birdwatch", true), .tagFollow("#birdwatch", false)],
            reads: [.tag("birdwatch")], expected: ["ok", "ok", "#birdwatch following false, listed 0"]
        ),
        ContractLaw(
            name: "a name with a hyphen is no hashtag", steps: [.tagFollow("bird-watch", true)],
            reads: [], expected: ["refused"]
        ),
        // Lists
        ContractLaw(
            name: "a new list reads back trimmed", steps: [.createList("  Trains  ")],
            reads: [.list(.created)], expected: ["ok", "Trains"]
        ),
        ContractLaw(
            name: "a blank title is refused", steps: [.createList("   ")],
            reads: [], expected: ["refused"]
        ),
        ContractLaw(
            name: "a list rename is seen by the next read", steps: [.renameList(.existing, "Waders")],
            reads: [.list(.existing)], expected: ["ok", "Waders"]
        ),
        ContractLaw(
            name: "a deleted list is gone and cannot be renamed", steps: [.deleteList(.existing), .renameList(.existing, "Again")],
            reads: [.list(.existing)], expected: ["ok", "refused", "gone"]
        ),
        ContractLaw(
            name: "only an account you follow joins a list, and leaves it",
            steps: [
                .createList("Walks"), .listMembership(.created, .stranger, true), .listMembership(.created, .followed, true),
                .listMembership(.created, .followed, true),
            ],
            reads: [.member(.created, .stranger), .member(.created, .followed)], expected: ["ok", "refused", "ok", "ok", "not a member", "member"]
        ),
        ContractLaw(
            name: "a member removed is no member", steps: [.createList("Walks"), .listMembership(.created, .followed, true), .listMembership(.created, .followed, false)],
            reads: [.member(.created, .followed)], expected: ["ok", "ok", "ok", "not a member"]
        ),
        // Conversations
        ContractLaw(
            name: "a conversation marked read reads read", steps: [.markRead(.unread)],
            reads: [.conversation(.unread), .conversation(.read)], expected: ["ok", "read", "read"]
        ),
        ContractLaw(
            name: "a removed conversation is gone and cannot be marked read", steps: [.removeConversation(.read), .markRead(.read)],
            reads: [.conversation(.read), .conversation(.unread)], expected: ["ok", "refused", "gone", "unread"]
        ),
        // Writing
        ContractLaw(
            name: "your new post is on home, and once deleted it is gone from every read", steps: [.publish("Hello from the contract"), .delete(.mine)],
            reads: [.post(.mine)], expected: ["ok", "ok", "gone, not on home"]
        ),
        ContractLaw(
            name: "an edit is read everywhere and kept in the history", steps: [.publish("First words"), .edit("Second words")],
            reads: [.post(.mine)], expected: ["ok", "ok", "Second words, 2 versions, on home"]
        ),
        ContractLaw(
            name: "a deleted post sent again with its key is not made again", steps: [.publish("Only once"), .delete(.mine), .resend],
            reads: [.post(.mine)], expected: ["ok", "ok", "refused", "gone, not on home"]
        ),
        ContractLaw(
            name: "a post sent again with its key is the same post", steps: [.publish("Said once"), .resend],
            reads: [.post(.mine)], expected: ["ok", "ok", "Said once, 1 versions, on home"]
        ),
        ContractLaw(
            name: "once the key has expired, a deleted post sent again is made again",
            steps: [.publish("Once more"), .delete(.mine), .keyExpires, .resend],
            reads: [.post(.mine)], expected: ["ok", "ok", "ok", "ok", "Once more, 1 versions, on home"]
        ),
        ContractLaw(
            name: "someone else's post cannot be deleted", steps: [.delete(.someones)],
            reads: [.interactions], expected: ["refused", "favourited false +0, reblogged false +0, bookmarked false"]
        ),
    ]
}
