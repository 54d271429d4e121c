import Feedline
import Foundation

/// The interactive session: a live driver on a readline console. Ctrl-C clears the line,
/// Ctrl-D or `quit` ends; SIGTERM and SIGHUP end it like Ctrl-D, so the terminal is restored.
@MainActor
enum InteractiveRunner {
    static func run(session: FeedSession, options: REPLDriver.Options, historyFile: String) async {
        var options = options
        options.live = true
        let console = ReadlineConsole(historyFile: historyFile)
        let driver = REPLDriver(session: session, options: options) { console.print($0) }
        console.start(prompt: driver.prompt)
        driver.start()
        loop: for await event in console.events {
            switch event {
            case .line(let line):
                let goOn = driver.handle(line)
                if !goOn { break loop }
                console.setPrompt(driver.prompt)
            case .end:
                break loop
            }
        }
        driver.finish()
        console.stop()
    }
}
