/// One's own vote in a post's poll as the convergence engine runs it: a ``PendingChange`` of
/// the choices voted for (none: no vote) — shown at once, the poll as it was kept to roll back
/// to, one vote per poll in flight, confirmed with the server's poll or rolled back with the
/// server's sentence — and what the server answered.
package struct PollVote: PendingChangeComposite {
    /// A poll, by its post and its own id.
    package struct Key: Hashable, Sendable {
        package var post: PostID
        package var poll: String

        package init(post: PostID, poll: String) {
            self.post = post
            self.poll = poll
        }
    }

    package typealias Wanted = [Int]
    package typealias Request = PendingChange<Wanted>.Request
    package typealias Resend = PendingChange<Wanted>.Resend
    package typealias Report = ChangeOutcome<Wanted>

    /// What the server answered a vote.
    package enum Answer: Sendable {
        /// It counted the vote: its poll now.
        case counted(Poll)
        /// It refused the vote ("already voted", "ended"): the post as it has it now, fetched by
        /// a fetch begun at `fetchedAt` after the refusal (`nil` when that fetch failed too).
        case refused(FeedFailure, fresh: Post?, fetchedAt: StoreEpoch)
    }

    /// The choices voted for: confirmed by the server, and as shown (`wanted`).
    package var change = PendingChange<[Int]>(confirmed: [])
    /// The poll as it was before the vote: what a refusal with no fresher copy puts back.
    package let before: Poll?
    /// The server's poll once it counted the vote.
    package private(set) var counted: Poll?
    /// After a refusal, the post as the server has it now, and when its fetch began.
    package private(set) var fresh: Post?
    package private(set) var freshFetchedAt: StoreEpoch = 0

    /// No vote yet in a poll that is `before`.
    package init(before: Poll?) {
        self.before = before
    }

    /// The user votes for `choices`: shown at once, sent unless a vote is in flight.
    package mutating func vote(_ choices: [Int], at epoch: StoreEpoch) {
        change.want(choices, at: epoch)
    }

    package mutating func answered(_ request: Request, with answer: Answer, at epoch: StoreEpoch) -> [Report] {
        guard change.inFlight == request else { return [] }
        switch answer {
        case .counted(let poll):
            counted = poll
            return change.answered(request, with: request.value, at: epoch)
        case .refused(let failure, let post, let fetchedAt):
            fresh = post
            freshFetchedAt = fetchedAt
            return change.failed(request, with: FeedFailure(message: failure.message, isTransient: false), at: epoch)
        }
    }
}
