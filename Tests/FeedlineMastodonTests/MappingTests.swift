@_spi(FeedService) import Feedline
import Foundation
import Testing

import FeedlineMastodon

@Suite struct MappingTests {
    static let json = #"""
        {"id": "117648005660672000", "created_at": "2026-11-20T09:15:02.000Z",
         "in_reply_to_id": "117647000000000000", "sensitive": true,
         "spoiler_text": "Tom &amp; Jerry spoilers", "visibility": "unlisted", "language": "en",
         "uri": "https://kettle.town/users/tomas/statuses/1", "url": null,
         "replies_count": 2, "reblogs_count": 3, "favourites_count": 4, "favourited": true, "reblogged": false,
         "content": "<p>Hi <span class=\"h-card\"><a href=\"https://x.example/@ann\" class=\"u-url mention\">@<span>ann</span></a></span> :blobcat:</p><p>it&#39;s <a href=\"https://x.example/tags/cats\" class=\"mention hashtag\" rel=\"tag\">#<span>cats</span></a></p>",
         "account": {"id": "5", "username": "tomas", "acct": "tomas@kettle.town", "display_name": "Tomás :bike:",
                     "emojis": [{"shortcode": "bike", "url": "https://e.example/bike.png", "static_url": "https://e.example/bike.png"}]},
         "media_attachments": [
           {"id": "1", "type": "image", "url": "https://m.example/1.jpg", "description": "A cat\non a mat"},
           {"id": "2", "type": "gifv", "url": "https://m.example/2.mp4", "description": ""},
           {"id": "3", "type": "audio", "url": null, "description": null}],
         "card": {"url": "https://a.example/post", "title": "A post", "description": "About things", "type": "link"},
         "poll": {"id": "9", "expires_at": "2026-11-23T10:00:00.000Z", "expired": false, "multiple": true, "votes_count": 10,
                  "options": [{"title": "Yes", "votes_count": 7}, {"title": "No", "votes_count": null}]},
         "emojis": [{"shortcode": "blobcat", "url": "https://e.example/blobcat.png"}]}
        """#

    @Test func aStatusBecomesADomainPost() throws {
        let status = try Mastodon.decode(Mastodon.Status.self, from: Data(Self.json.utf8))
        let post = Post(status)
        #expect(post.id == "117648005660672000")
        #expect(post.originalID == post.id)
        #expect(post.author == Author(id: "5", displayName: "Tomás :bike:", handle: "tomas@kettle.town"))
        #expect(post.text == "Hi @ann :blobcat:\n\nit's #cats")
        #expect(post.contentWarning == "Tom & Jerry spoilers")
        #expect(post.createdAt == Date(timeIntervalSince1970: 1_795_166_102))
        #expect(post.mediaSummary == "[image: A cat on a mat] [gifv] [audio]")
        #expect(post.media.map(\.url) == ["https://m.example/1.jpg", "https://m.example/2.mp4", nil])
        #expect(post.card == LinkCard(url: "https://a.example/post", title: "A post", summary: "About things"))
        #expect(post.poll?.options == [Poll.Option(title: "Yes", votes: 7), Poll.Option(title: "No", votes: nil)])
        #expect(post.poll?.multiple == true && post.poll?.votesCount == 10 && post.poll?.expired == false)
        #expect(post.repliesCount == 2 && post.reblogsCount == 3 && post.favouritesCount == 4)
        #expect(post.favourited == true && post.reblogged == false)
        #expect(post.inReplyToID == "117647000000000000")
        #expect(post.url == "https://kettle.town/users/tomas/statuses/1", "uri stands in for a missing url")
        #expect(post.reblog == nil)
    }

    @Test func anEmptyOrBlankContentWarningIsNone() throws {
        var status = try Mastodon.decode(Mastodon.Status.self, from: Data(Self.json.utf8))
        status.spoilerText = ""
        #expect(Post(status).contentWarning == nil)
        status.spoilerText = "<p> </p>"
        #expect(Post(status).contentWarning == nil)
    }

    @Test func aBoostKeepsItsIdentityAndCarriesTheOriginal() throws {
        let original = try Mastodon.decode(Mastodon.Status.self, from: Data(Self.json.utf8))
        let boost = Build.status(2, author: "bob", reblog: original)
        let post = Post(boost)
        #expect(post.id == "2")
        #expect(post.author.handle == "bob@example.social")
        #expect(post.text == "")
        #expect(post.originalID == "117648005660672000")
        #expect(post.content == Post(original))
        #expect(post.boostedBy?.handle == "bob@example.social")
    }

    @Test func filterResultsBecomeFiltersOfThePostAndOfWhatABoostShows() throws {
        let json = #"""
            {"id": "7", "created_at": "2026-11-20T09:15:02.000Z", "content": "<p>tonight</p>",
             "account": {"id": "5", "username": "hugo", "acct": "hugo@kettle.town"},
             "filtered": [
               {"filter": {"id": "1", "title": "Gigs", "context": ["home", "public", "somewhere_new"], "filter_action": "warn"},
                "keyword_matches": ["tonight"], "status_matches": []},
               {"filter": {"id": "2", "title": "Spoilers", "context": ["thread"], "filter_action": "hide"}},
               {"filter": {"id": "3", "title": "Photos", "context": ["notifications"], "filter_action": "blur"}},
               {"filter": {"id": "4", "title": "Old", "context": ["account"]}}]}
            """#
        let status = try Mastodon.decode(Mastodon.Status.self, from: Data(json.utf8))
        let post = Post(status)
        #expect(post.filters == [
            PostFilter(id: "1", title: "Gigs", contexts: [.home, .public], action: .warn),
            PostFilter(id: "2", title: "Spoilers", contexts: [.thread], action: .hide),
            PostFilter(id: "3", title: "Photos", contexts: [.notifications], action: .blur),
            PostFilter(id: "4", title: "Old", contexts: [.account], action: .warn),
        ])
        #expect(post.isHidden(in: .thread) && !post.isHidden(in: .home))
        // A boost that the server marked filtered: its original (what the row shows) is filtered.
        var boost = Build.status(8, author: "bob", reblog: try Mastodon.decode(Mastodon.Status.self, from: Data(Self.json.utf8)))
        boost.filtered = status.filtered
        #expect(Post(boost).content.filters.count == 4)
        #expect(Post(boost).filter(in: .home)?.title == "Gigs")
        // Round trip: what is written reads back the same.
        let again = try Mastodon.decode(Mastodon.Status.self, from: try Mastodon.makeEncoder().encode(status))
        #expect(Post(again).filters == post.filters)
    }
}
