import Feedline
import Foundation

/// The interactive session: a live driver on a readline console. Ctrl-C clears the line,
/// Ctrl-D or `quit` ends (Ctrl-D while a draft takes lines keeps the draft and goes back to the
/// screen's prompt, as `.back` does); SIGTERM and SIGHUP end it like Ctrl-D, so the terminal is
/// restored. Each line is handled — a draft's line saved — before the next prompt is shown, and
/// only command lines go into the history file. `account NAME` goes on, on the same console, with
/// the session of the account the front opens (``REPLDriver/Options/openAccount``).
@MainActor
public enum InteractiveRunner {
    /// Runs until `quit`, Ctrl-D or SIGTERM / SIGHUP; returns the exit status (128 + the signal's
    /// number after a signal, else 0). With `options.followsTerminal` the rows follow the
    /// terminal's width as the window is resized.
    public static func run(session: FeedSession, options: REPLDriver.Options, historyFile: String) async -> Int32 {
        var options = options
        options.live = true
        let console = ReadlineConsole(historyFile: historyFile)
        // Tab completes from what the session has received so far, kept up to date as rows
        // arrive (the first page comes after the prompt is shown).
        options.completionChanged = { console.setCompletionContext($0) }
        options.promptChanged = { console.setPrompt($0) }
        if let command = DraftEditor.command() {
            // The draft is saved before the editor starts (the session saves every change).
            options.editor = { text, context, name in
                console.suspend()
                defer { console.resume() }
                return DraftEditor.edit(text: text, context: context, name: name, command: command)
            }
        }
        options.openURL = { address in
            guard let command = Browser.command() else {
                return .failure(Browser.Failure(message: "Neither BROWSER names a program nor is xdg-open installed here, so nothing can open it."))
            }
            return Browser.open(address, with: command).map { command }
        }
        func makeDriver(_ session: FeedSession) -> REPLDriver {
            let driver = REPLDriver(session: session, options: options, terminalWidth: { TerminalInfo.columns }) { console.print($0) }
            // A Tab that the server may answer better asks it; the answer arrives as a new context.
            console.setLookUp { [weak driver] request in
                Task { @MainActor in driver?.lookUp(request) }
            }
            return driver
        }
        var driver = makeDriver(session)
        console.start(prompt: driver.prompt)
        if let problem = console.historyProblem { console.print(TerminalText(lines: [TerminalText(problem)])) }
        driver.start()
        var status: Int32 = 0
        loop: for await event in console.events {
            switch event {
            case .line(let line):
                let remembered = driver.historyEntry(for: line)
                let goOn = driver.handle(line)
                if !goOn {
                    if let remembered { console.remember(remembered) }
                    break loop
                }
                if let next = await driver.switchAsked(write: { console.print($0) }) {
                    // `account NAME`: the same console (its history, its terminal state) goes on
                    // with the session the front opens.
                    options = next.options
                    driver = makeDriver(next.session)
                    driver.start()
                }
                console.lineHandled(prompt: driver.prompt, history: remembered)
            case .end:
                guard driver.endOfInput() else { break loop }
                console.lineHandled(prompt: driver.prompt, history: nil)
            case .terminated(let number, let pending):
                // A line half typed into a draft is kept with it.
                driver.keepHalfTyped(pending)
                status = 128 + number
                break loop
            }
        }
        if status == 0 { await driver.close() }
        driver.finish()
        console.stop()
        return status
    }
}
