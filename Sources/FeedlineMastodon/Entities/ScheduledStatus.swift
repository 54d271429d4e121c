import Foundation

extension Mastodon {
    /// A post the server keeps to publish later (`POST /api/v1/statuses` with `scheduled_at`
    /// answers one instead of a `Status`; `GET /api/v1/scheduled_statuses` lists them): its id,
    /// its time, the parameters it will be posted with, its attachments. What Feedline reads.
    public struct ScheduledStatus: Decodable, Hashable, Sendable {
        /// The parameters it will be posted with, as they were sent (any may be `null`).
        public struct Params: Decodable, Hashable, Sendable {
            public var text: String
            public var spoilerText: String?
            public var visibility: String?
            public var inReplyToID: String?
            public var pollOptions: [String]

            enum CodingKeys: String, SnakeCaseKey {
                case text, spoilerText, visibility, inReplyToID, poll
            }

            enum PollKeys: String, CodingKey { case options }

            public init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                text = try container.decodeIfPresent(String.self, forKey: .text) ?? ""
                spoilerText = try container.decodeIfPresent(String.self, forKey: .spoilerText)
                visibility = try container.decodeIfPresent(String.self, forKey: .visibility)
                inReplyToID = (try? container.decodeNil(forKey: .inReplyToID)) == false ? try container.id(.inReplyToID) : nil
                if (try? container.decodeNil(forKey: .poll)) == false {
                    let poll = try container.nestedContainer(keyedBy: PollKeys.self, forKey: .poll)
                    pollOptions = try poll.decodeIfPresent([String].self, forKey: .options) ?? []
                } else {
                    pollOptions = []
                }
            }
        }

        public var id: String
        public var scheduledAt: Date
        public var params: Params
        public var mediaAttachments: [MediaAttachment]

        enum CodingKeys: String, SnakeCaseKey {
            case id, scheduledAt, params, mediaAttachments
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.id(.id)
            scheduledAt = try container.decode(Date.self, forKey: .scheduledAt)
            params = try container.decode(Params.self, forKey: .params)
            mediaAttachments = try container.value(.mediaAttachments, or: [])
        }
    }
}
