import Foundation

/// One's own votes in polls, shown at once on every row and detail of the post and rolled back
/// when the server refuses.
extension PostStore {
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
    /// way — a ``PollVote`` the store's vote engine runs. The server's poll replaces it when it
    /// answers; a refusal ("already voted", "ended") adopts the poll as the server has it now,
    /// and any other failure puts the poll back as it was. `report` hears how it went (`nil`:
    /// the vote counted). Returns why it was not sent, or `nil` when it was. `now` decides
    /// whether the poll has ended.
    @discardableResult
    package func vote(
        _ id: PostID, choices: [Int], now: Date, then report: @escaping @MainActor @Sendable (FeedFailure?) -> Void
    ) -> VoteRefusal? {
        guard let originalID = originalID(of: id), let entry = entries[originalID], let post = entry.post else { return .unknownPost }
        guard var poll = post.poll, let pollID = poll.id else { return .noPoll }
        let key = PollVote.Key(post: originalID, poll: pollID)
        guard votes[key]?.isPending != true else { return .inFlight }
        if poll.expired || (poll.expiresAt.map { $0 <= now } ?? false) { return .ended }
        if poll.voted { return .votedAlready }
        let picked = Array(Set(choices)).sorted()
        if let bad = picked.first(where: { !poll.options.indices.contains($0) }) { return .badChoice(bad) }
        guard !picked.isEmpty else { return .noChoice }
        if picked.count > 1, !poll.multiple { return .oneChoiceOnly }
        let before = post.poll
        for index in picked { poll.options[index].votes = (poll.options[index].votes ?? 0) + 1 }
        poll.votesCount += picked.count
        poll.voted = true
        poll.ownVotes = picked
        setPoll(poll, of: originalID)
        voteReports[originalID] = report
        votes.update(key, orMake: { PollVote(before: before) }) { vote, epoch in
            vote.vote(picked, at: epoch)
            return []
        }
        return nil
    }

    /// The vote engine changed the vote of `key`: once it settles the poll shows what the
    /// server answered — its poll, the post as it has it after a refusal, or the poll as it was
    /// before — and who voted hears how it went. A settled vote is forgotten: whether one can
    /// vote again is the poll's to say (``Poll/voted``).
    func voteChanged(_ key: PollVote.Key, before: PollVote?, after: PollVote?) {
        guard let after, before?.isPending == true, !after.isPending else { return }
        votes.forget(key)
        var failure: FeedFailure?
        if let counted = after.counted, after.change.refusal == nil {
            setPoll(counted, of: key.post)
        } else {
            failure = FeedFailure(message: after.change.refusal?.message ?? "", isTransient: false)
            if let fresh = after.fresh {
                // "Already voted", "ended": the server's poll is the truth.
                ingest([fresh], fetchedAt: after.freshFetchedAt)
                setPoll(fresh.content.poll, of: key.post)
            } else {
                setPoll(after.before, of: key.post)
            }
        }
        voteReports.removeValue(forKey: key.post)?(failure)
    }

    /// Whether a vote in the poll of the post `id` names is on its way.
    public func isVoting(_ id: PostID) -> Bool {
        guard let originalID = originalID(of: id), let pollID = entries[originalID]?.post?.poll?.id else { return false }
        return votes[PollVote.Key(post: originalID, poll: pollID)]?.isPending == true
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
