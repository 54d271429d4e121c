import Feedline
import Foundation

/// The interactive session: a live driver on a readline console. Ctrl-C clears the line,
/// Ctrl-D or `quit` ends; SIGTERM and SIGHUP restore the terminal before exiting.
@MainActor
enum InteractiveRunner {
    static func run(session: FeedSession, options: REPLDriver.Options, historyFile: String) async {
        var options = options
        options.live = true
        let console = ReadlineConsole(historyFile: historyFile)
        let signals = SignalWatch(console: console)
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
        signals.cancel()
    }
}

/// Routes SIGINT (clear the line), SIGWINCH (resize) and SIGTERM / SIGHUP (restore the terminal
/// and exit) while the console runs.
@MainActor
final class SignalWatch {
    private let sources: [any DispatchSourceSignal]

    init(console: ReadlineConsole) {
        var sources: [any DispatchSourceSignal] = []
        for number in [SIGINT, SIGWINCH, SIGTERM, SIGHUP] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                switch number {
                case SIGINT: console.interrupt()
                case SIGWINCH: console.resized()
                default:
                    restoreTerminal()
                    exit(128 + number)
                }
            }
            source.resume()
            sources.append(source)
        }
        self.sources = sources
    }

    func cancel() {
        for source in sources { source.cancel() }
        for number in [SIGINT, SIGWINCH, SIGTERM, SIGHUP] { signal(number, SIG_DFL) }
    }
}
