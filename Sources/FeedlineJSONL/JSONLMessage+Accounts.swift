@_spi(FeedService) import Feedline
import Foundation

/// The account messages: `relationship`, `profile` and `domainBlock`.
extension JSONLMessage {
    /// How the user and one account relate now, as every screen shows it — the values the user
    /// wants, with what still waits for the server in `pending` and the last refusal in
    /// `failure`: written after every change of it in the session's relationship store, whatever
    /// caused it (a command, the server's answer, a load). Every field, always in this order:
    /// `{"type":"relationship","account":"109302","following":true,"requested":false,
    /// "followedBy":false,"muting":false,"mutingNotifications":false,"mutingUntil":null,
    /// "blocking":false,"blockedBy":false,"domainBlocking":false,"notifying":false,
    /// "showingBoosts":true,"note":"","pending":["follow"],"failure":null,"requestedBy":false,
    /// "requestAnswer":null}`. `mutingUntil` is ISO 8601 (or `null`: no mute, or one without
    /// end); `pending` lists kinds in the order follow, mute, block, notify, boosts;
    /// `requestAnswer` is the user's answer to the account's follow request once given
    /// (`{"accept":true,"pending":false,"failure":null}`), else `null`.
    package static func relationship(_ change: RelationshipChange) -> JSONLValue {
        let r = change.display
        return .object([
            ("type", "relationship"),
            ("account", .string(change.accountID.rawValue)),
            ("following", .bool(r.following)),
            ("requested", .bool(r.requested)),
            ("followedBy", .bool(r.followedBy)),
            ("muting", .bool(r.muting)),
            ("mutingNotifications", .bool(r.mutingNotifications)),
            ("mutingUntil", .optional(r.mutingUntil.map { ISO8601DateFormatter().string(from: $0) })),
            ("blocking", .bool(r.blocking)),
            ("blockedBy", .bool(r.blockedBy)),
            ("domainBlocking", .bool(r.domainBlocking)),
            ("notifying", .bool(r.notifying)),
            ("showingBoosts", .bool(r.showingBoosts)),
            ("note", .string(r.note)),
            ("pending", .array(RelationshipKind.allCases.filter(change.display.pending.contains).map { .string($0.rawValue) })),
            ("failure", .optional(change.display.failure?.message)),
            ("requestedBy", .bool(r.requestedBy)),
            ("requestAnswer", change.display.requestAnswer.map { answer in
                .object([
                    ("accept", .bool(answer.isOn)), ("pending", .bool(answer.pending)), ("failure", .optional(answer.failure)),
                ])
            } ?? .null),
        ])
    }

    /// The header of the profile on screen `screen` (a list of `account:…`, whose `route` is
    /// written as it was pushed) once it loaded — who the account is; `account` is the id the
    /// relationship commands take — or, when it could not load, why
    /// (`{"type":"profile","screen":1,"route":{…},"error":"…"}`). `nil` while it loads.
    ///
    /// Loaded: `screen`, `route`, `account`, `handle`, `name`, `bio` (text), `fields`
    /// (`[{"name","value","verified"}]`), `followers`, `following`, `posts`, `joined` (ISO 8601
    /// or `null`), `bot`, `locked`, `group`, `movedTo` (a handle, or `null`), `featuredTags`
    /// (`[{"name","posts","lastUsed"}]`, `posts` and `lastUsed` `null` when the server did not
    /// say), in this order.
    public static func profile(_ header: ProfileHeader, screen: Int) -> JSONLValue? {
        var fields: [(String, JSONLValue)] = [
            ("type", "profile"), ("screen", .int(screen)), ("route", route(.list(.feed(.account(header.requested))))),
        ]
        if let profile = header.profile {
            fields += [
                ("account", .string(profile.accountID.rawValue)),
                ("handle", .string("@" + profile.author.handle)),
                ("name", .string(profile.author.name)),
                ("bio", .string(profile.bio)),
                ("fields", .array(profile.fields.map { field in
                    .object([("name", .string(field.name)), ("value", .string(field.value)), ("verified", .bool(field.verified))])
                })),
                ("followers", .int(profile.followersCount)),
                ("following", .int(profile.followingCount)),
                ("posts", .int(profile.postsCount)),
                ("joined", .optional(profile.joined.map { ISO8601DateFormatter().string(from: $0) })),
                ("bot", .bool(profile.bot)),
                ("locked", .bool(profile.locked)),
                ("group", .bool(profile.group)),
                ("movedTo", .optional(profile.movedTo.map { "@" + $0.handle })),
                ("featuredTags", .array(header.featuredTags.map { tag in
                    .object([
                        ("name", .string(tag.name)), ("posts", tag.accountPosts.map { JSONLValue.int($0) } ?? .null),
                        ("lastUsed", .optional(tag.lastUsed.map { ISO8601DateFormatter().string(from: $0) })),
                    ])
                })),
            ]
        } else if let failure = header.failure {
            fields.append(("error", .string(failure.message)))
        } else {
            return nil
        }
        return .object(fields)
    }

    /// An account row's fields after `id` and `kind`: `account` (the id relationship commands
    /// take), `handle`, `name`, `bio`, `bot`, `locked`, `group`, `movedTo`, and `relationship`
    /// (as the `relationship` message has it, without `type` and `account`; `null` until known).
    static func accountFields(_ row: AccountRow) -> [(String, JSONLValue)] {
        let profile = row.profile
        var relationship: JSONLValue = .null
        if let display = row.relationship, case .object(let fields) = self.relationship(RelationshipChange(accountID: row.id, display: display)) {
            relationship = .object(fields.filter { $0.0 != "type" && $0.0 != "account" })
        }
        return [
            ("account", .string(profile.accountID.rawValue)),
            ("handle", .string("@" + profile.author.handle)),
            ("name", .string(profile.author.name)),
            ("bio", .string(profile.bio)),
            ("bot", .bool(profile.bot)),
            ("locked", .bool(profile.locked)),
            ("group", .bool(profile.group)),
            ("movedTo", .optional(profile.movedTo.map { "@" + $0.handle })),
            ("relationship", relationship),
        ] + reported(row.reported)
    }

    /// A domain's block as every screen shows it — the value the user wants, whether it waits
    /// for the server, and the last refusal: written after every change of it in the session's
    /// domain block store, whatever caused it (a command, the server's answer or refusal, a load
    /// of the blocked domains, `retry`). Every field, always in this order:
    /// `{"type":"domainBlock","domain":"promo.example","blocked":true,"pending":true,"failure":null}`.
    package static func domainBlock(_ change: DomainBlockChange) -> JSONLValue {
        .object([("type", "domainBlock")] + domainBlockFields(change.domain, change.display))
    }

    /// `domain`, `blocked`, `pending`, `failure`: a `domainBlock` message's fields after `type`,
    /// and a domain row's after `id` and `kind`.
    static func domainBlockFields(_ domain: String, _ display: ToggleDisplay) -> [(String, JSONLValue)] {
        [("domain", .string(domain)), ("blocked", .bool(display.isOn)), ("pending", .bool(display.pending)), ("failure", .optional(display.failure))]
    }
}

extension JSONLMessage {
    /// The reply to `rules`: the instance's rules in the server's order, each with the `id` a
    /// `report` names: `{"type":"rules","id":1,"rules":[{"id":"1","text":"…","hint":""}]}`.
    package static func rules(_ rules: [InstanceRule], id: JSONLValue?) -> JSONLValue {
        let listed: [JSONLValue] = rules.map { rule in
            .object([("id", .string(rule.id)), ("text", .string(rule.text)), ("hint", .string(rule.hint))])
        }
        return .object([("type", "rules")] + (id.map { [("id", $0)] } ?? []) + [("rules", .array(listed))])
    }
}
