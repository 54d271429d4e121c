import Foundation

/// The relationship machine of one account: a ``ToggleTrack`` per ``RelationshipKind`` (the
/// machine post interactions use), the last server copy for what no toggle sets (followed by,
/// requested, blocked by, the note), the mute's options and the last failure. A value; change it
/// with ``reduce(_:)``.
package struct RelationshipState: Hashable, Sendable {
    package typealias Track = ToggleTrack<RelationshipKind>

    package var follow: Track
    package var mute: Track
    package var block: Track
    package var notify: Track
    package var boosts: Track
    /// The server's last copy, for the values no toggle sets.
    package var copy: Relationship
    /// When ``copy`` was fetched (0: never; the relationship is only assumed).
    package var copyEpoch: StoreEpoch
    /// What a mute asks for (duration, notifications): set with the toggle that mutes.
    package var muteOptions: MuteOptions
    /// The options of the mute request in flight, fixed when it started: a later toggle's
    /// options go with the request after it, never change the one running (which would make
    /// it another request).
    package var sentMuteOptions: MuteOptions
    /// The last refusal, cleared by the next toggle or retry.
    package var failure: RelationshipFailure?

    /// The state of an account first seen in a server copy fetched at `epoch` (0: not fetched,
    /// an assumption any copy or reply replaces).
    package init(serverCopy relationship: Relationship, fetchedAt epoch: StoreEpoch) {
        func track(_ kind: RelationshipKind) -> Track { Track(confirmed: relationship.isOn(kind), count: 0, knownSince: epoch) }
        follow = track(.follow)
        mute = track(.mute)
        block = track(.block)
        notify = track(.notify)
        boosts = track(.boosts)
        copy = relationship
        copyEpoch = epoch
        muteOptions = MuteOptions(notifications: relationship.muting ? relationship.mutingNotifications : true)
        sentMuteOptions = muteOptions
        failure = nil
    }

    package subscript(kind: RelationshipKind) -> Track {
        get {
            switch kind {
            case .follow: follow
            case .mute: mute
            case .block: block
            case .notify: notify
            case .boosts: boosts
            }
        }
        set {
            switch kind {
            case .follow: follow = newValue
            case .mute: mute = newValue
            case .block: block = newValue
            case .notify: notify = newValue
            case .boosts: boosts = newValue
            }
        }
    }

    /// Whether any kind waits for the server.
    package var isPending: Bool { RelationshipKind.allCases.contains { self[$0].isPending } }

    /// The toggle requests that should be running: at most one per kind, and no follow change
    /// while a notify or boosts change is on its way. Mastodon sends those as a follow, so sent
    /// beside an unfollow the server could apply them in either order, and one applied last
    /// would follow again; the follow change goes once they are answered.
    package var toggleRequests: [ToggleRequest<RelationshipKind>] {
        let followOptionsInFlight = notify.inFlight != nil || boosts.inFlight != nil
        return RelationshipKind.allCases.compactMap { kind in
            kind == .follow && followOptionsInFlight ? nil : self[kind].inFlight
        }
    }

    /// The requests that should be running, each with the options it sends.
    package var requests: [RelationshipRequest] { toggleRequests.map { RelationshipRequest(request: $0, mute: options(of: $0)) } }

    /// The options a request sends: the mute's as it started, none for anything else.
    package func options(of request: ToggleRequest<RelationshipKind>) -> MuteOptions {
        request.kind == .mute && request.value ? sentMuteOptions : MuteOptions()
    }

    /// The re-sends that should be waiting: one per deferred kind.
    package var resends: [ToggleResend<RelationshipKind>] { RelationshipKind.allCases.compactMap { self[$0].resend } }

    /// What headers, rows and search results show: every kind at the value the user wants. A
    /// follow the server answered with a request shows as requested; a follow still on its way
    /// shows as following (whether it becomes a request is the server's to say).
    package var display: RelationshipDisplay {
        var shown = copy
        let requestStands = follow.desired && follow.confirmed && copy.requested && !copy.following
        shown.following = follow.desired && !requestStands
        shown.requested = requestStands
        shown.muting = mute.desired
        let muteConfirmed = mute.desired && mute.confirmed && !mute.isPending
        shown.mutingNotifications = mute.desired && (muteConfirmed ? copy.mutingNotifications : muteOptions.notifications)
        shown.mutingUntil = muteConfirmed ? copy.mutingUntil : nil
        shown.blocking = block.desired
        shown.notifying = notify.desired
        shown.showingBoosts = boosts.desired
        return RelationshipDisplay(
            relationship: shown, pending: Set(RelationshipKind.allCases.filter { self[$0].isPending }), failure: failure
        )
    }

    /// Checks the invariants of every track (``ToggleTrack/brokenInvariants(_:counted:)``).
    package func checkInvariants() -> [String] {
        RelationshipKind.allCases.flatMap { self[$0].brokenInvariants($0, counted: false) }
    }

    /// Applies one event in place. Pure: the result depends on the state and the event only.
    ///
    /// - `toggled` / `retryRequested` / `backoffElapsed` / `requestFailed`: as for posts
    ///   (``InteractionState/reduce(_:)``); a toggle that mutes takes its options with it; a
    ///   toggle of notify or boosts without a confirmed follow (or while one is on its way) is
    ///   refused at once with a sentence, nothing sent (Mastodon sends them as a follow); an
    ///   unfollow drops a notify or boosts change waiting to be sent again.
    /// - `copyReceived`: a fetched relationship updates each kind with nothing in flight that
    ///   was learnt before the fetch began, and the values no toggle sets.
    /// - `requestSucceeded`: the reply is the whole relationship afterwards: the requested kind
    ///   is confirmed (or reported, when the server did not apply it), and every other kind with
    ///   nothing in flight learns from it as from a copy fetched when it arrived — a block that
    ///   ended a follow shows the follow ended.
    package mutating func reduce(_ event: RelationshipEvent) {
        let muteRequest = mute.inFlight
        defer { if let started = mute.inFlight, started != muteRequest { sentMuteOptions = muteOptions } }
        switch event {
        case .backoffElapsed(let kind, let token, let epoch):
            self[kind].backoffElapsed(kind, token: token, at: epoch)

        case .copyReceived(let relationship, let fetchedAt, _):
            learn(relationship, fetchedAt: fetchedAt)

        case .requestFailed(let kind, let token, let failure, let epoch):
            let request = self[kind].inFlight
            if case .rolledBack(let wanted) = self[kind].failed(kind, token: token, failure: failure, at: epoch), let request {
                self.failure = RelationshipFailure(
                    kind: kind, value: wanted, message: "Could not \(kind.verb(request.value)) this account: \(failure.message)",
                    isTransient: false
                )
            }

        case .requestSucceeded(let kind, let token, let reply, let epoch):
            let outcome = self[kind].succeeded(kind, token: token, flag: reply.isOn(kind), count: 0, counted: false, at: epoch)
            switch outcome {
            case .ignored: return
            case .notApplied(let requested):
                failure = RelationshipFailure(kind: kind, value: requested, message: "The server did not \(kind.verb(requested)) this account.", isTransient: false)
            case .applied, .rolledBack: break
            }
            // The server's state when it answered: newer than anything learnt before the answer
            // came, for every kind with nothing in flight.
            learn(reply, fetchedAt: epoch, except: kind)

        case .retryRequested(let epoch):
            // A refusal is not sent again (the server would refuse it again): only what waits
            // for a connection is.
            for kind in RelationshipKind.allCases where self[kind].resend != nil {
                self[kind].want(kind, self[kind].desired, at: epoch)
            }

        case .toggled(let kind, let options, let epoch):
            failure = nil
            // Notify and boosts are options of a follow (Mastodon sends them as one): without a
            // follow that stands they would follow, or undo an unfollow on its way.
            if kind == .notify || kind == .boosts, !follow.desired || follow.isPending || !follow.confirmed {
                failure = RelationshipFailure(
                    kind: kind, value: !self[kind].desired,
                    message: "Could not \(kind.verb(!self[kind].desired)) this account: \(follow.isPending ? "wait until the follow is answered." : "follow them first.")",
                    isTransient: false
                )
                return
            }
            if kind == .mute, !mute.desired, let options { muteOptions = options }
            self[kind].want(kind, !self[kind].desired, at: epoch)
            // An unfollow drops a notify or boosts change waiting to be sent again: sent after
            // it (or beside it), that change would follow again.
            if kind == .follow, !follow.desired {
                for option in [RelationshipKind.notify, .boosts] where self[option].resend != nil {
                    self[option].want(option, self[option].confirmed, at: epoch)
                }
            }
        }
    }

    /// Takes what `relationship` says, as a copy fetched at `fetchedAt`, for every kind but `skipped`.
    private mutating func learn(_ relationship: Relationship, fetchedAt: StoreEpoch, except skipped: RelationshipKind? = nil) {
        for kind in RelationshipKind.allCases where kind != skipped {
            self[kind].receive(flag: relationship.isOn(kind), count: 0, fetchedAt: fetchedAt)
        }
        if fetchedAt >= copyEpoch {
            // A server whose relationships carry no end of a mute (Mastodon's do not) keeps the
            // end learnt when the mute was made.
            let until = relationship.mutingUntil ?? (relationship.muting && copy.muting ? copy.mutingUntil : nil)
            copy = relationship
            copy.mutingUntil = until
            copyEpoch = fetchedAt
        }
    }
}

/// What can happen to one account's relationship state. Every event carries the store's epoch
/// at the moment it happened.
package enum RelationshipEvent: Hashable, Sendable {
    /// The backoff of the deferred re-send with `token` is over.
    case backoffElapsed(RelationshipKind, token: StoreEpoch, at: StoreEpoch)
    /// A copy arrived from a fetch that started at `fetchedAt`.
    case copyReceived(Relationship, fetchedAt: StoreEpoch, at: StoreEpoch)
    /// The request with `token` failed.
    case requestFailed(RelationshipKind, token: StoreEpoch, failure: FeedFailure, at: StoreEpoch)
    /// The request with `token` succeeded; `reply` is the relationship afterwards.
    case requestSucceeded(RelationshipKind, token: StoreEpoch, reply: Relationship, at: StoreEpoch)
    /// The user asked to retry what failed.
    case retryRequested(at: StoreEpoch)
    /// The user toggled `kind`; a mute carries its options.
    case toggled(RelationshipKind, mute: MuteOptions?, at: StoreEpoch)
}

/// A request of an account's relationship machine: one kind's toggle request, with the mute's
/// options as the request started (none for anything else).
package struct RelationshipRequest: Hashable, Sendable {
    package var request: ToggleRequest<RelationshipKind>
    package var mute: MuteOptions
}

/// The relationship machine as the convergence engine drives it (``RelationshipStore``): its
/// answers are the whole relationship afterwards; what it did is told through its display.
extension RelationshipState: ConvergingMachine {
    package var isDeferred: Bool { RelationshipKind.allCases.contains { self[$0].resend != nil } }
    package static func delay(of resend: ToggleResend<RelationshipKind>) -> Duration { resend.delay }

    package mutating func answered(_ request: RelationshipRequest, with reply: Relationship, at epoch: StoreEpoch) -> [KindOutcome<RelationshipKind>] {
        let before = self[request.request.kind]
        reduce(.requestSucceeded(request.request.kind, token: request.request.token, reply: reply, at: epoch))
        return report(request.request, before: before, failure: nil)
    }

    package mutating func failed(_ request: RelationshipRequest, with failure: FeedFailure, at epoch: StoreEpoch) -> [KindOutcome<RelationshipKind>] {
        let before = self[request.request.kind]
        reduce(.requestFailed(request.request.kind, token: request.request.token, failure: failure, at: epoch))
        return report(request.request, before: before, failure: failure)
    }

    private func report(
        _ request: ToggleRequest<RelationshipKind>, before: ToggleTrack<RelationshipKind>, failure: FeedFailure?
    ) -> [KindOutcome<RelationshipKind>] {
        self[request.kind].report(answering: request, before: before, failure: failure).map { [KindOutcome(kind: request.kind, outcome: $0)] } ?? []
    }

    package mutating func elapsed(_ resend: ToggleResend<RelationshipKind>, at epoch: StoreEpoch) {
        reduce(.backoffElapsed(resend.kind, token: resend.token, at: epoch))
    }

    package mutating func retry(at epoch: StoreEpoch) -> Bool {
        guard isDeferred else { return false }
        reduce(.retryRequested(at: epoch))
        return true
    }
}
