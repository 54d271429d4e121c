/// The rows of the domains you blocked, each with its block as the session's store shows it.
struct DomainRows: RowSource {
    let service: any FeedService
    let domainBlocks: DomainBlockStore?

    var refreshStyle: ListState.RefreshStyle { .reload }

    @MainActor func load(_ request: ListRequest, epochs: FetchEpochs) async throws -> Page<String> {
        if case .page(let cursor) = request.kind { return try await service.domainBlocks(after: cursor) }
        return try await service.domainBlocks(after: nil)
    }

    @MainActor
    func receive(_ page: Page<String>, for request: ListRequest, epochs: FetchEpochs, in list: FeedListViewModel) -> Received {
        let rows = page.items.map { domain in
            let key = DomainBlockStore.key(domain)
            return ListRow.domain(key, block: domainBlocks?.block(key) ?? ToggleDisplay(isOn: true))
        }
        let fetchedAt = epochs.domains
        return Received(
            event: .pageLoaded(token: request.token, page: Page(items: rows, next: page.next, skipped: page.skipped)),
            then: { [domainBlocks] in domainBlocks?.ingest(blocked: page.items, fetchedAt: fetchedAt) }
        )
    }

    @MainActor
    func watch(_ list: FeedListViewModel) -> [Subscription] {
        guard let domainBlocks else { return [] }
        return [domainBlocks.observe { [weak list] change in list?.send(.domainChanged(change.domain, change.display)) }]
    }
}
