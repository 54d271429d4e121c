import Feedline
import FeedlineREPL
import Testing

/// `account` and `account NAME` in the REPL, with the front's part played by the test: a list
/// of stored accounts, and an opener that hands the runner another sandbox session.
@MainActor
@Suite("account: switching accounts in the REPL", .timeLimit(.minutes(10)))
struct AccountSwitchREPLTests {
    static let names = ["ana@one.example", "ana@two.example", "kemi@one.example"]

    /// Options for a session signed in as `current`, whose opener records the account asked
    /// for and opens a session on the faults fixtures signed in as it.
    static func options(current: String, asked: Box) -> REPLDriver.Options {
        var options = REPLDriver.Options(width: 200)
        options.accounts = AccountChoices(names: names, current: current)
        options.openAccount = { account, given in
            asked.accounts.append(account)
            var next = given
            next.accounts.current = account
            next.sourceSummary = "the home timeline of \(account)"
            do {
                return .success(AccountSwitch(session: try SessionFactory.session("faults"), options: next))
            } catch {
                return .failure(AccountRefusal("\(error)"))
            }
        }
        return options
    }

    @MainActor
    final class Box {
        var accounts: [String] = []
    }

    /// The transcript of `script` on the faults fixtures signed in as `current`, and the
    /// accounts the opener was asked for.
    static func run(_ script: String, current: String) async throws -> (transcript: String, asked: [String]) {
        let asked = Box()
        let transcript = await ScriptRunner.transcript(of: script, session: try SessionFactory.session("faults"), options: options(current: current, asked: asked))
        return (transcript, asked.accounts)
    }

    @Test("account lists the accounts, the current one marked; the prompt names the account")
    func lists() async throws {
        let (transcript, asked) = try await Self.run("account\nquit\n", current: "kemi@one.example")
        #expect(transcript.contains("kemi@one.example home> account\n  ana@one.example\n  ana@two.example\n* kemi@one.example\n* you."), "\(transcript)")
        #expect(asked.isEmpty)
    }

    @Test("account NAME switches: the old session's output ends, the new one greets, the prompt names it")
    func switches() async throws {
        let (transcript, asked) = try await Self.run("account @KEMI\naccount ana@two\nwhere\nquit\n", current: "ana@one.example")
        #expect(asked == ["kemi@one.example", "ana@two.example"])
        #expect(transcript.contains("ana@one.example home> account @KEMI\nFeedline: the home timeline of kemi@one.example."), "\(transcript)")
        #expect(transcript.contains("kemi@one.example home> account ana@two\n"), "\(transcript)")
        #expect(transcript.contains("ana@two.example home> where\nhome\n"), "\(transcript)")
    }

    @Test("an unknown name, an ambiguous start, the current account and the sandbox each say one sentence and stay", arguments: [
        ("account carol", "No account \"carol\" is signed in; the signed-in accounts are ana@one.example, ana@two.example, kemi@one.example (account lists them)."),
        ("account ana", "\"ana\" could be ana@one.example or ana@two.example: type more of the name."),
        ("account ana@one.example", "You are ana@one.example already."),
    ])
    func refusals(line: String, sentence: String) async throws {
        let (transcript, asked) = try await Self.run("\(line)\nwhere\n", current: "ana@one.example")
        #expect(transcript.contains("ana@one.example home> \(line)\n\(sentence)\nana@one.example home> where\n"), "\(transcript)")
        #expect(asked.isEmpty)
    }

    @Test("the sandbox has no stored accounts: account says so, and the prompt is unchanged")
    func sandbox() async throws {
        let transcript = await ScriptRunner.transcript(of: "account\naccount kemi\n", session: try SessionFactory.session("faults"), options: .init(width: 100))
        #expect(transcript.contains("home> account\n\(AccountChoices.sandboxSentence)\nhome> account kemi\n\(AccountChoices.sandboxSentence)\n"), "\(transcript)")
    }

    @Test("Tab after account completes the stored accounts' names, with @ when it was typed; none on the sandbox")
    func completion() {
        var context = CompletionContext(commands: ["account"])
        context.accounts = Self.names
        #expect(Completion.matches(line: "account ", word: "", context: context) == Self.names)
        #expect(Completion.matches(line: "account k", word: "k", context: context) == ["kemi@one.example"])
        #expect(Completion.matches(line: "account @AN", word: "@AN", context: context) == ["@ana@one.example", "@ana@two.example"])
        #expect(Completion.matches(line: "account kemi@one.example ", word: "", context: context).isEmpty)
        #expect(Completion.matches(line: "acc", word: "acc", context: context) == ["account"])
    }

    @Test("a driver hands Tab the names it may switch to, and help account explains it")
    func driverContextAndHelp() throws {
        let output = OutputBuffer()
        let driver = REPLDriver(session: try SessionFactory.session("faults"), options: Self.options(current: "ana@one.example", asked: Box()), write: output.write)
        #expect(driver.completionContext.accounts == Self.names)
        #expect(driver.completionContext.commands.contains("account"))
        driver.handle("help account")
        #expect(output.take().hasPrefix("account [NAME]"))
        let sandbox = REPLDriver(session: try SessionFactory.session("faults"), write: output.write)
        #expect(sandbox.completionContext.accounts.isEmpty)
    }
}
