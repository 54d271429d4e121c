import Foundation
import Synchronization

// SIGINT while a script or piped input runs (``ScriptRunner``, `interrupts: .endProcess`).
//
// Output is written one whole chunk per command, so the only clean places to stop are between
// commands. The handler is async-signal-safe: while the runner waits for the next line nothing is
// half-written and it ends the process at once (`_exit(130)`, so a reader blocked on a silent
// pipe cannot keep the process alive); while a command runs it only marks the interrupt, and the
// runner stops after that command's output. A second SIGINT during the same command ends the
// process at once, in case a command never finishes.

/// Where the runner is: ``ScriptPhase``'s raw values.
let scriptPhase = Atomic<Int>(ScriptPhase.idle.rawValue)

enum ScriptPhase: Int {
    /// No runner is handling SIGINT.
    case idle
    /// A command (or the start) is running; output may be on its way.
    case running
    /// Between commands, waiting for the next line; every output chunk is complete.
    case waiting
    /// SIGINT arrived while running: stop after this command.
    case interrupted
}

/// The SIGINT handler of a running script.
func feedlineScriptInterruptHandler(_ number: Int32) {
    let (marked, _) = scriptPhase.compareExchange(
        expected: ScriptPhase.running.rawValue, desired: ScriptPhase.interrupted.rawValue, ordering: .acquiringAndReleasing
    )
    if marked { return }
    // Waiting for input (nothing half-written), or a second interrupt: end now.
    let message: StaticString = "Interrupted.\n"
    _ = write(STDERR_FILENO, message.utf8Start, message.utf8CodeUnitCount)
    _exit(128 + SIGINT)  // ScriptRunner.interruptedStatus, without a lazy static's first use in a handler
}

/// Installs the handler; returns the action it replaced.
func installScriptInterruptHandler() -> sigaction {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = feedlineScriptInterruptHandler
    sigemptyset(&action.sa_mask)
    action.sa_flags = SA_RESTART
    var previous = sigaction()
    sigaction(SIGINT, &action, &previous)
    return previous
}

/// Puts back the action ``installScriptInterruptHandler()`` replaced.
func restoreInterruptHandler(_ previous: sigaction) {
    var previous = previous
    sigaction(SIGINT, &previous, nil)
}
