import Feedline

/// Runs a ``JSONLinesDriver`` over a stream of input lines: the loop a `--jsonl` front needs.
@MainActor
public enum JSONLinesSession {
    /// Starts a driver over `session`, handles each line of `lines` in order until `quit` or the
    /// end of input, then closes (writes `bye` with what was not sent; `keepsState` says whether
    /// that is kept for the next start, and `written`, asked at the end, whether it is on disk). Every output line goes to `write`, in the order
    /// things happen; changes that arrive while waiting for input are written when they happen.
    ///
    /// `afterCommand` runs after each command line (a front that drives a scripted stream —
    /// the sandbox's — delivers what is due there).
    ///
    /// - Returns: `true` when the session ended with `quit`, `false` at end of input.
    ///
    /// `switchAccount` (with `switching`): after its `ok`, the account's session is opened; then
    /// the driver's `bye` ends this account's messages and a new driver over the new session
    /// starts with `hello`; the lines go on to it. When the account cannot be opened, an `error`
    /// says why and this driver goes on, its session untouched.
    @discardableResult
    public static func run(
        session: FeedSession,
        lines: some AsyncSequence<String, Never>,
        keepsState: Bool = false,
        written: (@MainActor @Sendable () -> Bool)? = nil,
        afterCommand: @escaping @MainActor () -> Void = {},
        switching: JSONLAccountSwitching? = nil,
        write: @escaping @MainActor (String) -> Void
    ) async -> Bool {
        var session = session
        var afterCommand = afterCommand
        var driver = JSONLinesDriver(session: session, keepsState: keepsState, written: written, write: write)
        driver.resolveAccount = switching?.resolve
        driver.start()
        for await line in lines {
            if !(await driver.handle(line)) { return true }
            if !line.allSatisfy(\.isWhitespace) { afterCommand() }
            guard let account = driver.accountAsked, let switching else { continue }
            driver.accountAsked = nil
            switch await switching.open(account) {
            case .success(let opened):
                await driver.leave()
                await switching.begin()
                (session, afterCommand) = (opened.session, opened.afterCommand)
                driver = JSONLinesDriver(session: session, keepsState: opened.keepsState, written: opened.written, write: write)
                driver.resolveAccount = switching.resolve
                driver.start()
            case .failure(let refusal):
                driver.emit(JSONLMessage.error(refusal.message, id: nil))
            }
        }
        // End of input: let what is running finish, so its changes are written, then say bye.
        await session.settle()
        await driver.close()
        return false
    }
}
