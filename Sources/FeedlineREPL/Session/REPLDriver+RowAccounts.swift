@_spi(FeedService) import Feedline

/// The account a row names, for the commands that act on one (`profile N`, `follow N`, `mute N`,
/// `followers N`, `block-domain N` …).
extension REPLDriver {
    /// The account row `number` names — a post's author, the first account of a notification
    /// or a conversation, an account, a request of filtered notifications — or `nil` after saying
    /// what the row is instead: `instead`'s sentence for it when it gives one, otherwise "Row 4
    /// is the list Birders, not `wanted`." (`wanted` defaults to "an account").
    func account(
        namedBy row: ListRow, number: Int, notA wanted: String = "an account", instead: (ListRow) -> String? = { _ in nil }
    ) -> Author? {
        if let sentence = instead(row) {
            refuse(sentence)
            return nil
        }
        let what: String
        switch row {
        case .post(let post): return post.author
        case .account(let account): return account.author
        case .notificationRequest(let request, _): return request.account
        case .notification(let notification):
            if let account = notification.group.accounts.first { return account }
            refuse("Row \(number) names no account.")
            return nil
        case .conversation(let conversation):
            if let account = conversation.participants.first { return account }
            refuse("Row \(number) names no account.")
            return nil
        case .gap:
            refuse(gapSentence(number))
            return nil
        case .tag(let tag): what = "the hashtag #\(tag.name)"
        case .domain(let domain, _): what = "the domain \(domain)"
        case .userList(let list): what = "the list \(list.title)"
        case .filter(let filter, _): what = "the filter \(filter.title)"
        case .announcement: what = "an announcement"
        case .scheduled: what = "a scheduled post"
        }
        refuse("Row \(number) is \(what), not \(wanted).")
        return nil
    }
}
