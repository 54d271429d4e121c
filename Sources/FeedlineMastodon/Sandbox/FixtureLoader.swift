@_spi(FeedService) import Feedline
import Foundation

/// The contents of a fixture directory: the statuses of the home timeline, the statuses the
/// server knows elsewhere, the user's notifications, the scenario, and the accounts' details.
public struct SandboxFixture: Hashable, Sendable {
    /// The timeline's statuses in file order (files by name, then as each file lists them);
    /// the sandbox orders them itself.
    public var statuses: [Mastodon.Status]
    /// Statuses the server knows that the home timeline does not show (other accounts' posts,
    /// older posts, the user's own): the files the scenario lists under `elsewhere`.
    public var elsewhere: [Mastodon.Status]
    /// The user's notifications: the file the scenario names as `notifications`.
    public var notifications: [Mastodon.Notification]
    /// The directory's `scenario.json`, or the default scenario when it has none.
    public var scenario: SandboxScenario
    /// Profiles and relationships beyond what the statuses say: the file the scenario names
    /// as `accounts`.
    public var accounts: [SandboxAccountDetails]
    /// The notifications file, when it was loaded with `deferringNotifications` (then
    /// ``notifications`` is empty): a sandbox made from the fixture decodes it on first use.
    public var deferredNotifications: DeferredNotifications?

    /// A fixture of these statuses, notifications, scenario and account details.
    public init(
        statuses: [Mastodon.Status], elsewhere: [Mastodon.Status] = [], notifications: [Mastodon.Notification] = [],
        scenario: SandboxScenario = SandboxScenario(), accounts: [SandboxAccountDetails] = [],
        deferredNotifications: DeferredNotifications? = nil
    ) {
        self.deferredNotifications = deferredNotifications
        self.statuses = statuses
        self.elsewhere = elsewhere
        self.notifications = notifications
        self.scenario = scenario
        self.accounts = accounts
    }
}

/// Why a fixture directory could not be loaded; each reads as one sentence naming the file.
///
/// Files are named by their path inside the fixture directory's parent (`timeline/home.json`),
/// so messages read the same on every machine.
public enum FixtureError: Error, LocalizedError, Hashable, Sendable {
    /// No directory at this path (as given).
    case missingDirectory(String)
    /// The path (as given) names a file, not a directory.
    case notADirectory(String)
    /// The file (or the directory listing) could not be read.
    case unreadableFile(String)
    /// The directory (its path as given) has no status files, or only empty ones.
    case noStatuses(String)
    /// The file is not JSON at all.
    case invalidJSON(String)
    /// The file is JSON but not a status or an array of them; the failure names the coding path.
    case wrongShape(String, Mastodon.DecodingFailure)
    /// The scenario file has an unknown key, a wrong type, an impossible value or a missing arrival file.
    case badScenario(String, String)
    /// A status id appears a second time, in the first file named, after the second.
    case duplicateStatus(String, id: String, firstSeenIn: String)
    /// The notifications file is JSON but not an array of notifications.
    case wrongNotifications(String, Mastodon.DecodingFailure)
    /// The accounts file is JSON but not an array of account details (see ``SandboxAccountDetails``).
    case wrongAccounts(String, Mastodon.DecodingFailure)

    /// One sentence naming the file (or directory) and the problem.
    public var errorDescription: String? {
        switch self {
        case .missingDirectory(let path):
            "The fixture directory \(path) does not exist."
        case .notADirectory(let path):
            "The fixture path \(path) is a file, not a directory."
        case .unreadableFile(let file):
            "The fixture file \(file) could not be read."
        case .noStatuses(let directory):
            "The fixture directory \(directory) holds no statuses."
        case .invalidJSON(let file):
            "The fixture file \(file) is not valid JSON."
        case .wrongShape(let file, let failure):
            "The fixture file \(file) is not a Mastodon status or an array of them (\(failure))."
        case .badScenario(let file, let problem):
            "The scenario file \(file) is invalid (\(problem))."
        case .duplicateStatus(let file, let id, let first):
            "The fixture file \(file) repeats status \(id), already in \(first)."
        case .wrongNotifications(let file, let failure):
            "The fixture file \(file) is not an array of Mastodon notifications (\(failure))."
        case .wrongAccounts(let file, let failure):
            "The fixture file \(file) is not an array of sandbox account details (\(failure))."
        }
    }
}

/// Reads fixture directories: every `*.json` file directly inside is one Mastodon status or an
/// array of them (as the API returns) on the home timeline, except `scenario.json` (see
/// ``SandboxScenario``) and the files the scenario names: arrivals (held back), `elsewhere`
/// (statuses off the home timeline), `notifications` (an array of notifications) and
/// `accounts` (``SandboxAccountDetails``; a path inside the directory, which may be in a
/// subdirectory). Hidden files and other subdirectories are ignored.
public enum FixtureLoader {
    /// The name of the scenario file in a fixture directory.
    public static let scenarioFileName = "scenario.json"

    /// Loads the fixture directory at `directory`.
    ///
    /// With `deferringNotifications`, the notifications file is read at once only for the
    /// accounts it names (a file those cannot be read from fails here, as before), and kept in
    /// ``SandboxFixture/deferredNotifications`` for the sandbox to decode when notifications are
    /// first asked for; a problem past the accounts is reported then, in the same words.
    ///
    /// - Throws: ``FixtureError`` when the directory is missing (or a file), holds no statuses, or a file is
    ///   unreadable, not JSON, not statuses (with the coding path of the problem), repeats a
    ///   status id, or is a bad scenario (unknown keys, wrong types, impossible values, missing
    ///   arrival files).
    public static func load(from directory: URL, deferringNotifications: Bool = false) throws(FixtureError) -> SandboxFixture {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) else {
            throw .missingDirectory(directory.path)
        }
        guard isDirectory.boolValue else { throw .notADirectory(directory.path) }
        let folder = directory.standardizedFileURL.lastPathComponent
        func display(_ name: String) -> String { "\(folder)/\(name)" }

        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
                .filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }
                .filter { name in
                    var isFolder: ObjCBool = false
                    return FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path, isDirectory: &isFolder)
                        && !isFolder.boolValue
                }
                .sorted()
        } catch {
            throw .unreadableFile(folder)
        }

        var scenarioData: Data?
        if names.contains(scenarioFileName) {
            guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(scenarioFileName).path) else {
                throw .unreadableFile(display(scenarioFileName))
            }
            scenarioData = data
        }
        let scenarioFile = try scenarioData.map { data throws(FixtureError) in try decodeScenarioFile(data, file: display(scenarioFileName)) }
        let notificationsName = scenarioFile?.notifications
        let accountsName = scenarioFile?.accounts

        // Every other file is decoded at once, on every core (decoding is most of a start on the
        // sandbox); what each one holds is checked below in the order the files are named.
        let decoded = decodeAll(
            names.filter { $0 != scenarioFileName && $0 != accountsName }, notifications: notificationsName,
            deferringNotifications: deferringNotifications, in: directory, display: display
        )

        var seen: [String: String] = [:]
        func statuses(in name: String) throws(FixtureError) -> [Mastodon.Status] {
            guard case .statuses(let statuses) = try decoded[name, default: .failed(.unreadableFile(display(name)))].get() else {
                throw .unreadableFile(display(name))
            }
            for status in statuses {
                if let first = seen[status.id] { throw .duplicateStatus(display(name), id: status.id, firstSeenIn: first) }
                seen[status.id] = display(name)
            }
            return statuses
        }

        let arrivalNames = Set((scenarioFile?.arrivals.map(\.file) ?? []) + (scenarioFile?.stream.compactMap(\.file) ?? []))
        let elsewhereNames = scenarioFile?.elsewhere ?? []
        let named = arrivalNames.union(elsewhereNames).union(notificationsName.map { [$0] } ?? []).union(accountsName.map { [$0] } ?? [])
        var timeline: [Mastodon.Status] = []
        for name in names where name != scenarioFileName && !named.contains(name) {
            timeline += try statuses(in: name)
        }
        guard !timeline.isEmpty else { throw .noStatuses(directory.relativePath) }
        var elsewhere: [Mastodon.Status] = []
        for name in elsewhereNames {
            guard names.contains(name) else { throw .badScenario(display(scenarioFileName), "elsewhere: no file \(name) in \(folder)") }
            elsewhere += try statuses(in: name)
        }
        var notifications: [Mastodon.Notification] = []
        var deferred: DeferredNotifications?
        if let name = notificationsName {
            guard names.contains(name) else {
                throw .badScenario(display(scenarioFileName), "notifications: no file \(name) in \(folder)")
            }
            switch try decoded[name, default: .failed(.unreadableFile(display(name)))].get() {
            case .notifications(let decodedNotifications): notifications = decodedNotifications
            case .deferredNotifications(let file): deferred = file
            case .statuses: throw .unreadableFile(display(name))
            }
        }

        var scenario = SandboxScenario()
        if let scenarioFile {
            scenario = try makeScenario(scenarioFile, file: display(scenarioFileName)) { name throws(FixtureError) in
                guard names.contains(name) else {
                    let section = scenarioFile.arrivals.contains { $0.file == name } ? "arrivals" : "stream"
                    throw FixtureError.badScenario(display(scenarioFileName), "\(section): no file \(name) in \(folder)")
                }
                return try statuses(in: name)
            }
        }
        var accounts: [SandboxAccountDetails] = []
        if let name = accountsName {
            let url = directory.appendingPathComponent(name)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue else {
                throw .badScenario(display(scenarioFileName), "accounts: no file \(name) in \(folder)")
            }
            guard let data = FileManager.default.contents(atPath: url.path) else { throw .unreadableFile(display(name)) }
            do {
                accounts = try Mastodon.decode([SandboxAccountDetails].self, from: data)
            } catch {
                throw error.isNotJSON ? .invalidJSON(display(name)) : .wrongAccounts(display(name), error)
            }
        }
        return SandboxFixture(
            statuses: timeline, elsewhere: elsewhere, notifications: notifications, scenario: scenario, accounts: accounts,
            deferredNotifications: deferred
        )
    }

    /// What a fixture file holds once decoded.
    private enum Decoded: Sendable {
        case statuses([Mastodon.Status])
        case notifications([Mastodon.Notification])
        case deferredNotifications(DeferredNotifications)
    }

    /// A file's contents or why they could not be read. Not a `Result`: its metadata checks
    /// `FixtureError: Error` by a scan of every conformance record at start (Docs/BENCHMARKS.md,
    /// "Start-up, issue 33's sixth round").
    private enum Reading: Sendable {
        case read(Decoded)
        case failed(FixtureError)

        /// Reads with `body`, catching what it throws.
        init(_ body: () throws(FixtureError) -> Decoded) {
            do { self = .read(try body()) } catch { self = .failed(error) }
        }

        /// The contents, or the error.
        func get() throws(FixtureError) -> Decoded {
            switch self {
            case .read(let decoded): decoded
            case .failed(let error): throw error
            }
        }
    }

    /// `names` in `directory` read and decoded concurrently (`notifications` names the file of
    /// notifications, read only for its accounts when `deferringNotifications`; the rest hold
    /// statuses), each to its contents or the error it gives.
    ///
    /// The files are read first and decoded largest first: in name order the largest (the
    /// notifications) came last and was decoded alone while the other cores were idle.
    private static func decodeAll(
        _ names: [String], notifications: String?, deferringNotifications: Bool, in directory: URL, display: (String) -> String
    ) -> [String: Reading] {
        let jobs = names.map { name in
            (name: name, data: FileManager.default.contents(atPath: directory.appendingPathComponent(name).path), shown: display(name))
        }
        let order = jobs.indices.sorted { (jobs[$0].data?.count ?? 0) > (jobs[$1].data?.count ?? 0) }
        let results = Locked<[String: Reading]>([:])
        DispatchQueue.concurrentPerform(iterations: order.count) { index in
            let job = jobs[order[index]]
            let result: Reading
            if let data = job.data {
                result =
                    job.name != notifications
                    ? Reading { () throws(FixtureError) in .statuses(try decodeStatuses(data, file: job.shown)) }
                    : deferringNotifications
                        ? Reading { () throws(FixtureError) in .deferredNotifications(try DeferredNotifications(data: data, file: job.shown)) }
                        : Reading { () throws(FixtureError) in .notifications(try DeferredNotifications.notifications(in: data, file: job.shown)) }
            } else {
                result = .failed(.unreadableFile(job.shown))
            }
            results.withLock { $0[job.name] = result }
        }
        return results.withLock { $0 }
    }

    /// Parses the contents of a scenario file named `file` (for messages); `arrivals` loads the
    /// statuses of each file the scenario names as arrivals.
    ///
    /// - Throws: ``FixtureError/invalidJSON(_:)`` or ``FixtureError/badScenario(_:_:)`` naming the
    ///   problem; whatever `arrivals` throws.
    public static func scenario(
        from data: Data,
        file: String = scenarioFileName,
        arrivals: (String) throws(FixtureError) -> [Mastodon.Status]
    ) throws(FixtureError) -> SandboxScenario {
        try makeScenario(try decodeScenarioFile(data, file: file), file: file, arrivals: arrivals)
    }

    private static func decodeScenarioFile(_ data: Data, file: String) throws(FixtureError) -> ScenarioFile {
        do {
            return try Mastodon.decode(ScenarioFile.self, from: data)
        } catch {
            throw error.isNotJSON ? .invalidJSON(file) : .badScenario(file, error.description)
        }
    }

    private static func makeScenario(
        _ scenarioFile: ScenarioFile,
        file: String,
        arrivals: (String) throws(FixtureError) -> [Mastodon.Status]
    ) throws(FixtureError) -> SandboxScenario {
        let scenario: SandboxScenario
        do {
            scenario = try scenarioFile.scenario { name in try arrivals(name) }
        } catch let error as FixtureError {
            throw error
        } catch {
            throw .badScenario(file, String(describing: error))
        }
        if let problem = scenario.problem { throw .badScenario(file, problem) }
        return scenario
    }

    /// One status or an array of them, from the data of `file`.
    ///
    /// Read through a parsed tree first (``Mastodon/decodeQuickly(_:from:)``: the statuses were a
    /// fifth of a start on the sandbox with `JSONDecoder`); a file that does not read that way is
    /// decoded again with `JSONDecoder`, which names the problem.
    static func decodeStatuses(_ data: Data, file: String) throws(FixtureError) -> [Mastodon.Status] {
        let first = data.first { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }
        do {
            switch first {
            case UInt8(ascii: "["):
                if let statuses = Mastodon.decodeQuickly([Mastodon.Status].self, from: data) { return statuses }
                return try Mastodon.decode([Mastodon.Status].self, from: data)
            case UInt8(ascii: "{"):
                if let status = Mastodon.decodeQuickly(Mastodon.Status.self, from: data) { return [status] }
                return [try Mastodon.decode(Mastodon.Status.self, from: data)]
            default:
                guard (try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)) != nil else {
                    throw FixtureError.invalidJSON(file)
                }
                throw FixtureError.wrongShape(file, Mastodon.DecodingFailure(path: "", problem: "expected an object or an array"))
            }
        } catch let error as FixtureError {
            throw error
        } catch let failure as Mastodon.DecodingFailure {
            throw failure.isNotJSON ? .invalidJSON(file) : .wrongShape(file, failure)
        } catch {
            throw .unreadableFile(file)
        }
    }
}
