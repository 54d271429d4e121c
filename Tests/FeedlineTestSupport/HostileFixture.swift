import Foundation

/// A sandbox fixture directory written as a hostile server would answer: every string a server
/// supplies — a post's text and content warning, an account's name, handle, bio and profile
/// fields, a moved account's new handle, a poll's options, a media description and address, a
/// link card, a hashtag, a filter's title, a list's title, notifications and conversations — is
/// made of seeded random pieces among which terminal escape sequences (OSC 52 clipboard writes,
/// window titles, OSC 8 links, CSI), the bell, C0 and C1 controls, bidirectional overrides and
/// isolates, and zero-width and other invisible characters, beside ordinary words and the
/// joiners that belong where they are (an emoji sequence, a Persian word, a Devanagari conjunct).
///
/// ``forbidden(in:)`` is the oracle the tests hold output to, written apart from the sanitiser.
public struct HostileFixture {
    /// What the fixture holds, for a script that visits it.
    public var posts: Int
    /// A hashtag the fixture's hashtag rows and posts carry (hostile too).
    public var tag: String

    /// The pieces text is made of that a terminal must never receive as they are.
    public static let hostilePieces: [String] = [
        "\u{1B}]52;c;cHduZWQ=\u{07}", "\u{1B}]0;pwned\u{07}", "\u{1B}]8;;https://evil.example/\u{1B}\\click\u{1B}]8;;\u{1B}\\",
        "\u{1B}[2J\u{1B}[H", "\u{1B}[31m", "\u{1B}P+q\u{1B}\\", "\u{9B}2J", "\u{9D}0;title\u{9C}", "\u{90}q\u{9C}", "\u{07}", "\r",
        "\u{08}", "\u{00}", "\u{7F}", "\u{85}", "\u{0B}", "\t", "\n", "\u{1B}",
        "\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}", "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}",
        "a\u{200B}b", "a\u{200C}b", "a\u{200D}b", "a\u{2060}b", "a\u{FEFF}b", "a\u{200E}b", "a\u{200F}b", "a\u{061C}b",
        "a\u{FE0F}b", "a\u{E0041}b", "a\u{E0001}b", "a\u{034F}b", "\u{3164}", "\u{115F}", "\u{1160}", "\u{FFA0}", "\u{2028}", "\u{2029}",
        "a\u{2064}b", "a\u{180E}b", "a\u{17B4}b", "a\u{E0100}b", "\u{200B}", "\u{200D}", "\u{200C}",
    ]

    /// Ordinary pieces, and the joined sequences whose joiners must survive.
    public static let plainPieces: [String] = ["Ana", " ", " ", "heron", "é", "日本", "🙂", "pond", "-", "_"]
    public static let joinedPieces: [String] = ["👩‍💻", "❤️", "🏴󠁧󠁢󠁳󠁣󠁴󠁿", "1️⃣", "مي\u{200C}خواهم", "क्\u{200D}ष", "👍🏽"]

    /// The scalars of `text` that must not reach a terminal: C0 controls but the line feed, DEL,
    /// C1 controls, U+2028 and U+2029, bidirectional controls, and invisible characters — except
    /// a joiner, selector or tag that stands where it stands in one of ``joinedPieces`` (between
    /// two of their characters, or after the one it follows there): text is cut anywhere, so a
    /// piece may show only in part.
    public static func forbidden(in text: String, allowingLineFeeds: Bool = true) -> [Unicode.Scalar] {
        let scalars = Array(text.unicodeScalars)
        return scalars.indices.filter { index in
            let scalar = scalars[index]
            guard isHazard(scalar, allowingLineFeeds: allowingLineFeeds) else { return false }
            let previous = index > 0 ? scalars[index - 1] : nil
            let next = index + 1 < scalars.count ? scalars[index + 1] : nil
            return !joinedNeighbours.contains { $0.joiner == scalar && $0.previous == previous && ($0.next == nil || $0.next == next) }
        }.map { scalars[$0] }
    }

    /// Each joiner, selector and tag of ``joinedPieces`` with the scalars around it there (`next`
    /// `nil` for one whose next character may be anything: a selector, a skin tone).
    private static let joinedNeighbours: [(previous: Unicode.Scalar?, joiner: Unicode.Scalar, next: Unicode.Scalar?)] = joinedPieces.flatMap { piece in
        let scalars = Array(piece.unicodeScalars)
        return scalars.indices.filter { isHazard(scalars[$0]) }.map { index in
            let joiner = scalars[index]
            let joins = joiner.value == 0x200C || joiner.value == 0x200D
            return (index > 0 ? scalars[index - 1] : nil, joiner, joins && index + 1 < scalars.count ? scalars[index + 1] : nil)
        }
    }

    /// Whether `scalar` is one a terminal must not receive from a server (outside a joined piece).
    public static func isHazard(_ scalar: Unicode.Scalar, allowingLineFeeds: Bool = true) -> Bool {
        let value = scalar.value
        if value == 0x0A { return !allowingLineFeeds }
        switch value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069,
            0x200B...0x200F, 0x2060...0x2064, 0xFEFF, 0x061C, 0x034F, 0x115F, 0x1160, 0x3164, 0xFFA0, 0x180E,
            0x17B4, 0x17B5, 0xFE00...0xFE0F, 0xE0000...0xE007F, 0xE0100...0xE01EF:
            return true
        default:
            return false
        }
    }

    /// Writes the fixture into `directory` (which exists), drawing its text from `random`.
    public static func write(to directory: URL, random: inout SeededGenerator) throws -> HostileFixture {
        func text(_ words: Int = 6) -> String {
            var pieces = [hostilePieces[random.next(below: hostilePieces.count)]]
            for _ in 0..<words {
                switch random.next(below: 4) {
                case 0: pieces.append(hostilePieces[random.next(below: hostilePieces.count)])
                case 1: pieces.append(joinedPieces[random.next(below: joinedPieces.count)])
                default: pieces.append(plainPieces[random.next(below: plainPieces.count)])
                }
            }
            pieces.shuffle(using: &random)
            // A letter between pieces, so no joiner meets an emoji or a shaped letter by chance.
            return pieces.joined(separator: "x")
        }
        /// A handle: the user part hostile (no `@`, so it stays one handle), the host plain.
        func handle(_ index: Int) -> String {
            "u\(index)" + text(2).replacingOccurrences(of: "@", with: "") + "@host\(index).example"
        }
        let accounts = (0..<4).map { index in
            Account(id: "10\(index)", acct: handle(index), name: text(), note: "<p>" + text(8) + "</p>", fields: [(text(2), text(3)), (text(2), "<p>" + text(3) + "</p>")])
        }
        let tag = "tag" + text(1).filter { !$0.isWhitespace && $0 != "#" }
        // The sandbox takes only names a hashtag can have for the hashtags you follow.
        let followed = "birds"
        let filterTitle = text(3)
        var statuses: [[String: Any]] = []
        let base = Date(timeIntervalSince1970: 1_795_280_000)
        func status(_ id: Int, by account: Account, minutesAgo: Int, extra: [String: Any] = [:]) -> [String: Any] {
            var status: [String: Any] = [
                "id": "9\(String(format: "%03d", id))", "created_at": iso(base.addingTimeInterval(Double(-minutesAgo * 60))),
                "visibility": "public", "content": "<p>" + text(10) + " #" + tag + "</p>", "spoiler_text": "",
                "replies_count": 3, "reblogs_count": 1, "favourites_count": 2, "account": account.json,
                "url": "https://host.example/@" + text(1), "media_attachments": [], "mentions": [], "tags": [["name": tag, "url": "https://host.example/tags/x"]],
                "emojis": [],
            ]
            for (key, value) in extra { status[key] = value }
            return status
        }
        statuses.append(status(10, by: accounts[0], minutesAgo: 5, extra: [
            "media_attachments": [["id": "500", "type": "image", "url": "https://files.example/" + text(1), "description": text(5)]],
            "poll": ["id": "600", "expired": false, "multiple": false, "votes_count": 3, "options": [["title": text(2), "votes_count": 2], ["title": text(2), "votes_count": 1]]],
            "card": ["url": "https://card.example/" + text(1), "title": text(4), "description": text(4), "type": "link"],
            "mentions": [["id": accounts[1].id, "username": "u1", "acct": accounts[1].acct, "url": "https://host1.example/@u1"]],
        ]))
        statuses.append(status(9, by: accounts[1], minutesAgo: 10, extra: [
            "spoiler_text": text(4),
            "filtered": [["filter": ["id": "1", "title": filterTitle, "context": ["home", "public", "thread", "account"], "filter_action": "warn"], "keyword_matches": ["x"]]],
        ]))
        var original = status(7, by: accounts[3], minutesAgo: 30)
        original["in_reply_to_id"] = "9010"
        statuses.append(status(8, by: accounts[2], minutesAgo: 12, extra: ["content": "", "reblog": original]))
        statuses.append(status(6, by: accounts[2], minutesAgo: 40, extra: ["quote": ["state": "accepted", "quoted_status_id": "9010"]]))
        statuses.append(status(5, by: accounts[0], minutesAgo: 50, extra: ["in_reply_to_id": "9010", "in_reply_to_account_id": accounts[0].id]))
        let direct = status(4, by: accounts[1], minutesAgo: 60, extra: [
            "visibility": "direct",
            "mentions": [["id": "1", "username": "you", "acct": "you", "url": "https://home.example/@you"]],
        ])
        try json(statuses).write(to: directory.appendingPathComponent("home.json"))
        try json([direct]).write(to: directory.appendingPathComponent("direct.json"))
        let notifications: [[String: Any]] = [
            ["id": "71", "type": "mention", "created_at": iso(base.addingTimeInterval(-120)), "account": accounts[0].json, "status": statuses[0]],
            ["id": "72", "type": "follow", "created_at": iso(base.addingTimeInterval(-180)), "account": accounts[2].json],
            ["id": "73", "type": "favourite", "created_at": iso(base.addingTimeInterval(-240)), "account": accounts[1].json, "status": statuses[0]],
        ]
        try json(notifications).write(to: directory.appendingPathComponent("notifications.json"))
        let directory_: [[String: Any]] = accounts.enumerated().map { index, account in
            var entry: [String: Any] = [
                "acct": account.acct, "id": account.id, "display_name": account.name, "note": account.note,
                "fields": account.fields.map { ["name": $0.0, "value": $0.1, "verified_at": NSNull()] },
                "followers_count": 12, "following_count": 3, "statuses_count": 40, "created_at": "2022-11-08T00:00:00.000Z",
            ]
            if index == 3 { entry["moved"] = accounts[1].acct }
            if index == 0 { entry["relationship"] = ["following": true] }
            return entry
        }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("accounts"), withIntermediateDirectories: true)
        try json(directory_).write(to: directory.appendingPathComponent("accounts/directory.json"))
        let scenario: [String: Any] = [
            "elsewhere": ["direct.json"],
            "notifications": "notifications.json",
            "accounts": "accounts/directory.json",
            "followed_tags": [followed],
            "conversations": [["id": "41", "last_status": "9004", "unread": true]],
            "lists": [["title": text(3), "accounts": [accounts[0].acct]]],
            "account": ["id": "1", "username": "you", "acct": "you", "display_name": "You", "created_at": "2023-03-14T00:00:00.000Z"],
        ]
        try json(scenario).write(to: directory.appendingPathComponent("scenario.json"))
        return HostileFixture(posts: statuses.count, tag: tag)
    }

    private struct Account {
        var id: String
        var acct: String
        var name: String
        var note: String
        var fields: [(String, String)]

        var json: [String: Any] {
            [
                "id": id, "username": String(acct.split(separator: "@").first ?? ""), "acct": acct, "display_name": name,
                "note": note, "url": "https://host.example/@x", "created_at": "2022-11-08T00:00:00.000Z",
                "followers_count": 12, "following_count": 3, "statuses_count": 40, "emojis": [],
                "fields": fields.map { ["name": $0.0, "value": $0.1, "verified_at": NSNull()] },
                "locked": false, "bot": false, "group": false,
            ]
        }
    }

    private static func iso(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    private static func json(_ value: Any) throws -> Data {
        try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])
    }
}
