@_spi(FeedService) import Feedline

/// Refusals shown until seen: the note under a row whose change the server refused ("! Could not
/// favourite this post: …") is printed once — on the screen where it happens, or announced
/// where the person is — and left out of every row printed after that, on any screen.
extension REPLDriver {
    /// A refusal, by what it is about and its sentence.
    struct Refusal: Hashable {
        enum Subject: Hashable {
            case post(PostID)
            case account(AccountID)
        }

        var subject: Subject
        var message: String
    }

    /// `row` as it is printed now: without the refusals already seen. The refusals it shows are
    /// seen once the output being gathered is written (``markRefusalsSeen()``).
    func present(_ row: ListRow) -> ListRow {
        switch row {
        case .post(let post): return .post(present(post))
        case .notification(var notification):
            if let post = notification.post { notification.post = present(post) }
            return .notification(notification)
        case .conversation(var conversation):
            if let post = conversation.lastPost { conversation.lastPost = present(post) }
            return .conversation(conversation)
        case .account(var account):
            guard var relationship = account.relationship else { return row }
            if let failure = relationship.failure, !shown(Refusal(subject: .account(account.id), message: failure.message)) {
                relationship.failure = nil
            }
            if let failure = relationship.requestAnswer?.failure, !shown(Refusal(subject: .account(account.id), message: failure)) {
                relationship.requestAnswer?.failure = nil
            }
            account.relationship = relationship
            return .account(account)
        case .gap, .tag, .domain, .userList, .filter, .announcement, .scheduled, .notificationRequest: return row
        }
    }

    private func present(_ post: PostRow) -> PostRow {
        guard let failure = post.interaction.failure, !failure.isTransient else { return post }
        var post = post
        if !shown(Refusal(subject: .post(post.originalID), message: failure.message)) { post.interaction.failure = nil }
        return post
    }

    /// Whether `refusal` is still to be shown (it is then counted as shown now).
    private func shown(_ refusal: Refusal) -> Bool {
        guard !seenRefusals.contains(refusal) else { return false }
        refusalsShown.insert(refusal)
        return true
    }

    /// The refusals printed (or announced) in the output just written are seen from now on.
    func markRefusalsSeen() {
        seenRefusals.formUnion(refusalsShown)
        refusalsShown.removeAll()
    }

    /// A refusal said another way (announced from another screen, reported in a sentence):
    /// seen from now on.
    func refusalSaid(_ subject: Refusal.Subject, _ message: String) {
        refusalsShown.insert(Refusal(subject: subject, message: message))
    }
}
