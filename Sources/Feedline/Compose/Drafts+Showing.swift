/// What the drafts tell the session's post store (`PostStore`) as a submission goes — the store tells
/// every list and detail, and each decides by one rule (``ListSource/shows(_:showsParent:)``)
/// whether it shows it — and what they tell the person of an edit (an ``Outcome``):
/// - a new post: shown at once as sending, then the server's post in the same rows, or gone
///   again when refused;
/// - an edit: shown at once on every row and detail of the post, then the server's copy, or
///   the text as it was when refused; queued for lack of a connection, it is said as
///   ``Outcome/queued(_:reason:resendAfter:)`` (each time), then how it ended.
extension Drafts {
    /// `draft` was sent: its edit shows at once, or its post shows as sending (a local copy
    /// under ``PostID/sending(_:)``) — not before the signed-in account is known (the post then
    /// shows once confirmed).
    func showStarted(_ draft: Draft) {
        // A scheduled post shows on no timeline before its time (the scheduled screen has it).
        if draft.isScheduled { return }
        if let id = draft.editing {
            store.showEdit(id, text: draft.text, contentWarning: draft.warning, at: clock.now())
            return
        }
        guard let me = settings?.account else { return }
        let post = Post(
            id: .sending(draft.id), author: me, text: draft.text, createdAt: clock.now(), contentWarning: draft.warning,
            poll: draft.poll.map { poll in
                Poll(options: poll.options.map { Poll.Option(title: $0, votes: 0) }, votesCount: 0, expired: false, multiple: poll.multiple)
            },
            inReplyToID: draft.inReplyTo, visibility: draft.visibility, language: draft.language
        )
        store.ownSending(post, parent: draft.inReplyTo)
    }

    /// The server has `draft` as `post`: the edit is confirmed, or the post shows where it was
    /// shown while sent and wherever else a post of yours shows.
    func showPublished(_ post: Post, _ draft: Draft) {
        if let edited = draft.editing {
            store.endEdit(edited, confirmed: post)
        } else {
            store.ownConfirmed(post, local: .sending(draft.id), parent: draft.inReplyTo)
        }
    }

    /// An attempt of `submission` failed and changed its phase (its token moved on from
    /// `token`): queued, an edit says so as an outcome; refused, the edit rolls back or the
    /// post on its way leaves every screen (the draft keeps the server's sentence).
    func showFailed(_ submission: Submission, token: Int) {
        guard submission.token != token else { return }
        switch submission.phase {
        case .queued(let reason, _, let delay):
            guard let edited = submission.draft.editing else { return }
            let original = store.originalID(of: edited) ?? edited
            outcomes?.emit(.queued(.edit(post: original), reason: reason, resendAfter: delay))
        case .editing:
            guard let refusal = submission.refusal else { return }
            if let edited = submission.draft.editing {
                store.endEdit(edited, confirmed: nil, refusal: refusal)
            } else if !submission.draft.isScheduled {
                store.ownWithdrawn(.sending(submission.id))
            }
        case .sending, .checking, .sent, .scheduled:
            return
        }
    }
}
