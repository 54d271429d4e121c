/// What a server accepts in one post: Mastodon's `GET /api/v2/instance` `configuration`
/// (`statuses.max_characters`, `statuses.characters_reserved_per_url`,
/// `statuses.max_media_attachments`, `polls.max_options`, `polls.max_characters_per_option`,
/// `polls.min_expiration`, `polls.max_expiration`).
///
/// A plain value: nothing here is checked against anything. Negative numbers are kept as given;
/// `PostLength` counts a negative `charactersReservedPerURL` as 0.
public struct ComposeLimits: Hashable, Sendable, Codable {
    /// The most characters (grapheme clusters, as `PostLength` counts them) in the text and the
    /// content warning together. Mastodon: 500.
    public var maxCharacters: Int
    /// What every URL in the text counts as, however long it is. Mastodon: 23.
    public var charactersReservedPerURL: Int
    /// The most media attachments on one post. Mastodon: 4.
    public var maxMediaAttachments: Int
    /// The most choices in one poll. Mastodon: 4.
    public var maxPollOptions: Int
    /// The most characters (grapheme clusters) in one poll choice. Mastodon: 50.
    public var maxCharactersPerPollOption: Int
    /// The shortest time a poll may stay open, in seconds. Mastodon: 300 (5 minutes).
    public var minPollExpiration: Int
    /// The longest time a poll may stay open, in seconds. Mastodon: 2,629,746 (one month as Rails
    /// counts it, 30.436875 days).
    public var maxPollExpiration: Int

    /// Limits as given; every default is Mastodon's.
    public init(
        maxCharacters: Int = 500,
        charactersReservedPerURL: Int = 23,
        maxMediaAttachments: Int = 4,
        maxPollOptions: Int = 4,
        maxCharactersPerPollOption: Int = 50,
        minPollExpiration: Int = 300,
        maxPollExpiration: Int = 2_629_746
    ) {
        self.maxCharacters = maxCharacters
        self.charactersReservedPerURL = charactersReservedPerURL
        self.maxMediaAttachments = maxMediaAttachments
        self.maxPollOptions = maxPollOptions
        self.maxCharactersPerPollOption = maxCharactersPerPollOption
        self.minPollExpiration = minPollExpiration
        self.maxPollExpiration = maxPollExpiration
    }

    /// A stock Mastodon server's limits (what it reports when its admin changed nothing).
    public static let mastodonDefaults = ComposeLimits()
}
