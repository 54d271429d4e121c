import Foundation

/// The processor time a process has used, from `/proc/PID/stat` (Linux): user plus system
/// time of all its threads, in seconds, at the kernel's clock-tick resolution (10 ms).
///
/// An upper bound on it over a window holds on a busy machine too — a busy machine gives a
/// process less processor time, never more — so a test may assert one without depending on
/// the machine's speed.
public enum ProcessCPU {
    /// The user + system time `pid` has used so far; `nil` when it cannot be read (the process
    /// is gone, or this is not Linux).
    public static func seconds(of pid: Int32) -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return nil }
        // The command name (field 2) is in parentheses and may hold spaces: count from after it.
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // After the name: state is field 3, so utime (14) and stime (15) are at 11 and 12.
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        return (user + system) / (ticks > 0 ? ticks : 100)
    }
}
