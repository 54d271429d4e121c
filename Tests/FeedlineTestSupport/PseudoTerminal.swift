import Feedline
import Foundation
import Synchronization

/// A pseudo-terminal pair for a child process: the child gets the terminal side as standard
/// input and output (so `isatty` holds and the interactive REPL runs), the test keeps the
/// controlling side to type into and read from.
///
/// The controlling side belongs to the thread ``drain(into:)`` starts: it closes it when the
/// child's side is gone or at ``hangUp()``; typing after that does nothing.
final class PseudoTerminal: Sendable {
    /// The test's side: writing types, reading shows what the child printed (`nil` once closed).
    private let controller: Locked<Int32?>
    /// The child's side; the parent closes it once the child has it (``closeTerminalSide()``).
    let terminal: Int32
    /// A pipe whose write end ``hangUp()`` closes: the reading thread then closes the controller.
    private let hangUpRead: Int32
    private let hangUpWrite: Int32
    private let hungUp = Atomic<Bool>(false)

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
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            close(controller)
            close(terminal)
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        self.controller = Locked(controller)
        self.terminal = terminal
        hangUpRead = fds[0]
        hangUpWrite = fds[1]
    }

    deinit {
        hangUp()
    }

    /// Closes the parent's copy of the child's side, so reading the controller ends (EIO) when
    /// the child exits.
    func closeTerminalSide() {
        close(terminal)
    }

    /// Hangs up, as a closing terminal window does: the reading thread stops and closes the
    /// controlling side, so the child's reads end (its end of input). Once only.
    func hangUp() {
        guard !hungUp.exchange(true, ordering: .acquiringAndReleasing) else { return }
        close(hangUpWrite)
    }

    /// Reads the controller to its end on a dedicated thread, yielding each chunk, then closes
    /// it. The end is the child closing its side (EIO on Linux), an error, or ``hangUp()``.
    func drain(into sink: AsyncStream<Data>.Continuation) {
        guard let fd = controller.withLock({ $0 }) else {
            sink.finish()
            return
        }
        let thread = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: hangUpRead, events: Int16(POLLIN), revents: 0)]
                if poll(&fds, 2, -1) < 0 {
                    if errno == EINTR { continue }
                    break
                }
                if fds[1].revents != 0 { break }
                let count = read(fd, &buffer, buffer.count)
                if count > 0 {
                    sink.yield(Data(buffer[0..<count]))
                } else if count < 0, errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            controller.withLock { controller in
                if let open = controller { close(open) }
                controller = nil
            }
            hangUp()
            close(hangUpRead)
            sink.finish()
        }
        thread.name = "feedline-test.terminal"
        thread.start()
    }

    /// Writes `bytes` to the controller: the child reads them as typed keys (nothing once it is
    /// closed).
    func type(_ bytes: Data) {
        controller.withLock { controller in
            guard let fd = controller else { return }
            bytes.withUnsafeBytes { raw in
                guard let base = raw.baseAddress else { return }
                var offset = 0
                while offset < raw.count {
                    let written = write(fd, base + offset, raw.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        return
                    }
                    offset += written
                }
            }
        }
    }
}
