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
}
