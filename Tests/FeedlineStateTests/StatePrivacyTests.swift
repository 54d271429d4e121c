import Feedline
import FeedlineState
import Foundation
import Testing

/// Local files are private (issue 32): the state file and its `-wal` and `-shm` files are 0600
/// whatever the umask, and a directory of the user's that others could read is made 0700, and
/// said; a shared sticky directory (`/tmp`) is left as it is.
@Suite("The state files are private")
struct StatePrivacyTests {
    static func mode(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue
    }

    @Test("a new file, its -wal and -shm are 0600 under a umask of 022; a directory others could read is made 0700, and madePrivate says so")
    func newFileIsPrivate() throws {
        try withTemporaryDirectory { directory in
            let state = directory.appendingPathComponent("state")
            try FileManager.default.createDirectory(at: state, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
            let store = try StateStore.open(directory: state, server: "sandbox", account: nil)
            try store.saveList(Samples.mixed, as: "home")
            let file = store.file.path
            for path in [file, file + "-wal", file + "-shm"] {
                #expect(FileManager.default.fileExists(atPath: path), "\(path) exists while the store is open")
                #expect(Self.mode(path) == 0o600, "\(path) is \(String(Self.mode(path) ?? 0, radix: 8))")
            }
            #expect(Self.mode(state.path) == 0o700)
            let note = try #require(store.madePrivate)
            #expect(note == "Made the state directory \(state.path) (mode 755, now 700) private: others could read your drafts and timeline there.")
            // Opened again: nothing to make private, nothing said.
            #expect(try StateStore.open(directory: state, server: "sandbox", account: nil).madePrivate == nil)
        }
    }

    @Test("an existing file others may read (an older Feedline's) is made 0600 at open, and said")
    func existingFileIsMadePrivate() throws {
        try withTemporaryDirectory { directory in
            chmod(directory.path, 0o700)
            let path = try StateStore.open(directory: directory, server: "sandbox", account: nil).file.path
            chmod(path, 0o644)
            let store = try StateStore.open(directory: directory, server: "sandbox", account: nil)
            #expect(Self.mode(path) == 0o600)
            #expect(store.madePrivate == "Made \(path) (mode 644, now 600) private: others could read your drafts and timeline there.")
        }
    }

    @Test("a shared sticky directory (as /tmp is) is not changed; the file in it is still 0600")
    func stickyDirectoryIsLeft() throws {
        try withTemporaryDirectory { directory in
            let shared = directory.appendingPathComponent("shared")
            try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: false)
            chmod(shared.path, 0o1777)
            let store = try StateStore.open(directory: shared, server: "sandbox", account: nil)
            #expect(Self.mode(shared.path) == 0o1777)
            #expect(Self.mode(store.file.path) == 0o600)
            #expect(store.madePrivate == nil)
        }
    }
}
