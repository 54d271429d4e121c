import FeedlineTestSupport
import Foundation
import Testing


/// A scratch home for `feedline login` and the sessions after it: `XDG_CONFIG_HOME` and `HOME`
/// point into a scratch directory, so accounts, the config file and the history land there.
/// Every byte the runs print is kept, so a test can search all of it for secrets at the end.
@MainActor
final class LoginHome {
    /// How one run of the binary ended.
    struct Run: CustomStringConvertible {
        var status: Int32
        var stdout: String
        var stderr: String
        var timedOut: Bool

        var description: String { "status \(status), stdout: \(stdout.debugDescription), stderr: \(stderr.debugDescription)" }
    }

    let scratch: Scratch
    /// stdout and stderr of every run, in order.
    private(set) var outputs: [String] = []

    init() throws {
        scratch = try Scratch()
    }

    deinit {
        scratch.remove()
    }

    /// `$XDG_CONFIG_HOME/feedline`.
    var directory: URL { scratch.url.appendingPathComponent("feedline") }
    var accounts: URL { directory.appendingPathComponent("accounts") }
    var configFile: URL { directory.appendingPathComponent("config.toml") }
    /// The default history file (`$HOME/.feedline_history`).
    var history: URL { scratch.url.appendingPathComponent(".feedline_history") }

    var environment: [String: String] { ["XDG_CONFIG_HOME": scratch.url.path, "HOME": scratch.url.path] }

    /// The names of the files in `accounts/` (temporaries included, which must never stay).
    func accountFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: accounts.path)) ?? []).sorted()
    }

    /// Runs `feedline arguments…` to its end with `stdin` as its input.
    func run(_ arguments: [String], stdin: String = "", environment extra: [String: String] = [:]) async throws -> Run {
        let child = try FeedlineProcess(arguments, environment: environment.merging(extra) { _, new in new }, unset: ["FEEDLINE_TOKEN"])
        child.send(bytes: Data(stdin.utf8))
        child.closeInput()
        return record(await child.finish(), child)
    }

    /// Runs `feedline login target` as a person would: reads its output up to the authorization
    /// address, opens that address as the browser would (the fake's page shows the code for the
    /// user signed in there), then types what `typing` makes of the code. `beforeTyping` runs
    /// after the code is shown and before it is typed (a test moves the fake's clock there).
    func login(
        _ target: String, typing: (String) -> String = { $0 }, beforeTyping: () -> Void = {}
    ) async throws -> Run {
        let child = try FeedlineProcess(["login", target], environment: environment, unset: ["FEEDLINE_TOKEN"])
        var address: URL?
        while let line = await child.nextLine() {
            let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("http://") || text.hasPrefix("https://") {
                address = URL(string: text)
                break
            }
        }
        if let address {
            let page = try await Browser.page(address)
            let code = try #require(Self.code(in: page), "the authorization page shows a code: \(page)")
            beforeTyping()
            child.send(typing(code))
        }
        child.closeInput()
        return record(await child.finish(), child)
    }

    /// The code on an authorization page (`<input class="oauth-code" … value="CODE">`).
    static func code(in page: String) -> String? {
        guard let marker = page.range(of: "class=\"oauth-code\"") else { return nil }
        let rest = page[marker.upperBound...]
        guard let start = rest.range(of: "value=\"") else { return nil }
        let value = rest[start.upperBound...]
        return value.firstIndex(of: "\"").map { String(value[..<$0]) }
    }

    private func record(_ exit: FeedlineProcess.Exit, _ child: FeedlineProcess) -> Run {
        let run = Run(status: exit.status, stdout: String(decoding: child.stdout, as: UTF8.self), stderr: exit.stderr, timedOut: exit.timedOut)
        outputs += [run.stdout, run.stderr]
        return run
    }

    /// Every file under the scratch home that is not a credential file: the config file, history files, transcripts…
    func nonCredentialTexts() -> [(path: String, text: String)] {
        var found: [(String, String)] = []
        guard let walker = FileManager.default.enumerator(atPath: scratch.url.path) else { return [] }
        for case let relative as String in walker where !relative.hasPrefix("feedline/accounts") && !relative.hasPrefix("feedline/apps") {
            let url = scratch.url.appendingPathComponent(relative)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                let data = FileManager.default.contents(atPath: url.path)
            else { continue }
            found.append((relative, String(decoding: data, as: UTF8.self)))
        }
        return found
    }

    /// Fails when any of `secrets` appears in any output so far or any file but the credential files.
    func expectNowhere(_ secrets: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!secrets.isEmpty, sourceLocation: sourceLocation)
        for secret in secrets where !secret.isEmpty {
            for (index, output) in outputs.enumerated() {
                #expect(!output.contains(secret), "a secret shows in output \(index): \(output.replacingOccurrences(of: secret, with: "<SECRET>"))", sourceLocation: sourceLocation)
            }
            for (path, text) in nonCredentialTexts() {
                #expect(!text.contains(secret), "a secret shows in \(path)", sourceLocation: sourceLocation)
            }
        }
    }
}
