@_spi(FeedService) import Feedline
import Foundation

/// The JSON form of a scenario file (see `Fixtures/README.md`). Keys are checked: an unknown key
/// is an error naming it, since in a hand-written file it is almost always a typo.
struct ScenarioFile: Decodable {
    struct LatencyValue: Decodable {
        var latency: SandboxScenario.Latency

        init(from decoder: any Decoder) throws {
            let container = try decoder.strictContainer(allowing: ["ms", "min_ms", "max_ms"])
            let fixed = try container.decodeIfPresent(Int.self, forKey: AnyCodingKey("ms"))
            let minimum = try container.decodeIfPresent(Int.self, forKey: AnyCodingKey("min_ms"))
            let maximum = try container.decodeIfPresent(Int.self, forKey: AnyCodingKey("max_ms"))
            switch (fixed, minimum, maximum) {
            case (let fixed?, nil, nil):
                latency = .fixed(fixed)
            case (nil, let minimum?, let maximum?) where minimum <= maximum:
                latency = SandboxScenario.Latency(milliseconds: minimum...maximum)
            case (nil, _?, _?):
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "min_ms is greater than max_ms"))
            default:
                throw DecodingError.dataCorrupted(
                    .init(codingPath: decoder.codingPath, debugDescription: "give either ms, or both min_ms and max_ms")
                )
            }
        }
    }

    struct Arrival: Decodable {
        var file: String
        var afterPages: Int

        init(from decoder: any Decoder) throws {
            let container = try decoder.strictContainer(allowing: ["file", "after_pages"])
            file = try container.decode(String.self, forKey: AnyCodingKey("file"))
            afterPages = try container.decodeIfPresent(Int.self, forKey: AnyCodingKey("after_pages")) ?? 1
        }
    }

    struct Reaction: Decodable {
        var value: SandboxScenario.Reaction

        init(from decoder: any Decoder) throws {
            try self.init(from: decoder, allowing: ["after_pages"])
        }

        /// Reads a reaction's fields, with `also` allowed beside them (a stream entry's keys).
        init(from decoder: any Decoder, allowing also: Set<String>) throws {
            let container = try decoder.strictContainer(allowing: Set(["type", "account", "post", "at"]).union(also))
            let kind = try container.decode(Named<SandboxScenario.Reaction.Kind>.self, forKey: AnyCodingKey("type")).value
            let at = try container.decode(String.self, forKey: AnyCodingKey("at"))
            guard let date = Mastodon.DateFormat.date(from: at) else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: decoder.codingPath + [AnyCodingKey("at")], debugDescription: "\"\(at)\" is not an ISO 8601 date")
                )
            }
            value = SandboxScenario.Reaction(
                afterPages: try container.decodeIfPresent(Int.self, forKey: AnyCodingKey("after_pages")) ?? 1,
                kind: kind,
                account: try container.decode(String.self, forKey: AnyCodingKey("account")),
                postID: try container.decodeIfPresent(String.self, forKey: AnyCodingKey("post")),
                date: date
            )
        }
    }

    /// A stream item as written: `{"after_commands": 3, "event": "delete", "post": "…"}`.
    struct StreamEntry: Decodable {
        var afterCommands: Int
        var event: String
        var file: String?
        var postID: String?
        var text: String?
        var reaction: Reaction?

        static let events = ["update", "status.update", "delete", "notification", "disconnect", "reconnect"]

        init(from decoder: any Decoder) throws {
            let container = try decoder.strictContainer(allowing: ["after_commands", "event", "file", "post", "text", "at", "type", "account"])
            afterCommands = try container.decodeIfPresent(Int.self, forKey: AnyCodingKey("after_commands")) ?? 1
            event = try container.decode(String.self, forKey: AnyCodingKey("event"))
            func corrupt(_ key: String, _ message: String) -> DecodingError {
                .dataCorrupted(.init(codingPath: decoder.codingPath + [AnyCodingKey(key)], debugDescription: message))
            }
            func missing(_ key: String) -> DecodingError {
                .keyNotFound(AnyCodingKey(key), .init(codingPath: decoder.codingPath, debugDescription: ""))
            }
            let given = Set(container.allKeys.map(\.stringValue))
            let allowed: Set<String>
            switch event {
            case "update": allowed = ["after_commands", "event", "file"]
            case "status.update": allowed = ["after_commands", "event", "post", "text", "at"]
            case "delete": allowed = ["after_commands", "event", "post"]
            case "notification": allowed = ["after_commands", "event", "post", "at", "type", "account"]
            case "disconnect", "reconnect": allowed = ["after_commands", "event"]
            default:
                throw corrupt("event", "unknown event \"\(event)\" (one of \(Self.events.joined(separator: ", ")))")
            }
            if let extra = given.subtracting(allowed).sorted().first {
                throw corrupt(extra, "does not apply to a \(event) event")
            }
            switch event {
            case "update":
                guard let file = try container.decodeIfPresent(String.self, forKey: AnyCodingKey("file")) else { throw missing("file") }
                self.file = file
            case "status.update", "delete":
                guard let post = try container.decodeIfPresent(String.self, forKey: AnyCodingKey("post")) else { throw missing("post") }
                postID = post
                if event == "status.update" {
                    guard let text = try container.decodeIfPresent(String.self, forKey: AnyCodingKey("text")) else { throw missing("text") }
                    self.text = text
                    // An edit's date is optional here: `at` is read below with the notification's.
                }
            default: break
            }
            if event == "notification" || event == "status.update" {
                if event == "notification" { reaction = try Reaction(from: decoder, allowing: ["after_commands", "event"]) }
                if event == "status.update", let at = try container.decodeIfPresent(String.self, forKey: AnyCodingKey("at")) {
                    guard let date = Mastodon.DateFormat.date(from: at) else { throw corrupt("at", "\"\(at)\" is not an ISO 8601 date") }
                    editDate = date
                }
            }
        }

        /// When an edit happened, if the entry says.
        var editDate: Date?
    }

    struct Rule: Decodable {
        var match: SandboxScenario.Match
        var failure: SandboxScenario.Failure
        var milliseconds: Int?

        init(from decoder: any Decoder) throws {
            let keys: Set<String> = ["request", "max_id", "post", "occurrence", "times", "error", "ms"]
            let container = try decoder.strictContainer(allowing: keys)
            match = SandboxScenario.Match(
                try container.decode(Request.self, forKey: AnyCodingKey("request")).value,
                cursor: try container.decodeIfPresent(String.self, forKey: AnyCodingKey("max_id")),
                postID: try container.decodeIfPresent(String.self, forKey: AnyCodingKey("post")).map { PostID($0) },
                occurrence: try container.decodeIfPresent(Int.self, forKey: AnyCodingKey("occurrence")) ?? 1,
                times: try container.decodeIfPresent(Int.self, forKey: AnyCodingKey("times"))
            )
            failure = try container.decodeIfPresent(Failure.self, forKey: AnyCodingKey("error"))?.value ?? .unavailable
            milliseconds = try container.decodeIfPresent(Int.self, forKey: AnyCodingKey("ms"))
        }
    }

    struct RandomFaults: Decodable {
        var value: SandboxScenario.RandomFaults

        init(from decoder: any Decoder) throws {
            let container = try decoder.strictContainer(allowing: ["probability", "seed", "requests", "error"])
            let requests = try container.decodeIfPresent([Request].self, forKey: AnyCodingKey("requests"))
            value = SandboxScenario.RandomFaults(
                probability: try container.decode(Double.self, forKey: AnyCodingKey("probability")),
                seed: try container.decodeIfPresent(UInt64.self, forKey: AnyCodingKey("seed")) ?? 0,
                requests: requests.map { Set($0.map(\.value)) } ?? Set(SandboxScenario.Request.allCases),
                failure: try container.decodeIfPresent(Failure.self, forKey: AnyCodingKey("error"))?.value ?? .unavailable
            )
        }
    }

    /// A name that must be one of `Value`'s cases (a request kind, an error kind, a reaction
    /// type); an unknown one is an error listing the valid names.
    struct Named<Value: ScenarioName>: Decodable {
        var value: Value

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            let name = try container.decode(String.self)
            guard let value = Value(rawValue: name) else {
                let names = Value.allCases.map(\.rawValue).joined(separator: ", ")
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "unknown \(Value.noun) \"\(name)\" (one of \(names))")
            }
            self.value = value
        }
    }

    typealias Request = Named<SandboxScenario.Request>
    typealias Failure = Named<SandboxScenario.Failure>

    var pageSize: Int?
    var latency: [String: LatencyValue]
    var latencySeed: UInt64
    var arrivals: [Arrival]
    var reactions: [Reaction]
    var stream: [StreamEntry]
    var faults: [Rule]
    var delays: [Rule]
    var randomFaults: RandomFaults?
    var laggingCounts: Bool
    var account: Mastodon.Account?
    /// Files of statuses the server knows that the home timeline does not show.
    var elsewhere: [String]
    /// The file of the user's notifications.
    var notifications: String?
    /// The file of the account directory's details and the user's relationships.
    var accounts: String?
    /// The domains the user blocks at the start.
    var domainBlocks: [String]
    /// The hashtags the user follows at the start.
    var followedTags: [String]
    /// The user's conversations at the start.
    var conversations: [ConversationEntry]
    /// The user's lists at the start.
    var lists: [ListEntry]
    /// The server's custom emoji.
    var customEmojis: [Mastodon.CustomEmoji]
    /// The user's server filters at the start.
    var filters: [Mastodon.Filter]
    /// The translations the sandbox serves, by status id.
    var translations: [String: Mastodon.Translation]
    /// The instance's rules.
    var rules: [Mastodon.Rule]
    /// The instance's announcements.
    var announcements: [Mastodon.Announcement]
    /// The user's scheduled posts at the start.
    var scheduled: [Mastodon.ScheduledStatus]
    /// The user's notification policy at the start.
    var notificationPolicy: Mastodon.NotificationPolicy?
    /// The user's requests of filtered notifications at the start.
    var notificationRequests: [Mastodon.NotificationRequest]

    struct ListEntry: Decodable {
        var title: String
        var accounts: [String]?
    }

    /// The sandbox's other identities, each a fixture directory of its own.
    var identities: [IdentityEntry]

    /// An identity as written: `{"name": "kemi", "fixtures": "identities/kemi"}`.
    struct IdentityEntry: Decodable {
        var value: SandboxScenario.Identity

        init(from decoder: any Decoder) throws {
            let container = try decoder.strictContainer(allowing: ["name", "fixtures"])
            value = SandboxScenario.Identity(
                name: try container.decode(String.self, forKey: AnyCodingKey("name")),
                fixtures: try container.decode(String.self, forKey: AnyCodingKey("fixtures"))
            )
        }
    }

    init(from decoder: any Decoder) throws {
        let keys: Set<String> = [
            "page_size", "latency", "latency_seed", "arrivals", "faults", "delays", "random_faults", "lagging_counts", "account",
            "elsewhere", "notifications", "reactions", "stream", "accounts", "domain_blocks", "followed_tags", "conversations", "lists",
            "custom_emojis", "filters", "translations", "rules", "announcements", "scheduled_statuses",
            "notification_policy", "notification_requests", "identities",
        ]
        let container = try decoder.strictContainer(allowing: keys)
        pageSize = try container.decodeIfPresent(Int.self, forKey: AnyCodingKey("page_size"))
        latency = try container.decodeIfPresent([String: LatencyValue].self, forKey: AnyCodingKey("latency")) ?? [:]
        latencySeed = try container.decodeIfPresent(UInt64.self, forKey: AnyCodingKey("latency_seed")) ?? 0
        arrivals = try container.decodeIfPresent([Arrival].self, forKey: AnyCodingKey("arrivals")) ?? []
        reactions = try container.decodeIfPresent([Reaction].self, forKey: AnyCodingKey("reactions")) ?? []
        stream = try container.decodeIfPresent([StreamEntry].self, forKey: AnyCodingKey("stream")) ?? []
        faults = try container.decodeIfPresent([Rule].self, forKey: AnyCodingKey("faults")) ?? []
        delays = try container.decodeIfPresent([Rule].self, forKey: AnyCodingKey("delays")) ?? []
        randomFaults = try container.decodeIfPresent(RandomFaults.self, forKey: AnyCodingKey("random_faults"))
        laggingCounts = try container.decodeIfPresent(Bool.self, forKey: AnyCodingKey("lagging_counts")) ?? false
        account = try container.decodeIfPresent(Mastodon.Account.self, forKey: AnyCodingKey("account"))
        elsewhere = try container.decodeIfPresent([String].self, forKey: AnyCodingKey("elsewhere")) ?? []
        notifications = try container.decodeIfPresent(String.self, forKey: AnyCodingKey("notifications"))
        accounts = try container.decodeIfPresent(String.self, forKey: AnyCodingKey("accounts"))
        domainBlocks = try container.decodeIfPresent([String].self, forKey: AnyCodingKey("domain_blocks")) ?? []
        followedTags = try container.decodeIfPresent([String].self, forKey: AnyCodingKey("followed_tags")) ?? []
        conversations = try container.decodeIfPresent([ConversationEntry].self, forKey: AnyCodingKey("conversations")) ?? []
        lists = try container.decodeIfPresent([ListEntry].self, forKey: AnyCodingKey("lists")) ?? []
        customEmojis = try container.decodeIfPresent([Mastodon.CustomEmoji].self, forKey: AnyCodingKey("custom_emojis")) ?? []
        filters = try container.decodeIfPresent([Mastodon.Filter].self, forKey: AnyCodingKey("filters")) ?? []
        translations = try container.decodeIfPresent([String: Mastodon.Translation].self, forKey: AnyCodingKey("translations")) ?? [:]
        rules = try container.decodeIfPresent([Mastodon.Rule].self, forKey: AnyCodingKey("rules")) ?? []
        announcements = try container.decodeIfPresent([Mastodon.Announcement].self, forKey: AnyCodingKey("announcements")) ?? []
        scheduled = try container.decodeIfPresent([Mastodon.ScheduledStatus].self, forKey: AnyCodingKey("scheduled_statuses")) ?? []
        notificationPolicy = try container.decodeIfPresent(Mastodon.NotificationPolicy.self, forKey: AnyCodingKey("notification_policy"))
        notificationRequests =
            try container.decodeIfPresent([Mastodon.NotificationRequest].self, forKey: AnyCodingKey("notification_requests")) ?? []
        identities = try container.decodeIfPresent([IdentityEntry].self, forKey: AnyCodingKey("identities")) ?? []

        let kinds = Set(["default"] + SandboxScenario.Request.allCases.map(\.rawValue))
        if let unknown = latency.keys.sorted().first(where: { !kinds.contains($0) }) {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: [AnyCodingKey("latency"), AnyCodingKey(unknown)],
                    debugDescription: "unknown request (one of \(kinds.sorted().joined(separator: ", ")))"
                )
            )
        }
        for (index, delay) in delays.enumerated() where delay.milliseconds == nil {
            throw DecodingError.keyNotFound(
                AnyCodingKey("ms"), .init(codingPath: [AnyCodingKey("delays"), AnyCodingKey(index: index)], debugDescription: "")
            )
        }
    }

    /// The scenario this file describes, with arrivals and streamed updates read by `statuses(file)`.
    func scenario(arrivals statuses: (String) throws -> [Mastodon.Status]) rethrows -> SandboxScenario {
        var latencies: [SandboxScenario.Request: SandboxScenario.Latency] = [:]
        for (name, value) in latency {
            if let request = SandboxScenario.Request(rawValue: name) { latencies[request] = value.latency }
        }
        var scenario = SandboxScenario(
            pageSize: pageSize,
            latency: latencies,
            defaultLatency: latency["default"]?.latency ?? .none,
            latencySeed: latencySeed,
            faults: faults.map { SandboxScenario.Fault($0.match, failure: $0.failure) },
            delays: delays.map { SandboxScenario.Delay($0.match, extra: .milliseconds($0.milliseconds ?? 0)) },
            randomFaults: randomFaults?.value,
            arrivals: try arrivals.map { SandboxScenario.Arrival(afterPages: $0.afterPages, statuses: try statuses($0.file)) },
            reactions: reactions.map(\.value),
            stream: try stream.map { entry in
                let kind: SandboxScenario.StreamItem.Kind
                switch entry.event {
                case "update": kind = .update(try statuses(entry.file ?? ""))
                case "status.update": kind = .edit(postID: entry.postID ?? "", text: entry.text ?? "", date: entry.editDate)
                case "delete": kind = .delete(postID: entry.postID ?? "")
                case "notification":
                    guard let reaction = entry.reaction?.value else { throw FixtureError.badScenario("scenario.json", "stream: a notification without its fields") }
                    kind = .notification(reaction)
                case "disconnect": kind = .disconnect
                default: kind = .reconnect
                }
                return SandboxScenario.StreamItem(afterCommands: entry.afterCommands, kind)
            },
            laggingCounts: laggingCounts,
            account: account ?? SandboxScenario.defaultAccount,
            domainBlocks: domainBlocks,
            followedTags: followedTags,
            lists: lists.map { SandboxScenario.ListFixture(title: $0.title, accounts: $0.accounts ?? []) }
        )
        scenario.conversations = conversations.map(\.value)
        scenario.customEmojis = customEmojis
        scenario.filters = filters
        scenario.translations = translations
        scenario.rules = rules
        scenario.announcements = announcements
        scenario.scheduled = scheduled
        scenario.notificationPolicy = notificationPolicy
        scenario.notificationRequests = notificationRequests
        scenario.identities = identities.map(\.value)
        return scenario
    }
}

extension AnyCodingKey {
    init(index: Int) {
        self.init(String(index))
        intValue = index
    }
}

extension Decoder {
    /// A keyed container that throws for any key outside `allowed`, naming it.
    func strictContainer(allowing allowed: Set<String>) throws -> KeyedDecodingContainer<AnyCodingKey> {
        let container = try container(keyedBy: AnyCodingKey.self)
        if let unknown = container.allKeys.map(\.stringValue).sorted().first(where: { !allowed.contains($0) }) {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: codingPath + [AnyCodingKey(unknown)],
                    debugDescription: "unknown key (expected one of \(allowed.sorted().joined(separator: ", ")))"
                )
            )
        }
        return container
    }
}

/// A scenario file's closed set of names, and what the file calls one in an error.
protocol ScenarioName: RawRepresentable<String>, CaseIterable {
    /// The word an error puts before an unknown name: `unknown request "x" (one of …)`.
    static var noun: String { get }
}

extension SandboxScenario.Request: ScenarioName {
    static var noun: String { "request" }
}

extension SandboxScenario.Failure: ScenarioName {
    static var noun: String { "error" }
}

extension SandboxScenario.Reaction.Kind: ScenarioName {
    static var noun: String { "type" }
}
