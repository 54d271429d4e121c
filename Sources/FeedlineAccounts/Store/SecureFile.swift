import Foundation

/// Files that hold secrets: readable by their owner only, and written whole or not at all.
///
/// A write goes to a new file in the same directory, created with mode 0600 before a byte of the
/// secret is written, then is flushed to disk (`fsync`) and renamed over the target, so a crash,
/// a full disk or a second process writing at the same moment leaves either the old file or the
/// new one, never a mixture or a readable temporary. Directories are created 0700.
enum SecureFile {
    /// The largest credential file read: they are a few hundred bytes.
    static let maximumSize = 64 * 1024

    /// Creates `directory` and its missing parents with mode 0700; an existing `directory` that
    /// others may enter is tightened to 0700.
    static func prepareDirectory(_ directory: URL) throws(CredentialStoreError) {
        let path = directory.path
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw .unwritable(path: path, reason: "it is a file, not a directory") }
        } else {
            do {
                try FileManager.default.createDirectory(
                    at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700]
                )
            } catch {
                throw .unwritable(path: path, reason: reason(of: error))
            }
        }
        var info = stat()
        guard stat(path, &info) == 0 else { throw .unwritable(path: path, reason: errnoReason()) }
        if info.st_mode & 0o077 != 0, chmod(path, 0o700) != 0 {
            throw .unwritable(path: path, reason: errnoReason())
        }
    }

    /// Replaces `url` with `data`, atomically, mode 0600 (see the type's description).
    static func save(_ data: Data, to url: URL) throws(CredentialStoreError) {
        let directory = url.deletingLastPathComponent()
        try prepareDirectory(directory)
        var random = SystemRandomNumberGenerator()
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(String(random.next(), radix: 36)).tmp")
        let path = url.path
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .unwritable(path: path, reason: errnoReason()) }
        var closed = false
        var renamed = false
        defer {
            if !closed { close(descriptor) }
            if !renamed { unlink(temporary.path) }
        }
        // The mode is set before the secret is written, whatever the umask made of it.
        guard fchmod(descriptor, 0o600) == 0 else { throw .unwritable(path: path, reason: errnoReason()) }
        let written = data.withUnsafeBytes { buffer -> Bool in
            guard let base = buffer.baseAddress else { return true }
            var offset = 0
            while offset < buffer.count {
                let count = write(descriptor, base + offset, buffer.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += count
            }
            return true
        }
        guard written else { throw .unwritable(path: path, reason: errnoReason()) }
        guard fsync(descriptor) == 0 else { throw .unwritable(path: path, reason: errnoReason()) }
        closed = true
        guard close(descriptor) == 0 else { throw .unwritable(path: path, reason: errnoReason()) }
        guard rename(temporary.path, path) == 0 else { throw .unwritable(path: path, reason: errnoReason()) }
        renamed = true
        // The rename itself reaches the disk with the directory.
        let directoryDescriptor = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            _ = fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }

    /// The bytes of `url`; `nil` when there is no such file. A file others may read is refused.
    static func load(_ url: URL) throws(CredentialStoreError) -> Data? {
        let path = url.path
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw .unreadable(path: path, reason: errnoReason())
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .unreadable(path: path, reason: errnoReason()) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .unreadable(path: path, reason: "it is not a regular file") }
        guard info.st_mode & 0o077 == 0 else { throw .tooOpen(path: path, mode: Int(info.st_mode & 0o777)) }
        guard info.st_size <= maximumSize else { throw .malformed(path: path, reason: "it is larger than \(maximumSize / 1024) KiB") }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path: path, reason: errnoReason())
            }
            if count == 0 { break }
            data.append(contentsOf: buffer[0..<count])
            if data.count > maximumSize { throw .malformed(path: path, reason: "it is larger than \(maximumSize / 1024) KiB") }
        }
        return data
    }

    /// Removes `url`; `false` when there was no such file.
    @discardableResult
    static func remove(_ url: URL) throws(CredentialStoreError) -> Bool {
        guard unlink(url.path) == 0 else {
            if errno == ENOENT { return false }
            throw .unremovable(path: url.path, reason: errnoReason())
        }
        return true
    }

    /// The current `errno` as words: "permission denied", "no space left on device".
    static func errnoReason() -> String {
        let text = String(cString: strerror(errno))
        return text.prefix(1).lowercased() + text.dropFirst()
    }

    private static func reason(of error: any Error) -> String {
        if let posix = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError, posix.domain == NSPOSIXErrorDomain {
            let text = String(cString: strerror(Int32(posix.code)))
            return text.prefix(1).lowercased() + text.dropFirst()
        }
        return "the directory could not be created"
    }
}
