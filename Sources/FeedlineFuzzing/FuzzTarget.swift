import Feedline
import FeedlineMastodon
import Foundation

/// The parsers that take untrusted input, each wrapped as a fuzz target: feed it any bytes, it
/// must return (never crash or hang) and keep its target's invariants.
///
/// `feedline-fuzz` runs these under libFuzzer (`Scripts/fuzz`); the test suite replays the
/// checked-in corpus and every input that once failed (`Fixtures/fuzz/TARGET/`).
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// Mastodon HTML → plain text.
    case html
    /// Mastodon JSON: a status, or an array of them, decoded and mapped to posts.
    case statusJSON = "status-json"
    /// A sandbox `scenario.json`.
    case scenario
    /// An HTTP `Link` header (RFC 8288), as the HTTP service pages by it.
    case linkHeader = "link-header"
    /// A line typed at the REPL (``CommandParser``).
    case command
    /// Post text, names and messages drawn as timeline rows and a detail screen (``TextWidth``,
    /// ``RowRenderer``, ``DetailRenderer``).
    case render
    /// A line of the JSON-lines protocol (``JSONLCommand``).
    case jsonlCommand = "jsonl-command"
    /// `config.toml` (``ConfigFile``), through the bundled TOML parser.
    case config

    /// A broken invariant: what the target found wrong with its output.
    public struct Finding: Error, CustomStringConvertible {
        public var description: String
    }

    /// Runs the target on `data`.
    ///
    /// - Throws: ``Finding`` when an invariant does not hold (crashes are findings too, by
    ///   crashing).
    public func run(_ data: Data) throws(Finding) {
        switch self {
        case .html: try Self.html(data)
        case .statusJSON: try Self.statusJSON(data)
        case .scenario: Self.scenario(data)
        case .linkHeader: try Self.linkHeader(data)
        case .command: try Self.command(data)
        case .render: try Self.render(data)
        case .jsonlCommand: try Self.jsonlCommand(data)
        case .config: try Self.config(data)
        }
    }

    private static func html(_ data: Data) throws(Finding) {
        let input = String(decoding: data, as: UTF8.self)
        let text = HTMLText.plainText(from: input)
        // Tags and entities only ever shrink: no output longer than its input.
        if text.unicodeScalars.count > input.unicodeScalars.count + 1 {
            throw Finding(description: "output has \(text.unicodeScalars.count) scalars for \(input.unicodeScalars.count) of input")
        }
        if text.hasPrefix("\n") || text.hasSuffix("\n") {
            throw Finding(description: "output starts or ends with a line break")
        }
        // Converting plain text that has no markup characters leaves it as it is (trimmed).
        if !input.contains(where: { "<>&".contains($0) }), !input.contains(where: \.isNewline),
            text != input.trimmingCharacters(in: .whitespaces) && !input.contains(where: { $0.isWhitespace && $0 != " " })
        {
            throw Finding(description: "plain text changed: \(input.debugDescription) → \(text.debugDescription)")
        }
    }

    private static func statusJSON(_ data: Data) throws(Finding) {
        if let statuses = try? Mastodon.decode([Mastodon.Status].self, from: data) {
            for status in statuses { try check(Post(status), from: status) }
        }
        if let status = try? Mastodon.decode(Mastodon.Status.self, from: data) {
            try check(Post(status), from: status)
        }
    }

    private static func check(_ post: Post, from status: Mastodon.Status) throws(Finding) {
        if post.id.rawValue != status.id { throw Finding(description: "entry id \(post.id) ≠ status id \(status.id)") }
        if post.reblog?.reblog != nil { throw Finding(description: "a reblog of a reblog was not flattened") }
        if post.originalID != (post.reblog?.id ?? post.id) { throw Finding(description: "original id is not reblog?.id ?? id") }
    }

    private static func scenario(_ data: Data) {
        // Any outcome is fine but a crash: a scenario or one clear error.
        _ = try? FixtureLoader.scenario(from: data) { _ in [] }
    }

    private static func linkHeader(_ data: Data) throws(Finding) {
        let header = LinkHeader(parsing: String(decoding: data, as: UTF8.self))
        for link in header.links {
            if link.target.unicodeScalars.contains(">") { throw Finding(description: "a target holds '>': \(link.target.debugDescription)") }
            if link.relations.contains(where: { $0.isEmpty || $0 != $0.lowercased() || $0.unicodeScalars.contains(where: \.properties.isWhitespace) }) {
                throw Finding(description: "relations not lowercased single tokens: \(link.relations)")
            }
        }
        // Law: writing the links back as a header and reading it again gives the same targets and relations.
        let written = header.links.map { link in
            // Escaped per scalar: a backslash followed by a combining mark is one Character.
            var relations = String.UnicodeScalarView()
            for scalar in link.relations.joined(separator: " ").unicodeScalars {
                if scalar == "\\" || scalar == "\"" { relations.append("\\") }
                relations.append(scalar)
            }
            return "<\(link.target)>; rel=\"\(String(relations))\""
        }
        let reread = LinkHeader(parsing: written.joined(separator: ", "))
        let before = header.links.map { [$0.target] + $0.relations }
        let after = reread.links.map { [$0.target] + $0.relations }
        if before != after { throw Finding(description: "round trip changed \(before) into \(after)") }
    }
}
