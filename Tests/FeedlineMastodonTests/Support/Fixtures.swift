import FeedlineTestSupport
import Foundation
import Testing

import FeedlineMastodon

/// Where the package's `Fixtures/` directory is, found from this file's path.
enum FixturePaths {
    static func root() throws -> URL {
        try PackagePaths.root().appendingPathComponent("Fixtures")
    }

    static func directory(_ name: String) throws -> URL {
        try root().appendingPathComponent(name)
    }

    /// Every status file of the shipped fixture directories (not scenarios or notifications), as
    /// `folder/file`.
    static func statusFiles() -> [String] {
        guard let root = try? root() else { return [] }
        var files: [String] = []
        for folder in ["timeline", "faults"] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)) ?? []
            files += names.filter { $0.hasSuffix(".json") && $0 != FixtureLoader.scenarioFileName && $0 != "notifications.json" }
                .map { "\(folder)/\($0)" }
        }
        return files.sorted()
    }
}

/// A scratch directory for fixture-loading tests, removed by `remove()`.
struct ScratchDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("feedline-fixture-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: url.appendingPathComponent(name))
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
