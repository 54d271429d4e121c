import Feedline

/// The `outcome` message: what you asked, answered.
extension JSONLMessage {
    /// One ``Outcome`` of the session — a change asked (by this client or by the session itself:
    /// a redraft's delete) and what the server did with it:
    /// `{"type":"outcome","id":2,"subject":{"change":"favourite","post":"1","value":true},"result":"done","sentence":null}`.
    /// `id` is the id of the command that asked it (`null` when none named it); `result` is
    /// `done`, `refused`, `notApplied` or `queued`; `sentence` is the server's sentence of a
    /// refusal, or the reason a queued change waits (then `retryIn`, in seconds, says when it
    /// is sent again); `null` otherwise.
    package static func outcome(_ outcome: Outcome, id: JSONLValue?) -> JSONLValue {
        var fields: [(String, JSONLValue)] = [("type", "outcome"), ("id", id ?? .null), ("subject", .object(subjectFields(outcome.subject)))]
        switch outcome {
        case .done: fields += [("result", "done"), ("sentence", .null)]
        case .notApplied: fields += [("result", "notApplied"), ("sentence", .null)]
        case .refused(_, let sentence): fields += [("result", "refused"), ("sentence", .string(sentence))]
        case .queued(_, let reason, let after):
            fields += [("result", "queued"), ("sentence", .string(reason)), ("retryIn", .number(seconds(after)))]
        }
        return .object(fields)
    }

    /// What was asked: `change` names it, then what it was asked of and the value asked.
    static func subjectFields(_ subject: Outcome.Subject) -> [(String, JSONLValue)] {
        switch subject {
        case .interaction(let kind, let value, let post):
            [("change", .string(kind.rawValue)), ("post", .string(post.rawValue)), ("value", .bool(value))]
        case .relationship(let kind, let value, let account):
            [("change", .string(kind.rawValue)), ("account", .string(account.rawValue)), ("value", .bool(value))]
        case .followRequest(let account, let accept):
            [("change", "followRequest"), ("account", .string(account.rawValue)), ("value", .bool(accept))]
        case .domainBlock(let domain, let blocked):
            [("change", "domainBlock"), ("domain", .string(domain)), ("value", .bool(blocked))]
        case .tagFollow(let tag, let following):
            [("change", "tagFollow"), ("tag", .string(tag)), ("value", .bool(following))]
        case .listMembership(let list, let account, let member):
            [("change", "listMembership"), ("list", .string(list)), ("account", .string(account.rawValue)), ("value", .bool(member))]
        case .list(let list, let title, let was):
            [("change", "list"), ("list", .string(list)), ("title", .optional(title)), ("was", .optional(was))]
        case .filter(let filter, let title, let was):
            [("change", "filter"), ("filter", .string(filter)), ("title", .optional(title)), ("was", .optional(was))]
        case .conversationRead(let conversation, let read):
            [("change", "conversationRead"), ("conversation", .string(conversation)), ("value", .bool(read))]
        case .conversationRemoval(let conversation):
            [("change", "conversationRemoval"), ("conversation", .string(conversation))]
        case .notificationDismissal(let group):
            [("change", "notificationDismissal"), ("notification", .string(group))]
        case .notificationsCleared:
            [("change", "notificationsCleared")]
        case .announcementRead(let announcement):
            [("change", "announcementRead"), ("announcement", .string(announcement))]
        case .report(let account):
            [("change", "report"), ("account", .string(account.rawValue))]
        case .translation(let post):
            [("change", "translate"), ("post", .string(post.rawValue))]
        case .deletion(let post):
            [("change", "delete"), ("post", .string(post.rawValue))]
        case .vote(let post, let choices):
            // Counted from 1, as the `vote` command takes them.
            [("change", "vote"), ("post", .string(post.rawValue)), ("choices", .array(choices.map { .number(Double($0 + 1)) }))]
        case .edit(let post):
            [("change", "edit"), ("post", .string(post.rawValue))]
        case .editDraft(let post, let draft):
            [("change", "editDraft"), ("post", .string(post.rawValue)), ("draft", .optional(draft?.rawValue))]
        case .redraft(let post, let draft):
            [("change", "redraft"), ("post", .string(post.rawValue)), ("draft", .optional(draft?.rawValue))]
        case .scheduled(let id, let at):
            [("change", at == nil ? "scheduledCancel" : "scheduledEdit"), ("scheduled", .string(id)), ("at", .optional(at.map(JSONLMessage.timestamp)))]
        case .notificationPolicy(let field, let value):
            [("change", "notificationPolicy"), ("field", .string(field)), ("value", .string(value))]
        case .notificationRequest(let id, let accept):
            [("change", accept ? "notificationRequestAccept" : "notificationRequestDismiss"), ("request", .string(id))]
        case .profile:
            [("change", "profile")]
        }
    }
}
