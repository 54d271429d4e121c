/// The rows of a list of accounts (followers, following, mutes, blocks, follow requests, a
/// list's members), each with the relationship the session's store shows for it — fetched with
/// the page, and kept current.
struct AccountRows: RowSource {
    struct Answer: Sendable {
        var page: Page<Profile>
        var relationships: PageRelationships?
    }

    let list: AccountList
    let service: any FeedService
    let relationships: RelationshipStore?
    let reports: ReportStore?
    let lists: UserListStore?

    var refreshStyle: ListState.RefreshStyle { .reload }

    @MainActor func load(_ request: ListRequest, epochs: FetchEpochs) async throws -> Answer {
        let page = try await service.accounts(in: list, after: request.pageCursor)
        return Answer(page: page, relationships: await PageRelationships.of(page.items.map(\.accountID), service, epochs))
    }

    @MainActor
    func receive(_ answer: Answer, for request: ListRequest, epochs: FetchEpochs, in screen: FeedListViewModel) -> Received {
        let page = answer.page
        // An answered follow request is on no list of requests (the page may predate it);
        // an account taken off a list meanwhile is not on it.
        let shown = page.items.filter { profile in
            if list == .requests { return relationships?.relationship(profile.accountID)?.requestAnswer?.isSettled != true }
            if case .members(let id) = list { return lists?.membership(list: id, account: profile.accountID)?.isOn != false }
            return true
        }
        if let fetched = answer.relationships {
            // The relationships of the rows shown, before the rows are made: they come with them.
            let ids = Set(shown.map(\.accountID))
            relationships?.ingest(fetched.relationships.filter { ids.contains($0.accountID) }, fetchedAt: fetched.fetchedAt)
        } else {
            relationships?.load(shown.map(\.accountID))
        }
        var received = Received(
            event: .pageLoaded(token: request.token, page: Page(items: shown.map(screen.make.accountRow), next: page.next, skipped: page.skipped))
        )
        if case .members(let id) = list {
            let fetchedAt = epochs.lists
            received.then = { [lists] in lists?.ingestMembers(list: id, page.items, fetchedAt: fetchedAt) }
        }
        return received
    }

    @MainActor
    func watch(_ screen: FeedListViewModel) -> [Subscription] {
        var watching: [Subscription] = []
        let requests = list == .requests
        if let relationships {
            watching.append(relationships.observe { [weak screen] change in
                guard let screen else { return }
                Self.relationshipChanged(change, leavesRequests: requests, in: screen)
            })
        }
        if let reports {
            watching.append(reports.observe { [weak screen] change in
                if let screen { RowMaker.reportChanged(change, in: screen) }
            })
        }
        if case .members(let id) = list, let lists {
            watching.append(lists.observeMembers { [weak screen] change in
                guard change.list == id, let screen else { return }
                membershipChanged(change, in: screen)
            })
        }
        return watching
    }

    /// A relationship changed: the account's row shows it; an answered follow request leaves a
    /// list of requests (`leavesRequests`). O(1).
    @MainActor
    static func relationshipChanged(_ change: RelationshipChange, leavesRequests: Bool, in screen: FeedListViewModel) {
        let id = RowID.account(change.accountID)
        guard screen.state.rows.contains(id) else { return }
        if leavesRequests, change.display.requestAnswer?.isSettled == true {
            screen.send(.rowsRemoved([id]))
        } else {
            screen.send(.accountChanged(change.accountID, change.display))
        }
    }

    /// An account left the list this screen shows (its row goes at once, and its place is kept)
    /// or is on it again (back where it was after a refusal; on top when added, once the
    /// screen has loaded).
    @MainActor
    private func membershipChanged(_ change: ListMembershipChange, in screen: FeedListViewModel) {
        let id = RowID.account(change.account)
        let state = screen.state
        if change.display.isOn {
            guard !state.rows.contains(id) else { return }
            if !state.taken.rows(of: .membership(change.account)).isEmpty {
                PostRemovals.refused(.membership(change.account), in: screen) { $0 }
            } else if state.older == .end || !state.rows.isEmpty, let profile = lists?.profile(change.account) {
                screen.send(.rowsReinserted([ReinsertedRow(index: 0, row: screen.make.accountRow(profile))]))
                relationships?.load([change.account])
            }
        } else if state.rows.contains(id) {
            screen.send(.rowsTaken([id], by: .membership(change.account)))
        }
    }
}
