/// Deletes: a stream's, and one's own (pending until the server answers). A delete outdates
/// the copies of fetches that began before it.
extension PostStore {
    // MARK: - One's own deletes

    /// Deletes one's own post `id` (an original): gone from every row and detail at once
    /// (``deleting(_:)``), then sent — a ``PostDeletion`` the store's delete engine runs: one
    /// request per post at a time, whoever asks —, confirmed (``deleteConfirmed(_:)``) or put
    /// back (``undelete(_:)``) as the server answers; a delete the server could not be reached
    /// for is put back too (it is not sent again by itself). The person hears how it went as an
    /// ``Outcome`` (``Outcome/Subject/deletion(post:)``); `report`, when given, hears the post
    /// as the server deleted it, or why it failed (a redraft's next step).
    package func deleteOwn(_ id: PostID, then report: (@MainActor @Sendable (Result<Post, FeedFailure>) -> Void)? = nil) {
        if let report { deleteReports[id, default: []].append(report) }
        ownDeletes.update(id, orMake: { PostDeletion() }) { deletion, epoch in
            deletion.delete(at: epoch)
            return []
        }
    }

    /// The delete engine changed the delete of `id`: asked, the post leaves every screen; once
    /// it settles, the delete is confirmed or put back, forgotten (a later delete of the same
    /// post asks the server again), and who asked hears how it went.
    func deletionChanged(_ id: PostID, before: PostDeletion?, after: PostDeletion?) {
        guard let after else { return }
        if after.isDeleting, before?.isDeleting != true {
            deleting(id)
            return
        }
        guard before?.isPending == true, !after.isPending else { return }
        ownDeletes.forget(id)
        let result: Result<Post, FeedFailure>
        if !after.change.confirmed, let copy = after.deletedCopy {
            deleteConfirmed(id)
            result = .success(copy)
        } else {
            undelete(id)
            result = .failure(FeedFailure(message: after.change.refusal?.message ?? "", isTransient: false))
        }
        for report in deleteReports.removeValue(forKey: id) ?? [] { report(result) }
    }

    // MARK: - Deletes
    /// Records that the entry `id` was deleted (an original: with every boost of it) and tells
    /// every holder that shows it, as it tells them of a change: a list, the rows that showed it
    /// (an original's boosts and notifications too; a boost's own rows only — an un-boost leaves
    /// the original where it is shown); a detail of the original, that it was deleted. Copies of
    /// it from fetches that began before now are stale from now on.
    ///
    /// - Complexity: O(rows of the post), amortised.
    package func deleted(_ id: PostID) {
        delete(id, pending: false)
    }

    /// As ``deleted(_:)``, for a delete the user asked for and the server has not confirmed yet:
    /// every row and detail of the post goes at once, and each holder keeps what it took away,
    /// for ``undelete(_:)`` (the server refused) or ``deleteConfirmed(_:)`` (it did not).
    package func deleting(_ id: PostID) {
        delete(id, pending: true)
    }

    /// The server refused the pending delete of `id`: copies fetched meanwhile are no longer
    /// stale, and every holder the delete reached puts back what it took away.
    package func undelete(_ id: PostID) {
        _ = tombstones.remove(id)
        for holder in pendingDeletes.removeValue(forKey: id) ?? [] { holders[holder]?(.undeleted(id)) }
    }

    /// The server confirmed the pending delete of `id`: holders drop what they kept, and quotes
    /// of it say it was deleted.
    package func deleteConfirmed(_ id: PostID) {
        for holder in pendingDeletes.removeValue(forKey: id) ?? [] { holders[holder]?(.deleteSettled(id)) }
        if let entry = entries[id] { quoteDeleted(id, entry) }
    }

    /// Tells every holder quoting the original `id` that it was deleted.
    func quoteDeleted(_ id: PostID, _ entry: Entry) {
        for holder in entry.quoting { holders[holder.id]?(.quoteDeleted(id, rows: holder.rows)) }
    }

    func delete(_ id: PostID, pending: Bool) {
        let epoch = engine.beginFetch()
        // A delete on its way is known by the holders it reached (none, maybe: quotes of the
        // post are left as they are until the server answers).
        if pending, pendingDeletes[id] == nil { pendingDeletes[id] = [] }
        tombstones.write(epoch, for: id)
        if let originalID = originalID(of: id), let entry = entries[originalID] {
            let isOriginal = originalID == id
            // A copy: holders hide rows (and the entry's holders change) while they are told.
            for holder in entry.holders {
                let rows = isOriginal ? holder.rows : holder.rows.filter { $0 == .post(id) }
                let detail = isOriginal && holder.details > 0
                guard !rows.isEmpty || detail else { continue }
                if pending { pendingDeletes[id, default: []].append(holder.id) }
                holders[holder.id]?(.deleted(rows: rows, detail: detail, pending: pending ? id : nil))
            }
            // Quotes of it say it was deleted once the server said so (an own post's delete
            // that the server refuses leaves them as they were).
            if isOriginal, !pending { quoteDeleted(originalID, entry) }
            if !isOriginal, originalOfEntry[id] == originalID {
                originalOfEntry[id] = nil
                if let booster = entries[originalID]?.wrappers.removeValue(forKey: id) { unindex(id, of: booster) }
            }
        }
    }

    /// Whether `post` (an entry, or the original it boosts) was deleted after the fetch that
    /// brought it began at `fetchedAt`: then it is a stale copy of a deleted post, to be dropped.
    /// A fetch that began after the delete is the server's word and is believed. O(1).
    package func wasDeleted(_ post: Post, fetchedAt: StoreEpoch) -> Bool {
        guard !tombstones.isEmpty else { return false }
        if let at = tombstones[post.id], at > fetchedAt { return true }
        if let original = post.reblog?.id, let at = tombstones[original], at > fetchedAt { return true }
        return false
    }

    /// Whether quotes of the post `id` say it was deleted: a delete the server confirmed (or a
    /// stream reported), not one on its way. O(1).
    package func isQuoteDeleted(_ id: PostID) -> Bool {
        isDeleted(id) && pendingDeletes[id] == nil
    }

    /// Whether the entry `id` was deleted (a delete on its way included) as far as the store
    /// remembers: a post's id is never reused, so such a post is not shown again. O(1).
    package func isDeleted(_ id: PostID) -> Bool {
        tombstones[id] != nil
    }
}
