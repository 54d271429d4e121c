/// Safety-net deadlines for tests that drive a child process or a server.
///
/// Tests wait for *events* — a line of output, a prompt, an exit — never for a span of time to
/// pass. These deadlines only stop a hung child from hanging the run: they are far longer than
/// any healthy wait, even for a ThreadSanitizer build (5–10× slower) on a 2-core machine kept
/// busy by other work, so a slow machine never fails a test, and a hang still ends it.
public enum Deadlines {
    /// The longest a test waits for one event from a child process (a line, its exit).
    public static let event: Double = 300
    /// The longest a child process may live before it is killed.
    public static let process: Duration = .seconds(600)
}
