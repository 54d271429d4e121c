/// One's own delete of a post as the convergence engine runs it: a ``PendingChange`` of whether
/// the post exists — gone at once, the post's presence kept as the value to roll back to, one
/// request per post in flight (a second delete asked meanwhile joins it), confirmed or rolled
/// back with the server's sentence — and the copy of the post the server answered with (what
/// it deleted, for a redraft).
package struct PostDeletion: PendingChangeComposite {
    package typealias Wanted = Bool
    package typealias Request = PendingChange<Wanted>.Request
    package typealias Resend = PendingChange<Wanted>.Resend
    package typealias Report = ChangeOutcome<Wanted>

    /// Whether the post exists: confirmed by the server, and as shown (`wanted`).
    package var change = PendingChange(confirmed: true)
    /// The post as the server deleted it (its answer); `nil` until it answered.
    package private(set) var deletedCopy: Post?

    /// A post that exists, no delete asked.
    package init() {}

    /// The user deletes the post: it is gone at once, and a request starts unless one runs.
    package mutating func delete(at epoch: StoreEpoch) {
        change.want(false, at: epoch)
    }

    /// Whether the delete is asked and the server has not answered it.
    package var isDeleting: Bool { change.isPending && !change.wanted }

    /// The server deleted the post (`post`: as it was).
    package mutating func answered(_ request: Request, with post: Post, at epoch: StoreEpoch) -> [Report] {
        guard change.inFlight == request else { return [] }
        deletedCopy = post
        return change.answered(request, with: false, at: epoch)
    }
}
