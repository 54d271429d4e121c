import FeedlineTestSupport
@_spi(FeedService) import Feedline
import Synchronization
import Testing

/// A row for changeset tests: identity `id`, content `rev`.
struct Item: Identifiable, Equatable, Sendable, CustomStringConvertible {
    var id: Int
    var rev: Int = 0
    var description: String { rev == 0 ? "\(id)" : "\(id)'\(rev)" }
}

/// Counts hash operations, to fence the diff's cost by counting work instead of timing it.
final class HashCounter: Sendable {
    private let count = Atomic<Int>(0)
    var value: Int { count.load(ordering: .relaxed) }
    func tick() { count.add(1, ordering: .relaxed) }
}

struct CountedID: Hashable, Sendable {
    var value: Int
    let counter: HashCounter
    static func == (lhs: CountedID, rhs: CountedID) -> Bool { lhs.value == rhs.value }
    func hash(into hasher: inout Hasher) {
        counter.tick()
        hasher.combine(value)
    }
}

struct CountedItem: Identifiable, Equatable, Sendable {
    var id: CountedID
    var rev: Int
}

@Suite("Changeset")
struct ChangesetTests {
    private func items(_ ids: [Int]) -> [Item] { ids.map { Item(id: $0) } }

    /// The laws every changeset obeys.
    private func checkLaws(_ old: [Item], _ new: [Item], seed: UInt64? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        let changes = Changeset(from: old, to: new)
        let context = seed.map { " (seed \($0))" } ?? ""
        #expect(changes.apply(to: old) == new, "apply(old) == new\(context): \(old) → \(new)", sourceLocation: sourceLocation)
        var inPlace = old
        changes.apply(to: &inPlace)
        #expect(inPlace == new, "in-place apply\(context)", sourceLocation: sourceLocation)
        #expect(changes.oldCount == old.count && changes.newCount == new.count, sourceLocation: sourceLocation)
        for update in changes.updates {
            #expect(old[update.oldIndex].id == new[update.newIndex].id, "update keeps identity\(context)", sourceLocation: sourceLocation)
            #expect(old[update.oldIndex] != new[update.newIndex], "update only when content changed\(context)", sourceLocation: sourceLocation)
            #expect(update.element == new[update.newIndex], sourceLocation: sourceLocation)
        }
        for insertion in changes.insertions {
            #expect(insertion.element == new[insertion.index], sourceLocation: sourceLocation)
        }
        for move in changes.moves {
            #expect(old[move.from].id == new[move.to].id, "move keeps identity\(context)", sourceLocation: sourceLocation)
        }
        #expect(changes.deletions == changes.deletions.sorted(), sourceLocation: sourceLocation)
        #expect(changes.insertions.map(\.index) == changes.insertions.map(\.index).sorted(), sourceLocation: sourceLocation)
        // Every row is accounted for exactly once on each side.
        let oldTouched = changes.deletions.count + changes.moves.count
        let newTouched = changes.insertions.count + changes.moves.count
        #expect(old.count - oldTouched == new.count - newTouched, sourceLocation: sourceLocation)
    }

    @Test("identical snapshots give an empty changeset")
    func identical() {
        let rows = items([1, 2, 3])
        #expect(Changeset(from: rows, to: rows).isEmpty)
        #expect(Changeset<Item>(from: [], to: []).isEmpty)
    }

    @Test("appending, prepending and removing")
    func structural() {
        let appended = Changeset(from: items([1, 2]), to: items([1, 2, 3, 4]))
        #expect(appended.insertions.map(\.index) == [2, 3])
        #expect(appended.deletions.isEmpty && appended.moves.isEmpty && appended.updates.isEmpty)

        let prepended = Changeset(from: items([3, 4]), to: items([1, 2, 3, 4]))
        #expect(prepended.insertions.map(\.index) == [0, 1])

        let removed = Changeset(from: items([1, 2, 3, 4]), to: items([1, 4]))
        #expect(removed.deletions == [1, 2])
        #expect(removed.insertions.isEmpty)

        let cleared = Changeset(from: items([1, 2]), to: [])
        #expect(cleared.deletions == [0, 1])
        #expect(Changeset(from: [], to: items([5])).insertions.map(\.index) == [0])
    }

    @Test("a changed row is an update, never a delete and insert")
    func updates() {
        let old = [Item(id: 1), Item(id: 2), Item(id: 3)]
        let new = [Item(id: 1), Item(id: 2, rev: 1), Item(id: 3)]
        let changes = Changeset(from: old, to: new)
        #expect(changes.updates == [.init(oldIndex: 1, newIndex: 1, element: Item(id: 2, rev: 1))])
        #expect(changes.deletions.isEmpty && changes.insertions.isEmpty && changes.moves.isEmpty)
    }

    @Test("a swap is one move; a moved row that changed is a move and an update")
    func moves() {
        let swap = Changeset(from: items([1, 2, 3, 4]), to: items([1, 3, 2, 4]))
        #expect(swap.moves.count == 1)
        #expect(swap.deletions.isEmpty && swap.insertions.isEmpty)

        let old = items([1, 2, 3])
        let new = [Item(id: 3, rev: 2), Item(id: 1), Item(id: 2)]
        let changes = Changeset(from: old, to: new)
        #expect(changes.moves == [.init(from: 2, to: 0)])
        #expect(changes.updates.map(\.newIndex) == [0])
        checkLaws(old, new)
    }

    @Test("reversal keeps one row in place and moves the rest")
    func reversal() {
        let old = items(Array(0..<50))
        let new = Array(old.reversed())
        let changes = Changeset(from: old, to: new)
        #expect(changes.moves.count == 49)
        checkLaws(old, new)
    }

    @Test("duplicate ids on either side never trap and are matched in order", arguments: [
        ([1, 1, 2], [1, 2]),
        ([1, 2], [2, 2, 1, 1]),
        ([3, 3, 3], [3]),
        ([3], [3, 3, 3]),
        ([1, 2, 1, 2], [2, 1, 2, 1]),
        ([5, 5], [5, 5]),
    ])
    func duplicates(old: [Int], new: [Int]) {
        checkLaws(items(old), items(new))
    }

    @Test("laws hold on random lists with duplicates, moves and content changes")
    func randomLaws() {
        let seed = testSeed(0xC0FFEE)
        var random = SeededGenerator(seed: seed)
        for round in 0..<3000 {
            let idSpace = Int.random(in: 1...30, using: &random)
            let old = (0..<Int.random(in: 0...25, using: &random)).map { _ in
                Item(id: Int.random(in: 0..<idSpace, using: &random), rev: Int.random(in: 0...1, using: &random))
            }
            var new = old.filter { _ in Int.random(in: 0..<4, using: &random) != 0 }
            new.shuffle(using: &random)
            for _ in 0..<Int.random(in: 0...5, using: &random) {
                new.insert(Item(id: Int.random(in: 0..<idSpace * 2, using: &random)), at: Int.random(in: 0...new.count, using: &random))
            }
            for index in new.indices where Int.random(in: 0..<5, using: &random) == 0 { new[index].rev += 1 }
            checkLaws(old, new, seed: seed &+ UInt64(round))
        }
    }

    @Test("the moves are as few as possible: rows out of their relative order only")
    func minimalMoves() {
        var random = SeededGenerator(seed: testSeed(7))
        for _ in 0..<200 {
            let old = items(Array(0..<40))
            var new = old
            let shuffled = Int.random(in: 0...10, using: &random)
            new[0..<shuffled].shuffle(using: &random)
            let changes = Changeset(from: old, to: new)
            #expect(changes.moves.count <= shuffled)
            #expect(changes.moves.count <= max(0, shuffled - 1))
        }
    }

    @Test("appending and updating in place hashes nothing: the common prefix and suffix are trimmed")
    func costOfAppend() {
        let counter = HashCounter()
        let old = (0..<10_000).map { CountedItem(id: CountedID(value: $0, counter: counter), rev: 0) }
        var new = old
        for index in stride(from: 0, to: 10_000, by: 1000) { new[index].rev = 1 }
        new += (10_000..<10_020).map { CountedItem(id: CountedID(value: $0, counter: counter), rev: 0) }
        let changes = Changeset(from: old, to: new)
        #expect(changes.insertions.count == 20)
        #expect(changes.updates.count == 10)
        #expect(counter.value == 0)
    }

    @Test("a general edit hashes each id at most once")
    func costOfShuffle() {
        let counter = HashCounter()
        let n = 5000
        let old = (0..<n).map { CountedItem(id: CountedID(value: $0, counter: counter), rev: 0) }
        var random = SeededGenerator(seed: testSeed(11))
        var new = Array(old[0..<(n * 2 / 5)] + old[(n * 3 / 5)...])
        new.insert(contentsOf: (n..<(n + n / 5)).map { CountedItem(id: CountedID(value: $0, counter: counter), rev: 0) }, at: n * 2 / 5)
        new[0..<(n / 25)].shuffle(using: &random)
        let changes = Changeset(from: old, to: new)
        #expect(changes.apply(to: old) == new)
        #expect(counter.value <= old.count + new.count)
    }

    @Test("initial changeset inserts every row")
    func initial() {
        let rows = items([4, 5])
        let changes = Changeset.initial(rows)
        #expect(changes.apply(to: []) == rows)
    }
}
