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

    // MARK: - Deletes

    /// Deletes one's own post `id` (an original): gone from every row and detail at once
    /// (``deleting(_:)``), then sent — one request per post at a time, whoever asks —, confirmed
    /// (``deleteConfirmed(_:)``) or put back (``undelete(_:)``) as the server answers. `report`
    /// hears the post as it was, or why it failed.
    package func deleteOwn(_ id: PostID, then report: @escaping @MainActor @Sendable (Result<Post, FeedFailure>) -> Void) {
        deleting(id)
        deleteReports[id, default: []].append(report)
        deletes?.run(id)
    }

    /// The loop of one's own deletes (``deletes``).
    static func deleteLoop(service: any FeedService, activity: Activity, store: @escaping @MainActor @Sendable () -> PostStore?)
        -> Feedback<PostID, (PostID, Result<Post, FeedFailure>)>
    {
        Feedback(
            activity: activity,
            effect: { id in
                do { return (id, .success(try await service.delete(id))) } catch { return (id, .failure(FeedFailure(error))) }
            },
            handle: { id, result in store()?.deleteAnswered(id, result) }
        )
    }

    private func deleteAnswered(_ id: PostID, _ result: Result<Post, FeedFailure>) {
        switch result {
        case .success: deleteConfirmed(id)
        case .failure: undelete(id)
        }
        for report in deleteReports.removeValue(forKey: id) ?? [] { report(result) }
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
        voteReports[originalID] = report
        votes?.run(VoteSent(postID: originalID, pollID: pollID, choices: picked))
        return nil
    }

    /// A vote on its way: at most one per post (``pendingVotes``).
    struct VoteSent: Hashable, Sendable {
        var postID: PostID
        var pollID: String
        var choices: [Int]
    }

    /// How a vote went: the server's poll; a refusal, with the post as the server has it now
    /// (asked once the vote was refused) and when that fetch counts as begun; or a failure.
    enum VoteAnswer: Sendable {
        case counted(Poll)
        case refused(FeedFailure, fresh: Post?, fetchedAt: StoreEpoch)
        case failed(FeedFailure)
    }

    /// The loop of votes (``votes``): the vote, and after a refusal the post, from the server.
    static func voteLoop(service: any FeedService, activity: Activity, store: @escaping @MainActor @Sendable () -> PostStore?) -> Feedback<VoteSent, (VoteSent, VoteAnswer)> {
        Feedback(
            activity: activity,
            prepare: { _ in store()?.beginFetch() ?? 0 },
            effect: { vote, fetchedAt in
                do {
                    return (vote, .counted(try await service.vote(poll: vote.pollID, of: vote.postID, choices: vote.choices)))
                } catch {
                    let failure = FeedFailure(error)
                    guard !failure.isTransient else { return (vote, .failed(failure)) }
                    // "Already voted", "ended": the server's poll is the truth.
                    return (vote, .refused(failure, fresh: try? await service.post(vote.postID), fetchedAt: fetchedAt))
                }
            },
            handle: { vote, answer in store()?.voted(vote, answer) }
        )
    }

    private func voted(_ vote: VoteSent, _ answer: VoteAnswer) {
        let originalID = vote.postID
        var failure: FeedFailure?
        switch answer {
        case .counted(let answered):
            pendingVotes[originalID] = nil
            setPoll(answered, of: originalID)
        case .refused(let refused, let fresh, let fetchedAt):
            failure = refused
            if let fresh {
                pendingVotes[originalID] = nil
                ingest([fresh], fetchedAt: fetchedAt)
                setPoll(fresh.content.poll, of: originalID)
            }
        case .failed(let lost):
            failure = lost
        }
        // A failure nothing settled puts the poll back as it was.
        if let before = pendingVotes.removeValue(forKey: originalID) { setPoll(before.poll, of: originalID) }
        voteReports.removeValue(forKey: originalID)?(failure)
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
