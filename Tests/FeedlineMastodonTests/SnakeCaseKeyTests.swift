import Foundation
import Testing

@testable import FeedlineMastodon

/// The entities name each field once (`SnakeCaseKey`): the JSON names they read and write are
/// Mastodon's, made from the case names by one rule.
@Suite struct SnakeCaseKeyTests {
    enum Sample: String, SnakeCaseKey {
        case id, displayName, inReplyToAccountID, sampleAccountIDs, charactersReservedPerURL, streamingAPI, v2Thing
        case keptAsWritten = "error_description"
    }

    @Test func aCapitalAfterALowerCaseLetterOrADigitStartsAWordAndAnAcronymStaysOne() {
        #expect(Sample.allCases.map(\.stringValue) == [
            "id", "display_name", "in_reply_to_account_id", "sample_account_ids", "characters_reserved_per_url",
            "streaming_api", "v2_thing", "error_description",
        ])
    }

    @Test func aJSONNameReadsBackAsItsKeyAndNoOtherNameDoes() {
        for key in Sample.allCases { #expect(Sample(stringValue: key.stringValue) == key) }
        #expect(Sample(stringValue: "displayName") == nil)
        #expect(Sample(stringValue: "keptAsWritten") == nil)
    }

    /// The names every entity reads and writes, as Mastodon's documentation spells them.
    @Test func everyEntityNamesItsFieldsAsMastodonDoes() {
        func names<Key: SnakeCaseKey>(_ key: Key.Type) -> Set<String> { Set(key.allCases.map(\.stringValue)) }
        #expect(names(Mastodon.Status.CodingKeys.self) == [
            "id", "uri", "url", "account", "content", "sensitive", "visibility", "language", "mentions", "tags", "emojis", "card",
            "poll", "reblog", "favourited", "reblogged", "bookmarked", "pinned", "muted", "filtered", "quote", "quote_approval",
            "created_at", "edited_at", "spoiler_text", "in_reply_to_id", "in_reply_to_account_id", "media_attachments",
            "replies_count", "reblogs_count", "favourites_count",
        ])
        #expect(names(Mastodon.Account.CodingKeys.self) == [
            "id", "username", "acct", "locked", "bot", "note", "url", "avatar", "header", "emojis", "fields", "group", "moved",
            "display_name", "created_at", "followers_count", "following_count", "statuses_count", "last_status_at",
        ])
        #expect(names(Mastodon.Account.Field.CodingKeys.self) == ["name", "value", "verified_at"])
        #expect(names(Mastodon.Card.CodingKeys.self) == ["url", "title", "description", "type", "image", "author_name", "provider_name"])
        #expect(names(Mastodon.CustomEmoji.CodingKeys.self) == ["shortcode", "url", "category", "static_url", "visible_in_picker"])
        #expect(names(Mastodon.MediaAttachment.CodingKeys.self) == ["id", "type", "url", "description", "blurhash", "preview_url", "remote_url"])
        #expect(names(Mastodon.Poll.CodingKeys.self) == [
            "id", "expired", "multiple", "options", "emojis", "voted", "expires_at", "votes_count", "voters_count", "own_votes",
        ])
        #expect(names(Mastodon.Poll.Option.CodingKeys.self) == ["title", "votes_count"])
        #expect(names(Mastodon.FilterResult.CodingKeys.self) == ["filter", "keyword_matches", "status_matches"])
        #expect(names(Mastodon.Filter.CodingKeys.self) == ["id", "title", "context", "filter_action", "expires_at", "keywords"])
        #expect(names(Mastodon.Quote.CodingKeys.self) == ["state", "quoted_status", "quoted_status_id"])
        #expect(names(Mastodon.QuoteApproval.CodingKeys.self) == ["automatic", "manual", "current_user"])
        #expect(names(Mastodon.Notification.CodingKeys.self) == ["id", "type", "account", "status", "created_at", "group_key"])
        #expect(names(Mastodon.GroupedNotifications.CodingKeys.self) == ["accounts", "statuses", "notification_groups"])
        #expect(names(Mastodon.GroupedNotifications.Group.CodingKeys.self) == [
            "type", "group_key", "notifications_count", "most_recent_notification_id", "page_min_id", "page_max_id",
            "latest_page_notification_at", "sample_account_ids", "status_id",
        ])
        #expect(names(Mastodon.Relationship.CodingKeys.self) == [
            "id", "following", "notifying", "blocking", "muting", "requested", "endorsed", "note", "showing_reblogs",
            "followed_by", "blocked_by", "muting_notifications", "requested_by", "domain_blocking",
        ])
        #expect(names(Mastodon.Conversation.CodingKeys.self) == ["id", "unread", "accounts", "last_status"])
        #expect(names(Mastodon.List.CodingKeys.self) == ["id", "title", "replies_policy", "exclusive"])
        #expect(names(Mastodon.Marker.CodingKeys.self) == ["last_read_id", "version", "updated_at"])
        #expect(names(Mastodon.StatusSource.CodingKeys.self) == ["id", "text", "spoiler_text"])
        #expect(names(Mastodon.StatusEdit.CodingKeys.self) == ["content", "sensitive", "poll", "spoiler_text", "created_at", "media_attachments"])
        #expect(names(Mastodon.Instance.Configuration.Statuses.CodingKeys.self) == [
            "max_characters", "max_media_attachments", "characters_reserved_per_url",
        ])
        #expect(names(Mastodon.Instance.Configuration.Polls.CodingKeys.self) == [
            "max_options", "max_characters_per_option", "min_expiration", "max_expiration",
        ])
        #expect(names(Mastodon.Instance.LegacyURLs.CodingKeys.self) == ["streaming_api"])
    }

    /// Decoding, encoding and a failure's path all use the snake_case name.
    @Test func decodingEncodingAndFailuresSayTheJSONName() throws {
        let group = #"{"group_key": "g", "type": "favourite", "most_recent_notification_id": 7, "sample_account_ids": ["1"]}"#
        let decoded = try Mastodon.decode(Mastodon.GroupedNotifications.Group.self, from: Data(group.utf8))
        #expect(decoded.mostRecentNotificationID == "7" && decoded.sampleAccountIDs == ["1"])
        let encoded = try #require(String(data: Mastodon.makeEncoder().encode(decoded), encoding: .utf8))
        #expect(encoded.contains(#""most_recent_notification_id":"7""#) && encoded.contains(#""sample_account_ids":["1"]"#))
        let limits = try Mastodon.decode(Mastodon.Instance.self, from: Data(#"{"configuration": {"statuses": {"characters_reserved_per_url": 30}}}"#.utf8))
        #expect(limits.configuration?.statuses?.charactersReservedPerURL == 30)
        #expect(throws: Mastodon.DecodingFailure(path: "in_reply_to_account_id", problem: "expected a string, found a boolean")) {
            try Mastodon.decode(Mastodon.Status.self, from: Data(#"{"id": "1", "created_at": "2026-11-20T09:15:02Z", "account": {"id": "9", "acct": "a"}, "in_reply_to_account_id": true}"#.utf8))
        }
    }
}
