/// The rows of what a search finds: accounts (with their relationships, fetched with the page),
/// then hashtags, then posts (as the store shows them).
struct SearchRows: RowSource {
    struct Answer: Sendable {
        var page: Page<SearchResult>
        var relationships: PageRelationships?
    }

    let query: String
    let service: any FeedService
    let relationships: RelationshipStore?
    let reports: ReportStore?
    let tags: TagStore?

    var refreshStyle: ListState.RefreshStyle { .reload }

    @MainActor func load(_ request: ListRequest, epochs: FetchEpochs) async throws -> Answer {
        let page = try await service.search(query, after: request.pageCursor)
        let accounts = page.items.compactMap { result -> AccountID? in
            if case .account(let profile) = result { return profile.accountID }
            return nil
        }
        return Answer(page: page, relationships: await PageRelationships.of(accounts, service, epochs))
    }

    @MainActor
    func receive(_ answer: Answer, for request: ListRequest, epochs: FetchEpochs, in list: FeedListViewModel) -> Received {
        if let fetched = answer.relationships { relationships?.ingest(fetched.relationships, fetchedAt: fetched.fetchedAt) }
        let fetchedAt = epochs.posts
        var rows: [ListRow] = []
        var accounts: [AccountID] = []
        var posts: [Post] = []
        var searchedTags: [Hashtag] = []
        for result in answer.page.items {
            switch result {
            case .account(let profile):
                rows.append(list.make.accountRow(profile))
                accounts.append(profile.accountID)
            case .hashtag(let tag):
                rows.append(.tag(tag.following(in: tags)))
                searchedTags.append(tag)
            case .post(let post):
                guard let post = list.removals.undeleted([post], fetchedAt, in: list).first else { continue }
                posts.append(post)
                if !list.removals.filtersAway(post, in: list) { rows.append(.post(PostRow(post: post, filterContext: list.filterContext))) }
            }
        }
        list.store.ingest(posts, fetchedAt: fetchedAt)
        // Post rows as the store shows them (its latest copies, the shared state).
        rows = rows.map { $0.post.map { .post(list.make.postRow($0.post, thread: nil)) } ?? $0 }
        if answer.relationships == nil { relationships?.load(accounts) }
        return Received(
            event: .pageLoaded(token: request.token, page: Page(items: rows, next: answer.page.next)),
            then: { [tags] in tags?.ingest(searchedTags, fetchedAt: epochs.tags) }
        )
    }

    @MainActor
    func watch(_ list: FeedListViewModel) -> [Subscription] {
        var watching: [Subscription] = []
        if let relationships {
            watching.append(relationships.observe { [weak list] change in
                guard let list else { return }
                AccountRows.relationshipChanged(change, leavesRequests: false, in: list)
            })
        }
        if let reports {
            watching.append(reports.observe { [weak list] change in
                if let list { RowMaker.reportChanged(change, in: list) }
            })
        }
        if let tags { watching.append(TagRows.watchFollowing(tags, list)) }
        return watching
    }
}
