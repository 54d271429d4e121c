import Feedline
import Testing

@Suite("Edit distance")
struct EditDistanceTests {
    @Test("insertions, deletions, substitutions and neighbour swaps each cost one", arguments: [
        ("fav", "fav", 0), ("fva", "fav", 1), ("fv", "fav", 1), ("favv", "fav", 1), ("fab", "fav", 1),
        ("", "more", 4), ("more", "", 4), ("refersh", "refresh", 1), ("ba", "back", 2), ("投稿", "投稿", 0),
        ("quit", "exit", 2),
    ])
    func distances(_ a: String, _ b: String, _ expected: Int) {
        #expect(EditDistance.between(a, b) == expected)
        #expect(EditDistance.between(b, a) == expected, "the distance is symmetric")
    }
}
