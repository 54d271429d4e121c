import Feedline
import FeedlineTestSupport
import Testing

/// `RowList` against the plain array it stands for: after every edit it holds the same rows in
/// the same order, finds every id at its position, and keeps its index sound — through holes,
/// their compaction, inserts at the top, the end and in the middle.
@Suite("RowList")
struct RowListTests {
    static func row(_ number: Int) -> ListRow {
        .post(PostRow(post: makePost("r\(number)")))
    }

    /// Everything a list answers, compared with `model`.
    static func expectMatches(_ list: RowList, _ model: [ListRow], _ context: @autoclosure () -> String) -> Bool {
        var sound = true
        func check(_ condition: Bool, _ what: String) {
            if !condition, sound {
                Issue.record("\(context()): \(what)")
                sound = false
            }
        }
        check(list.checkIndex().isEmpty, "index broken: \(list.checkIndex())")
        check(list.count == model.count, "\(list.count) rows, expected \(model.count)")
        check(Array(list) == model, "iterates other rows than expected")
        check(list.indices.map { list[$0] } == model, "positions hold other rows than expected")
        for (position, row) in model.enumerated() {
            check(list.index(of: row.id) == position, "\(row.id) at \(list.index(of: row.id).map(String.init) ?? "nil"), expected \(position)")
            check(list[id: row.id] == row && list.contains(row.id), "\(row.id) not found by id")
        }
        check(list == RowList(model) && list.hashValue == RowList(model).hashValue, "not equal to the same rows built at once")
        return sound
    }

    @Test("seeded edits keep the rows, their order and the index of a plain array")
    func followsTheArray() {
        let seed = testSeed(0x0205_1157)
        var random = SeededGenerator(seed: seed)
        func below(_ bound: Int) -> Int { Int(random.next() % UInt64(max(bound, 1))) }
        var list = RowList((0..<50).map(Self.row))
        var model = (0..<50).map(Self.row)
        var next = 50
        for step in 0..<3_000 {
            func fresh(_ count: Int) -> [ListRow] {
                defer { next += count }
                return (next..<(next + count)).map(Self.row)
            }
            switch below(10) {
            case 0, 1:
                let rows = fresh(1 + below(3))
                list.insert(rows, at: 0)
                model.insert(contentsOf: rows, at: 0)
            case 2:
                let rows = fresh(1 + below(5))
                list.insert(rows, at: list.count)
                model.append(contentsOf: rows)
            case 3:
                let rows = fresh(1 + below(3))
                let index = below(model.count + 1)
                list.insert(rows, at: index)
                model.insert(contentsOf: rows, at: index)
            case 4, 5, 6:
                guard !model.isEmpty else { continue }
                let index = below(model.count)
                list.remove(at: [index])
                model.remove(at: index)
            case 7:
                guard !model.isEmpty else { continue }
                let indices = Set((0..<(1 + below(4))).map { _ in below(model.count) }).sorted()
                list.remove(at: indices)
                for index in indices.reversed() { model.remove(at: index) }
            case 8:
                guard !model.isEmpty else { continue }
                let index = below(model.count)
                guard case .post(var post) = model[index] else { continue }
                post.post.text += " (edited)"
                list.replace(at: index, with: .post(post))
                model[index] = .post(post)
            default:
                if below(50) == 0 {
                    list.removeAll()
                    model.removeAll()
                }
            }
            guard Self.expectMatches(list, model, "seed \(seed) step \(step)") else { return }
        }
    }

    @Test("thousands of deletes, past the point where the holes are compacted, keep every position")
    func manyDeletes() {
        let count = 3_000
        var list = RowList((0..<count).map(Self.row))
        var model = (0..<count).map(Self.row)
        var random = SeededGenerator(seed: testSeed(0xDE1E7E))
        for step in 0..<2_500 {
            let index = Int(random.next() % UInt64(model.count))
            list.remove(at: [index])
            model.remove(at: index)
            if step.isMultiple(of: 250) || model.count < 600 {
                guard Self.expectMatches(list, model, "step \(step)") else { return }
            }
        }
        #expect(Self.expectMatches(list, model, "the end"))
    }

    @Test("a copy does not see the other's edits")
    func valueSemantics() {
        var list = RowList((0..<10).map(Self.row))
        let copy = list
        list.remove(at: [3])
        list.insert([Self.row(99)], at: 0)
        #expect(Self.expectMatches(copy, (0..<10).map(Self.row), "the copy"))
        #expect(Self.expectMatches(list, [Self.row(99)] + (0..<10).filter { $0 != 3 }.map(Self.row), "the edited list"))
    }

    @Test("rows put back where removals left them, in ascending order of their old places, restore the list: seeded")
    func putBack() {
        let seed = testSeed(0x9B7_BAC4)
        print("RowList put-back seed: \(seed)")
        var random = SeededGenerator(seed: seed)
        func below(_ bound: Int) -> Int { Int(random.next() % UInt64(max(bound, 1))) }
        var next = 400
        var list = RowList((0..<400).map(Self.row))
        var model = (0..<400).map(Self.row)
        for round in 0..<200 {
            // Some rows come and go at either end first, as a stream and pages would.
            for _ in 0..<(below(4) + (model.count < 100 ? 30 : 0)) {
                let rows = (next..<(next + 1 + below(3))).map(Self.row)
                next += rows.count
                let index = below(2) == 0 ? 0 : model.count
                list.insert(rows, at: index)
                model.insert(contentsOf: rows, at: index)
            }
            let taken = Set((0..<(1 + below(40))).map { _ in below(model.count) }).sorted()
            let rows = taken.map { model[$0] }
            let before = model
            list.remove(at: taken)
            for index in taken.reversed() { model.remove(at: index) }
            guard Self.expectMatches(list, model, "seed \(seed) round \(round), taken") else { return }
            if below(3) == 0 {
                // Refused: each row back at its old place, in ascending order.
                for (index, row) in zip(taken, rows) {
                    list.insert([row], at: index)
                    model.insert(row, at: index)
                }
                guard Self.expectMatches(list, model, "seed \(seed) round \(round), put back") else { return }
                #expect(model == before)
            }
        }
    }

    /// Row `number` kept under the key `k<number>`, found by its post's id too (one's own post,
    /// confirmed after it was shown as sending).
    static func keyedRow(_ number: Int) -> ListRow {
        var row = PostRow(post: makePost("r\(number)"))
        row.key = PostID("k\(number)")
        return .post(row)
    }

    /// The other id a keyed row is found by: its post's.
    static func alias(_ row: ListRow) -> RowID? {
        guard case .post(let post) = row, post.key != nil else { return nil }
        return .post(post.post.id)
    }

    @Test("rows removed by id — in any order, named twice, by an alias, or absent — return with the places they had, ascending: seeded")
    func removeByID() {
        let seed = testSeed(0x1D5_0FF)
        print("RowList remove-by-id seed: \(seed)")
        var random = SeededGenerator(seed: seed)
        func below(_ bound: Int) -> Int { Int(random.next() % UInt64(max(bound, 1))) }
        func row(_ number: Int) -> ListRow { number.isMultiple(of: 7) ? Self.keyedRow(number) : Self.row(number) }
        var next = 300
        var list = RowList((0..<300).map(row))
        var model = (0..<300).map(row)
        for round in 0..<300 {
            // Rows come at either end or in the middle, and some leave by position, as pages,
            // the stream and deletes would: the holes and the headroom vary.
            for _ in 0..<(below(3) + (model.count < 100 ? 40 : 0)) {
                let rows = (next..<(next + 1 + below(3))).map(row)
                next += rows.count
                let index = [0, model.count, below(model.count + 1)][below(3)]
                list.insert(rows, at: index)
                model.insert(contentsOf: rows, at: index)
            }
            if below(2) == 0, !model.isEmpty {
                let index = below(model.count)
                list.remove(at: [index])
                model.remove(at: index)
            }
            let picked = Set((0..<(1 + below(30))).map { _ in below(model.count) }).sorted()
            // Each by its id or (for a keyed row) its post's id, some twice, in a shuffled order,
            // with ids of no row among them.
            var ids = picked.flatMap { index -> [RowID] in
                let id = below(2) == 0 ? Self.alias(model[index]) ?? model[index].id : model[index].id
                return below(4) == 0 ? [id, model[index].id] : [id]
            }
            ids += (0..<below(3)).map { _ in .post(PostID("absent\(below(1_000))")) }
            ids.shuffle(using: &random)
            let expected = picked.map { (index: $0, row: model[$0]) }
            let removed = list.remove(ids: ids)
            for index in picked.reversed() { model.remove(at: index) }
            #expect(removed.map(\.index) == expected.map(\.index) && removed.map(\.row) == expected.map(\.row), "seed \(seed) round \(round)")
            guard Self.expectMatches(list, model, "seed \(seed) round \(round)") else { return }
            for item in expected { #expect(list[id: Self.alias(item.row) ?? item.row.id] == nil) }
        }
        #expect(list.remove(ids: [RowID.post(PostID("absent"))]).isEmpty)
    }

    @Test("rows removed by id from 10,000 leave holes, as removals by position do: no key is written, and put back they fill them")
    func removeByIDLeavesHoles() {
        let rows = (0..<10_000).map(Self.row)
        var list = RowList(rows)
        let taken = (0..<50).map { 1 + $0 * 199 }
        let written = list.keysWritten
        let removed = list.remove(ids: taken.reversed().map { rows[$0].id })
        #expect(removed.map(\.index) == taken)
        #expect(list.keysWritten == written)
        for item in removed { list.insert([item.row], at: item.index) }
        #expect(list.keysWritten - written == 50)
        #expect(Self.expectMatches(list, rows, "after the put-back"))
    }

    @Test("50 rows taken from 10,000 and put back where they were write 50 keys: each fills the hole it left")
    func putBackFillsHoles() {
        let rows = (0..<10_000).map(Self.row)
        var list = RowList(rows)
        let taken = (0..<50).map { 1 + $0 * 199 }
        list.remove(at: taken)
        let written = list.keysWritten
        for index in taken { list.insert([rows[index]], at: index) }
        #expect(list.keysWritten - written == 50)
        #expect(Self.expectMatches(list, rows, "after the put-back"))
    }

    @Test("rows inserted near either end rewrite the keys of the rows on that side only, however long the list")
    func insertNearTheEnds() {
        var list = RowList((0..<10_000).map(Self.row))
        var model = (0..<10_000).map(Self.row)
        var next = 10_000
        for index in [1, 2, 1, 5, 0, 3] {
            let rows = [Self.row(next), Self.row(next + 1)]
            next += 2
            let written = list.keysWritten
            list.insert(rows, at: index)
            model.insert(contentsOf: rows, at: index)
            #expect(list.keysWritten - written <= index + rows.count, "at \(index): \(list.keysWritten - written) keys written")
        }
        for offset in [1, 4, 2] {
            let index = model.count - offset
            let written = list.keysWritten
            list.insert([Self.row(next)], at: index)
            model.insert(Self.row(next), at: index)
            next += 1
            #expect(list.keysWritten - written <= offset + 1, "\(offset) from the end: \(list.keysWritten - written) keys written")
        }
        #expect(Self.expectMatches(list, model, "after the inserts"))
    }

    @Test("rows inserted at the top again and again take the headroom: the keys written stay proportional to the rows inserted")
    func topInsertsAmortised() {
        var list = RowList((0..<1_000).map(Self.row))
        var model = (0..<1_000).map(Self.row)
        let written = list.keysWritten
        for number in 1_000..<6_000 {
            list.insert([Self.row(number)], at: 0)
            model.insert(Self.row(number), at: 0)
        }
        #expect(list.keysWritten - written == 5_000)
        #expect(Self.expectMatches(list, model, "after 5,000 rows on top"))
    }
}
