import Feedline

/// The outbox as the REPL tells it: what a retry sends and how it went, queued taps with why and when.
extension REPLDriver {
    func retry() {
        if case .list(let entry)? = stack.last, entry.list.status.olderFailure != nil, entry.screen.viewport.showsAll {
            entry.screen.owed = max(entry.screen.owed, options.pageSize)
        }
        let sending = session.store.retryableInteractions
        if !session.retry() {
            say(isLoading ? "Still loading; nothing to retry yet." : "Nothing failed; nothing to retry.")
            return
        }
        guard !sending.isEmpty else { return }
        for entry in sending { retried[entry.postID, default: []].insert(entry.kind) }
        say("Sending again: " + sending.map(phrase).joined(separator: "; ") + ".")
    }

    /// `your favourite of Nadia Petrova's post`, `your unboost of post 1176…`.
    func phrase(_ entry: OutboxEntry) -> String {
        let owner = session.store.post(entry.postID).map { TextWidth.oneLine($0.author.name) + "'s post" } ?? "post \(entry.postID.rawValue)"
        return "your \(Self.noun(entry.kind, entry.value)) of \(owner)"
    }

    /// `favourite`, `unfavourite`, `boost`, `unboost`, `bookmark`, `bookmark removal`.
    static func noun(_ kind: InteractionKind, _ value: Bool) -> String {
        switch (kind, value) {
        case (.favourite, true): "favourite"
        case (.favourite, false): "unfavourite"
        case (.reblog, true): "boost"
        case (.reblog, false): "unboost"
        case (.bookmark, true): "bookmark"
        case (.bookmark, false): "bookmark removal"
        case (.pin, true): "pin"
        case (.pin, false): "unpin"
        case (.muteThread, true): "mute of the conversation"
        case (.muteThread, false): "unmute of the conversation"
        }
    }

    /// Says why a tap waits and when it is sent again, each time it is queued or fails again,
    /// and how a tap `retry` sent went once it answered.
    func reportOutbox(_ change: PostChange) {
        let id = change.originalID
        var reported = reportedQueued[id] ?? [:]
        for queued in change.interaction.queuedChanges {
            guard let wait = queued.retryAfter, reported[queued.kind] != queued.failedAttempts else { continue }
            reported[queued.kind] = queued.failedAttempts
            retried[id]?.remove(queued.kind)
            let tap = phrase(OutboxEntry(postID: id, kind: queued.kind, value: queued.value))
            reports.append(
                "\(tap.prefix(1).uppercased() + tap.dropFirst()) is queued: \(RowRenderer.sentence(queued.reason)) Sent again in \(Self.span(wait)), or type retry."
            )
        }
        for kind in reported.keys where !change.interaction.queued.contains(kind) { reported[kind] = nil }
        reportedQueued[id] = reported.isEmpty ? nil : reported
        guard let kinds = retried[id] else { return }
        for kind in kinds where !change.interaction.pending.contains(kind) {
            retried[id]?.remove(kind)
            // A refusal shows on the row (or is announced); only a success is said here.
            if change.interaction.failure?.kind != kind {
                reports.append("Sent: " + phrase(OutboxEntry(postID: id, kind: kind, value: change.interaction.isOn(kind))) + ".")
            }
        }
        if retried[id]?.isEmpty == true { retried[id] = nil }
    }

    /// `2 seconds`, `1 minute`, `5 minutes`, `90 seconds`: words, so that a narrow screen never
    /// wraps a number away from its unit.
    static func span(_ duration: Duration) -> String {
        let seconds = max(0, Int(duration.components.seconds))
        if seconds >= 60, seconds.isMultiple(of: 60) { return seconds == 60 ? "1 minute" : "\(seconds / 60) minutes" }
        return seconds == 1 ? "1 second" : "\(seconds) seconds"
    }
}
