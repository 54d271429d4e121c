import Feedline

/// The stored accounts a session may switch to with `account NAME`, as the front found them
/// when the session started — or, on a sandbox whose scenario lists other identities, those
/// identities (``sandbox(identities:current:)``): the driver lists them, completes them and
/// resolves a name among them; the front (``REPLDriver/Options/openAccount``) opens the one chosen.
public struct AccountChoices: Sendable, Hashable {
    /// The accounts' names, `user@server` as `feedline accounts` prints them, sorted; a
    /// sandbox's identities, its own first, then as its scenario lists them.
    public var names: [String]
    /// The account the session is signed in as (one of ``names``), or `nil`.
    public var current: String?
    /// Why this session cannot switch (the sandbox, a token given by hand), one sentence; `nil`
    /// when it can.
    public var unavailable: String?
    /// On the sandbox, the name of its own identity (the fixture directory's signed-in
    /// account, first of ``names``); `nil` for stored accounts.
    public var sandboxOwn: String?

    /// Choices as given.
    public init(names: [String] = [], current: String? = nil, unavailable: String? = nil) {
        self.names = names
        self.current = current
        self.unavailable = unavailable
    }

    /// A sandbox's identities: its own first (`you`), then the others its scenario lists, the
    /// session on `current`.
    public static func sandbox(identities: [String], current: String) -> AccountChoices {
        var choices = AccountChoices(names: identities, current: current)
        choices.sandboxOwn = identities.first
        return choices
    }

    /// What the prompt starts with: the account (`kemi@mastodon.social`); on the sandbox, the
    /// identity switched to (`kemi@sandbox`), nothing on its own (the prompt it starts with).
    public var promptName: String? {
        guard let current else { return nil }
        guard let own = sandboxOwn else { return current }
        return current == own ? nil : spoken(current)
    }

    /// `name` as a sentence names it: the account, or the sandbox's identity (`kemi@sandbox`).
    public func spoken(_ name: String) -> String {
        sandboxOwn == nil ? name : name + "@sandbox"
    }

    /// What a session without stored accounts says: the sandbox's sentence.
    public static let sandbox = AccountChoices(unavailable: sandboxSentence)

    /// Said by `account` on the sandbox when no account is signed in.
    public static let sandboxSentence = "The sandbox has one account; sign in with feedline login SERVER to switch between accounts."

    /// The account `name` names: the name itself (any case, a leading `@` allowed), else the
    /// only name it starts (`kemi`, `kemi@mast`); or the sentence saying why none.
    public func resolve(_ name: String) -> Result<String, AccountRefusal> {
        if let unavailable { return .failure(AccountRefusal(unavailable)) }
        var wanted = name.lowercased()
        while wanted.hasPrefix("@") { wanted.removeFirst() }
        if let exact = names.first(where: { $0.lowercased() == wanted }) { return .success(exact) }
        let starting = wanted.isEmpty ? [] : names.filter { $0.lowercased().hasPrefix(wanted) }
        if starting.count == 1, let only = starting.first { return .success(only) }
        if starting.count > 1 {
            return .failure(AccountRefusal("\"\(name)\" could be \(Self.either(starting)): type more of the name."))
        }
        if sandboxOwn != nil {
            return .failure(AccountRefusal("The sandbox has no identity \"\(name)\"; its identities are \(names.joined(separator: ", ")) (account lists them)."))
        }
        return .failure(AccountRefusal("No account \"\(name)\" is signed in; the signed-in accounts are \(names.joined(separator: ", ")) (account lists them)."))
    }

    /// `a or b`, `a, b or c`.
    private static func either(_ names: [String]) -> String {
        names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
    }
}

/// Why `account NAME` does not switch: one sentence.
public struct AccountRefusal: Error, Hashable, Sendable {
    /// The sentence.
    public var sentence: String

    /// A refusal saying `sentence`.
    public init(_ sentence: String) { self.sentence = sentence }
}

/// A session on another account, opened by the front for `account NAME`: the runner goes on
/// with it, on the same terminal (or script), with `options` for its driver.
public struct AccountSwitch: Sendable {
    /// The session switched to.
    public var session: FeedSession
    /// The driver's options for it (its greeting, its state, its accounts).
    public var options: REPLDriver.Options
    /// Lines to say before its greeting (a note about its sign-in's scopes).
    public var notes: [String]
    /// Called once the driver of the session left has said its last (``REPLDriver/leave(for:)``):
    /// the front finishes that session (its state written, its effects stopped) and puts this one
    /// in use. Until then both exist, so an account that cannot be opened changes nothing.
    public var begin: @MainActor @Sendable () async -> Void

    /// A switch as given.
    public init(
        session: FeedSession, options: REPLDriver.Options, notes: [String] = [], begin: @escaping @MainActor @Sendable () async -> Void = {}
    ) {
        self.session = session
        self.options = options
        self.notes = notes
        self.begin = begin
    }
}
