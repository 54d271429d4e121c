@_spi(FeedService) import Feedline
import Foundation

/// `follow`, `unfollow`, `mute`, `unmute`, `block`, `unblock`, `notify`, `boosts`: set the
/// relationship with the profile on top, row N's author or a handle seen in this session —
/// through the session's one relationship store, so every screen shows it at once — and say
/// what the server answered.
extension REPLDriver {
    func setRelationship(_ command: RelationshipCommand, accountAsked: Bool = false) {
        if command.kind == .follow, let tag = followedTag(command) {
            followTag(tag, command.value)
            return
        }
        guard let (account, handle) = relationshipTarget(command) else { return }
        // A mute or block of yourself would take every post of yours off every screen: who you
        // are is asked first (once a session, as a reply does), then the core's rule says no.
        if command.value, command.kind == .mute || command.kind == .block, session.drafts.account == nil,
            session.drafts.settingsFailure == nil, !accountAsked
        {
            session.drafts.load { [weak self] in self?.setRelationship(command, accountAsked: true) }
            return
        }
        if let refusal = session.relationshipRefusal(command.kind, command.value, account: account) {
            refuse(refusal.message + " (@\(handle) is the account you are signed in as.)")
            flushIfFollowing()
            return
        }
        if let shown = session.relationship(account), shown.isOn(command.kind) == command.value,
            !shown.pending.contains(command.kind)
        {
            say("Already \(Self.state(command.kind, command.value, handle: handle, shown)).")
            return
        }
        if command.kind == .block, command.value, !command.confirmed {
            let again = RelationshipCommand(kind: .block, value: true, target: command.target, confirmed: true).text
            say("Block @\(handle)? Their posts, boosts and notifications leave every screen and any follow between you ends. Type \(again) to block.")
            return
        }
        progress(Self.progress(command, handle: handle)) { [weak self] in
            self?.session.relationship(account)?.pending.contains(command.kind) == true
        }
        if command.kind == .mute, command.value {
            session.mute(account: account, for: command.muteSeconds.map { .seconds($0) }, notifications: !command.keepNotifications)
        } else {
            session.set(command.kind, command.value, account: account)
        }
        // Refused at once, nothing sent (notify or boosts without a follow): no outcome will come.
        if let shown = session.relationship(account), let failure = shown.failure, failure.kind == command.kind,
            !shown.pending.contains(command.kind)
        {
            reportRelationshipFailure(failure, account: account, handle: handle)
            relationshipsReported.insert(account)
            flushIfFollowing()
        }
    }

    /// The account a relationship command names, with its handle; `nil` after saying why not.
    private func relationshipTarget(_ command: RelationshipCommand) -> (AccountID, String)? {
        let name = command.name
        switch command.target {
        case .handle(let handle)?:
            let wanted = handle.lowercased()
            if let id = handles.first(where: { !$0.key.hasPrefix("@") && $0.value.lowercased() == wanted })?.key {
                return (AccountID(id), handles[id] ?? handle)
            }
            refuse("@\(handle) has not been seen in this session: profile @\(handle) opens it, then \(name.rawValue) alone acts on it.")
            return nil
        case .row(let number)?:
            guard case .row(_, let row, let number)? = target(number, name: name) else { return nil }
            let account = self.account(namedBy: row, number: number) { row in
                switch row {
                case .tag(let tag): "Row \(number) is the hashtag #\(tag.name): follow \(number) and unfollow \(number) act on it; it has no \(name.rawValue)."
                case .domain(let domain, _): "Row \(number) is the domain \(domain), not an account; block-domain and unblock-domain act on it."
                default: nil
                }
            }
            return account.map { (AccountID($0.id), $0.handle) }
        case nil:
            switch stack.last {
            case .post(let entry)?:
                guard let post = loadedPost(entry) else { return nil }
                return (AccountID(post.content.author.id), post.content.author.handle)
            case .list(let entry)?:
                if let profile = entry.list.profile {
                    if let loaded = profile.current.profile { return (loaded.accountID, loaded.author.handle) }
                    refuse("The profile is still loading; \(name.rawValue) works once it shows (retry loads it again if it failed).")
                    return nil
                }
                refuse("\(name.rawValue) needs a row number or a handle here, for example: \(name.rawValue) 3 or \(name.rawValue) @kemi@fieldnotes.science; on a profile it acts on that account.")
                return nil
            case nil:
                return nil
            }
        }
    }

    /// The outcome of a relationship change typed here: done, or refused with the store's
    /// sentence — and the account's header line and rows wait for it (see `flush`).
    func relationshipAnswered(_ kind: RelationshipKind, account: AccountID, refused: Bool) {
        let handle = handles[account.rawValue] ?? account.rawValue
        guard let shown = session.relationship(account) else { return }
        if refused {
            guard let failure = shown.failure else { return }
            reportRelationshipFailure(failure, account: account, handle: handle)
        } else {
            let renderer = ProfileRenderer(width: options.width, timeZone: session.clock.timeZone)
            reports.append("Done: \(Self.state(kind, shown.isOn(kind), handle: handle, shown, formattingDates: renderer.moment)).")
        }
        relationshipsReported.insert(account)
    }

    /// Says why a relationship change did not happen: the server's refusal, or the store's own at
    /// once (notify or boosts of an account not followed).
    private func reportRelationshipFailure(_ failure: RelationshipFailure, account: AccountID, handle: String) {
        reports.append(failure.message.replacingOccurrences(of: "this account", with: "@\(handle)") + " It is back as it was.")
        refusalSaid(.account(account), failure.message)
    }

    /// Whether a relationship change of the account waits for the server.
    func relationshipPending(_ account: AccountID) -> Bool {
        !(session.relationship(account)?.pending.isEmpty ?? true)
    }

    /// "following @kemi", "follow requested from @kemi", "muted @kemi until 22 Nov 2026 18:00 UTC" …
    static func state(
        _ kind: RelationshipKind, _ value: Bool, handle: String, _ relationship: RelationshipDisplay, formattingDates format: (Date) -> String = { _ in "" }
    ) -> String {
        switch (kind, value) {
        case (.follow, true): relationship.requested ? "requested to follow @\(handle) (they approve followers)" : "following @\(handle)"
        case (.follow, false): "not following @\(handle)"
        case (.mute, true): "muted @\(handle)" + (relationship.mutingUntil.map { " until " + format($0) } ?? "")
        case (.mute, false): "not muting @\(handle)"
        case (.block, true): "blocked @\(handle)"
        case (.block, false): "not blocking @\(handle)"
        case (.notify, true): "notified of @\(handle)'s posts"
        case (.notify, false): "not notified of @\(handle)'s posts"
        case (.boosts, true): "showing @\(handle)'s boosts"
        case (.boosts, false): "hiding @\(handle)'s boosts"
        }
    }

    /// What the command did at once, before the server answers.
    static func progress(_ command: RelationshipCommand, handle: String) -> String {
        switch (command.kind, command.value) {
        case (.follow, true): "Following @\(handle)…"
        case (.follow, false): "Unfollowing @\(handle)… their posts left home."
        case (.mute, true):
            "Muting @\(handle)\(command.muteSeconds.map { " for " + RelationshipCommand.durationText($0) } ?? "")… their posts left every screen but their profile."
        case (.mute, false): "Unmuting @\(handle)…"
        case (.block, true): "Blocking @\(handle)… their posts left every screen."
        case (.block, false): "Unblocking @\(handle)…"
        case (.notify, let on): "\(on ? "Turning on" : "Turning off") notifications of @\(handle)'s posts…"
        case (.boosts, let on): "\(on ? "Showing" : "Hiding") @\(handle)'s boosts…"
        }
    }
}

extension REPLDriver {
    /// A profile's header, once it loaded (before its first rows when both came together), and
    /// after it each new relationship line; a failed load says why once.
    /// What a profile edit changes of a header: the name, bio, fields and markers.
    static func identity(_ profile: Profile) -> [String] {
        [profile.author.displayName, profile.bio, "\(profile.locked) \(profile.bot)"] + profile.fields.map { $0.name + "=" + $0.value }
    }

    func profileLines(_ entry: ListEntry) -> [String] {
        guard let profile = entry.list.profile else { return [] }
        let header = profile.current
        let renderer = ProfileRenderer(width: options.width, timeZone: session.clock.timeZone)
        if !entry.headerShown {
            if let failure = header.failure {
                entry.headerShown = true
                return wrapped("Could not load the profile: \(failure.message) (retry loads it again.)")
            }
            guard header.profile != nil else { return [] }
            entry.headerShown = true
            if let author = header.profile?.author { handles[author.id] = author.handle }
            entry.relationshipLine = renderer.relationshipLine(header)
            entry.headerProfile = header.profile
            return renderer.lines(header)
        }
        guard let shown = header.profile else { return [] }
        let line = renderer.relationshipLine(header)
        // Your own profile edited: the header again, as it is now.
        if let printed = entry.headerProfile, Self.identity(printed) != Self.identity(shown) {
            entry.headerProfile = shown
            entry.relationshipLine = line
            return renderer.lines(header)
        }
        guard line != entry.relationshipLine else { return [] }
        entry.relationshipLine = line
        // A change the person asked for says itself, in one line: on its way, then its outcome.
        if relationshipsReported.contains(shown.accountID) || relationshipPending(shown.accountID) { return [] }
        return wrapped(line ?? "You: no relationship.")
    }
}
