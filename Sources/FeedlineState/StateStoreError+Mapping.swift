import Foundation
import GRDB

extension StateStoreError {
    /// The error for a failure while using `file`: SQLite's result codes and the file system's
    /// errors sorted into the kinds a user can act on.
    init(_ error: any Error, file: URL) {
        switch error {
        case let error as StateStoreError:
            self = error
        case let error as DatabaseError:
            switch error.resultCode {
            case .SQLITE_NOTADB, .SQLITE_CORRUPT:
                self.init(.corrupt, file: file)
            case .SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_AUTH:
                self.init(.readOnly, file: file)
            case .SQLITE_FULL:
                self.init(.full, file: file)
            default:
                self.init(.io, file: file, reason: error.message ?? "\(error.resultCode)")
            }
        case is DecodingError, is RowDecodingError:
            // A saved value that no longer reads back: the file was damaged or edited.
            self.init(.corrupt, file: file)
        case let error as CocoaError:
            switch error.code {
            case .fileWriteNoPermission, .fileWriteVolumeReadOnly, .fileReadNoPermission:
                self.init(.readOnly, file: file)
            case .fileWriteOutOfSpace:
                self.init(.full, file: file)
            default:
                self.init(.io, file: file, reason: error.localizedDescription)
            }
        default:
            self.init(.io, file: file, reason: "\(error)")
        }
    }
}
