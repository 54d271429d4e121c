@_spi(Benchmarks) @_spi(FeedService) import Feedline
import Foundation

/// Issue 35's "cost that grows with the rows": what one's own post's confirmation, a mute and a
/// refused mute cost per list, at 1,000 and 10,000 rows, each against a naive peer that does the
/// same to plain arrays of the same rows — the straightforward "filter every list" a front
/// without an index would write. Ours should be flat in the rows (10k ÷ 1k ≤ 1.2) and, for
/// the mute, no slower than the peer at either size.
enum CostBench {
    /// Milliseconds of `body`, awaited.
    @MainActor
    static func timedAsync(_ body: () async -> Void) async -> Double {
        let start = ContinuousClock.now
        await body()
        return (ContinuousClock.now - start).milliseconds
    }

    // MARK: - One's own post confirmed

    /// Home and one's own profile, n rows each (the same posts): a post is sent (untimed, shown
    /// as sending on top of both), then the server's answer is timed until both lists show the
    /// confirmed post in that row. The peer replaces the sending row in two arrays by a pass over
    /// every row.
    @MainActor
    final class ConfirmFixture {
        let n: Int
        let session: FeedSession
        let lists: [FeedListViewModel]

        init(rows n: Int) async {
            self.n = n
            session = FeedSession(service: SendBench.SendService(posts: Posts.make(n, from: 0), newerPosts: true), clock: .fixed(Posts.now))
            session.navigator.push(.list(.feed(.account(AccountID(Posts.author.id)))))
            lists = session.navigator.screens.compactMap(\.list)
            for list in lists { list.appeared() }
            session.drafts.load()
            await session.settle()
            expect(lists.count == 2 && lists.allSatisfy { $0.rows.count == n }, "confirm fixture: lists of \(lists.map(\.rows.count))")
        }

        /// (ours, naive) milliseconds of one confirmation.
        func confirm() async -> (ours: Double, naive: Double) {
            let id = session.drafts.startPost()
            session.drafts.update(id) { $0.text = "a post confirmed everywhere" }
            _ = session.drafts.send(id)
            let sending = RowID.post(.sending(id))
            var arrays = lists.map { Array($0.rows) }
            expect(arrays.allSatisfy { $0.first?.id == sending }, "confirm@\(n): not shown as sending")
            var naive = 0.0
            func runNaive(_ confirmed: ListRow) {
                let (_, milliseconds) = timed {
                    for index in arrays.indices { arrays[index] = arrays[index].map { $0.id == sending ? confirmed : $0 } }
                }
                naive = milliseconds
                expect(arrays.allSatisfy { $0.first == confirmed }, "confirm@\(n): the naive peer missed the row")
            }
            let ours = await timedAsync { await session.settle() }
            expect(lists.allSatisfy { $0.rows.first?.post?.isSending == false }, "confirm@\(n): a list still shows the post as sending")
            guard let confirmed = lists[0].rows.first else { return (ours, .nan) }
            runNaive(confirmed)
            return (ours, naive)
        }

        /// (ours, naive) milliseconds of a refresh of both lists that brings 20 new posts and a
        /// gap row, which go below one's own posts on top (index 1 after the first round): the
        /// peer builds each array anew around them.
        func refreshBelowOwnPosts() async -> (ours: Double, naive: Double) {
            var arrays = lists.map { Array($0.rows) }
            let own = arrays.map { $0.prefix { $0.post?.post.author.id == Posts.author.id && $0.post?.post.id.rawValue.hasPrefix("z") == true }.count }
            let before = lists.map(\.rows.count)
            let ours = await timedAsync {
                for list in lists { list.refresh() }
                await session.settle()
            }
            expect(zip(lists, before).allSatisfy { $0.rows.count == $1 + 21 }, "refresh@\(n): lists of \(lists.map(\.rows.count)) rows, expected 21 more")
            expect(zip(lists, own).allSatisfy { $0.rows[$1].id != $0.rows[0].id && $0.rows[$1 + 20].gap != nil }, "refresh@\(n): the new rows are not below one's own posts")
            let fresh = lists.enumerated().map { index, list in Array(list.rows[own[index]..<(own[index] + 21)]) }
            let (_, naive) = timed {
                for index in arrays.indices {
                    arrays[index] = Array(arrays[index][..<own[index]]) + fresh[index] + arrays[index][own[index]...]
                }
            }
            expect(zip(arrays, lists).allSatisfy { $0.count == $1.rows.count }, "refresh@\(n): the naive peer's rows")
            return (ours, naive)
        }
    }

    // MARK: - A mute, and its refusal

    static let muted = Author(id: "88", displayName: "Muted", handle: "muted@example.social")
    static let listCount = 20
    static let hiddenPerList = 50

    /// 20 lists (home and 19 local timelines) of n rows, 50 of them by one account, spread evenly.
    /// The mute is timed until every list has published the removal of its 50 rows; the service
    /// refuses it, and the refusal is timed until every row is back where it was.
    @MainActor
    final class MuteFixture {
        let n: Int
        let session: FeedSession
        let models: [FeedListViewModel]
        let rows: [ListRow]

        init(rows n: Int) async {
            self.n = n
            var posts = Posts.make(n, from: 0)
            for position in Self.positions(n) {
                let post = posts[position]
                posts[position] = Post(id: post.id, author: CostBench.muted, text: post.text, createdAt: post.createdAt)
            }
            session = FeedSession(service: InstantService(initial: posts, pages: []), clock: .fixed(Posts.now))
            session.root.appeared()
            for _ in 1..<CostBench.listCount { session.navigator.push(.list(.feed(.local))) }
            await session.settle()
            models = session.navigator.screens.compactMap(\.list)
            rows = Array(models[0].rows)
            expect(models.count == CostBench.listCount && models.allSatisfy { $0.rows.count == n }, "mute fixture: lists of \(models.map(\.rows.count))")
        }

        static func positions(_ n: Int) -> [Int] {
            (0..<CostBench.hiddenPerList).map { 1 + $0 * (n - 2) / CostBench.hiddenPerList }
        }

        /// Milliseconds of the mute and of its refusal.
        func muteAndRefusal() async -> (mute: Double, refusal: Double) {
            let (_, mute) = timed { _ = session.set(.mute, true, account: AccountID(CostBench.muted.id)) }
            let left = n - CostBench.hiddenPerList
            expect(models.allSatisfy { $0.rows.count == left }, "mute@\(n): lists of \(Set(models.map(\.rows.count))) rows, expected \(left)")
            let refusal = await timedAsync { await session.settle() }
            expect(models.allSatisfy { $0.rows.count == n }, "mute@\(n): rows not back after the refusal")
            expect(models.allSatisfy { $0.rows.elementsEqual(rows, by: { $0.id == $1.id }) }, "mute@\(n): rows back out of order")
            return (mute, refusal)
        }

        /// The naive peer: every list an array of rows, filtered, then put back by a merge of what
        /// was kept and what was taken (with its index).
        func naive() -> (mute: Double, refusal: Double) {
            var lists = [[ListRow]](repeating: rows, count: CostBench.listCount)
            var taken = [[(index: Int, row: ListRow)]](repeating: [], count: CostBench.listCount)
            let account = CostBench.muted.id
            let (_, mute) = timed {
                for list in lists.indices {
                    var kept: [ListRow] = []
                    kept.reserveCapacity(lists[list].count)
                    for (index, row) in lists[list].enumerated() {
                        if row.post?.author.id == account { taken[list].append((index, row)) } else { kept.append(row) }
                    }
                    lists[list] = kept
                }
            }
            expect(lists.allSatisfy { $0.count == n - CostBench.hiddenPerList }, "naive mute@\(n): wrong rows left")
            let (_, refusal) = timed {
                for list in lists.indices {
                    var merged: [ListRow] = []
                    merged.reserveCapacity(lists[list].count + taken[list].count)
                    var next = 0
                    for row in lists[list] {
                        while next < taken[list].count, taken[list][next].index == merged.count {
                            merged.append(taken[list][next].row)
                            next += 1
                        }
                        merged.append(row)
                    }
                    merged += taken[list][next...].map(\.row)
                    lists[list] = merged
                }
            }
            expect(lists.allSatisfy { $0.elementsEqual(rows, by: { $0.id == $1.id }) }, "naive refusal@\(n): rows out of order")
            return (mute, refusal)
        }
    }

    @MainActor
    static func run(_ options: Options) async -> [Result] {
        progress("costs that grow with the rows")
        let warmup = 2
        let rounds = options.rounds(15, quick: 3)
        let sizes = [1_000, 10_000]
        var confirms: [ConfirmFixture] = []
        var mutes: [MuteFixture] = []
        for size in sizes {
            confirms.append(await ConfirmFixture(rows: size))
            mutes.append(await MuteFixture(rows: size))
        }
        // Per size: confirm ours, confirm naive, mute ours, mute naive, refusal ours, refusal naive, refresh ours, refresh naive.
        var samples = [[[Double]]](repeating: [[Double]](repeating: [], count: 8), count: sizes.count)
        for round in 0..<(warmup + rounds) {
            let order = round.isMultiple(of: 2) ? Array(sizes.indices) : sizes.indices.reversed()
            for index in order {
                let confirm = await confirms[index].confirm()
                let refresh = await confirms[index].refreshBelowOwnPosts()
                let naive: (mute: Double, refusal: Double)
                let ours: (mute: Double, refusal: Double)
                if round.isMultiple(of: 2) {
                    naive = mutes[index].naive()
                    ours = await mutes[index].muteAndRefusal()
                } else {
                    ours = await mutes[index].muteAndRefusal()
                    naive = mutes[index].naive()
                }
                guard round >= warmup else { continue }
                for (slot, value) in [confirm.ours, confirm.naive, ours.mute, naive.mute, ours.refusal, naive.refusal, refresh.ours, refresh.naive].enumerated() {
                    samples[index][slot].append(value)
                }
            }
        }
        let m = samples.map { $0.map(median) }
        let lists = "\(listCount) lists"
        /// Ours against the peer at both sizes, then ours at 10k against ours at 1k.
        func scenario(_ name: String, ours: Int, peer: String, note: String, scaling: String) -> [Result] {
            [
                Result(name: "costs.\(name)@1k", oursMilliseconds: m[0][ours], peer: peer, peerMilliseconds: m[0][ours + 1], note: note),
                Result(name: "costs.\(name)@10k", oursMilliseconds: m[1][ours], peer: peer, peerMilliseconds: m[1][ours + 1]),
                Result(name: "costs.\(name) 10k ÷ 1k", oursMilliseconds: m[1][ours], peer: "costs.\(name)@1k", peerMilliseconds: m[0][ours], note: scaling),
            ]
        }
        return scenario("confirm own post, 2 lists", ours: 0, peer: "naive: map every row",
                        note: "the server's answer to a send until home and one's profile show the post (sending row on top)",
                        scaling: "flat in the rows: ratio ≤ 1.2")
            + scenario("refresh below own post, 2 lists", ours: 6, peer: "naive: build every list anew",
                       note: "a refresh of home and one's profile: 20 new rows and a gap row go in below one's own posts on top",
                       scaling: "O(1) amortised per list: ratio ≤ 1.2")
            + scenario("mute 50 rows × \(lists)", ours: 2, peer: "naive: filter every list",
                       note: "session.set(.mute) until every list published the removal of its 50 rows; target ≤ 1.0× the peer",
                       scaling: "flat in the rows: ratio ≤ 1.2")
            + scenario("mute refused × \(lists)", ours: 4, peer: "naive: merge every list",
                       note: "the refusal until every list shows its 50 rows where they were; O(rows put back · log rows)",
                       scaling: "O(rows put back · log rows): ratio ≈ 1 (log 10k ÷ log 1k = 1.33 at most)")
    }
}
