extension PostStore {
    // MARK: - Accounts whose posts leave the lists

    /// Takes the account's posts off every list at once (which rows of which lists:
    /// ``AccountHiding``): each holder is told with exactly the rows of that account's posts it
    /// shows, found through the store's index of each account's posts — O(rows of the account),
    /// whatever the size of the lists. A mute or block also keeps later pages and streams from
    /// bringing their posts back (``isHidden(_:in:)``) until ``showAccount(_:)``. While
    /// `pending` (the server has not answered), every holder keeps what it took away until
    /// ``showAccount(_:)`` (refused: it comes back) or ``accountHidingSettled(_:)``.
    /// `notifications`: a mute that hides their notifications too (a block always does).
    package func hideAccount(_ id: AccountID, _ hiding: AccountHiding, pending: Bool, notifications: Bool = true) {
        hidings.hide(id, hiding, notifications: notifications)
        var rowsOfHolder: [Int: [RowID]] = [:]
        for postID in postsOfAccount[id] {
            if let entry = entries[postID] {
                // Their own post: its row, and (but for an unfollow) its boosts and notifications.
                guard hiding.takesTheirPosts else { continue }
                for holder in entry.holders {
                    if hiding.takesBoostsOfTheirPosts {
                        holder.appendRows(to: &rowsOfHolder[holder.id, default: []])
                    } else {
                        holder.appendRows(to: &rowsOfHolder[holder.id, default: []]) { $0 == .post(postID) }
                    }
                }
            } else if let originalID = originalOfEntry[postID], let entry = entries[originalID] {
                // Their boost of someone's post: that row only.
                for holder in entry.holders {
                    holder.appendRows(to: &rowsOfHolder[holder.id, default: []]) { $0 == .post(postID) }
                }
            }
        }
        // Every holder hears of it (a notifications list also drops what is *from* them); told
        // after the search, since holders hide rows while they are told.
        for holder in holders.keys.sorted() {
            holders[holder]?(.accountHidden(id, handle: postsOfAccount.handles[id], rows: rowsOfHolder[holder] ?? [], hiding: hiding, pending: pending))
        }
        authorHidingChanged(of: postsOfAccount[id])
    }

    /// Tells the rows that quote any of `ids` when their author's hiding changed what the
    /// quote shows (the posts' own rows are told by the hiding itself).
    private func authorHidingChanged(of ids: some Sequence<PostID>) {
        for id in ids {
            guard let entry = entries[id], let post = entry.post else { continue }
            let hidden = hidings.authorHiding(of: post)
            guard hidden != entry.authorHidden else { continue }
            entry.authorHidden = hidden
            tellQuoting(id, entry, post)
        }
    }

    /// The account's posts may show again: a refused hiding puts back what it took away (every
    /// holder it reached); later pages and streams bring their posts again.
    package func showAccount(_ id: AccountID) {
        hidings.show(id)
        // Every holder: only those that kept rows of a pending hiding have any to put back.
        for holder in holders.keys.sorted() { holders[holder]?(.accountShown(id)) }
        authorHidingChanged(of: postsOfAccount[id])
    }

    /// The server confirmed that the account's posts may show again (an unmute or unblock it
    /// answered): every holder hears it, and a list that kept any of their posts away loads
    /// them again.
    package func accountUnhidden(_ id: AccountID) {
        for holder in holders.keys.sorted() { holders[holder]?(.accountUnhidden(id)) }
    }

    /// The server confirmed the pending hiding of the account: holders drop what they kept.
    package func accountHidingSettled(_ id: AccountID) {
        for holder in holders.keys.sorted() { holders[holder]?(.accountHidingSettled(id)) }
    }

    // MARK: - Blocked domains

    /// Takes the posts of every account of `domain` (lower-cased) off every list at once, as a
    /// block of each would (their posts with their boosts and notifications, their boosts):
    /// O(rows of the domain's accounts) plus a pass over the accounts the store indexes.
    /// Later pages and streams do not bring them back until ``showDomain(_:)``. While
    /// `pending`, holders keep what they took away until ``showDomain(_:)`` (refused) or
    /// ``domainHidingSettled(_:)``.
    package func hideDomain(_ domain: String, pending: Bool) {
        hidings.hide(domain: domain)
        var rowsOfHolder: [Int: [RowID]] = [:]
        for (account, handle) in postsOfAccount.handles where DomainBlockStore.domain(ofHandle: handle) == domain {
            for postID in postsOfAccount[account] {
                if let entry = entries[postID] {
                    for holder in entry.holders { holder.appendRows(to: &rowsOfHolder[holder.id, default: []]) }
                } else if let originalID = originalOfEntry[postID], let entry = entries[originalID] {
                    for holder in entry.holders { holder.appendRows(to: &rowsOfHolder[holder.id, default: []]) { $0 == .post(postID) } }
                }
            }
        }
        for holder in holders.keys.sorted() {
            holders[holder]?(.domainHidden(domain, rows: rowsOfHolder[holder] ?? [], pending: pending))
        }
        authorHidingChanged(of: postsOfAccount.posts(ofDomain: domain))
    }

    /// The domain's posts may show again: a refused block puts back what it took away.
    package func showDomain(_ domain: String) {
        hidings.show(domain: domain)
        // Every holder: only those that kept rows of a pending block have any to put back.
        for holder in holders.keys.sorted() { holders[holder]?(.domainShown(domain)) }
        authorHidingChanged(of: postsOfAccount.posts(ofDomain: domain))
    }

    /// The server confirmed the pending block of the domain: holders drop what they kept.
    package func domainHidingSettled(_ domain: String) {
        for holder in holders.keys.sorted() { holders[holder]?(.domainHidingSettled(domain)) }
    }

    // MARK: - Questions lists ask (see ``PostHidings``)

    /// Whether `post` must stay off a list of `source`: it is by, or a boost by, an account
    /// muted or blocked there (``AccountHiding/applies(to:account:handle:)``), or of a blocked
    /// domain. O(1).
    package func isHidden(_ post: Post, in source: ListSource) -> Bool { hidings.isHidden(post, in: source) }

    /// Whether notifications from the account are kept off the notifications screen.
    package func hidesNotifications(from id: AccountID) -> Bool { hidings.hidesNotifications(from: id) }

    /// Whether every account a notification group is from has its notifications hidden (a
    /// group with others in it stays). O(accounts of the group).
    package func isFromHiddenAccounts(_ group: NotificationGroup) -> Bool { hidings.isFromHiddenAccounts(group) }
}
