import Foundation
import Testing

import Feedline
import FeedlineMastodon

@Suite struct DecodingTests {
    // MARK: - Fixtures

    @Test(arguments: FixturePaths.statusFiles())
    func everyFixtureFileDecodesAndReadsAsText(_ file: String) throws {
        let data = try Data(contentsOf: try FixturePaths.root().appendingPathComponent(file))
        let statuses: [Mastodon.Status]
        if data.first == UInt8(ascii: "[") {
            statuses = try Mastodon.decode([Mastodon.Status].self, from: data)
        } else {
            statuses = [try Mastodon.decode(Mastodon.Status.self, from: data)]
        }
        #expect(!statuses.isEmpty)
        for status in statuses {
            let post = Post(status)
            for text in [post.content.text, post.content.contentWarning ?? ""] {
                for leftover in ["<p>", "<span", "</a>", "<br", "&amp;", "&#39;", "&quot;", "&lt;", "&gt;"] {
                    #expect(!text.contains(leftover), "\(status.id) still shows \(leftover)")
                }
            }
            #expect(!post.content.text.isEmpty, "\(status.id) has no text")
            #expect(post.createdAt >= Date(timeIntervalSince1970: 1_795_000_000 - 30 * 86_400))
            #expect(post.createdAt < Date(timeIntervalSince1970: 1_795_305_600), "\(status.id) is not before 2026-11-22")
        }
    }

    @Test(arguments: FixturePaths.statusFiles())
    func fixtureStatusesSurviveAnEncodeDecodeRoundTrip(_ file: String) throws {
        let data = try Data(contentsOf: try FixturePaths.root().appendingPathComponent(file))
        let statuses =
            data.first == UInt8(ascii: "[")
            ? try Mastodon.decode([Mastodon.Status].self, from: data)
            : [try Mastodon.decode(Mastodon.Status.self, from: data)]
        let encoded = try Mastodon.makeEncoder().encode(statuses)
        #expect(try Mastodon.decode([Mastodon.Status].self, from: encoded) == statuses)
    }

    @Test func theTimelineFixtureHasWhatTheIssueAsksFor() throws {
        let fixture = try FixtureLoader.load(from: try FixturePaths.directory("timeline"))
        let statuses = fixture.statuses
        let arrivals = fixture.scenario.arrivals.flatMap(\.statuses)
        let originals = statuses.map(\.original)
        let ids = Set(statuses.map(\.id))

        #expect(statuses.count >= 120)
        #expect(arrivals.count >= 25)
        #expect(Set(originals.map(\.account.acct)).count >= 8)
        #expect(Set(originals.compactMap { $0.account.url.flatMap { URL(string: $0)?.host } }).count >= 5)
        #expect(statuses.filter { $0.reblog != nil }.count >= 5)
        #expect(statuses.contains { $0.reblog.map { ids.contains($0.id) } == true }, "a boost of a post also in the timeline")
        #expect(originals.filter { !$0.spoilerText.isEmpty }.count >= 4)
        let media = originals.flatMap(\.mediaAttachments)
        #expect(media.contains { ($0.description ?? "").isEmpty })
        #expect(media.contains { !($0.description ?? "").isEmpty })
        #expect(Set(media.map(\.type.rawValue)).isSuperset(of: ["image", "video", "gifv", "audio"]))
        #expect(originals.contains { $0.card != nil })
        #expect(originals.contains { !$0.mentions.isEmpty })
        #expect(originals.contains { !$0.tags.isEmpty })
        #expect(originals.contains { !$0.emojis.isEmpty })
        #expect(originals.contains { $0.poll != nil })
        #expect(originals.contains { $0.editedAt != nil })
        #expect(originals.contains { $0.content.contains("&amp;") })
        #expect(originals.contains { $0.content.contains("&#39;") })
        #expect(originals.contains { $0.content.contains("&quot;") })
        #expect(originals.contains { $0.content.count > 1000 })
        #expect(originals.contains { $0.language == "ja" })
        #expect(originals.contains { $0.language == "zh" })
        #expect(originals.contains { $0.language == "ar" })
        #expect(originals.contains { $0.content.unicodeScalars.contains("\u{200D}") }, "an emoji ZWJ sequence")
        #expect(originals.contains { status in status.inReplyToID.map { parent in statuses.contains { $0.inReplyToID == parent && $0.id != status.id } } == true })
        let newestOld = try #require(statuses.map(\.createdAt).max())
        #expect(arrivals.allSatisfy { $0.createdAt > newestOld })
    }

    // MARK: - Tolerance

    @Test func aMinimalStatusDecodesWithDefaults() throws {
        let json = #"{"id": "1", "created_at": "2026-11-20T09:15:02Z", "account": {"id": "9", "acct": "ann@x.example"}}"#
        let status = try Mastodon.decode(Mastodon.Status.self, from: Data(json.utf8))
        #expect(status.id == "1")
        #expect(status.content == "")
        #expect(status.spoilerText == "")
        #expect(status.visibility == .public)
        #expect(status.mediaAttachments.isEmpty && status.mentions.isEmpty && status.tags.isEmpty && status.emojis.isEmpty)
        #expect(status.reblog == nil && status.card == nil && status.poll == nil && status.url == nil)
        #expect(status.favourited == nil && status.reblogged == nil)
        #expect(status.repliesCount == 0 && status.reblogsCount == 0 && status.favouritesCount == 0)
        #expect(status.account.username == "ann")
        #expect(status.account.displayName == "")
        let post = Post(status)
        #expect(post.favourited == false && post.reblogged == false)
        #expect(post.author.name == "ann@x.example")
    }

    @Test func nullsReadAsAbsent() throws {
        let json = #"""
            {"id": "2", "created_at": "2026-11-20T09:15:02.000Z", "account": {"id": "9", "username": "ann", "acct": "ann",
             "display_name": null, "note": null, "last_status_at": null, "emojis": null, "fields": null},
             "url": null, "content": null, "spoiler_text": null, "in_reply_to_id": null, "reblog": null, "card": null,
             "poll": null, "media_attachments": null, "favourited": null, "language": null, "edited_at": null,
             "replies_count": null}
            """#
        let status = try Mastodon.decode(Mastodon.Status.self, from: Data(json.utf8))
        #expect(status.content == "" && status.url == nil && status.inReplyToID == nil && status.favourited == nil)
        #expect(status.account.displayName == "" && status.account.lastStatusAt == nil)
    }

    @Test func idsAreOpaqueStringsAndIntegersBecomeText() throws {
        let json = #"""
            [{"id": "01HF3Z8Q2K7J5V9X4N6M8P0R2T", "created_at": "2026-11-20T09:15:02Z",
              "account": {"id": "01HF0000000000000000000000", "acct": "gts@gts.example"},
              "in_reply_to_id": 109876543210987654},
             {"id": 117648005660672000, "created_at": "2026-11-20T09:15:02Z", "account": {"id": 42, "acct": "n"},
              "media_attachments": [{"id": 7, "type": "image"}], "mentions": [{"id": 3, "acct": "m@x.example", "url": ""}]}]
            """#
        let statuses = try Mastodon.decode([Mastodon.Status].self, from: Data(json.utf8))
        #expect(statuses[0].id == "01HF3Z8Q2K7J5V9X4N6M8P0R2T")
        #expect(statuses[0].account.id == "01HF0000000000000000000000")
        #expect(statuses[0].inReplyToID == "109876543210987654")
        #expect(statuses[1].id == "117648005660672000")
        #expect(statuses[1].account.id == "42")
        #expect(statuses[1].mediaAttachments.first?.id == "7")
        #expect(statuses[1].mentions.first?.id == "3")
        #expect(statuses[1].mentions.first?.username == "m")
    }

    @Test func datesWithAndWithoutFractionsAndBareDays() throws {
        let json = #"""
            [{"id": "1", "created_at": "2026-11-20T09:15:02.000Z", "account": {"id": "9", "acct": "a", "last_status_at": "2026-11-20"}},
             {"id": "2", "created_at": "2026-11-20T09:15:02Z", "account": {"id": "9", "acct": "a", "last_status_at": "2026-11-20T00:00:00.000Z"}},
             {"id": "3", "created_at": "2026-11-20T10:15:02.5+01:00", "account": {"id": "9", "acct": "a"}}]
            """#
        let statuses = try Mastodon.decode([Mastodon.Status].self, from: Data(json.utf8))
        let expected = Date(timeIntervalSince1970: 1_795_166_102)
        #expect(statuses[0].createdAt == expected)
        #expect(statuses[1].createdAt == expected)
        #expect(statuses[2].createdAt == expected.addingTimeInterval(0.5))
        #expect(statuses[0].account.lastStatusAt == Date(timeIntervalSince1970: 1_795_132_800))
        #expect(statuses[1].account.lastStatusAt == statuses[0].account.lastStatusAt)
    }

    @Test func unknownKeysAreIgnored() throws {
        let json = #"""
            {"id": "1", "created_at": "2026-11-20T09:15:02Z", "quote": {"state": "accepted"}, "filtered": [],
             "pleroma": {"local": false, "emoji_reactions": [{"name": "👍", "count": 3}]}, "akkoma": {"source": null},
             "account": {"id": "9", "acct": "a", "pleroma": {"is_admin": false}, "hide_collections": true},
             "media_attachments": [{"id": "5", "type": "image", "meta": {"focus": {"x": 0.1, "y": -0.2}}, "pleroma": {}}],
             "application": {"name": "Web", "website": null}, "emoji_reactions": []}
            """#
        let status = try Mastodon.decode(Mastodon.Status.self, from: Data(json.utf8))
        #expect(status.mediaAttachments.count == 1)
    }

    @Test func unknownMediaKindsAndVisibilitiesDecode() throws {
        let json = #"""
            {"id": "1", "created_at": "2026-11-20T09:15:02Z", "account": {"id": "9", "acct": "a"}, "visibility": "local",
             "media_attachments": [{"id": "5", "type": "document", "description": "   "}, {"id": "6", "type": "video", "url": null, "remote_url": "https://r.example/v.mp4"}]}
            """#
        let status = try Mastodon.decode(Mastodon.Status.self, from: Data(json.utf8))
        #expect(status.visibility.rawValue == "local")
        let post = Post(status)
        #expect(post.mediaSummary == "[unknown] [video]")
        #expect(post.media[1].url == "https://r.example/v.mp4")
    }

    @Test func aBoostOfABoostIsFlattenedToTheInnermostOriginal() throws {
        let json = #"""
            {"id": "300", "created_at": "2026-11-20T09:17:00Z", "account": {"id": "c", "acct": "carol"}, "content": "",
             "reblog": {"id": "200", "created_at": "2026-11-20T09:16:00Z", "account": {"id": "b", "acct": "bob"}, "content": "",
               "reblog": {"id": "100", "created_at": "2026-11-20T09:15:00Z", "account": {"id": "a", "acct": "alice"},
                 "content": "<p>the original</p>", "favourites_count": 5, "favourited": true}}}
            """#
        let status = try Mastodon.decode(Mastodon.Status.self, from: Data(json.utf8))
        #expect(status.reblog?.id == "200")
        #expect(status.original.id == "100")
        let post = Post(status)
        #expect(post.id == "300")
        #expect(post.boostedBy?.handle == "carol")
        #expect(post.reblog?.id == "100")
        #expect(post.reblog?.reblog == nil)
        #expect(post.originalID == "100")
        #expect(post.content.text == "the original")
        #expect(post.content.favourited == true && post.content.favouritesCount == 5)
    }

    @Test func contextAndErrorEntitiesDecode() throws {
        let context = try Mastodon.decode(
            Mastodon.Context.self,
            from: Data(#"{"ancestors": [{"id": "1", "created_at": "2026-11-20T09:15:02Z", "account": {"id": "9", "acct": "a"}}]}"#.utf8)
        )
        #expect(context.ancestors.map(\.id) == ["1"])
        #expect(context.descendants.isEmpty)

        let notFound = try Mastodon.decode(Mastodon.APIError.self, from: Data(#"{"error": "Record not found"}"#.utf8))
        #expect(notFound.errorDescription == "Record not found")
        #expect(FeedFailure(notFound).message == "Record not found")
        let oauth = try Mastodon.decode(
            Mastodon.APIError.self,
            from: Data(#"{"error": "invalid_grant", "error_description": "The provided authorization grant is invalid."}"#.utf8)
        )
        #expect(oauth.message == "invalid_grant")
        #expect(oauth.errorDescription == "The provided authorization grant is invalid.")
    }

    // MARK: - Errors name the path

    struct Malformed: CustomTestStringConvertible, Sendable {
        var json: String
        var message: String
        var testDescription: String { message }
    }

    static let status = #"{"id": "1", "created_at": "2026-11-20T09:15:02Z", "account": {"id": "9", "acct": "a"}}"#

    static let malformed: [Malformed] = [
        Malformed(
            json: "[\(status), \(status), \(status), {\"id\": \"4\", \"created_at\": \"2026-11-20T09:15:02Z\", \"account\": {\"id\": \"9\", \"acct\": \"a\"}, \"reblog\": {\"id\": \"5\", \"created_at\": \"2026-11-20T09:15:02Z\", \"account\": {\"id\": \"8\"}}}]",
            message: "[3].reblog.account.acct: missing"
        ),
        Malformed(json: #"[{"id": "1", "account": {"id": "9", "acct": "a"}}]"#, message: "[0].created_at: missing"),
        Malformed(json: #"[{"id": "1", "created_at": "yesterday", "account": {"id": "9", "acct": "a"}}]"#, message: "[0].created_at: not a date: \"yesterday\""),
        Malformed(json: #"[{"id": "1", "created_at": "2026-02-30T00:00:00Z", "account": {"id": "9", "acct": "a"}}]"#, message: "[0].created_at: not a date: \"2026-02-30T00:00:00Z\""),
        Malformed(json: #"[{"id": "1", "created_at": "2026-11-20T09:15:02Z", "account": null}]"#, message: "[0].account: null where a value is required"),
        Malformed(json: #"[{"id": "1", "created_at": "2026-11-20T09:15:02Z", "account": {"id": "9", "acct": "a"}, "replies_count": "many"}]"#, message: "[0].replies_count: expected a number, found a string"),
        Malformed(json: #"[{"id": true, "created_at": "2026-11-20T09:15:02Z", "account": {"id": "9", "acct": "a"}}]"#, message: "[0].id: expected a string, found a boolean"),
        Malformed(json: #"[{"id": 1.5, "created_at": "2026-11-20T09:15:02Z", "account": {"id": "9", "acct": "a"}}]"#, message: "[0].id: expected a string, found a number that is not an integer"),
        Malformed(json: #"[{"id": "1", "created_at": "2026-11-20T09:15:02Z", "account": {"id": "9", "acct": "a"}, "media_attachments": [{"id": "5"}]}]"#, message: "[0].media_attachments[0].type: missing"),
        Malformed(json: #"[{"id": "1", "created_at": "2026-11-20T09:15:02Z", "account": {"id": "9", "acct": "a"}, "tags": {"name": "x"}}]"#, message: "[0].tags: expected an array, found a dictionary"),
        Malformed(json: #"[{"id": "1", "created_at": "#, message: "not valid JSON"),
    ]

    @Test(arguments: malformed)
    func malformedDocumentsNameWhatAndWhere(_ example: Malformed) {
        #expect(throws: Mastodon.DecodingFailure.self) {
            _ = try Mastodon.decode([Mastodon.Status].self, from: Data(example.json.utf8))
        }
        do {
            _ = try Mastodon.decode([Mastodon.Status].self, from: Data(example.json.utf8))
        } catch {
            #expect(error.description == example.message)
            #expect(error.errorDescription == example.message)
        }
    }
}
