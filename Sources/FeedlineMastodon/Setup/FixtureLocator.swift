import Foundation

/// Finds the package's bundled `Fixtures/` directory without a resource bundle, so it works for
/// `swift run feedline` in a clean checkout and for the built binary.
///
/// Looks, in order: up from the running executable (`.build/<triple>/debug/feedline` lies inside
/// the checkout), up from this source file's build-time path (a binary copied elsewhere while the
/// checkout still exists), and up from the current directory. A directory counts when it holds
/// `Package.swift` and `Fixtures/<name>`.
public enum FixtureLocator {
    /// The bundled fixture directory `name` (`timeline`, `faults`), or `nil` when none is found.
    public static func bundled(_ name: String = "timeline", executable: URL? = Bundle.main.executableURL) -> URL? {
        var starts: [URL] = []
        if let executable { starts.append(executable.resolvingSymlinksInPath().deletingLastPathComponent()) }
        starts.append(URL(fileURLWithPath: #filePath).deletingLastPathComponent())
        starts.append(URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        for start in starts {
            if let found = search(upFrom: start, for: name) { return found }
        }
        return nil
    }

    private static func search(upFrom start: URL, for name: String) -> URL? {
        var url = start.standardizedFileURL
        while true {
            let candidate = url.appendingPathComponent("Fixtures").appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path),
                FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), isDirectory.boolValue
            {
                return candidate
            }
            let parent = url.deletingLastPathComponent()
            if parent.path == url.path { return nil }
            url = parent
        }
    }
}
