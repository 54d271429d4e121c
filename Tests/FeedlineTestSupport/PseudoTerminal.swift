import Foundation

/// A pseudo-terminal pair for a child process: the child gets the terminal side as standard
/// input and output (so `isatty` holds and the interactive REPL runs), the test keeps the
/// controlling side to type into and read from.
struct PseudoTerminal {
    /// The test's side: writing types, reading shows what the child printed.
    let controller: Int32
    /// The child's side; the parent closes it once the child has it (``closeTerminalSide()``).
    let terminal: Int32

    /// Opens a new pair (Linux: `/dev/ptmx`).
    ///
    /// - Throws: `POSIXError` when the system has no pseudo-terminal to give.
    init() throws {
        // posix_openpt, grantpt, unlockpt and ptsname are not visible from Swift's Glibc module,
        // nor are the ioctl numbers (macros Swift cannot import): these are Linux's generic
        // TIOCSPTLCK (_IOW('T', 0x31, int)) and TIOCGPTN (_IOR('T', 0x30, unsigned int)).
        let unlockRequest: UInt = 0x4004_5431
        let numberRequest: UInt = 0x8004_5430
        let controller = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        guard controller >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard ioctl(controller, unlockRequest, &unlock) == 0, ioctl(controller, numberRequest, &number) == 0 else {
            close(controller)
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        let terminal = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        guard terminal >= 0 else {
            close(controller)
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        self.controller = controller
        self.terminal = terminal
    }

    /// Closes the parent's copy of the child's side, so reading the controller ends (EIO) when
    /// the child exits.
    func closeTerminalSide() {
        close(terminal)
    }

    /// Reads the controller to its end on a dedicated thread, yielding each chunk. The end is
    /// the child closing its side (EIO on Linux) or an error.
    func drain(into sink: AsyncStream<Data>.Continuation) {
        let controller = controller
        let thread = Thread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(controller, &buffer, buffer.count)
                if count > 0 {
                    sink.yield(Data(buffer[0..<count]))
                } else if count < 0, errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            sink.finish()
        }
        thread.name = "feedline-test.terminal"
        thread.start()
    }

    /// Writes `bytes` to the controller: the child reads them as typed keys.
    func type(_ bytes: Data) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = write(controller, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }
}
