import Feedline
import FeedlineTestSupport
import Foundation
import Testing

/// `Post`'s fields are written once: every stored field — found by `Mirror`, so one added later
/// is found too — reaches equality, hashing and coding, and a changed copy leaves the original
/// alone. The JSON a post saves is the same, byte for byte, as the format saved states hold.
@Suite("Post fields")
struct PostFieldsTests {
    static let bases: [(name: String, post: Post)] = [
        ("every field set, a boost", PostFields.everyFieldSet()),
        ("every field set", PostFields.everyFieldSet(boosting: false)),
        ("every field default", Post(id: "m", author: Author(id: "a", displayName: "", handle: "a"), text: "", createdAt: Date(timeIntervalSinceReferenceDate: 0))),
    ]

    @Test("every stored field has a change in PostFields.changes (add one for a new field, and check the fronts that show it)")
    func everyFieldIsCovered() {
        for (name, post) in Self.bases {
            let names = PostFields.names(of: post)
            #expect(names.count > 1, "Mirror found the fields of \(name)")
            let uncovered = names.filter { PostFields.changes[$0] == nil }
            let gone = PostFields.changes.keys.filter { !names.contains($0) }.sorted()
            #expect(uncovered.isEmpty, "fields without a change: \(uncovered)")
            #expect(gone.isEmpty, "changes of fields Post no longer stores: \(gone)")
        }
    }

    @Test("changing any one field makes the post unequal, hashes it differently, and survives coding")
    func everyFieldReachesEqualityHashingAndCoding() throws {
        for (baseName, base) in Self.bases {
            for name in PostFields.names(of: base) {
                let change = try #require(PostFields.changes[name])
                var changed = base
                change(&changed)
                #expect(changed != base, "\(name) of \(baseName) reaches ==")
                #expect(base != changed, "\(name) of \(baseName) reaches == (the other way)")
                #expect(changed.hashValue != base.hashValue, "\(name) of \(baseName) reaches the hash")
                #expect(try Self.roundTrip(changed) == changed, "\(name) of \(baseName) survives coding")
                #expect(try Self.json(changed) != Self.json(base), "\(name) of \(baseName) is coded")
            }
        }
    }

    @Test("changing a copy's field copies first: the original and other copies keep their value")
    func copiesAreValues() throws {
        for (baseName, base) in Self.bases {
            let before = try Self.json(base)
            for name in PostFields.names(of: base) {
                let change = try #require(PostFields.changes[name])
                let original = base
                var copy = original
                change(&copy)
                #expect(try Self.json(original) == before, "changing \(name) of a copy of \(baseName) left the original alone")
                #expect(original == base)
            }
        }
    }

    @Test("a post with equal fields is equal and hashes equally, whatever its storage")
    func equalFieldsAreEqual() throws {
        for (_, base) in Self.bases {
            let decoded = try Self.roundTrip(base)
            #expect(decoded == base)
            #expect(decoded.hashValue == base.hashValue)
            var rebuilt = base
            rebuilt.text += "x"
            rebuilt.text.removeLast()
            #expect(rebuilt == base)
            #expect(Set([rebuilt, base, decoded]).count == 1)
        }
    }

    /// The JSON saved states hold (written by the hand-written coding this replaced): the same
    /// bytes are written, and they read back equal.
    @Test("the JSON format is unchanged: the same bytes are written and read back", arguments: [0, 1, 2])
    func jsonFormat(_ index: Int) throws {
        let (_, post) = Self.bases[index]
        let expected = Self.savedJSON[index]
        #expect(try Self.json(post) == expected)
        #expect(try JSONDecoder().decode(Post.self, from: Data(expected.utf8)) == post)
    }

    @Test("entries saved before a field existed still load, with the field's default")
    func missingKeysTakeDefaults() throws {
        let json = #"{"id":"1","author":{"id":"a","displayName":"Ana","handle":"ana"},"text":"hi","createdAt":0}"#
        let post = try JSONDecoder().decode(Post.self, from: Data(json.utf8))
        #expect(post == Post(id: "1", author: Author(id: "a", displayName: "Ana", handle: "ana"), text: "hi", createdAt: Date(timeIntervalSinceReferenceDate: 0)))
        #expect(post.media.isEmpty && post.tags.isEmpty && post.filters.isEmpty && !post.favourited && post.favouritesCount == 0)
    }

    @Test("decoding normalises as the initialiser does: an empty warning is none, a boost of a boost keeps the original")
    func decodingNormalises() throws {
        let author = #"{"id":"a","displayName":"Ana","handle":"ana"}"#
        let inner = #"{"id":"o","author":\#(author),"text":"original","createdAt":0}"#
        let middle = #"{"id":"m","author":\#(author),"text":"","createdAt":0,"reblog":\#(inner)}"#
        let json = #"{"id":"1","author":\#(author),"text":"hi","createdAt":0,"contentWarning":"","reblog":\#(middle)}"#
        let post = try JSONDecoder().decode(Post.self, from: Data(json.utf8))
        #expect(post.contentWarning == nil)
        #expect(post.reblog?.id == "o")
        #expect(post.originalID == "o")
    }

    /// The post as the state store writes it, keys sorted: Foundation's `JSONEncoder` on Linux
    /// orders keys differently from one call to the next, so sorted keys are the bytes to compare.
    static func json(_ post: Post) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(post), as: UTF8.self)
    }

    static func roundTrip(_ post: Post) throws -> Post {
        try JSONDecoder().decode(Post.self, from: JSONEncoder().encode(post))
    }

    /// Written by the hand-written `encode(to:)` that the synthesized coding replaced (keys sorted).
    static let savedJSON: [String] = [
        #"{"author":{"displayName":"Ana 1","handle":"ana1@example.social","id":"a1"},"bookmarked":true,"card":{"summary":"What it says","title":"A link","url":"https:\/\/example.org\/1"},"contentWarning":"CW 1","createdAt":785000000,"editedAt":785000600,"favourited":true,"favouritesCount":6,"filters":[{"action":"warn","contexts":["home"],"title":"Spoilers"}],"id":"1","inReplyToID":"r1","language":"en","media":[{"description":"a pond","kind":"image","url":"https:\/\/example.social\/1.png"},{"kind":"audio"}],"mentions":["kemi@fieldnotes.science"],"poll":{"expired":true,"expiresAt":785086400,"multiple":true,"options":[{"title":"yes","votes":3},{"title":"no"}],"votesCount":3},"quote":{"post":{"author":{"displayName":"Quoted 1","handle":"quoted1","id":"q1"},"createdAt":785000000,"id":"q1","text":"Quoted"},"postID":"q1","state":"accepted"},"reblog":{"author":{"displayName":"Ana o1","handle":"anao1@example.social","id":"ao1"},"bookmarked":true,"card":{"summary":"What it says","title":"A link","url":"https:\/\/example.org\/o1"},"contentWarning":"CW o1","createdAt":785000000,"editedAt":785000600,"favourited":true,"favouritesCount":6,"filters":[{"action":"warn","contexts":["home"],"title":"Spoilers"}],"id":"o1","inReplyToID":"ro1","language":"en","media":[{"description":"a pond","kind":"image","url":"https:\/\/example.social\/o1.png"},{"kind":"audio"}],"mentions":["kemi@fieldnotes.science"],"poll":{"expired":true,"expiresAt":785086400,"multiple":true,"options":[{"title":"yes","votes":3},{"title":"no"}],"votesCount":3},"quote":{"post":{"author":{"displayName":"Quoted o1","handle":"quotedo1","id":"qo1"},"createdAt":785000000,"id":"qo1","text":"Quoted"},"postID":"qo1","state":"accepted"},"reblogged":true,"reblogsCount":5,"repliesCount":4,"tags":["swift","cats"],"text":"Text of o1\nwith two lines","url":"https:\/\/example.social\/@ana\/o1","visibility":"private"},"reblogged":true,"reblogsCount":5,"repliesCount":4,"tags":["swift","cats"],"text":"Text of 1\nwith two lines","url":"https:\/\/example.social\/@ana\/1","visibility":"private"}"#,
        #"{"author":{"displayName":"Ana 1","handle":"ana1@example.social","id":"a1"},"bookmarked":true,"card":{"summary":"What it says","title":"A link","url":"https:\/\/example.org\/1"},"contentWarning":"CW 1","createdAt":785000000,"editedAt":785000600,"favourited":true,"favouritesCount":6,"filters":[{"action":"warn","contexts":["home"],"title":"Spoilers"}],"id":"1","inReplyToID":"r1","language":"en","media":[{"description":"a pond","kind":"image","url":"https:\/\/example.social\/1.png"},{"kind":"audio"}],"mentions":["kemi@fieldnotes.science"],"poll":{"expired":true,"expiresAt":785086400,"multiple":true,"options":[{"title":"yes","votes":3},{"title":"no"}],"votesCount":3},"quote":{"post":{"author":{"displayName":"Quoted 1","handle":"quoted1","id":"q1"},"createdAt":785000000,"id":"q1","text":"Quoted"},"postID":"q1","state":"accepted"},"reblogged":true,"reblogsCount":5,"repliesCount":4,"tags":["swift","cats"],"text":"Text of 1\nwith two lines","url":"https:\/\/example.social\/@ana\/1","visibility":"private"}"#,
        #"{"author":{"displayName":"","handle":"a","id":"a"},"createdAt":0,"id":"m","text":""}"#,
    ]
}
