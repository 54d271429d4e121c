import Foundation

/// Paths inside the package, found from this file's path.
public enum PackagePaths {
    public struct NotFound: Error, CustomStringConvertible {
        public var description: String
    }

    /// The package root (the directory holding Package.swift).
    public static func root() throws -> URL {
        var url = URL(fileURLWithPath: #filePath)
        while url.pathComponents.count > 1 {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        throw NotFound(description: "no Package.swift above \(#filePath)")
    }

    public static func fixtures(_ name: String) throws -> URL {
        try root().appendingPathComponent("Fixtures").appendingPathComponent(name)
    }

    /// The built `feedline` binary beside the test bundle (swift test builds it with the tests).
    public static func binary() throws -> URL {
        var candidates: [URL] = []
        if let executable = Bundle.main.executableURL { candidates.append(executable.deletingLastPathComponent()) }
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
        candidates.append(try root().appendingPathComponent(".build/debug"))
        for directory in candidates {
            let url = directory.appendingPathComponent("feedline")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        throw NotFound(description: "the feedline binary was not built next to the tests (looked in \(candidates.map(\.path)))")
    }
}

/// A scratch directory removed by `remove()`; private (0700), as a state directory is kept.
public struct Scratch: Sendable {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("feedline-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    public func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// A fixture directory `name` in here with the `faults` fixtures' home timeline and, when
    /// given, `scenario` as its `scenario.json`: a sandbox a test shapes.
    public func sandbox(_ name: String, scenario: String? = nil) throws -> URL {
        let directory = file(name)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        try FileManager.default.copyItem(at: try PackagePaths.fixtures("faults").appendingPathComponent("home.json"), to: directory.appendingPathComponent("home.json"))
        if let scenario { try Data(scenario.utf8).write(to: directory.appendingPathComponent("scenario.json")) }
        return directory
    }

    public func remove() { try? FileManager.default.removeItem(at: url) }
}
