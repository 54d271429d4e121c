import Foundation

/// Why the state file could not be opened, read or written. Its ``description`` is one sentence
/// that names the file and says what to do, ready to show as it is.
public struct StateStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        /// The file is not an SQLite database, or SQLite (or the integrity check on open, or a
        /// saved post that no longer decodes) found it damaged. The file is left as it was.
        case corrupt
        /// A valid SQLite database of another program (another `application_id`, or tables of
        /// its own). The file is left as it was.
        case foreign
        /// A newer Feedline applied schema migrations this build does not know.
        case newerSchema
        /// The file or its directory cannot be written (permissions, a read-only file system).
        case readOnly
        /// The disk is full: the save was rolled back; what was saved before is still there.
        case full
        /// Any other failure to read or write (an I/O error, another process holding the file
        /// locked for longer than the busy timeout).
        case io
    }

    public var kind: Kind
    /// The database file.
    public var file: URL
    /// What SQLite or the file system said, for `.io` (the other kinds say all there is to say).
    public var reason: String?

    public init(_ kind: Kind, file: URL, reason: String? = nil) {
        self.kind = kind
        self.file = file
        self.reason = reason
    }

    public var description: String {
        let path = file.path
        switch kind {
        case .corrupt:
            return "The state file \(path) is damaged or not a database; move it away (or delete it) and Feedline starts a new one."
        case .foreign:
            return "The state file \(path) belongs to another program; use --state DIR for another place, or move that file away."
        case .newerSchema:
            return "The state file \(path) was written by a newer Feedline; update feedline, or use --state DIR for another place."
        case .readOnly:
            return "The state file \(path) cannot be written (read-only file or directory); fix its permissions, or use --state DIR for another place."
        case .full:
            return "The disk holding the state file \(path) is full; free some space and Feedline saves again."
        case .io:
            let because = reason.map { " (\($0))" } ?? ""
            return "The state file \(path) could not be read or written\(because); check the disk, or use --state DIR for another place."
        }
    }

    /// One sentence for a save that failed in a session that goes on keeping what it could not
    /// write and tries again at its next change: says why, and what brings the saving back.
    public var unwrittenDescription: String {
        let path = file.path
        let kept = "what you write stays in this session and is saved at the next change"
        switch kind {
        case .full:
            return "Could not save to \(path), the disk is full: \(kept) once there is room."
        case .readOnly:
            return "Could not save to \(path), it cannot be written (read-only file or directory): \(kept) once it can be."
        case .io:
            let because = reason.map { " (\($0))" } ?? ""
            return "Could not save to \(path)\(because): \(kept) that succeeds."
        case .corrupt, .foreign, .newerSchema:
            return description
        }
    }
}
