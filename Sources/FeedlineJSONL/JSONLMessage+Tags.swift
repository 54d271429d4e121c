import Feedline

/// The hashtag messages: `tagHeader` and `tagFollow`.
extension JSONLMessage {
    /// `{"type":"tagHeader","screen":1,"name":"birds","weeklyUses":12,"weeklyAccounts":7,
    /// "following":true,"error":null}`: a hashtag timeline's header once its load ended
    /// (`error` says why it failed; the week's uses are then `null`, and `following` is what the
    /// session knows, if anything).
    public static func tagHeader(_ header: TagHeader, screen: Int) -> JSONLValue {
        .object([
            ("type", "tagHeader"), ("screen", .int(screen)), ("name", .string(header.tag?.name ?? header.name)),
            ("weeklyUses", header.tag?.weeklyUses.map(JSONLValue.int) ?? .null),
            ("weeklyAccounts", header.tag?.weeklyAccounts.map(JSONLValue.int) ?? .null),
            ("following", (header.follow?.isOn ?? header.tag?.following).map(JSONLValue.bool) ?? .null),
            ("error", .optional(header.failure?.message)),
        ])
    }

    /// Whether the user follows one hashtag, as every screen shows it — the value the user
    /// wants, whether it waits for the server, and the last refusal: written after every change
    /// of it in the session's tag store, whatever caused it (a command, the server's answer or
    /// refusal, a load of hashtags that says whether the user follows them, `retry`). Every
    /// field, always in this order:
    /// `{"type":"tagFollow","tag":"birds","following":true,"pending":true,"failure":null}`.
    /// `tag` is the hashtag's key (its name lower-cased, without `#`), as its row id has it
    /// (`tag:birds`); a hashtag row's `following` is this message's.
    package static func tagFollow(_ change: TagFollowChange) -> JSONLValue {
        .object([
            ("type", "tagFollow"), ("tag", .string(change.tag)), ("following", .bool(change.display.isOn)),
            ("pending", .bool(change.display.pending)), ("failure", .optional(change.display.failure)),
        ])
    }
}
