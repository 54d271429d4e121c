import Feedline
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child process started with `posix_spawn`; a thread of its own waits for it, reaps it and
/// reports how it ended. The editor and the browser run this way, and so does every child the
/// tests start.
///
/// Not Foundation's `Process`, for two reasons. On Linux (swift-corelibs-foundation of Swift 6.3)
/// `Process.run()` scans `/proc/self/fd` copying each entry's full 256-byte name, which reads past
/// the end of glibc's directory buffer: with about 1,350 descriptors open (the test process, with
/// hundreds of suites at once) it died of SIGSEGV inside `run()` (fixed upstream in August 2026).
/// And it always puts the child in a process group of its own, where an editor cannot read the
/// terminal (vim exits with "Error reading input"). Here the child closes every descriptor above 2
/// with `posix_spawn_file_actions_addclosefrom_np`, and leads a process group of its own only when asked.
package final class ChildProcess: Sendable {
    /// How the child ended.
    package struct Ending: Sendable, Equatable {
        /// The exit status, or the signal's number when a signal ended it.
        package var status: Int32
        /// A signal (not `exit`) ended it.
        package var signalled: Bool
    }

    /// Why a child could not be started.
    package struct SpawnError: Error, CustomStringConvertible {
        package var executable: String
        package var errno: Int32
        package var description: String { "cannot start \(executable): \(String(cString: strerror(errno)))" }
    }

    /// The child's process id.
    package let processIdentifier: pid_t
    /// Shared with the waiting thread.
    private final class Shared: Sendable {
        let outcome = Locked<Ending?>(nil)
        let ended = DispatchSemaphore(value: 0)
    }
    private let shared = Shared()

    /// Starts `executable` (a path) with `arguments` (not counting the program's name) and
    /// exactly `environment`, in `directory`, its standard input, output and error the given
    /// descriptors of this process; every other descriptor is closed in the child. With
    /// `ownProcessGroup` the child leads a process group of its own (a terminal's Ctrl-C does not
    /// reach it); without, it stays in this one, as a foreground program on the terminal must.
    /// `onExit` runs once, on the waiting thread, when the child has ended and been reaped.
    package init(
        executable: String, arguments: [String], environment: [String: String], directory: String? = nil,
        standardInput: Int32, standardOutput: Int32, standardError: Int32, ownProcessGroup: Bool = true,
        onExit: @escaping @Sendable (Ending) -> Void = { _ in }
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // dup2 onto itself leaves a descriptor open with close-on-exec cleared, which is what a
        // standard descriptor that is already 0, 1 or 2 needs.
        for (source, target) in [(standardInput, Int32(0)), (standardOutput, 1), (standardError, 2)] {
            posix_spawn_file_actions_adddup2(&actions, source, target)
        }
        // glibc ≥ 2.34 has both; Swift's Glibc module does not declare these GNU extensions.
        guard let closeFrom = Self.gnuSymbol("posix_spawn_file_actions_addclosefrom_np", as: AddCloseFrom.self),
              let changeDirectory = Self.gnuSymbol("posix_spawn_file_actions_addchdir_np", as: AddChangeDirectory.self)
        else { throw SpawnError(executable: executable, errno: ENOSYS) }
        guard closeFrom(&actions, 3) == 0 else { throw SpawnError(executable: executable, errno: EINVAL) }
        if let directory {
            let status = directory.withCString { changeDirectory(&actions, $0) }
            guard status == 0 else { throw SpawnError(executable: executable, errno: status) }
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        if ownProcessGroup {
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
            posix_spawnattr_setpgroup(&attributes, 0)
        }

        let argv = CStrings([executable] + arguments)
        let envp = CStrings(environment.map { "\($0.key)=\($0.value)" })
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv.pointers, envp.pointers)
        guard status == 0 else { throw SpawnError(executable: executable, errno: status) }
        processIdentifier = pid
        let child = pid

        let shared = shared
        let waiter = Thread {
            // Wait without reaping, then reap under the lock ``send(_:)`` signals under: until
            // then the pid stays a zombie, so a signal can never reach a process that reused it.
            var info = siginfo_t()
            while waitid(P_PID, id_t(child), &info, WEXITED | WNOWAIT) == -1, errno == EINTR {}
            let result = shared.outcome.withLock { state in
                var raw: Int32 = 0
                while waitpid(child, &raw, 0) == -1, errno == EINTR {}
                let signal = raw & 0x7f
                let result = signal == 0
                    ? Ending(status: (raw >> 8) & 0xff, signalled: false)
                    : Ending(status: signal, signalled: true)
                state = result
                return result
            }
            onExit(result)
            shared.ended.signal()
        }
        waiter.name = "feedline.waitpid"
        waiter.start()
    }

    /// How the child ended; `nil` while it runs.
    package var ending: Ending? { shared.outcome.withLock { $0 } }

    /// Sends `signal` to the child unless it has already been reaped (so a reused pid is never hit).
    package func send(_ signal: Int32) {
        shared.outcome.withLock { state in
            if state == nil { kill(processIdentifier, signal) }
        }
    }

    /// Blocks the calling thread until the child has ended. Not for a thread of the concurrency pool.
    package func waitUntilExit() -> Ending {
        shared.ended.wait()
        shared.ended.signal()
        return ending ?? Ending(status: -1, signalled: false)
    }

    /// Blocks the calling thread until the child has ended, at most `timeout` seconds; `nil` when
    /// it is still running then. Not for a thread of the concurrency pool.
    package func waitUntilExit(timeout: Double) -> Ending? {
        if let done = ending { return done }
        guard shared.ended.wait(timeout: .now() + timeout) == .success else { return nil }
        shared.ended.signal()
        return ending
    }

    /// Starts `arguments[0]` found on `PATH` (through `/usr/bin/env`) with this process's
    /// environment and `environment` added.
    package static func tool(
        _ arguments: [String], environment extra: [String: String] = [:],
        standardInput: Int32, standardOutput: Int32, standardError: Int32,
        onExit: @escaping @Sendable (Ending) -> Void = { _ in }
    ) throws -> ChildProcess {
        try ChildProcess(
            executable: "/usr/bin/env", arguments: arguments,
            environment: ProcessInfo.processInfo.environment.merging(extra) { _, given in given },
            standardInput: standardInput, standardOutput: standardOutput, standardError: standardError, onExit: onExit)
    }

    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private typealias AddChangeDirectory = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

    private static func gnuSymbol<T>(_ name: String, as type: T.Type) -> T? {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
        return unsafeBitCast(symbol, to: type)
    }
}

/// A null-terminated array of C strings that lives as long as the value.
private final class CStrings {
    let pointers: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
    private let count: Int

    init(_ strings: [String]) {
        count = strings.count
        pointers = .allocate(capacity: strings.count + 1)
        for (index, string) in strings.enumerated() { pointers[index] = strdup(string) }
        pointers[strings.count] = nil
    }

    deinit {
        for index in 0..<count { free(pointers[index]) }
        pointers.deallocate()
    }
}
