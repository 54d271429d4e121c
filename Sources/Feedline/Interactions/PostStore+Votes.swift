import Foundation

/// One's own votes in polls, shown at once on every row and detail of the post and rolled back
/// when the server refuses.
extension PostStore {
    // MARK: - Votes

    /// Why a post is not acted on: the session has not seen it.
    static let unknownPostSentence = "That post is not known here; open it first."

    /// Votes for `choices` (0-based) in the poll of the post `id` names: shown at once on every
    /// row and detail of it (counts up, the choices marked), at most one vote per poll on its
    /// way — a ``PollVote`` the store's vote engine runs. The server's poll replaces it when it
    /// answers; a refusal ("already voted", "ended") adopts the poll as the server has it now,
    /// and any other failure puts the poll back as it was. The person hears how it went as an
    /// ``Outcome`` (``Outcome/Subject/vote(post:choices:)``). Returns why it was not sent (the
    /// post is not known, has no poll, the poll ended, you voted, no such choice…), or `nil`
    /// when it was. `now` decides whether the poll has ended.
    @discardableResult
    package func vote(_ id: PostID, choices: [Int], now: Date) -> FeedFailure? {
        func refused(_ message: String) -> FeedFailure { FeedFailure(message: message, isTransient: false) }
        guard let originalID = originalID(of: id), let entry = entries[originalID], let post = entry.post else {
            return refused(Self.unknownPostSentence)
        }
        guard var poll = post.poll, let pollID = poll.id else { return refused("That post has no poll.") }
        let key = PollVote.Key(post: originalID, poll: pollID)
        guard votes[key]?.isPending != true else { return refused("Your vote in this poll is on its way.") }
        if poll.expired || (poll.expiresAt.map { $0 <= now } ?? false) { return refused("The poll has ended.") }
        if poll.voted { return refused("You have voted in this poll already.") }
        let picked = Array(Set(choices)).sorted()
        if let bad = picked.first(where: { !poll.options.indices.contains($0) }) { return refused("The poll has no choice \(bad + 1).") }
        guard !picked.isEmpty else { return refused("A vote needs at least one choice.") }
        if picked.count > 1, !poll.multiple { return refused("The poll takes one choice.") }
        let before = post.poll
        for index in picked { poll.options[index].votes = (poll.options[index].votes ?? 0) + 1 }
        poll.votesCount += picked.count
        poll.voted = true
        poll.ownVotes = picked
        setPoll(poll, of: originalID)
        votes.update(key, orMake: { PollVote(before: before) }) { vote, epoch in
            vote.vote(picked, at: epoch)
            return []
        }
        return nil
    }

    /// The vote engine changed the vote of `key`: once it settles the poll shows what the
    /// server answered — its poll, the post as it has it after a refusal, or the poll as it was
    /// before. A settled vote is forgotten: whether one can vote again is the poll's to say
    /// (``Poll/voted``).
    func voteChanged(_ key: PollVote.Key, before: PollVote?, after: PollVote?) {
        guard let after, before?.isPending == true, !after.isPending else { return }
        votes.forget(key)
        if let counted = after.counted, after.change.refusal == nil {
            setPoll(counted, of: key.post)
        } else {
            if let fresh = after.fresh {
                // "Already voted", "ended": the server's poll is the truth.
                ingest([fresh], fetchedAt: after.freshFetchedAt)
                setPoll(fresh.content.poll, of: key.post)
            } else {
                setPoll(after.before, of: key.post)
            }
        }
    }

    /// Whether a vote in the poll of the post `id` names is on its way.
    package func isVoting(_ id: PostID) -> Bool {
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
