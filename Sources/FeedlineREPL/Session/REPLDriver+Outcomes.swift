@_spi(FeedService) import Feedline

/// What you asked, answered: the session's one stream of outcomes (``FeedSession/observeOutcomes(_:)``)
/// says when the server answered a change typed here, and the REPL reports it then — done, or
/// refused with the store's sentence (its wording of the server's) — instead of remembering what
/// it asked and comparing it with what the stores show. A change queued for lack of a connection
/// says nothing yet: it stays on its way (`unsent` lists it) until its re-send is answered.
extension REPLDriver {
    /// A change on a post typed here whose outcome the REPL reports in its own words.
    enum AskedOnPost: Hashable {
        case deletion(PostID), vote(PostID), editDraft(PostID), redraft(PostID), translation(PostID)
    }

    func outcomeHeard(_ outcome: Outcome) {
        if case .queued = outcome { return }
        let refused: String? =
            switch outcome {
            case .refused(_, let message): message
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
        case .report(let account):
            reportAnswered(account, refused: refused)
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
        case .list(let id, let title, let was):
            // Answered without applying it: the lists show what the server has, said as done.
            let refused: String? = if case .refused(_, let message) = outcome { message } else { nil }
            // A refusal of a change asked again meanwhile says nothing: the next one goes.
            if refused != nil, session.lists.list(id)?.pending == true { return }
            reports.append(Self.listSentence(id: id, title: title, was: was, refused: refused))
        case .filter(let id, let title, let was):
            let refused: String? = if case .refused(_, let message) = outcome { message } else { nil }
            // A refusal of a change asked again meanwhile says nothing: the next one goes.
            if refused != nil, case .filter(_, let state)? = session.filters.row(id), state.pending { return }
            reports.append(Self.filterSentence(id: id, title: title, was: was, refused: refused))
        case .deletion(let post):
            guard let (excerpt, _) = askedOnPosts.removeValue(forKey: .deletion(post)) else { return }
            if let refused {
                reports.append("Could not delete \(excerpt): \(refused) It is back where it was.")
            } else {
                reports.append("Deleted: \(excerpt).")
            }
        case .vote(let post, _):
            guard let (what, _) = askedOnPosts.removeValue(forKey: .vote(post)) else { return }
            if let refused { reports.append("Your vote in the poll of \(what) did not count: \(refused)") }
        case .editDraft(let post, let draft):
            guard let (what, text) = askedOnPosts.removeValue(forKey: .editDraft(post)) else { return }
            editDraftMade(draft, refusal: refused, what: what, text: text)
        case .redraft(let post, let draft):
            guard let (what, _) = askedOnPosts.removeValue(forKey: .redraft(post)) else { return }
            redrafted(draft, refusal: refused, what: what)
        case .translation(let post):
            guard let (what, _) = askedOnPosts.removeValue(forKey: .translation(post)) else { return }
            if let refused {
                reports.append("Could not translate \(what): \(refused)")
            } else if case .post? = stack.last {
                // The post screen shows it under the original.
                return
            } else {
                reports.append("Translated \(what): open it to read the translation (original shows it alone).")
            }
        case .notificationDismissal, .notificationsCleared:
            notificationsAnswered(outcome.subject, refused: refused)
        case .announcementRead(let id):
            announcementAnswered(id, refused: refused)
        case .scheduled(_, let at):
            // Heard on the scheduled screen (the row moves or goes); a refusal is said here too.
            if let refused { reports.append(at == nil ? "Could not cancel the scheduled post: \(refused)" : "Could not move the scheduled post: \(refused)") }
        case .notificationPolicy(let field, let value):
            notificationPolicyAnswered(field: field, value: value, refused: refused)
        case .notificationRequest(let id, let accept):
            notificationRequestAnswered(id, accept: accept, refused: refused)
        case .profile:
            profileAnswered(outcome)
        case .interaction, .conversationRead, .edit:
            // Heard on the rows (an interaction, a read mark) and the drafts (an edit).
            return
        }
        flushIfFollowing()
    }
}

extension REPLDriver {
    /// What a list's outcome says: "Created the list Birders." or "Could not create the list
    /// Birders: … It is gone." / "… It is back as it was."
    static func listSentence(id: String, title: String?, was: String?, refused: String?) -> String {
        namedChangeSentence(
            "list", created: UserList(id: id, title: "").isProvisional, title: title, was: was, refused: refused,
            changeVerb: "rename", changed: { "Renamed the list to \($0)." }
        )
    }

    /// What the outcome of making, changing or deleting a named thing (a list, a filter) says:
    /// "Created the THING NAME." or "Could not VERB the THING NAME: … It is gone." / "… It is
    /// back as it was." A `nil` title is a delete; `was` names it when `title` does not.
    static func namedChangeSentence(
        _ thing: String, created: Bool, title: String?, was: String?, refused: String?, changeVerb: String, changed: (String) -> String
    ) -> String {
        let named = title ?? was ?? ""
        if let refused {
            let verb = created ? "create" : title == nil ? "delete" : changeVerb
            let back = created ? "It is gone." : "It is back as it was."
            let ended = refused.last.map { ".!?".contains($0) } ?? false
            return "Could not \(verb) the \(thing) \(named): \(refused)\(ended ? "" : ".") \(back)"
        }
        if created { return "Created the \(thing) \(named)." }
        return title == nil ? "Deleted the \(thing) \(named)." : changed(named)
    }
}
