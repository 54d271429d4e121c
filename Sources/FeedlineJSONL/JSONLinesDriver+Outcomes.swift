@_spi(FeedService) import Feedline

/// What you asked, answered: the session's one stream of outcomes written as `outcome` messages,
/// each with the id of the command that asked it. `delete`, `vote`, `editPost` and `redraft`
/// wait for theirs before they reply.
extension JSONLinesDriver {
    /// What an outcome answers, without the value asked: a second wish of the same thing (an
    /// unfavourite after a favourite) is answered under the same topic, by the latest command.
    static func topic(of subject: Outcome.Subject) -> String {
        switch subject {
        case .interaction(let kind, _, let post): "\(kind.rawValue):\(post.rawValue)"
        case .relationship(let kind, _, let account): "\(kind.rawValue):\(account.rawValue)"
        case .followRequest(let account, _): "followRequest:\(account.rawValue)"
        case .domainBlock(let domain, _): "domainBlock:\(domain.lowercased())"
        case .tagFollow(let tag, _): "tagFollow:\(tag.lowercased())"
        case .listMembership(let list, let account, _): "listMembership:\(list):\(account.rawValue)"
        case .list(let list, _, _): "list:\(list)"
        case .filter(let filter, _, _): "filter:\(filter)"
        case .conversationRead(let id, _): "conversationRead:\(id)"
        case .conversationRemoval(let id): "conversationRemoval:\(id)"
        case .notificationDismissal(let group): "notificationDismissal:\(group)"
        case .notificationsCleared: "notificationsCleared"
        case .announcementRead(let id): "announcementRead:\(id)"
        case .translation(let post): "translate:\(post.rawValue)"
        case .report(let account): "report:\(account.rawValue)"
        case .deletion(let post): "delete:\(post.rawValue)"
        case .vote(let post, _): "vote:\(post.rawValue)"
        case .edit(let post): "edit:\(post.rawValue)"
        case .editDraft(let post, _): "editDraft:\(post.rawValue)"
        case .redraft(let post, _): "redraft:\(post.rawValue)"
        case .scheduled(let id, _): "scheduled:\(id)"
        case .notificationPolicy(let field, _): "notificationPolicy:\(field)"
        case .notificationRequest(let id, _): "notificationRequest:\(id)"
        case .profile: "profile"
        }
    }

    /// Keeps `id` as the asker of the changes `action` names directly (a post, an account, a
    /// domain, a hashtag, a list, a conversation); returns their topics. A change asked by a
    /// row (`answerRequest`, a domain block by row) or of a list being made (`createList`: its
    /// provisional id is recorded when it is made) is recorded where it is resolved, or not.
    func asked(by action: JSONLCommand.Action, id: JSONLValue?) -> [String] {
        guard let id else { return [] }
        let original = { (post: PostID) in self.session.store.originalID(of: post) ?? post }
        let subjects: [Outcome.Subject]
        switch action {
        case .toggle(let kind, let post, let value): subjects = [.interaction(kind, value ?? true, post: original(post))]
        case .relationship(let kind, let account, let value, _): subjects = [.relationship(kind, value, account: account)]
        case .domainBlock(.domain(let domain), let value, _): subjects = [.domainBlock(domain, blocked: value)]
        case .tagFollow(let tag, let value): subjects = [.tagFollow(tag, following: value)]
        case .conversation(.remove, let conversation): subjects = [.conversationRemoval(conversation)]
        case .conversation(_, let conversation): subjects = [.conversationRead(conversation, read: true)]
        case .notifications(.dismiss(let group)): subjects = [.notificationDismissal(group: group)]
        case .notifications(.clear): subjects = [.notificationsCleared]
        case .readAnnouncement(let announcement?): subjects = [.announcementRead(announcement)]
        case .listChange(.rename(let list, _)), .listChange(.delete(let list)): subjects = [.list(list, title: nil, was: nil)]
        case .listChange(.membership(let list, let account, let add)): subjects = [.listMembership(list: list, account: account, member: add)]
        case .filterChange(.update(let filter, _)), .filterChange(.delete(let filter)): subjects = [.filter(filter, title: nil, was: nil)]
        case .scheduledChange(let scheduled, _): subjects = [.scheduled(scheduled, at: nil)]
        case .notificationPolicy(let field?, let value?): subjects = [.notificationPolicy(field, value: value)]
        case .notificationRequest(let request?, let accept): subjects = [.notificationRequest(request, accept: accept)]
        case .profileEdit: subjects = [.profile]
        case .delete(let post): subjects = [.deletion(post: original(post))]
        case .translate(let post): subjects = [.translation(post: original(post))]
        case .report(let account, _, _, _, _, _): subjects = [.report(account: account)]
        case .vote(let post, let choices): subjects = [.vote(post: original(post), choices: choices)]
        case .editPost(let post): subjects = [.editDraft(post: original(post), draft: nil)]
        case .redraft(let post): subjects = [.redraft(post: original(post), draft: nil), .deletion(post: original(post))]
        case .send(let draft):
            guard let editing = session.drafts[draft]?.draft.editing else { return [] }
            subjects = [.edit(post: editing)]
        default: return []
        }
        let topics = subjects.map(Self.topic(of:))
        for topic in topics { askedBy[topic] = id }
        return topics
    }

    /// Writes `outcome` with the id of the command that asked it, and hands it to the commands
    /// waiting for it. A queued change keeps its asker: its re-send is answered later.
    func outcomeHeard(_ outcome: Outcome) {
        let topic = Self.topic(of: outcome.subject)
        let id = outcome.isFinal ? askedBy.removeValue(forKey: topic) : askedBy[topic]
        emit(JSONLMessage.outcome(outcome, id: id))
        guard outcome.isFinal, let waiting = outcomeWaiters.removeValue(forKey: topic) else { return }
        for command in waiting { command.resume(returning: .success(outcome)) }
    }

    /// Runs `start` and returns the first final outcome of `subject`'s topic after it — or, at
    /// once, why `start` asked nothing (what it returned).
    func outcome(of subject: Outcome.Subject, after start: () -> FeedFailure?) async -> Result<Outcome, FeedFailure> {
        let topic = Self.topic(of: subject)
        return await withCheckedContinuation { (answered: CheckedContinuation<Result<Outcome, FeedFailure>, Never>) in
            outcomeWaiters[topic, default: []].append(answered)
            guard let refusal = start() else { return }
            // Nothing asked, so nothing was heard: this waiter is the last of its topic.
            outcomeWaiters[topic]?.removeLast()
            if outcomeWaiters[topic]?.isEmpty == true { outcomeWaiters[topic] = nil }
            answered.resume(returning: .failure(refusal))
        }
    }
}
