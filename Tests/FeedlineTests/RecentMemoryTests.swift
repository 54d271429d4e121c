import Feedline
import FeedlineTestSupport
import Testing

@Suite struct RecentMemoryTests {
    @Test func keepsTheLastKeysWritten() {
        var memory = RecentMemory<Int, String>(capacity: 3)
        for key in 1...5 { memory.write("v\(key)", for: key) }
        #expect(memory.count == 3)
        #expect(memory[1] == nil && memory[2] == nil)
        #expect(memory[3] == "v3" && memory[5] == "v5")
    }

    @Test func rewritingAKeyMakesItTheNewest() {
        var memory = RecentMemory<Int, String>(capacity: 2)
        memory.write("a", for: 1)
        memory.write("b", for: 2)
        memory.write("a again", for: 1)
        memory.write("c", for: 3)
        #expect(memory[1] == "a again")
        #expect(memory[2] == nil)
    }

    /// A key taken out and written again is the newest: its old place does not forget it early.
    @Test func aKeyRemovedAndWrittenAgainIsNotForgottenByItsOldPlace() {
        var memory = RecentMemory<Int, String>(capacity: 2)
        memory.write("a", for: 1)
        #expect(memory.remove(1) == "a")
        memory.write("b", for: 2)
        memory.write("a again", for: 1)
        memory.write("c", for: 3)
        #expect(memory[1] == "a again")
        #expect(memory[2] == nil)
        #expect(memory.remove(4) == nil)
    }

    /// Seeded: against a plain model (a list of keys, newest last), over many writes and removals.
    @Test func agreesWithAModel() {
        let seed = testSeed(0x2E3E)
        print("RecentMemoryTests seed \(seed) (FEEDLINE_SEED replays another)")
        var random = SeededGenerator(seed: seed)
        var memory = RecentMemory<Int, Int>(capacity: 8)
        var model: [(key: Int, value: Int)] = []
        for step in 0..<20_000 {
            let key = Int.random(in: 0..<40, using: &random)
            if Bool.random(using: &random) {
                memory.write(step, for: key)
                model.removeAll { $0.key == key }
                model.append((key, step))
                if model.count > 8 { model.removeFirst() }
            } else {
                let expected = model.first { $0.key == key }?.value
                model.removeAll { $0.key == key }
                #expect(memory.remove(key) == expected, "seed \(seed) step \(step)")
            }
            #expect(memory.count == model.count, "seed \(seed) step \(step)")
        }
        for (key, value) in model { #expect(memory[key] == value, "seed \(seed)") }
    }
}
