import Feedline
extension Mastodon {
    /// The part of a server's description that Feedline reads: where its streaming API lives,
    /// its limits, and whether it translates (`configuration.translation.enabled`, v2 only).
    /// It decodes both versions — `GET /api/v2/instance` (Mastodon 4.0 and later) names it in
    /// `configuration.urls.streaming`, `GET /api/v1/instance` in `urls.streaming_api`. Everything
    /// else is ignored; every level may be absent.
    public struct Instance: Codable, Hashable, Sendable {
        /// `configuration` (v2).
        public struct Configuration: Codable, Hashable, Sendable {
            /// `configuration.urls` (v2).
            public struct URLs: Codable, Hashable, Sendable {
                /// The streaming API's base address, e.g. `wss://streaming.example.social`.
                public var streaming: String?
            }

            /// `configuration.statuses`: how long a post may be.
            public struct Statuses: Codable, Hashable, Sendable {
                public var maxCharacters: Int?
                public var maxMediaAttachments: Int?
                public var charactersReservedPerURL: Int?

                enum CodingKeys: String, SnakeCaseKey {
                    case maxCharacters, maxMediaAttachments, charactersReservedPerURL
                }
            }

            /// `configuration.polls`: what a poll may hold.
            public struct Polls: Codable, Hashable, Sendable {
                public var maxOptions: Int?
                public var maxCharactersPerOption: Int?
                public var minExpiration: Int?
                public var maxExpiration: Int?

                enum CodingKeys: String, SnakeCaseKey {
                    case maxOptions, maxCharactersPerOption, minExpiration, maxExpiration
                }
            }

            /// `configuration.translation`: whether the server translates posts.
            public struct Translation: Codable, Hashable, Sendable {
                /// Whether `POST /api/v1/statuses/:id/translate` is offered.
                public var enabled: Bool?
            }

            public var urls: URLs?
            public var statuses: Statuses?
            public var polls: Polls?
            public var translation: Translation?
        }

        /// `urls` (v1).
        public struct LegacyURLs: Codable, Hashable, Sendable {
            /// The streaming API's base address, e.g. `wss://streaming.example.social`.
            public var streamingAPI: String?

            enum CodingKeys: String, SnakeCaseKey {
                case streamingAPI
            }
        }

        public var configuration: Configuration?
        public var urls: LegacyURLs?

        /// The limits a composer checks a draft against: the server's where it says, Mastodon's
        /// defaults elsewhere.
        public var composeLimits: ComposeLimits {
            let defaults = ComposeLimits.mastodonDefaults
            let statuses = configuration?.statuses
            let polls = configuration?.polls
            return ComposeLimits(
                maxCharacters: statuses?.maxCharacters ?? defaults.maxCharacters,
                charactersReservedPerURL: statuses?.charactersReservedPerURL ?? defaults.charactersReservedPerURL,
                maxMediaAttachments: statuses?.maxMediaAttachments ?? defaults.maxMediaAttachments,
                maxPollOptions: polls?.maxOptions ?? defaults.maxPollOptions,
                maxCharactersPerPollOption: polls?.maxCharactersPerOption ?? defaults.maxCharactersPerPollOption,
                minPollExpiration: polls?.minExpiration ?? defaults.minPollExpiration,
                maxPollExpiration: polls?.maxExpiration ?? defaults.maxPollExpiration
            )
        }

        /// The streaming base the server named: v2's when given, else v1's.
        public var streamingURL: String? { configuration?.urls?.streaming ?? urls?.streamingAPI }
    }
}

extension Mastodon.Instance {
    /// A v2 description whose `configuration.urls.streaming` is `streaming`.
    init(streaming: String?) {
        self.init(configuration: Configuration(urls: Configuration.URLs(streaming: streaming)))
    }

    /// A v1 description whose `urls.streaming_api` is `streamingAPI`.
    init(streamingAPI: String?) {
        self.init(urls: LegacyURLs(streamingAPI: streamingAPI))
    }
}
