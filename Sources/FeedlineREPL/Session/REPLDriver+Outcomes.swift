import Feedline

/// What you asked, answered: the session's one stream of outcomes (``FeedSession/observeOutcomes(_:)``)
/// says when the server answered a change typed here, and the REPL reports it then — done, or
/// refused with the store's sentence (its wording of the server's) — instead of remembering what
/// it asked and comparing it with what the stores show. A change queued for lack of a connection
/// says nothing yet: it stays on its way (`unsent` lists it) until its re-send is answered.
extension REPLDriver {
    func outcomeHeard(_ outcome: Outcome) {
        if case .queued = outcome.result { return }
        let refused: String? =
            switch outcome.result {
            case .refused(let message): message
            case .notApplied: ""
            case .done, .queued: nil
            }
        switch outcome.subject {
        case .tagFollow(let tag, let following):
            if let refused {
                reports.append((session.tags.follow(tag)?.failure ?? refused) + " It is back as it was.")
            } else {
                reports.append(following ? "Done: following #\(tag)." : "Done: not following #\(tag).")
            }
        case .domainBlock(let domain, let blocked):
            if let refused {
                reports.append((session.domainBlocks.block(domain)?.failure ?? refused) + " It is back as it was.")
            } else {
                reports.append(blocked ? "Done: blocked the domain \(domain)." : "Done: unblocked the domain \(domain).")
            }
        case .listMembership(let list, let account, let member):
            let who = handles[account.rawValue].map { "@" + $0 } ?? account.handle.map { "@" + $0 } ?? "The account"
            let title = session.lists.title(of: list).map { "the list " + $0 } ?? "the list"
            if let refused {
                let failure = session.lists.membership(list: list, account: account)?.failure ?? refused
                let ended = failure.last.map { ".!?".contains($0) } ?? false
                reports.append(failure + (ended ? "" : ".") + " It is back as it was.")
            } else {
                reports.append(member ? "Done: \(who) is on \(title)." : "Done: \(who) is off \(title).")
            }
        case .conversationRemoval(let id):
            let handles = session.conversations.participantHandles(of: id) ?? "someone"
            if refused == nil {
                reports.append("Done: removed the conversation with \(handles).")
            } else if case .list(let entry)? = stack.last, entry.list.source == .conversations {
                // The row says why, back where it was.
            } else if let failure = session.conversations.failure(id) {
                reports.append(failure + " It is back on the conversations screen.")
            }
        case .followRequest(let account, let accept):
            let handle = handles[account.rawValue] ?? account.rawValue
            if refused != nil {
                let failure = session.relationships.relationship(account)?.requestAnswer?.failure ?? "Could not answer the follow request."
                reports.append(failure.replacingOccurrences(of: "the follow request", with: "the follow request of @\(handle)") + " accept or reject tries again.")
            } else {
                reports.append(accept ? "Done: accepted @\(handle)'s follow request; they follow you now." : "Done: rejected @\(handle)'s follow request.")
            }
        case .relationship(let kind, _, let account):
            relationshipAnswered(kind, account: account, refused: refused != nil)
        case .interaction, .list, .conversationRead:
            return
        }
        flushIfFollowing()
    }
}
