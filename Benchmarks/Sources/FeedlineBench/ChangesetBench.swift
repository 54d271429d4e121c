@_spi(FeedService) import Feedline
import Foundation

/// A row of the changeset benchmark: identity is `id`, content is `rev`.
struct Row: Identifiable, Hashable, Sendable {
    var id: UUID
    var rev: Int
}

/// One changeset input: two snapshots and the counts a correct diff must report.
struct ChangesetCase {
    var name: String
    var old: [Row]
    var new: [Row]
    var deletions: Int
    var insertions: Int
    var updates: Int
    /// Rows shuffled in place: moves can be at most this many.
    var shuffled: Int

    /// DifferenceKit's benchmark shapes: delete `[d0, d1)·n`, insert `ins·n` new rows at `at·n`
    /// (post-delete coordinates), shuffle the first `shuffle·n` rows of the target.
    static func family(
        _ name: String, n: Int, delete: (Double, Double), insert: Double, at: Double, shuffle: Double, seed: UInt64
    ) -> ChangesetCase {
        var random = SeededGenerator(seed: seed)
        let old = (0..<n).map { _ in Row(id: uuid(&random), rev: 0) }
        var new = old
        let deleted = Int(delete.0 * Double(n))..<Int(delete.1 * Double(n))
        new.removeSubrange(deleted)
        let inserted = (0..<Int(insert * Double(n))).map { _ in Row(id: uuid(&random), rev: 0) }
        new.insert(contentsOf: inserted, at: Int(at * Double(n)))
        let shuffled = Int(shuffle * Double(n))
        new[0..<shuffled].shuffle(using: &random)
        return ChangesetCase(
            name: name, old: old, new: new, deletions: deleted.count, insertions: inserted.count, updates: 0,
            shuffled: shuffled)
    }

    /// A page arriving: n rows, then 20 appended and 10 updated (rev + 1) at spread positions.
    static func page(_ name: String, n: Int, seed: UInt64) -> ChangesetCase {
        var random = SeededGenerator(seed: seed)
        let old = (0..<n).map { _ in Row(id: uuid(&random), rev: 0) }
        var new = old
        for k in 0..<10 { new[(k * n) / 10 + n / 20].rev += 1 }
        new += (0..<20).map { _ in Row(id: uuid(&random), rev: 0) }
        return ChangesetCase(name: name, old: old, new: new, deletions: 0, insertions: 20, updates: 10, shuffled: 0)
    }

    private static func uuid(_ random: inout SeededGenerator) -> UUID {
        let a = random.next()
        let b = random.next()
        return withUnsafeBytes(of: (a, b)) { bytes in
            UUID(uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
        }
    }
}

enum ChangesetBench {
    static func cases(quick: Bool) -> [ChangesetCase] {
        var cases: [ChangesetCase] = [
            .family("changeset.A@10k", n: 10_000, delete: (0.4, 0.6), insert: 0.2, at: 0.6, shuffle: 0.04, seed: 1),
        ]
        if !quick {
            cases.append(.family("changeset.A@100k", n: 100_000, delete: (0.4, 0.6), insert: 0.2, at: 0.6, shuffle: 0.04, seed: 2))
            cases.append(.family("changeset.B@100k", n: 100_000, delete: (0.2, 0.3), insert: 0.1, at: 0.3, shuffle: 0.02, seed: 3))
        }
        cases.append(.page("changeset.Page@10k", n: 10_000, seed: 4))
        cases.append(.page("changeset.Page@100k", n: 100_000, seed: 5))
        return cases
    }

    static func run(_ options: Options) -> [Result] {
        cases(quick: options.quick).map { input in
            progress(input.name)
            // Once, untimed: the law every changeset obeys (applied to old, it yields new).
            expect(Changeset(from: input.old, to: input.new).apply(to: input.old) == input.new, "\(input.name): apply law")
            // The standard library's diff is quadratic-ish on the big shuffles: fewer rounds there.
            let expensive = input.old.count >= 100_000 && input.shuffled > 0
            let medians = interleaved(warmup: 1, rounds: expensive ? options.rounds(3, quick: 3) : options.rounds(11, quick: 5), [
                Contender(name: "ours") { ours(input) },
                Contender(name: "stdlib") { stdlib(input) },
            ])
            return Result(
                name: input.name, oursMilliseconds: medians[0], peer: "stdlib difference+inferringMoves",
                peerMilliseconds: medians[1])
        }
    }

    static func ours(_ input: ChangesetCase) -> Double {
        let (changes, milliseconds) = timed { Changeset(from: input.old, to: input.new) }
        expect(changes.deletions.count == input.deletions, "\(input.name): \(changes.deletions.count) deletions")
        expect(changes.insertions.count == input.insertions, "\(input.name): \(changes.insertions.count) insertions")
        expect(changes.updates.count == input.updates, "\(input.name): \(changes.updates.count) updates")
        expect(changes.moves.count <= input.shuffled, "\(input.name): \(changes.moves.count) moves")
        return milliseconds
    }

    static func stdlib(_ input: ChangesetCase) -> Double {
        let (difference, milliseconds) = timed {
            input.new.map(\.id).difference(from: input.old.map(\.id)).inferringMoves()
        }
        var removals = 0
        var insertions = 0
        for change in difference {
            switch change {
            case .remove(_, _, let associated): if associated == nil { removals += 1 }
            case .insert(_, _, let associated): if associated == nil { insertions += 1 }
            }
        }
        expect(removals == input.deletions, "\(input.name) stdlib: \(removals) removals")
        expect(insertions == input.insertions, "\(input.name) stdlib: \(insertions) insertions")
        return milliseconds
    }
}
