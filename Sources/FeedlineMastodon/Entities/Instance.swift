extension Mastodon {
    /// The part of a server's description that Feedline reads: where its streaming API lives.
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

                public init(streaming: String? = nil) { self.streaming = streaming }
            }

            public var urls: URLs?

            public init(urls: URLs? = nil) { self.urls = urls }
        }

        /// `urls` (v1).
        public struct LegacyURLs: Codable, Hashable, Sendable {
            /// The streaming API's base address, e.g. `wss://streaming.example.social`.
            public var streamingAPI: String?

            public init(streamingAPI: String? = nil) { self.streamingAPI = streamingAPI }

            enum CodingKeys: String, CodingKey {
                case streamingAPI = "streaming_api"
            }
        }

        public var configuration: Configuration?
        public var urls: LegacyURLs?

        public init(configuration: Configuration? = nil, urls: LegacyURLs? = nil) {
            self.configuration = configuration
            self.urls = urls
        }

        /// A v2 description whose `configuration.urls.streaming` is `streaming`.
        public init(streaming: String?) {
            self.init(configuration: Configuration(urls: Configuration.URLs(streaming: streaming)))
        }

        /// A v1 description whose `urls.streaming_api` is `streamingAPI`.
        public init(streamingAPI: String?) {
            self.init(urls: LegacyURLs(streamingAPI: streamingAPI))
        }

        /// The streaming base the server named: v2's when given, else v1's.
        public var streamingURL: String? { configuration?.urls?.streaming ?? urls?.streamingAPI }
    }
}
