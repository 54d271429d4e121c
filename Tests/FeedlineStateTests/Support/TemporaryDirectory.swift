import Foundation

/// A fresh directory under the system's temporary directory for one test, removed (with
/// anything a test made read-only in it made writable again) when the body returns.
func withTemporaryDirectory<T>(_ body: (URL) throws -> T) throws -> T {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("feedline-state-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer {
        if let paths = FileManager.default.enumerator(atPath: directory.path) {
            for case let path as String in paths {
                chmod(directory.appendingPathComponent(path).path, 0o700)
            }
        }
        chmod(directory.path, 0o700)
        try? FileManager.default.removeItem(at: directory)
    }
    return try body(directory)
}

/// Whether the tests run as root, for whom file permissions do not apply.
var runningAsRoot: Bool { geteuid() == 0 }
