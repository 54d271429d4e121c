import Foundation

/// One's own edits and poll votes, shown at once on every row and detail of the post and
/// rolled back when the server refuses.
extension PostStore {
    // MARK: - Edits

    /// Shows the edit of the post `id` names (its original) on every row and detail of it at
    /// once — boost rows included — with `editedAt` set to `date`, until ``endEdit(_:confirmed:)``.
    /// A copy fetched before now does not undo it. Returns `false` for a post the store does not know.
    @discardableResult
    package func showEdit(_ id: PostID, text: String, contentWarning: String?, at date: Date) -> Bool {
        guard let originalID = originalID(of: id), let entry = entries[originalID], var post = entry.post else { return false }
        if pendingEdits[originalID] == nil { pendingEdits[originalID] = post }
        let before = (entry.post, entry.display)
        post.text = text
        post.contentWarning = contentWarning?.isEmpty == true ? nil : contentWarning
        post.editedAt = date
        entry.post = post
        entry.contentEpoch = beginFetch()
        changed(originalID, entry, before: before)
        return true
    }

    /// Ends the edit of the post `id` names: the server's copy (`confirmed`) replaces the one
    /// shown, or — refused — the post shows again as it was before the edit, everywhere.
    package func endEdit(_ id: PostID, confirmed: Post?) {
        let originalID = originalID(of: id) ?? id
        let previous = pendingEdits.removeValue(forKey: originalID)
        if let confirmed {
            ingest([confirmed], fetchedAt: beginFetch())
            return
        }
        guard let previous, let entry = entries[originalID] else { return }
        let before = (entry.post, entry.display)
        entry.post = previous
        entry.contentEpoch = beginFetch()
        changed(originalID, entry, before: before)
    }

    /// Whether an edit of the post `id` names is shown and not confirmed yet.
    public func isEditing(_ id: PostID) -> Bool {
        pendingEdits[originalID(of: id) ?? id] != nil
    }

    // MARK: - One's own posts on their way

    /// Forgets the local copy of one's own post shown while it was sent (``PostID/sending(_:)``);
    /// with `server`, the local id names that post from now on (a front holding the row's id
    /// reaches the server's post through it).
    package func dropLocal(_ local: PostID, confirmedAs server: PostID?) {
        guard local.isSending else { return }
        if let entry = entries[local], entry.holders.isEmpty, !entry.state.isPending { discardEntry(local) }
        if let server, let entry = entries[server] {
            originalOfEntry[local] = server
            // An alias, not a boost: kept out of the accounts' post index.
            entry.wrappers[local] = AccountID(entry.post?.author.id ?? "")
        }
    }

    // MARK: - Votes

    /// Why a vote was not sent.
    public enum VoteRefusal: Error, Hashable, Sendable, CustomStringConvertible {
        case unknownPost
        case noPoll
        case ended
        case votedAlready
        case inFlight
        case noChoice
        case badChoice(Int)
        case oneChoiceOnly

        public var description: String {
            switch self {
            case .unknownPost: "That post is not known here; open it first."
            case .noPoll: "That post has no poll."
            case .ended: "The poll has ended."
            case .votedAlready: "You have voted in this poll already."
            case .inFlight: "Your vote in this poll is on its way."
            case .noChoice: "A vote needs at least one choice."
            case .badChoice(let choice): "The poll has no choice \(choice + 1)."
            case .oneChoiceOnly: "The poll takes one choice."
            }
        }
    }

    /// Votes for `choices` (0-based) in the poll of the post `id` names: shown at once on every
    /// row and detail of it (counts up, the choices marked), at most one vote per poll on its
    /// way. The server's poll replaces it when it answers; a refusal ("already voted", "ended")
    /// adopts the poll as the server has it now, and any other failure puts the poll back as
    /// it was. `report` hears how it went (`nil`: the vote counted). Returns why it was not
    /// sent, or `nil` when it was. `now` decides whether the poll has ended.
    @discardableResult
    package func vote(
        _ id: PostID, choices: [Int], now: Date, then report: @escaping @MainActor @Sendable (FeedFailure?) -> Void
    ) -> VoteRefusal? {
        guard let originalID = originalID(of: id), let entry = entries[originalID], let post = entry.post else { return .unknownPost }
        guard var poll = post.poll, let pollID = poll.id else { return .noPoll }
        guard pendingVotes[originalID] == nil else { return .inFlight }
        if poll.expired || (poll.expiresAt.map { $0 <= now } ?? false) { return .ended }
        if poll.voted { return .votedAlready }
        let picked = Array(Set(choices)).sorted()
        if let bad = picked.first(where: { !poll.options.indices.contains($0) }) { return .badChoice(bad) }
        guard !picked.isEmpty else { return .noChoice }
        if picked.count > 1, !poll.multiple { return .oneChoiceOnly }
        pendingVotes[originalID] = post
        for index in picked { poll.options[index].votes = (poll.options[index].votes ?? 0) + 1 }
        poll.votesCount += picked.count
        poll.voted = true
        poll.ownVotes = picked
        setPoll(poll, of: originalID)
        let service = service
        activity.run { [weak self] in
            let outcome: Result<Poll, FeedFailure>
            do {
                outcome = .success(try await service.vote(poll: pollID, of: originalID, choices: picked))
            } catch {
                outcome = .failure(FeedFailure(error))
            }
            var failure: FeedFailure?
            switch outcome {
            case .success(let answered):
                self?.pendingVotes[originalID] = nil
                self?.setPoll(answered, of: originalID)
            case .failure(let refused) where !refused.isTransient:
                // "Already voted", "ended": the server's poll is the truth.
                failure = refused
                let fetchedAt = self?.beginFetch() ?? 0
                if let fresh = try? await service.post(originalID) {
                    self?.pendingVotes[originalID] = nil
                    self?.ingest([fresh], fetchedAt: fetchedAt)
                    self?.setPoll(fresh.content.poll, of: originalID)
                }
            case .failure(let lost):
                failure = lost
            }
            // A failure nothing settled puts the poll back as it was.
            if let before = self?.pendingVotes.removeValue(forKey: originalID) { self?.setPoll(before.poll, of: originalID) }
            report(failure)
        }
        return nil
    }

    /// Whether a vote in the poll of the post `id` names is on its way.
    public func isVoting(_ id: PostID) -> Bool {
        pendingVotes[originalID(of: id) ?? id] != nil
    }

    /// Replaces the poll of post `originalID` on every row and detail of it.
    private func setPoll(_ poll: Poll?, of originalID: PostID) {
        guard let entry = entries[originalID], var post = entry.post else { return }
        let before = (entry.post, entry.display)
        post.poll = poll
        entry.post = post
        entry.contentEpoch = beginFetch()
        changed(originalID, entry, before: before)
    }
}
