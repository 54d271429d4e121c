@_spi(FeedService) import Feedline
import FeedlineState
import Foundation

/// The local database (`FeedlineState`), in a temporary directory:
/// - a save of the home list with one page of 40 posts appended to 960 saved entries (so the
///   list reaches the 1,000 limit), in a file holding only that list (1,000 posts) and in one
///   whose posts table holds 100,000 posts through 99 other lists: O(changes) writes mean the
///   two cost about the same;
/// - starting from the cache: `open` + `loadList` of the 1,000-entry list, a new store each time,
///   in each file; neither may depend on what else the file holds (the open checks only the
///   small tables, O(lists)), so the two should cost about the same.
///
/// Each save round first puts the list back to its 960 entries (untimed), so every timed save
/// writes the same 81 rows (40 entries, 40 posts, the list row).
enum StateBench {
    static let base = 960
    static let page = 40

    static func run(_ options: Options) -> [Result] {
        progress("state database")
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("feedline-bench-state-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        do {
            return try measure(root, options)
        } catch {
            expect(false, "state: \(error)")
            return []
        }
    }

    static func measure(_ root: URL, _ options: Options) throws -> [Result] {
        let posts = Posts.make(base + page, from: 0).map(SavedList.Entry.post)
        let before = SavedList(entries: Array(posts.prefix(base)), older: PageCursor("c1"))
        let after = SavedList(entries: posts, older: PageCursor("c2"), position: ReadingPosition(id: "p3", createdAt: Posts.now))

        // Two files: the home list alone, and the home list with 99 other lists of 1,000 posts.
        let small = try StateStore.open(directory: root.appendingPathComponent("small"), server: "bench", account: nil)
        let large = try StateStore.open(directory: root.appendingPathComponent("large"), server: "bench", account: nil)
        for list in 0..<99 {
            let entries = Posts.make(1_000, from: 1_000_000 + list * 1_000).map(SavedList.Entry.post)
            try large.saveList(SavedList(entries: entries, older: nil), as: "other\(list)")
        }
        for store in [small, large] {
            try store.saveList(after, as: "home")
            try store.saveList(before, as: "home")
        }

        func saving(_ store: StateStore, _ name: String) -> Contender {
            Contender(name: name) {
                do {
                    try store.saveList(before, as: "home")
                    let (_, milliseconds) = try timed { try store.saveList(after, as: "home") }
                    return milliseconds
                } catch {
                    expect(false, "state: \(name): \(error)")
                    return .nan
                }
            }
        }
        func opening(_ store: StateStore, _ name: String, load: Bool) -> Contender {
            let directory = store.file.deletingLastPathComponent()
            return Contender(name: name) {
                do {
                    let (count, milliseconds) = try timed {
                        let store = try StateStore.open(directory: directory, server: "bench", account: nil)
                        return load ? try store.loadList("home")?.entries.count : base + page
                    }
                    expect(count == base + page, "state: \(name) loaded \(count ?? 0) entries")
                    return milliseconds
                } catch {
                    expect(false, "state: \(name): \(error)")
                    return .nan
                }
            }
        }

        let rounds = options.rounds(41, quick: 7)
        let saves = interleaved(warmup: 5, rounds: rounds, [saving(small, "save@1k"), saving(large, "save@100k")])
        // The last round saved `after`: both files hold it, read back equal by a new store.
        for store in [small, large] {
            let reopened = try StateStore.open(directory: store.file.deletingLastPathComponent(), server: "bench", account: nil)
            expect(try reopened.loadList("home") == after, "state: the saved list does not read back equal")
        }
        let opens = interleaved(
            warmup: 2, rounds: options.rounds(15, quick: 3),
            [
                opening(small, "open+load@1k", load: true), opening(large, "open+load@100k", load: true),
                opening(small, "open@1k", load: false), opening(large, "open@100k", load: false),
            ]
        )
        // The database file and its WAL (what has not been checkpointed yet).
        let fileSizes = [small, large].map { store in
            [store.file.path, store.file.path + "-wal"].reduce(0.0) { sum, path in
                sum + ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.doubleValue ?? 0) / 1_048_576
            }
        }
        return [
            Result(
                name: "state.save page of 40@1k", oursMilliseconds: saves[0], peer: nil, peerMilliseconds: nil,
                note: String(format: "960 saved entries + 40 appended, 1,000 posts in the file (%.1f MB); 81 rows written", fileSizes[0])
            ),
            Result(
                name: "state.save page of 40@100k", oursMilliseconds: saves[1], peer: "state.save page of 40@1k", peerMilliseconds: saves[0],
                note: String(format: "the same with 100,000 posts in the file (%.1f MB); O(changes): ratio ≈ 1", fileSizes[1])
            ),
            Result(
                name: "state.open+load 1k list@1k", oursMilliseconds: opens[0], peer: nil, peerMilliseconds: nil,
                note: String(format: "a new store and loadList of 1,000 entries: the start-from-cache cost; open alone %.3f ms", opens[2])
            ),
            Result(
                name: "state.open+load 1k list@100k", oursMilliseconds: opens[1], peer: "state.open+load 1k list@1k", peerMilliseconds: opens[0],
                note: String(format: "the same list in the 100,000-post file; open alone %.3f ms; not O(file): ratio ≈ 1", opens[3])
            ),
        ]
    }
}
