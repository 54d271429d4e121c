@_spi(Benchmarks) @_spi(FeedService) import Feedline

/// The seed's approach (paginated-list-rxfeedback): a value state whose reduce returns a new
/// state with `models: state.models + page.models` — a new array of all rows per page.
struct SeedListState {
    let models: [ListRow]
    let nextPageOffset: String?
    let shouldLoadNextPage: Bool

    static func reduce(state: SeedListState, page: Page<Post>) -> SeedListState {
        SeedListState(
            models: state.models + page.posts.map { .post(PostRow(post: $0)) },
            nextPageOffset: page.next?.rawValue,
            shouldLoadNextPage: false
        )
    }
}

enum PaginationBench {
    /// Pages reduced per sample; each sample starts again from a timeline of exactly n rows.
    static let pagesPerSample = 10

    static func run(_ options: Options) -> [Result] {
        progress("pagination")
        let sizes = [1_000, 100_000]
        // Identical input for both approaches: the n posts already shown, then the pages.
        let shown = sizes.map { Posts.make($0, from: 0) }
        let pages = sizes.map { Posts.pages(pagesPerSample, after: $0) }
        let medians = interleaved(warmup: 2, rounds: options.rounds(15, quick: 5), [
            Contender(name: "ours@1k") { ours(shown[0], pages[0]) },
            Contender(name: "ours@100k") { ours(shown[1], pages[1]) },
            Contender(name: "seed@1k") { seed(shown[0], pages[0]) },
            Contender(name: "seed@100k") { seed(shown[1], pages[1]) },
        ])
        let page = "per 20-post page"
        return [
            Result(name: "pagination.page@1k", oursMilliseconds: medians[0], peer: "seed approach",
                   peerMilliseconds: medians[2], note: page),
            Result(name: "pagination.page@100k", oursMilliseconds: medians[1], peer: "seed approach",
                   peerMilliseconds: medians[3], note: page),
            Result(name: "pagination.scaling ours", oursMilliseconds: medians[1], peer: "ours@1k",
                   peerMilliseconds: medians[0], note: "page@100k ÷ page@1k (target ≤ 1.5)"),
            Result(name: "pagination.scaling seed", oursMilliseconds: medians[3], peer: "seed@1k",
                   peerMilliseconds: medians[2], note: "the seed's page@100k ÷ page@1k, for comparison"),
        ]
    }

    /// A timeline state showing `posts`, built the way an app builds it (the first page, then
    /// pages of 20), so its arrays have the slack that growth leaves them.
    static func state(showing posts: [Post]) -> BenchmarkHooks.ListMachine {
        var state = BenchmarkHooks.ListMachine()
        var start = 0
        while start < posts.count {
            let end = min(start + 20, posts.count)
            state.appendPage(rows(Page(posts: Array(posts[start..<end]), next: PageCursor("s\(end)"))))
            start = end
        }
        return state
    }

    /// Milliseconds per page-loaded event reduced into a timeline of `shown.count` rows.
    /// A page of posts as the machine takes it: rows (a post and its interaction state).
    static func rows(_ page: Page<Post>) -> Page<ListRow> {
        Page(items: page.posts.map { .post(PostRow(post: $0)) }, next: page.next)
    }

    static func ours(_ shown: [Post], _ pages: [Page<Post>]) -> Double {
        var state = state(showing: shown)
        expect(state.rows.count == shown.count, "timeline built with \(state.rows.count) rows")
        var total = 0.0
        for page in pages {
            // Making the rows is timed too, as the seed's reduce makes its models.
            let (changes, milliseconds) = timed { state.appendPage(rows(page)) }
            expect(changes.insertions.count == page.posts.count && changes.deletions.isEmpty, "page changeset")
            total += milliseconds
        }
        expect(state.rows.count == shown.count + pages.count * 20, "ours: \(state.rows.count) rows")
        expect(state.rows.last?.post?.id == pages.last?.posts.last?.id, "ours: last row")
        return total / Double(pages.count)
    }

    static func seed(_ shown: [Post], _ pages: [Page<Post>]) -> Double {
        var state = SeedListState(models: shown.map { .post(PostRow(post: $0)) }, nextPageOffset: nil, shouldLoadNextPage: true)
        var total = 0.0
        for page in pages {
            let current = state
            let (next, milliseconds) = timed { SeedListState.reduce(state: current, page: page) }
            state = next
            total += milliseconds
        }
        expect(state.models.count == shown.count + pages.count * 20, "seed: \(state.models.count) rows")
        expect(state.models.last?.post?.id == pages.last?.posts.last?.id, "seed: last row")
        return total / Double(pages.count)
    }
}
