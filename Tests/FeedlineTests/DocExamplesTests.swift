import FeedlineTestSupport
import Foundation
import Testing

/// The DocC catalog's code examples are the code in `DocExamples.swift`, which compiles with the
/// tests: every ```swift block of every article stands there line for line (indentation and
/// `import` lines aside), so an example that stops compiling fails the build, and one edited in
/// the article alone fails here.
@Suite("DocC examples")
struct DocExamplesTests {
    static func lines(_ text: some StringProtocol) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("import ") }
    }

    @Test("every code example of the catalog is compiled code")
    func examplesCompile() throws {
        let root = try PackagePaths.root()
        let catalog = root.appendingPathComponent("Sources/Feedline/Feedline.docc")
        let compiled = Self.lines(try String(contentsOf: root.appendingPathComponent("Tests/FeedlineTests/DocExamples.swift"), encoding: .utf8))
        var checked = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: catalog.path).sorted() where name.hasSuffix(".md") {
            let article = try String(contentsOf: catalog.appendingPathComponent(name), encoding: .utf8)
            for block in article.components(separatedBy: "```swift\n").dropFirst() {
                let example = Self.lines(block.components(separatedBy: "```").first ?? "")
                let found = compiled.indices.contains { start in
                    start + example.count <= compiled.count && Array(compiled[start..<(start + example.count)]) == example
                }
                #expect(found, "an example of \(name) is not in DocExamples.swift as written: \(example.prefix(3))")
                checked += 1
            }
        }
        #expect(checked >= 5)
    }
}
