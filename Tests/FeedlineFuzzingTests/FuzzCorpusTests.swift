import FeedlineFuzzing
import Foundation
import Testing

/// Replays every checked-in fuzz input — the seed corpus and each input that once found a bug —
/// through its target, so a fixed finding stays fixed.
@Suite("Fuzz corpus replay")
struct FuzzCorpusTests {
    static func directory(_ target: FuzzTarget) -> URL? {
        var url = URL(fileURLWithPath: #filePath)
        while url.pathComponents.count > 1 {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
                return url.appendingPathComponent("Fixtures/fuzz/\(target.rawValue)")
            }
        }
        return nil
    }

    @Test("every checked-in input runs clean", arguments: FuzzTarget.allCases)
    func replay(_ target: FuzzTarget) throws {
        let folder = try #require(Self.directory(target))
        let files = (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? [])
            .filter { !$0.hasPrefix(".") && !$0.hasSuffix("/") }
            .map { folder.appendingPathComponent($0) }
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
        #expect(files.count >= 3, "a seed corpus for \(target.rawValue)")
        for file in files {
            let data = try Data(contentsOf: file)
            #expect(throws: Never.self, "\(file.lastPathComponent)") { try target.run(data) }
        }
    }
}
