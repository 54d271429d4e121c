import CReadline
import Feedline
import Foundation
import Synchronization

/// An interactive terminal on GNU readline: line editing, history in a file, Tab completion of
/// command words; Ctrl-C clears the line, Ctrl-D on an empty line is ``Event/end``.
///
/// One dedicated thread owns readline (its callback interface) and runs a `poll()` loop over
/// standard input and a self-pipe. Other code hands it text with ``print(_:)``: the thread prints
/// it above the prompt and redraws the half-typed line, so output that arrives while the user
/// types never garbles the line. Lines arrive in ``events``. ``stop()`` removes readline's handler
/// and restores the terminal settings saved at ``start(prompt:)``.
///
/// **One line at a time.** After each ``Event/line(_:)`` and ``Event/end`` the console shows no
/// prompt and reads no key until ``lineHandled(prompt:history:)``: what the line did (a draft's
/// line saved, say) is done before the next prompt appears, and keys typed meanwhile wait in the
/// terminal. Only what ``lineHandled(prompt:history:)`` names goes into the history.
public final class ReadlineConsole: Sendable {
    /// What the user did.
    public enum Event: Sendable {
        case line(String)
        /// Ctrl-D on an empty line.
        case end
        /// SIGTERM or SIGHUP (the signal's number): the session should end. `pending` is the
        /// line being typed when it came (empty for none), so that it need not be lost.
        case terminated(Int32, pending: String)
    }

    private struct Outbox {
        var texts: [String] = []
        var prompt: String?
        var stop = false
        /// Give the terminal to another program until ``resume()`` (see ``suspend()``).
        var suspend = false
        var lastHistory: String?
        /// The last line (or end) was answered: show the prompt again and read keys. See
        /// ``ReadlineConsole/lineHandled(prompt:history:)``; the prompt is ``prompt``, the latest
        /// one asked for, whoever asked last.
        var handled = false
        /// Lines to add to the history, in order.
        var remembered: [String] = []
        /// Signals and wake-ups read from the self-pipe while readline was waiting for a key.
        var signals: Set<Int32> = []
        var woken = false
    }

    /// Lines typed, then `.end` at Ctrl-D.
    public let events: AsyncStream<Event>
    private let continuation: AsyncStream<Event>.Continuation
    private let outbox = Locked(Outbox())
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let historyFile: String?
    private let finished = DispatchSemaphore(value: 0)
    /// Signalled by the readline thread once it let go of the terminal, and by ``resume()``.
    private let suspended = DispatchSemaphore(value: 0)
    private let resumed = DispatchSemaphore(value: 0)
    /// The prompt shown last (the readline thread's), to show again after a suspension.
    private let shownPrompt = Locked("")
    private let running = Atomic<Bool>(false)
    /// A line (or the end) was handed over and not answered yet: no prompt, no keys read.
    private let awaiting = Atomic<Bool>(false)
    /// The terminal was resized while no prompt was shown (the readline thread's).
    private let resizedWhileAwaiting = Atomic<Bool>(false)
    private let context = Locked(CompletionContext())
    /// The matches of the completion in progress (the readline thread's).
    let completions = Locked<[String]>([])
    /// Who asks the server what completes a word (see ``setLookUp(_:)``).
    private let lookUp = Locked<(@Sendable (ComposeSuggestions.Request) -> Void)?>(nil)
    /// A Tab that asked the server: the line it was pressed on and what was asked. When the
    /// answer comes and the line is still the same, Tab is pressed again for the user.
    private let pendingLookUp = Locked<(line: String, request: ComposeSuggestions.Request)?>(nil)

    /// A console that keeps its history in `historyFile` (none when `nil`).
    public init(historyFile: String?) {
        self.historyFile = historyFile
        (events, continuation) = AsyncStream.makeStream(of: Event.self)
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) != 0 { fds = [-1, -1] }
        wakeRead = fds[0]
        wakeWrite = fds[1]
    }

    deinit {
        if wakeRead >= 0 { close(wakeRead) }
        if wakeWrite >= 0 { close(wakeWrite) }
    }

    /// Why the history cannot be kept, when the history file cannot be written (one sentence);
    /// known after ``start(prompt:)``.
    public private(set) var historyProblem: String? {
        get { problem.withLock { $0 } }
        set { problem.withLock { $0 = newValue } }
    }
    private let problem = Locked<String?>(nil)

    /// Saves the terminal settings, loads the history and starts the readline thread.
    public func start(prompt: TerminalText) {
        guard !running.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var settings = termios()
        if tcgetattr(STDIN_FILENO, &settings) == 0 { savedTerminal.withLock { $0 = settings } }
        atexit { restoreTerminal() }
        activeConsole.withLock { $0 = self }
        feedline_disable_signals()
        feedline_set_completion(feedlineComplete)
        feedline_set_word_breaks()
        feedline_set_getc(feedlineGetc)
        feedline_bind_interrupt()
        using_history()
        stifle_history(1000)
        if let historyFile {
            read_history(historyFile)
            historyProblem = Self.writeProblem(historyFile)
        }
        signalPipe.store(wakeWrite, ordering: .releasing)
        installSignalHandlers(feedlineSignalHandler)
        let thread = Thread { [self] in loop(prompt: prompt.text) }
        thread.name = "feedline-readline"
        thread.start()
    }

    /// Prints `text` above the prompt (from any thread).
    public func print(_ text: TerminalText) {
        outbox.withLock { $0.texts.append(text.text) }
        wake()
    }

    /// What Tab completes from now on (from any thread). When it answers what a Tab asked the
    /// server (see ``setLookUp(_:)``) and the line is unchanged, the completion runs again.
    public func setCompletionContext(_ context: CompletionContext) {
        self.context.withLock { $0 = context }
        let answered = pendingLookUp.withLock { pending in pending.map { Completion.answered($0.request, in: context) } ?? false }
        if answered { wake() }
    }

    /// Who asks the server, from any thread, what completes a word Tab found nothing (or not
    /// everything) for: an account's handle, a hashtag, a custom emoji (see
    /// ``Completion/lookup(line:word:context:)``). The answer comes back as a new completion
    /// context.
    package func setLookUp(_ handler: @escaping @Sendable (ComposeSuggestions.Request) -> Void) {
        lookUp.withLock { $0 = handler }
    }

    /// A Tab on `line` found that the server should be asked `request` (the readline thread's).
    func requestLookUp(_ request: ComposeSuggestions.Request, line: String) {
        guard let handler = lookUp.withLock({ $0 }) else { return }
        pendingLookUp.withLock { $0 = (line, request) }
        handler(request)
    }

    /// What Tab completes now.
    var completionContext: CompletionContext { context.withLock { $0 } }

    /// Shows `prompt` from now on (from any thread); while a line is being handled, it is the
    /// prompt shown once ``lineHandled(prompt:history:)`` comes, unless that names another.
    public func setPrompt(_ prompt: TerminalText) {
        outbox.withLock { $0.prompt = prompt.text }
        wake()
    }

    /// Answers the last ``Event/line(_:)`` or ``Event/end`` (from any thread): the console shows
    /// `prompt` and reads keys again. `history` is added to the history (and its file) first,
    /// unless it repeats the line added last; `nil` adds nothing — a line of a draft is not a
    /// command, and never reaches the history file.
    public func lineHandled(prompt: TerminalText, history: String?) {
        outbox.withLock { box in
            box.prompt = prompt.text
            box.handled = true
            if let history { box.remembered.append(history.trimmingWhitespace()) }
        }
        wake()
    }

    /// Adds `line` to the history and its file (from any thread) without answering the line:
    /// the last line of a session (`quit`).
    public func remember(_ line: String) {
        outbox.withLock { $0.remembered.append(line.trimmingWhitespace()) }
        wake()
    }

    /// Gives the terminal to another program (an editor): returns once the readline thread has
    /// printed what was queued, removed its prompt and handler and restored the terminal's
    /// settings; it reads nothing until ``resume()``. At once when the console is not running.
    public func suspend() {
        guard running.load(ordering: .acquiring) else { return }
        outbox.withLock { $0.suspend = true }
        wake()
        suspended.wait()
    }

    /// Takes the terminal back after ``suspend()``: the prompt is shown again.
    public func resume() {
        guard running.load(ordering: .acquiring) else { return }
        resumed.signal()
    }

    /// Prints what is still queued, stops the thread, writes the history and restores the terminal.
    public func stop() {
        guard running.load(ordering: .acquiring) else { return }
        outbox.withLock { $0.stop = true }
        wake()
        finished.wait()
        installSignalHandlers(nil)
        signalPipe.store(-1, ordering: .releasing)
        running.store(false, ordering: .releasing)
        activeConsole.withLock { $0 = nil }
        continuation.finish()
    }

    /// Why `path` cannot be written (one sentence), or `nil` when it can: it is opened for
    /// appending (made when missing), never truncated.
    static func writeProblem(_ path: String) -> String? {
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o600)
        if descriptor >= 0 {
            close(descriptor)
            return nil
        }
        let reason = String(cString: strerror(errno)).lowercased()
        return "The history file \(path) cannot be written (\(reason)); this session's commands will not be kept. Choose another with --history FILE."
    }

    // MARK: - Called by readline on the console thread

    func received(_ line: String) {
        // No prompt until the line is handled: readline shows none after a handler that removed itself.
        rl_callback_handler_remove()
        holdKeys()
        awaiting.store(true, ordering: .releasing)
        continuation.yield(.line(line))
    }

    func receivedEnd() {
        rl_callback_handler_remove()
        holdKeys()
        feedline_write_stdout("\n")
        awaiting.store(true, ordering: .releasing)
        continuation.yield(.end)
    }

    /// Keeps the terminal in readline's mode while a line is handled. readline gives the terminal
    /// back its cooked settings before it calls the line handler; in cooked mode the terminal
    /// echoes keys typed ahead a second time and turns a Ctrl-D into a NUL byte once readline
    /// takes over again, so a Ctrl-D pressed while a command finished was lost. Prepared here,
    /// keys wait unechoed, byte for byte, for the next prompt (installing the handler then sees
    /// the terminal prepared and leaves it so).
    private func holdKeys() {
        rl_prep_terminal(1)
        holdingKeys.store(true, ordering: .relaxed)
    }

    /// Gives the terminal its cooked settings back after ``holdKeys()`` (before another program
    /// takes it, or when the console stops while a line is handled).
    private func releaseKeys() {
        guard holdingKeys.exchange(false, ordering: .relaxed) else { return }
        rl_deprep_terminal()
    }

    /// Adds `line` to the history and its file, unless it is empty or repeats the last one.
    private func addToHistory(_ line: String) {
        guard !line.isEmpty else { return }
        let repeated = outbox.withLock { box in
            defer { box.lastHistory = line }
            return box.lastHistory == line
        }
        guard !repeated else { return }
        add_history(line)
        if let historyFile { write_history(historyFile) }
    }

    private let readingEnded = Atomic<Bool>(false)

    /// Whether ``holdKeys()`` prepared the terminal for a line being handled (used on the console thread).
    private let holdingKeys = Atomic<Bool>(false)

    // MARK: - The thread

    private func wake() {
        guard wakeWrite >= 0 else { return }
        var byte: UInt8 = 0
        _ = write(wakeWrite, &byte, 1)
    }

    private func loop(prompt: String) {
        shownPrompt.withLock { $0 = prompt }
        rl_callback_handler_install(prompt, feedlineLineHandler)
        var stopping = false
        while !stopping {
            let reading = !readingEnded.load(ordering: .acquiring) && !awaiting.load(ordering: .acquiring)
            var fds = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            if reading { fds.append(pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)) }
            // Wake-ups that readKey() took in while readline waited are handled without waiting.
            let pending = outbox.withLock { $0.woken || !$0.signals.isEmpty }
            let ready = poll(&fds, nfds_t(fds.count), pending ? 0 : -1)
            if ready < 0 {
                if errno == EINTR { continue }
                break
            }
            if fds[0].revents != 0 { readWakePipe() }
            let (signals, woken) = outbox.withLock { box in
                defer {
                    box.signals.removeAll()
                    box.woken = false
                }
                return (box.signals, box.woken)
            }
            if woken || !signals.isEmpty { stopping = drainOutbox(reading: reading, signals: signals) }
            if !stopping, reading, fds.count > 1, fds[1].revents != 0, !readingEnded.load(ordering: .acquiring),
                !awaiting.load(ordering: .acquiring)
            {
                rl_callback_read_char()
            }
        }
        if !readingEnded.load(ordering: .acquiring), !awaiting.load(ordering: .acquiring) { feedline_finish() } else { releaseKeys() }
        if let historyFile { write_history(historyFile) }
        restoreTerminal()
        finished.signal()
    }

    /// Reads what is in the self-pipe into the outbox: signal numbers, and that output is waiting.
    private func readWakePipe() {
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(wakeRead, &buffer, buffer.count)
        guard count > 0 else { return }
        let bytes = buffer.prefix(count)
        outbox.withLock { box in
            box.signals.formUnion(bytes.filter { $0 != 0 }.map(Int32.init))
            if bytes.contains(0) { box.woken = true }
        }
    }

    /// readline's key reader (on the console thread, inside `rl_callback_read_char`). Waits for a
    /// key or for the self-pipe: a pending SIGINT becomes Ctrl-C's character (bound to clearing
    /// the line); other wake-ups are kept for the loop. Reads only bytes that are there, since a
    /// Ctrl-C flushes typed-ahead input between `poll` and `read`.
    func readKey() -> Int32 {
        while true {
            let interrupted = outbox.withLock { box in box.signals.remove(SIGINT) != nil }
            if interrupted { return 3 }
            if feedline_bytes_waiting(STDIN_FILENO) > 0 {
                var byte: UInt8 = 0
                let count = read(STDIN_FILENO, &byte, 1)
                if count == 1 { return Int32(byte) }
                if count == 0 { return EOF }
                if errno != EINTR, errno != EAGAIN { return EOF }
                continue
            }
            var fds = [
                pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
                pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&fds, 2, -1)
            if ready < 0, errno != EINTR { return EOF }
            if fds[0].revents != 0 { readWakePipe() }
            if fds[1].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0, feedline_bytes_waiting(STDIN_FILENO) == 0 { return EOF }
        }
    }

    /// Drops the Ctrl-Cs that came while another program had the terminal: they were typed to
    /// it (vim leaves insert mode with one), so none is shown here or clears the line.
    private func forgetInterruptsWhileAway() {
        for _ in 0..<64 {  // the pipe holds at most a few bytes; bounded all the same
            var fds = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            guard poll(&fds, 1, 0) > 0, fds[0].revents & Int16(POLLIN) != 0 else { break }
            readWakePipe()
        }
        outbox.withLock { _ = $0.signals.remove(SIGINT) }
    }

    /// A Tab that asked the server, now answered: pressed again when the line is what it was
    /// (typing on dropped it).
    private func completeAgainIfAnswered() {
        let context = completionContext
        let pending = pendingLookUp.withLock { pending -> (line: String, request: ComposeSuggestions.Request)? in
            guard let current = pending, Completion.answered(current.request, in: context) else { return nil }
            pending = nil
            return current
        }
        guard let pending, let buffer = feedline_line_buffer(), String(cString: buffer) == pending.line else { return }
        // A first Tab again (that inserts the match), not the second of a pair (that lists them).
        feedline_forget_last_command()
        rl_stuff_char(9)
        rl_callback_read_char()
    }

    /// Acts on signals, prints queued text above the prompt, applies a new prompt; returns whether
    /// to stop.
    private func drainOutbox(reading: Bool, signals: Set<Int32>) -> Bool {
        let box = outbox.withLock { box in
            defer {
                box.texts.removeAll()
                box.prompt = nil
                box.suspend = false
                box.handled = false
                box.remembered.removeAll()
            }
            return box
        }
        for line in box.remembered { addToHistory(line) }
        if let number = [SIGTERM, SIGHUP].first(where: signals.contains), !readingEnded.load(ordering: .acquiring) {
            // Ends the input like Ctrl-D, so the session winds down and the terminal is restored;
            // the half-typed line goes with the event.
            var pending = ""
            if reading {
                if let buffer = feedline_line_buffer() { pending = String(cString: buffer) }
                rl_callback_handler_remove()
                feedline_write_stdout("\n")
            }
            readingEnded.store(true, ordering: .releasing)
            continuation.yield(.terminated(number, pending: pending))
        }
        if !reading, !readingEnded.load(ordering: .acquiring) {
            if signals.contains(SIGWINCH) { resizedWhileAwaiting.store(true, ordering: .relaxed) }
            if !box.texts.isEmpty { feedline_write_stdout(box.texts.joined()) }
            // Ctrl-C while a line is handled: shown, as at the prompt; the command goes on.
            if signals.contains(SIGINT) { feedline_write_stdout("^C\n") }
            if let prompt = box.prompt { shownPrompt.withLock { $0 = prompt } }
            if box.handled, !box.stop {
                // The line is handled (its history added above): the next prompt, and keys are read again.
                let prompt = shownPrompt.withLock { $0 }
                awaiting.store(false, ordering: .releasing)
                // readline finds the terminal prepared (holdKeys) and from here prepares and restores it.
                holdingKeys.store(false, ordering: .relaxed)
                rl_callback_handler_install(prompt, feedlineLineHandler)
                if resizedWhileAwaiting.exchange(false, ordering: .relaxed) { rl_resize_terminal() }
            }
        } else if reading, !readingEnded.load(ordering: .acquiring) {
            if signals.contains(SIGINT) {
                rl_stuff_char(3)
                rl_callback_read_char()
            }
            if signals.contains(SIGWINCH) { rl_resize_terminal() }
            if !box.texts.isEmpty { feedline_print_above(box.texts.joined()) }
            completeAgainIfAnswered()
            if let prompt = box.prompt {
                feedline_change_prompt(prompt)
                shownPrompt.withLock { $0 = prompt }
            }
        } else if !box.texts.isEmpty {
            feedline_write_stdout(box.texts.joined())
        }
        if box.suspend {
            // The other program gets a clean line and the terminal as it was before readline.
            let reading = reading && !readingEnded.load(ordering: .acquiring) && !awaiting.load(ordering: .acquiring)
            var held = false
            if reading {
                rl_callback_handler_remove()
                feedline_write_stdout("\n")
            } else {
                held = holdingKeys.load(ordering: .relaxed)
                releaseKeys()
            }
            restoreTerminal()
            suspended.signal()
            resumed.wait()
            forgetInterruptsWhileAway()
            if reading {
                rl_callback_handler_install(shownPrompt.withLock { $0 }, feedlineLineHandler)
            } else if held {
                holdKeys()
            }
        }
        return box.stop
    }
}
