import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process timed from spawn to exit with `posix_spawn` and `wait4`: the wait returns
/// when the child exits, with its own CPU time. (`Process.waitUntilExit()` polls its run loop
/// every 50 ms on Linux, so a short child's exit could be seen up to 50 ms late.)
enum Spawn {
    struct Outcome {
        /// Spawn to exit, wall clock.
        var milliseconds: Double
        /// The child's user + system time.
        var cpuMilliseconds: Double
        /// The exit status, or `nil` when the child did not exit normally.
        var status: Int32?
    }

    /// Runs `path` with `arguments` and `environment`, standard input from `/dev/null`, standard
    /// output and error to `output` (created or truncated) or to `/dev/null`. `nil` when it could
    /// not be started.
    static func run(_ path: String, _ arguments: [String], environment: [String: String], output: String? = nil) -> Outcome? {
        #if os(Linux)
        var actions = posix_spawn_file_actions_t()
        #else
        var actions: posix_spawn_file_actions_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid = pid_t()
        let start = ContinuousClock.now
        guard posix_spawn(&pid, path, &actions, nil, argv, envp) == 0 else { return nil }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { return nil }
        }
        let milliseconds = (ContinuousClock.now - start).milliseconds
        func ms(_ time: timeval) -> Double { Double(time.tv_sec) * 1_000 + Double(time.tv_usec) / 1_000 }
        // WIFEXITED / WEXITSTATUS, which Swift does not import (they are macros).
        let exited = status & 0x7F == 0
        return Outcome(
            milliseconds: milliseconds, cpuMilliseconds: ms(usage.ru_utime) + ms(usage.ru_stime),
            status: exited ? (status >> 8) & 0xFF : nil
        )
    }

    /// The environment a `feedline` under test runs with: this one, without colour, and with a
    /// configuration directory that does not exist, so the sandbox runs whatever accounts or
    /// config file the person running the bench has.
    static func feedlineEnvironment() -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment["XDG_CONFIG_HOME"] = FileManager.default.temporaryDirectory
            .appendingPathComponent("feedline-bench-no-config-\(UUID().uuidString)").path
        return environment
    }
}
